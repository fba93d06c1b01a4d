#pragma once
/// @file gl_window.hpp
/// A GLFW window with an OpenGL 3.3 core context, made current, and GLEW
/// loaded. `ccrowd view` uses it; hidden windows serve `ccrowd render --gl
/// glx` (drawing goes to an offscreen framebuffer; under Xvfb Mesa's
/// llvmpipe provides the context). Without an X server, EglContext does.

struct GLFWwindow;

namespace ccrowd::viewer {

/// Owns GLFW (initialised once per process while a window lives) and one window.
class GlWindow {
public:
    /// @param width,height Window size. [Units: px] [Limit: 16..8192]
    /// @param visible      false for headless rendering.
    /// Throws ViewerError when there is no display (glfwInit fails: names
    /// $DISPLAY and suggests xvfb-run), no OpenGL 3.3 core context, or GLEW fails.
    GlWindow(int width, int height, const char* title, bool visible);
    ~GlWindow();
    GlWindow(const GlWindow&) = delete;
    GlWindow& operator=(const GlWindow&) = delete;

    GLFWwindow* handle() const { return window_; }
    /// Framebuffer size (differs from the window size on HiDPI screens). [Units: px]
    void framebufferSize(int& w, int& h) const;

private:
    GLFWwindow* window_ = nullptr;
};

}  // namespace ccrowd::viewer
