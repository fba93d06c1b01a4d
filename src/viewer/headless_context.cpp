/// @file headless_context.cpp
#include "viewer/headless_context.hpp"

#include <cstdlib>
#include <iostream>
#include <string>

#include "viewer/gl.hpp"
#include "viewer/gl_loader.hpp"
#include "viewer/gl_window.hpp"
#if CCROWD_HAVE_EGL
#include "viewer/egl_context.hpp"
#endif

namespace ccrowd::viewer {

GlApi resolveGlApi(GlApi asked, const char* display) {
    if (asked != GlApi::Auto) return asked;
    return display && *display ? GlApi::Glx : GlApi::Egl;
}

HeadlessContext::HeadlessContext(GlApi asked, int width, int height, bool quiet) {
    const char* display = std::getenv("DISPLAY");
    const GlApi api = resolveGlApi(asked, display);
    std::string glxFailure;
    // 1. GLX: a hidden GLFW window (its constructor loads the GL entry points)
    if (api == GlApi::Glx) {
        try {
            window_ = std::make_unique<GlWindow>(width, height, "ccrowd render", false);
            description_ = std::string("GLX (hidden GLFW window, DISPLAY='") + (display ? display : "") + "')";
            return;
        } catch (const ViewerError& e) {
            // --gl glx stops here (naming the way without X); --gl auto tries EGL next
            if (asked == GlApi::Glx && CCROWD_HAVE_EGL)
                throw ViewerError(std::string("--gl glx: ") + e.what() + ". Without an X server, --gl egl renders through EGL");
            if (asked == GlApi::Glx || !CCROWD_HAVE_EGL) throw;
            glxFailure = e.what();
        }
    }
    // 2. EGL: a context without a surface
#if CCROWD_HAVE_EGL
    try {
        egl_ = std::make_unique<EglContext>();
    } catch (const ViewerError& e) {
        if (glxFailure.empty()) throw;
        throw ViewerError("--gl auto: GLX failed (" + glxFailure + "), then " + e.what());
    }
    if (!glxFailure.empty() && !quiet) std::cerr << "note: GLX failed (" << glxFailure << "); rendering through EGL\n";
    loadGl();
    description_ = egl_->description();
#else
    (void)quiet;
    throw ViewerError(std::string("--gl egl") + (asked == GlApi::Auto ? " (--gl auto, as DISPLAY is unset or empty)" : "") +
                      ": this build has no EGL. Install the Debian package libegl-dev (and libegl-mesa0 libgl1-mesa-dri "
                      "for Mesa's EGL without a GPU) and reconfigure, or render under an X server: xvfb-run -a ccrowd render ...");
#endif
}

HeadlessContext::~HeadlessContext() = default;

}  // namespace ccrowd::viewer
