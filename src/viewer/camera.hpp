#pragma once
/// @file camera.hpp
/// The 2-D view: which world rectangle fills the framebuffer. Pixel
/// coordinates have x to the right and y downwards from the top-left corner
/// (as in PNG files); world y points up. No GL here.

namespace ccrowd::viewer {

/// World-to-screen mapping by a centre and a scale.
struct Camera {
    float cx = 0.f, cy = 0.f;  ///< World point at the framebuffer centre. [Units: m]
    float ppm = 10.f;          ///< Scale. [Units: px/m] [Limit: > 0]
    int width = 1, height = 1; ///< Framebuffer size. [Units: px] [Limit: >= 1]

    /// Fits the world rectangle [x0, x0 + w] x [y0, y0 + h] into the
    /// framebuffer, as large as possible, centred (no margin): a domain of the
    /// framebuffer's aspect ratio fills it exactly.
    void fit(float x0, float y0, float w, float h, int fbWidth, int fbHeight);
    /// Pixel coordinates of a world point (fractional; pixel (i, j) covers [i, i+1) x [j, j+1)).
    void worldToPixel(float x, float y, float& px, float& py) const;
    /// World point under pixel coordinates (@p px, @p py).
    void pixelToWorld(float px, float py, float& x, float& y) const;
    /// Moves the view by a drag of (@p dx, @p dy) pixels (the world follows the cursor).
    void pan(float dx, float dy);
    /// Multiplies the scale by @p factor keeping the world point under pixel (@p px, @p py) fixed.
    /// [Limit: factor > 0; the scale stays within 1e-3..1e6 px/m]
    void zoomAbout(float px, float py, float factor);
    /// Affine map world -> normalised device coordinates: ndc = world * (sx, sy) + (tx, ty).
    void ndcTransform(float out[4]) const;
};

}  // namespace ccrowd::viewer
