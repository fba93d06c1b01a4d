#pragma once
/// @file gl.hpp
/// The one include of the OpenGL headers: GLEW first (it must precede any
/// other GL header), then GLFW without its own GL header.

#include <GL/glew.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <string>

#include "ccrowd/error.hpp"

namespace ccrowd::viewer {

/// An error of the viewer: no display, no OpenGL 3.3 context, a shader that
/// does not compile, an incomplete framebuffer. The message says what to do.
class ViewerError : public Error {
public:
    explicit ViewerError(const std::string& what) : Error(what) {}
};

/// Throws ViewerError naming @p what when glGetError reports an error.
void checkGl(const char* what);

}  // namespace ccrowd::viewer
