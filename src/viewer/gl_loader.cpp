/// @file gl_loader.cpp
#include "viewer/gl_loader.hpp"

#include <string>

#include "viewer/gl.hpp"

namespace ccrowd::viewer {

void loadGl() {
    // core profiles need glewExperimental for the entry points
    glewExperimental = GL_TRUE;
    const GLenum err = glewInit();
    // glewInit may leave GL_INVALID_ENUM (it queries GL_EXTENSIONS); clear it
    while (glGetError() != GL_NO_ERROR) {
    }
    // a GLX-built GLEW has loaded the GL entry points before it looks for a GLX display
    if (err == GLEW_OK || err == GLEW_ERROR_NO_GLX_DISPLAY) {
        // the pointers must be there: the offscreen framebuffer needs them
        if (!glGenFramebuffers || !glCreateShader || !glDrawArraysInstanced)
            throw ViewerError(std::string("GLEW loaded no OpenGL 3.3 entry points (glewInit: ") +
                              reinterpret_cast<const char*>(glewGetErrorString(err)) + ")");
        return;
    }
    throw ViewerError(std::string("GLEW failed to load OpenGL: ") + reinterpret_cast<const char*>(glewGetErrorString(err)) +
                      " (code " + std::to_string(err) + ")");
}

}  // namespace ccrowd::viewer
