/// @file agent_layer.cpp
#include "viewer/agent_layer.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "viewer/gl.hpp"

namespace ccrowd::viewer {

AgentLayer::AgentLayer() {
    glGenVertexArrays(1, &vao_);
    glGenBuffers(1, &vbo_);
    glBindVertexArray(vao_);
    glBindBuffer(GL_ARRAY_BUFFER, vbo_);
    // per-instance attributes (divisor 1); the disc corners come from gl_VertexID
    const GLsizei stride = sizeof(AgentInstance);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(AgentInstance, prev_x)));
    glVertexAttribDivisor(0, 1);
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<void*>(offsetof(AgentInstance, heading)));
    glVertexAttribDivisor(1, 1);
    glEnableVertexAttribArray(2);
    glVertexAttribPointer(2, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride, reinterpret_cast<void*>(offsetof(AgentInstance, rgba)));
    glVertexAttribDivisor(2, 1);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    checkGl("agent layer set-up");
}

AgentLayer::~AgentLayer() {
    glDeleteBuffers(1, &vbo_);
    glDeleteVertexArrays(1, &vao_);
}

void AgentLayer::upload(const std::vector<AgentInstance>& records) {
    count_ = static_cast<int>(records.size());
    if (records.empty()) return;
    glBindBuffer(GL_ARRAY_BUFFER, vbo_);
    if (records.size() > capacity_) {
        capacity_ = std::max(records.size(), 2 * capacity_);
        glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(capacity_ * sizeof(AgentInstance)), nullptr, GL_DYNAMIC_DRAW);
    }
    const std::size_t bytes = records.size() * sizeof(AgentInstance);
    void* dst = glMapBufferRange(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes),
                                 GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (!dst) throw ViewerError("glMapBufferRange of the agent instance buffer failed");
    std::memcpy(dst, records.data(), bytes);
    glUnmapBuffer(GL_ARRAY_BUFFER);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void AgentLayer::draw(const Camera& cam, float alpha, float minRadiusPx) const {
    drawCalls_ = 0;
    if (count_ == 0) return;
    float view[4];
    cam.ndcTransform(view);
    program_.use();
    glUniform4fv(program_.uniform("uView"), 1, view);
    glUniform1f(program_.uniform("uAlpha"), alpha);
    glUniform1f(program_.uniform("uMinRadius"), minRadiusPx / cam.ppm);
    glBindVertexArray(vao_);
    glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count_);  // all agents, one call
    drawCalls_ = 1;
    glBindVertexArray(0);
}

}  // namespace ccrowd::viewer
