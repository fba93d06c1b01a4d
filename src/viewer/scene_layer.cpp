/// @file scene_layer.cpp
#include "viewer/scene_layer.hpp"

#include <cstdint>
#include <vector>

#include "plot/colormap.hpp"
#include "viewer/gl.hpp"

namespace ccrowd::viewer {

namespace {

GLuint makeTexture() {
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return t;
}

void paint(std::vector<std::uint8_t>& px, const std::vector<int>& cells, const unsigned char (&c)[3]) {
    for (int cell : cells) {
        if (px[4 * cell + 3] != 0) continue;  // walls stay walls
        for (int k = 0; k < 3; ++k) px[4 * cell + k] = c[k];
    }
}

/// The cells' colours: floor, then spawn regions and sources, then goals;
/// walls (alpha 255) on top.
std::vector<std::uint8_t> cellPixels(const SceneGrid& g) {
    std::vector<std::uint8_t> px(4 * static_cast<std::size_t>(g.nx) * g.ny);
    for (int c = 0; c < g.nx * g.ny; ++c) {
        const bool wall = g.blocked.host()[c] != 0;
        const unsigned char* col = wall ? colours::kWall : colours::kFloor;
        for (int k = 0; k < 3; ++k) px[4 * c + k] = col[k];
        px[4 * c + 3] = wall ? 255 : 0;
    }
    for (const auto& cells : g.spawn_cells) paint(px, cells, colours::kSpawn);
    for (const auto& cells : g.source_cells) paint(px, cells, colours::kSpawn);
    for (const auto& cells : g.goal_cells) paint(px, cells, colours::kGoal);
    return px;
}

}  // namespace

SceneLayer::SceneLayer(const Simulation& sim) : pixels_(GL_PIXEL_UNPACK_BUFFER) {
    const SceneGrid& g = sim.grid();
    nx_ = g.nx;
    ny_ = g.ny;
    rect_[0] = g.origin.x;
    rect_[1] = g.origin.y;
    rect_[2] = g.nx * g.h;
    rect_[3] = g.ny * g.h;
    glGenVertexArrays(1, &vao_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);

    sceneTex_ = makeTexture();
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, nx_, ny_, 0, GL_RGBA, GL_UNSIGNED_BYTE, cellPixels(g).data());

    fieldTex_ = makeTexture();
    const std::vector<float> zero(static_cast<std::size_t>(nx_) * ny_, 0.f);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, nx_, ny_, 0, GL_RED, GL_FLOAT, zero.data());

    // viridis, 256 samples
    std::vector<std::uint8_t> map(3 * 256);
    for (int k = 0; k < 256; ++k) {
        const plot::Rgb c = plot::viridis(k / 255.f);
        map[3 * k] = c.r;
        map[3 * k + 1] = c.g;
        map[3 * k + 2] = c.b;
    }
    mapTex_ = makeTexture();
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB8, 256, 1, 0, GL_RGB, GL_UNSIGNED_BYTE, map.data());
    checkGl("scene layer textures");
}

SceneLayer::~SceneLayer() {
    const GLuint t[3] = {sceneTex_, fieldTex_, mapTex_};
    glDeleteTextures(3, t);
    glDeleteVertexArrays(1, &vao_);
}

void SceneLayer::setCells(const Simulation& sim) {
    glBindTexture(GL_TEXTURE_2D, sceneTex_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, nx_, ny_, GL_RGBA, GL_UNSIGNED_BYTE, cellPixels(sim.grid()).data());
    checkGl("SceneLayer::setCells");
}

void SceneLayer::setOverlay(const PublishedState& pub) {
    overlayOn_ = pub.overlayOn() && pub.overlayNx() == nx_ && pub.overlayNy() == ny_;
    if (!overlayOn_) return;
    lo_ = pub.overlayLo();
    hi_ = pub.overlayHi();
    // the values straight into the pixel buffer, on the simulation's side
    const std::size_t bytes = static_cast<std::size_t>(nx_) * ny_ * sizeof(float);
    pixels_.write(pub.exec(), bytes, [&](void* dst) { pub.fillOverlay(static_cast<float*>(dst)); });
    // then buffer -> texture inside GL; unbound after, so other uploads read client memory again
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pixels_.id());
    glBindTexture(GL_TEXTURE_2D, fieldTex_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, nx_, ny_, GL_RED, GL_FLOAT, nullptr);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    checkGl("overlay texture from its pixel buffer");
}

void SceneLayer::draw(const Camera& cam) const {
    float view[4];
    cam.ndcTransform(view);
    program_.use();
    glUniform4fv(program_.uniform("uView"), 1, view);
    glUniform4fv(program_.uniform("uRect"), 1, rect_);
    glUniform1i(program_.uniform("uOverlay"), overlayOn_ ? 1 : 0);
    glUniform2f(program_.uniform("uRange"), lo_, hi_);
    glUniform1i(program_.uniform("uScene"), 0);
    glUniform1i(program_.uniform("uField"), 1);
    glUniform1i(program_.uniform("uColourMap"), 2);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, sceneTex_);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, fieldTex_);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_2D, mapTex_);
    glActiveTexture(GL_TEXTURE0);
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
}

}  // namespace ccrowd::viewer
