/// @file agent_layer.cpp
#include "viewer/agent_layer.hpp"

#include <cstddef>

#include "viewer/gl.hpp"

namespace ccrowd::viewer {

AgentLayer::AgentLayer() : instances_(GL_ARRAY_BUFFER) {
    glGenVertexArrays(1, &vao_);
    glBindVertexArray(vao_);
    glBindBuffer(GL_ARRAY_BUFFER, instances_.id());
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

AgentLayer::~AgentLayer() { glDeleteVertexArrays(1, &vao_); }

void AgentLayer::fill(const PublishedState& pub, ColourBy colour) {
    count_ = pub.agentCount();
    if (count_ == 0) return;
    // the records are written in place: no host copy on either backend
    instances_.write(pub.exec(), static_cast<std::size_t>(count_) * sizeof(AgentInstance),
                     [&](void* dst) { pub.fillInstances(static_cast<AgentInstance*>(dst), colour); });
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
