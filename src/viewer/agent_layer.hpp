#pragma once
/// @file agent_layer.hpp
/// Every agent in ONE instanced draw call (glDrawArraysInstanced: a
/// 4-vertex strip per instance) from an instance buffer of AgentInstance
/// records, which PublishedState::fillInstances writes in place on the
/// simulation's side (SharedBuffer: mapped on the CPU backend, registered
/// with CUDA on a GPU).

#include "viewer/agent_instances.hpp"
#include "viewer/camera.hpp"
#include "viewer/published_state.hpp"
#include "viewer/shader.hpp"
#include "viewer/shared_buffer.hpp"

namespace ccrowd::viewer {

class AgentLayer {
public:
    AgentLayer();
    ~AgentLayer();
    AgentLayer(const AgentLayer&) = delete;
    AgentLayer& operator=(const AgentLayer&) = delete;

    /// Writes the instance records of @p pub's agents in @p colour into the
    /// instance buffer (one record per agent, by a kernel or an OpenMP loop
    /// on @p pub's side; the buffer grows by doubling and is never shrunk).
    void fill(const PublishedState& pub, ColourBy colour);
    /// Draws the filled agents at @p alpha between the previous (0) and the last step (1).
    /// @param minRadiusPx Smallest drawn radius. [Units: px]
    void draw(const Camera& cam, float alpha, float minRadiusPx = 1.5f) const;
    /// Agents drawn by draw().
    int count() const { return count_; }
    /// Draw calls issued by the last draw() (1 when there are agents, else 0).
    int lastDrawCalls() const { return drawCalls_; }

private:
    ShaderProgram program_{"agents"};
    SharedBuffer instances_;
    unsigned vao_ = 0;
    int count_ = 0;
    mutable int drawCalls_ = 0;
};

}  // namespace ccrowd::viewer
