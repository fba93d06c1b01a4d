#pragma once
/// @file sources.hpp
/// Sources of the exit_spawn stage: agents appear in a region at a rate,
/// never overlapping agents already there (d_min), deterministically for
/// the scene's seed.

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "ccrowd/scene.hpp"
#include "sim/agents.hpp"

namespace ccrowd::sim {


/// Spawns the scene's sources over time.
class SourceSpawner {
public:
    SourceSpawner() = default;
    SourceSpawner(const Scene& scene, const SceneGrid& grid);
    /// The positions of the agents inside [x0, x1) x [y0, y1) [m].
    using NearbyAgents = std::function<void(float x0, float y0, float x1, float y1, std::vector<float>& xs,
                                            std::vector<float>& ys)>;
    /// Agents born in (t - dt, t], placed at least dMin from every agent and
    /// from each other; a birth with no free place waits for the next step.
    /// The agents are asked for (@p nearby) only in a step with a birth due,
    /// and only those within dMin of the sources that owe one.
    std::vector<NewAgent> spawn(double t, double dt, const NearbyAgents& nearby, float dMin);
    /// True when some source may still spawn after time @p t.
    bool pending(double t) const;

private:
    struct State {
        double owed = 0.0;       ///< Births due but not placed yet.
        long long born = 0;      ///< Agents spawned so far.
        std::vector<int> cells;  ///< Open cells of the region.
        float x0 = 0.f, y0 = 0.f, x1 = 0.f, y1 = 0.f;  ///< Bounding box of those cells. [Units: m]
    };
    const Scene* scene_ = nullptr;
    const SceneGrid* grid_ = nullptr;
    std::vector<State> state_;
    std::mt19937_64 rng_;
    std::mt19937_64 waitRng_;  ///< Pre-movement draws (kPremovementStream).
};

}  // namespace ccrowd::sim
