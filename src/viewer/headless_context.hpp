#pragma once
/// @file headless_context.hpp
/// The OpenGL 3.3 core context of `ccrowd render` (frames and benchmark):
/// EGL without a surface (GPU servers, no X server) or a hidden GLFW/GLX
/// window, chosen by --gl; GL entry points loaded. Drawing goes to an
/// offscreen framebuffer either way.

#include <memory>
#include <string>

#include "ccrowd/config.hpp"
#include "viewer/options.hpp"

namespace ccrowd::viewer {

class GlWindow;
class EglContext;

/// The API --gl @p asked means when $DISPLAY is @p display (nullptr: unset):
/// Auto is Egl without a display (unset or empty), else Glx. Egl and Glx stay.
GlApi resolveGlApi(GlApi asked, const char* display);

/// Owns the context (current on the calling thread while it lives).
class HeadlessContext {
public:
    /// @param asked        --gl.
    /// @param width,height Size of the hidden GLX window. [Units: px] [Limit: 16..8192]
    /// @param quiet        No note on stderr when --gl auto falls back from GLX to EGL.
    /// Throws ViewerError naming what failed: the EGL platforms tried, the
    /// display GLX could not open, or (builds without EGL) the package to install.
    HeadlessContext(GlApi asked, int width, int height, bool quiet);
    ~HeadlessContext();
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;

    /// What made the context, e.g. "EGL 1.5, device platform, device 0 (NVIDIA)" or "GLX (hidden GLFW window, DISPLAY=':99')".
    const std::string& description() const { return description_; }

private:
    std::unique_ptr<GlWindow> window_;
#if CCROWD_HAVE_EGL
    std::unique_ptr<EglContext> egl_;
#endif
    std::string description_;
};

}  // namespace ccrowd::viewer
