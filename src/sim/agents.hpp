#pragma once
/// @file agents.hpp
/// The agents of a simulation as a structure of arrays (host master copy,
/// mirrored on the device for the CUDA backend), with the host-side parts of
/// the exit_spawn stage: adding agents, route advance, exits, compaction.

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "ccrowd/field.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "kernels/stages.hpp"

namespace ccrowd::sim {

/// An agent that left through its final goal.
struct ExitEvent {
    int id = 0;
    int group = 0;
    float x = 0.f, y = 0.f;  ///< Where it left. [Units: m]
};

/// Index of the goal a group walks to at a route step.
int goalIndex(const Scene& scene, int group, int routeStep);

/// Draws a free speed from normal(mean, sd) clamped to [min, max].
float drawSpeed(const SpeedDistribution& d, std::mt19937_64& rng);

/// Who follows a potential field, and which field a group follows at each
/// route step: an agent's field says its group and route step.
struct FieldTable {
    std::vector<int> group, step;               ///< [field] -> group, route step.
    std::vector<std::vector<int>> fieldOf;      ///< [group][route step] -> field.
    std::vector<std::vector<int>> routeGoal;    ///< [group][route step] -> goal index.
};

/// Structure-of-arrays agent storage: 36 bytes per agent (position,
/// velocity, preferred velocity, free speed, field, id). Group, route step
/// and radius follow from the field (FieldTable) and the group's spec.
class AgentStore {
public:
    AgentStore() = default;
    explicit AgentStore(FieldTable table) : table_(std::move(table)) {}
    int size() const { return x_.size(); }
    /// Appends an agent at rest on the first route step of @p group. [Units: m, m/s]
    void add(float x, float y, float vmax, int group);
    /// Views on the side @p ex runs on (CUDA: uploads the host arrays unless
    /// the device copy is already current).
    AgentViews views(const Exec& ex);
    /// Copies device arrays back to the host (CUDA backend; on the CPU only
    /// the requests are counted in the transfer ledger).
    void download(const Exec& ex);
    /// 1 for every field index some agent follows. [Size: fieldCount]
    std::vector<int> fieldsInUse(int fieldCount) const;
    /// Agents inside their route goal (goalMask of the goal, by cell) move
    /// on to the next route step, or leave at their final goal when it is an
    /// exit. Leaving agents are removed (order of the others kept).
    std::vector<ExitEvent> advanceRoutes(const Scene& scene, const SceneGrid& grid,
                                         const std::vector<Field<std::uint8_t>>& goalMask);
    /// Host copy for readers (radius from each group's spec).
    AgentSnapshot snapshot(const Scene& scene) const;
    /// Positions, for spawn overlap tests.
    const std::vector<float>& xs() const { return x_.vector(); }
    const std::vector<float>& ys() const { return y_.vector(); }
    /// Bytes of per-agent storage held here.
    std::size_t bytesPerAgent() const;
    /// One past the largest id given so far (ids are 0, 1, 2, ... in order of add()).
    int idEnd() const { return nextId_; }

private:
    FieldTable table_;
    Array<float> x_, y_, vx_, vy_, px_, py_, vmax_;
    Array<int> field_, id_;
    int nextId_ = 0;
    /// CUDA: the device arrays equal the host arrays (set by views() and
    /// download(), cleared by add() and by advanceRoutes() when someone left
    /// or moved on, which change the host copy).
    bool deviceCurrent_ = false;
};

}  // namespace ccrowd::sim
