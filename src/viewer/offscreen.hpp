#pragma once
/// @file offscreen.hpp
/// An offscreen framebuffer (RGBA8 colour renderbuffer) and its read-back
/// into a plot::Canvas for PNG files.

#include "plot/canvas.hpp"

namespace ccrowd::viewer {

/// Reads @p width x @p height pixels of the bound read framebuffer into a
/// canvas (rows flipped: the canvas' row 0 is the top).
plot::Canvas readFramebuffer(int width, int height);

class Offscreen {
public:
    /// @param width,height [Units: px] [Limit: 1..GL_MAX_RENDERBUFFER_SIZE]
    /// Throws ViewerError when the framebuffer is incomplete.
    Offscreen(int width, int height);
    ~Offscreen();
    Offscreen(const Offscreen&) = delete;
    Offscreen& operator=(const Offscreen&) = delete;

    /// Makes it the draw target, with its viewport.
    void bind() const;
    /// Reads the pixels back (rows flipped: the canvas' row 0 is the top).
    plot::Canvas read() const;
    int width() const { return w_; }
    int height() const { return h_; }

private:
    unsigned fbo_ = 0, colour_ = 0;
    int w_ = 0, h_ = 0;
};

}  // namespace ccrowd::viewer
