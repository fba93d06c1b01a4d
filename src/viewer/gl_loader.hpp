#pragma once
/// @file gl_loader.hpp
/// Loads the OpenGL entry points (GLEW) for the context current on this
/// thread, whether GLFW/GLX or EGL made it.

namespace ccrowd::viewer {

/// Loads the OpenGL 3.3 core entry points through GLEW for the current
/// context. Throws ViewerError naming GLEW's error when loading fails.
///
/// Debian 12's GLEW (2.2.0) is built for GLX: glewInit() loads the GL
/// entry points (glewContextInit, through glXGetProcAddressARB, which
/// libglvnd answers with dispatch stubs that serve EGL contexts as well),
/// then returns GLEW_ERROR_NO_GLX_DISPLAY (4) when the context is not a GLX
/// one. Measured with Mesa 22.3 under EGL: glewInit returns 4, and the
/// loaded pointers equal eglGetProcAddress's (e.g. glGenFramebuffers), so
/// that code is accepted for EGL contexts; glewExperimental stays on for
/// core profiles. (GLFW's Wayland windows are EGL contexts too.) The entry
/// points the viewer needs are checked to be there either way.
void loadGl();

}  // namespace ccrowd::viewer
