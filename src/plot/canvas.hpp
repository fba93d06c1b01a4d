#pragma once
/// @file canvas.hpp
/// An 8-bit RGB raster for plots and heat maps, with anti-aliased drawing.
/// Coordinates are pixels: x to the right, y downwards; pixel (x, y) covers
/// [x, x+1) x [y, y+1), so its centre is (x + 0.5, y + 0.5). Drawing outside
/// the canvas or the clip rectangle is silently cut off.

#include <cstdint>
#include <utility>
#include <vector>

namespace ccrowd::plot {

/// An 8-bit sRGB colour.
struct Rgb {
    std::uint8_t r = 0, g = 0, b = 0;
    bool operator==(const Rgb& o) const { return r == o.r && g == o.g && b == o.b; }
    bool operator!=(const Rgb& o) const { return !(*this == o); }
};

/// A point in pixel coordinates. [Units: px]
using PointF = std::pair<float, float>;

/// RGB raster. Rows are stored top to bottom, 3 bytes per pixel (the layout
/// PNG writers expect).
class Canvas {
public:
    /// Largest accepted width or height. [Units: px]
    static constexpr int kMaxSide = 16384;

    /// @param width,height Size. [Units: px] [Limit: 1..kMaxSide] (InputError otherwise)
    /// @param background   Initial colour of every pixel.
    Canvas(int width, int height, Rgb background = {255, 255, 255});

    int width() const { return w_; }
    int height() const { return h_; }
    /// Pixel bytes, RGB, row-major from the top row. [Size: 3*width*height]
    const std::uint8_t* data() const { return px_.data(); }

    /// Colour at (x, y). [Limit: inside the canvas, else black is returned]
    Rgb get(int x, int y) const;
    /// Sets (x, y) to @p c when it is inside the clip rectangle.
    void set(int x, int y, Rgb c);
    /// Mixes @p c into (x, y) with opacity @p alpha. [Limit: alpha in 0..1, clamped]
    void blend(int x, int y, Rgb c, float alpha);
    /// Sets every pixel (ignores the clip rectangle).
    void fill(Rgb c);

    /// Restricts drawing to [x0, x1) x [y0, y1) (intersected with the canvas). [Units: px]
    void setClip(int x0, int y0, int x1, int y1);
    /// Drawing reaches the whole canvas again.
    void resetClip();

    /// Fills the pixels [x0, x1) x [y0, y1). [Units: px]
    void fillRect(int x0, int y0, int x1, int y1, Rgb c);
    /// Fills the real rectangle [x0, x1) x [y0, y1); edge pixels get their
    /// covered fraction of @p c (anti-aliased, sub-pixel positions). [Units: px]
    void fillRectAA(float x0, float y0, float x1, float y1, Rgb c, float alpha = 1.f);
    /// Outline of the pixel rectangle [x0, x1) x [y0, y1), @p thickness px inside it.
    void strokeRect(int x0, int y0, int x1, int y1, Rgb c, int thickness = 1);

    /// Anti-aliased segment with round caps. [Units: px] [Limit: width > 0]
    void line(float x0, float y0, float x1, float y1, Rgb c, float width = 2.f);
    /// Connected anti-aliased segments through @p pts.
    void polyline(const std::vector<PointF>& pts, Rgb c, float width = 2.f);
    /// Anti-aliased filled disc. [Units: px] [Limit: radius > 0]
    void fillCircle(float cx, float cy, float radius, Rgb c);
    /// Anti-aliased circle outline centred on radius. [Units: px]
    void strokeCircle(float cx, float cy, float radius, Rgb c, float width = 2.f);
    /// Filled polygon (even-odd rule), anti-aliased by 4x4 supersampling.
    /// [Limit: >= 3 vertices; meant for small shapes such as markers]
    void fillPolygon(const std::vector<PointF>& pts, Rgb c);

private:
    /// Shared by the distance-based shapes: @p coverage(px, py) in 0..1 for
    /// pixel centres in the box [x0, x1] x [y0, y1].
    template <class Coverage>
    void paint(float x0, float y0, float x1, float y1, Rgb c, Coverage coverage);

    int w_, h_;
    int cx0_ = 0, cy0_ = 0, cx1_ = 0, cy1_ = 0;  // clip rectangle, half-open
    std::vector<std::uint8_t> px_;
};

}  // namespace ccrowd::plot
