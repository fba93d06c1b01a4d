/// @file line_layer.cpp
#include "viewer/line_layer.hpp"

#include "viewer/gl.hpp"

namespace ccrowd::viewer {

LineLayer::LineLayer() {
    glGenVertexArrays(1, &vao_);
    glGenBuffers(1, &vbo_);
    glBindVertexArray(vao_);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

LineLayer::~LineLayer() {
    glDeleteBuffers(1, &vbo_);
    glDeleteVertexArrays(1, &vao_);
}

void LineLayer::setSegments(const std::vector<float>& xyxy) {
    vertices_ = static_cast<int>(xyxy.size() / 2);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_);
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(xyxy.size() * sizeof(float)), xyxy.data(), GL_DYNAMIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void LineLayer::draw(const Camera& cam, const float rgba[4]) const {
    if (vertices_ == 0) return;
    float view[4];
    cam.ndcTransform(view);
    program_.use();
    glUniform4fv(program_.uniform("uView"), 1, view);
    glUniform4fv(program_.uniform("uColour"), 1, rgba);
    glBindVertexArray(vao_);
    glDrawArrays(GL_LINES, 0, vertices_);
    glBindVertexArray(0);
}

}  // namespace ccrowd::viewer
