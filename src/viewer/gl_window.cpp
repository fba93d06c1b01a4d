/// @file gl_window.cpp
#include "viewer/gl_window.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "viewer/gl.hpp"
#include "viewer/gl_loader.hpp"

namespace ccrowd::viewer {

namespace {
std::string g_glfwError;
extern "C" void onGlfwError(int code, const char* text) {
    g_glfwError = "GLFW error " + std::to_string(code) + ": " + (text ? text : "?");
}
}  // namespace

void checkGl(const char* what) {
    const GLenum e = glGetError();
    if (e == GL_NO_ERROR) return;
    char code[16];
    std::snprintf(code, sizeof code, "0x%04x", e);
    throw ViewerError(std::string("OpenGL error ") + code + " in " + what);
}

GlWindow::GlWindow(int width, int height, const char* title, bool visible) {
    glfwSetErrorCallback(onGlfwError);
    // 1. a display: GLFW picks X11 (or Wayland) from the environment
    if (!glfwInit()) {
        const char* d = std::getenv("DISPLAY");
        const char* w = std::getenv("WAYLAND_DISPLAY");
        throw ViewerError("cannot open a display (" + g_glfwError + "; DISPLAY=" + (d ? std::string("'") + d + "'" : "unset") +
                          (w ? std::string(", WAYLAND_DISPLAY='") + w + "'" : "") +
                          "). Run on a desktop, or headless under a virtual X server: xvfb-run -a ccrowd ... "
                          "(Debian: apt-get install xvfb xauth libgl1-mesa-dri)");
    }
    // 2. an OpenGL 3.3 core context
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, visible ? GLFW_TRUE : GLFW_FALSE);
    window_ = glfwCreateWindow(width, height, title, nullptr, nullptr);
    if (!window_) {
        const std::string why = g_glfwError;
        glfwTerminate();
        throw ViewerError("cannot create an OpenGL 3.3 core context (" + why +
                          "). The viewer needs OpenGL 3.3; without a GPU, Mesa's llvmpipe provides it (apt-get install libgl1-mesa-dri)");
    }
    glfwMakeContextCurrent(window_);
    // 3. the GL entry points
    try {
        loadGl();
    } catch (...) {
        glfwDestroyWindow(window_);
        glfwTerminate();
        throw;
    }
}

GlWindow::~GlWindow() {
    glfwDestroyWindow(window_);
    glfwTerminate();
}

void GlWindow::framebufferSize(int& w, int& h) const { glfwGetFramebufferSize(window_, &w, &h); }

}  // namespace ccrowd::viewer
