#pragma once
/// @file agent_instances.hpp
/// The per-agent instance record of the agent draw call, as the vertex
/// shader reads it (shaders/agents.vert). Written by InstanceFillKernel
/// (instance_fill.hpp) straight into the mapped GL buffer. No GL here.

#include <cstdint>

namespace ccrowd::viewer {

/// One agent as the vertex shader reads it. 28 bytes. Each record holds the
/// agent's position at the previous and the last published step, so the
/// shader interpolates between the two (the renderer is decoupled from the
/// simulation rate).
struct AgentInstance {
    float prev_x = 0.f, prev_y = 0.f;  ///< Position at the previous step (= x, y for new agents). [Units: m]
    float x = 0.f, y = 0.f;            ///< Position at the last step. [Units: m]
    float heading = 0.f;               ///< Direction of motion, counter-clockwise from +x. [Units: rad]
    float radius = 0.2f;               ///< Body radius. [Units: m]
    std::uint8_t rgba[4] = {0, 0, 0, 255};  ///< sRGB fill colour.
};
static_assert(sizeof(AgentInstance) == 28, "AgentInstance is the GL vertex layout");

}  // namespace ccrowd::viewer
