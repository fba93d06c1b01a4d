#pragma once
/// @file egl_context.hpp
/// A headless OpenGL 3.3 core context through EGL, with no surface: no X
/// server, no window. Drawing goes to an offscreen framebuffer (Offscreen).
/// Built only when CMake finds EGL (Debian: libegl-dev); on machines without
/// a GPU Mesa's EGL (libegl-mesa0, libgl1-mesa-dri) provides llvmpipe.

#include <string>

namespace ccrowd::viewer {

/// The EGL platforms tried, in order, when $CCROWD_EGL_PLATFORMS is unset:
/// "device" (EGL_EXT_platform_device: NVIDIA GPUs first, then other
/// hardware, then software devices), "surfaceless"
/// (EGL_MESA_platform_surfaceless), "default" (eglGetDisplay(EGL_DEFAULT_DISPLAY)).
constexpr const char* kEglPlatformNames[] = {"device", "surfaceless", "default"};

/// Owns one EGL display (initialised) and one context, current on the
/// calling thread from construction to destruction.
class EglContext {
public:
    /// Tries the platforms of $CCROWD_EGL_PLATFORMS (a comma-separated subset
    /// of kEglPlatformNames, in the order to try) or all of them, and keeps
    /// the first that gives an OpenGL 3.3 core context without a surface.
    /// Throws ViewerError naming each platform tried and why it failed, or
    /// InputError for a bad $CCROWD_EGL_PLATFORMS (naming the allowed names).
    EglContext();
    ~EglContext();
    EglContext(const EglContext&) = delete;
    EglContext& operator=(const EglContext&) = delete;

    /// What was used, e.g. "EGL 1.5 device platform (NVIDIA)". For messages.
    const std::string& description() const { return description_; }

private:
    void* display_ = nullptr;  ///< EGLDisplay
    void* context_ = nullptr;  ///< EGLContext
    std::string description_;
};

}  // namespace ccrowd::viewer
