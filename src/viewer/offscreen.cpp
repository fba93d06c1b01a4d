/// @file offscreen.cpp
#include "viewer/offscreen.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "viewer/gl.hpp"

namespace ccrowd::viewer {

Offscreen::Offscreen(int width, int height) : w_(width), h_(height) {
    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &colour_);
    glBindRenderbuffer(GL_RENDERBUFFER, colour_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w_, h_);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_);
    const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw ViewerError("offscreen framebuffer of " + std::to_string(w_) + "x" + std::to_string(h_) +
                          " px is incomplete (status " + std::to_string(status) + ")");
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

Offscreen::~Offscreen() {
    glDeleteFramebuffers(1, &fbo_);
    glDeleteRenderbuffers(1, &colour_);
}

void Offscreen::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glViewport(0, 0, w_, h_);
}

plot::Canvas readFramebuffer(int width, int height) {
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    std::vector<std::uint8_t> px(3 * static_cast<std::size_t>(width) * height);
    glReadPixels(0, 0, width, height, GL_RGB, GL_UNSIGNED_BYTE, px.data());
    checkGl("glReadPixels");
    plot::Canvas c(width, height);
    // GL rows start at the bottom, the canvas' at the top
    for (int y = 0; y < height; ++y) {
        const std::uint8_t* row = px.data() + 3 * static_cast<std::size_t>(height - 1 - y) * width;
        for (int x = 0; x < width; ++x) c.set(x, y, plot::Rgb{row[3 * x], row[3 * x + 1], row[3 * x + 2]});
    }
    return c;
}

plot::Canvas Offscreen::read() const {
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
    return readFramebuffer(w_, h_);
}

}  // namespace ccrowd::viewer
