#pragma once
/// @file sources.hpp
/// Sources of the exit_spawn stage: agents appear in a region at a rate,
/// never overlapping agents already there (d_min), deterministically for
/// the scene's seed.

#include <cstdint>
#include <random>
#include <vector>

#include "ccrowd/scene.hpp"

namespace ccrowd::sim {

class AgentStore;

/// An agent to add.
struct SpawnEvent {
    float x = 0.f, y = 0.f;  ///< [Units: m]
    float vmax = 1.34f;      ///< [Units: m/s]
    int group = 0;
};

/// Spawns the scene's sources over time.
class SourceSpawner {
public:
    SourceSpawner() = default;
    SourceSpawner(const Scene& scene, const SceneGrid& grid);
    /// Agents born in (t - dt, t], placed at least dMin from every agent in
    /// @p agents and from each other; a birth with no free place waits for
    /// the next step.
    std::vector<SpawnEvent> spawn(double t, double dt, const AgentStore& agents, float dMin);
    /// True when some source may still spawn after time @p t.
    bool pending(double t) const;

private:
    struct State {
        double owed = 0.0;       ///< Births due but not placed yet.
        long long born = 0;      ///< Agents spawned so far.
        std::vector<int> cells;  ///< Open cells of the region.
    };
    const Scene* scene_ = nullptr;
    const SceneGrid* grid_ = nullptr;
    std::vector<State> state_;
    std::mt19937_64 rng_;
};

}  // namespace ccrowd::sim
