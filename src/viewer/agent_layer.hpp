#pragma once
/// @file agent_layer.hpp
/// Every agent in ONE instanced draw call (glDrawArraysInstanced: a
/// 4-vertex strip per instance) from an instance buffer of AgentInstance
/// records. CPU builds fill the buffer by mapping it; a CUDA build can hand
/// the same buffer to a kernel (bufferId(), see cuda_gl_interop).

#include "viewer/agent_instances.hpp"
#include "viewer/camera.hpp"
#include "viewer/shader.hpp"

namespace ccrowd::viewer {

class AgentLayer {
public:
    AgentLayer();
    ~AgentLayer();
    AgentLayer(const AgentLayer&) = delete;
    AgentLayer& operator=(const AgentLayer&) = delete;

    /// Copies @p records into the instance buffer (glMapBufferRange, the
    /// buffer grows by doubling and is never shrunk).
    void upload(const std::vector<AgentInstance>& records);
    /// Draws the uploaded agents at @p alpha between the previous (0) and the last step (1).
    /// @param minRadiusPx Smallest drawn radius. [Units: px]
    void draw(const Camera& cam, float alpha, float minRadiusPx = 1.5f) const;
    /// Agents drawn by draw().
    int count() const { return count_; }
    /// GL name of the instance buffer (for CUDA-GL registration).
    unsigned bufferId() const { return vbo_; }
    /// Draw calls issued by the last draw() (1 when there are agents, else 0).
    int lastDrawCalls() const { return drawCalls_; }

private:
    ShaderProgram program_{"agents"};
    unsigned vao_ = 0, vbo_ = 0;
    std::size_t capacity_ = 0;  ///< Records the buffer holds.
    int count_ = 0;
    mutable int drawCalls_ = 0;
};

}  // namespace ccrowd::viewer
