#pragma once
/// @file agent_instances.hpp
/// Per-agent instance records of the agent draw call, built on the host
/// from the simulation (CPU builds; no GL here). Each record holds the
/// agent's position at the previous and the last step, so the vertex shader
/// interpolates between the two (the renderer is decoupled from the
/// simulation rate).

#include <cstdint>
#include <vector>

#include "ccrowd/simulation.hpp"
#include "viewer/options.hpp"

namespace ccrowd::viewer {

/// One agent as the vertex shader reads it (shaders/agents.vert). 28 bytes.
struct AgentInstance {
    float prev_x = 0.f, prev_y = 0.f;  ///< Position at the previous step (= x, y for new agents). [Units: m]
    float x = 0.f, y = 0.f;            ///< Position at the last step. [Units: m]
    float heading = 0.f;               ///< Direction of motion, counter-clockwise from +x. [Units: rad]
    float radius = 0.2f;               ///< Body radius. [Units: m]
    std::uint8_t rgba[4] = {0, 0, 0, 255};  ///< sRGB fill colour.
};
static_assert(sizeof(AgentInstance) == 28, "AgentInstance is the GL vertex layout");

/// Keeps the instance records between steps.
class AgentInstances {
public:
    /// Rebuilds the records after a step: the previous position of an agent
    /// is its last one (matched by id), or its current one when it is new.
    void update(const Simulation& sim, ColourBy colour);
    /// Recolours the records (new colour mode, without moving anyone).
    void recolour(const Simulation& sim, ColourBy colour);
    /// Forgets the previous positions (after a reset).
    void clear();

    const std::vector<AgentInstance>& records() const { return records_; }
    int count() const { return static_cast<int>(records_.size()); }

private:
    std::vector<AgentInstance> records_;
    std::vector<int> slotOfId_;   ///< id -> index in records_ (-1: none), of the last update.
    std::vector<float> speed_, pressure_;  ///< Per record, for recolouring. [Units: fraction of vmax; m^2/s]
};

}  // namespace ccrowd::viewer
