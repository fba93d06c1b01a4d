/// @file seed003.cpp
/// The seed-003 scenes (Sun, Sun, Qin; continuum crowds with Narain et al.
/// 2009's unilateral incompressibility constraint) run to the end with the
/// invariants of every step checked, as tests/test_simulation.cpp does:
/// persons conserved, nobody in an obstacle, the minimum distance kept by
/// the separation stage, every group arriving. (Their crowds stay far below
/// the UIC limit: the pressure is 0 in every step, so the solver's residual
/// was a criterion that could not fail and is gone; issue 17.)

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "ccrowd/scene.hpp"
#include "cases.hpp"
#include "stopwatch.hpp"

namespace ccrowd::validate {

namespace {

constexpr float kSeparationShare = 0.9f;  // pairs must stay >= this x d_min apart

/// Smallest distance between two agents (brute force; the scenes hold <= 100). [Units: m]
float minPairDistance(const AgentSnapshot& a) {
    float best = std::numeric_limits<float>::infinity();
    for (int p = 0; p < a.size(); ++p)
        for (int q = p + 1; q < a.size(); ++q) best = std::min(best, std::hypot(a.x[p] - a.x[q], a.y[p] - a.y[q]));
    return best;
}

}  // namespace

Seed003Result seed003Scene(const Exec& ex, const std::string& name) {
    const Stopwatch clock;
    Seed003Result r;
    r.scene = name;
    r.title = "Seed 003: " + name.substr(name.find('_') + 1);
    r.description = "The seed-003 scene " + name + " run to its end; after every step: persons conserved, no agent in "
                    "an obstacle, pairwise distances >= 0.9 d_min.";
    r.source = "Seed 003 (continuum crowds + Narain et al. 2009 UIC); invariants as in tests/test_simulation.cpp";
    const std::string path = bundledScene(name);
    r.scenes.push_back(SceneUse{name, path, ""});

    Simulation sim(validationScene(loadScene(path)), ex);
    const Scene& sc = sim.scene();
    const SceneGrid& g = sim.grid();
    r.d_min = sc.params.d_min;
    r.min_distance = std::numeric_limits<float>::infinity();
    while (!sim.finished()) {
        sim.step();
        const AgentSnapshot a = sim.agents();
        // present + exited = spawned
        if (a.size() + sim.exitedTotal() != sim.spawnedTotal()) ++r.count_errors;
        // inside the domain and never in a blocked cell
        for (int k = 0; k < a.size(); ++k) {
            const bool inDomain = a.x[k] >= sc.origin.x && a.y[k] >= sc.origin.y && a.x[k] <= sc.origin.x + sc.width &&
                                  a.y[k] <= sc.origin.y + sc.height;
            int i = 0, j = 0;
            g.cellOf(a.x[k], a.y[k], i, j);
            if (!inDomain || g.blocked(i, j)) ++r.blocked_hits;
        }
        // after the separation stage, and after the UIC correction
        r.min_distance = std::min(r.min_distance, minPairDistance(a));
    }
    r.groups = sim.groupStats();
    r.spawned = sim.spawnedTotal();
    r.exited = sim.exitedTotal();
    r.remaining = sim.agentCount();
    r.end_time = sim.time();

    // every group arrives
    int arrived = 0;
    for (const GroupStats& gs : r.groups) arrived += (gs.spawned > 0 && gs.remaining == 0 && gs.exited == gs.spawned) ? 1 : 0;
    r.check("groups at their goal", std::to_string(arrived) + " of " + std::to_string(r.groups.size()) + " (" +
                                        std::to_string(r.exited) + " of " + std::to_string(r.spawned) + " persons by " +
                                        formatValue(r.end_time, 1, "s") + ")",
            "all", !r.groups.empty() && arrived == static_cast<int>(r.groups.size()));
    r.check("steps where present + exited != spawned", std::to_string(r.count_errors), "0", r.count_errors == 0);
    r.check("agent-steps in an obstacle or outside", std::to_string(r.blocked_hits), "0", r.blocked_hits == 0);
    r.check("smallest pair distance after separation", formatValue(r.min_distance, 3, "m"),
            ">= " + formatValue(kSeparationShare * r.d_min, 3, "m") + " (0.9 d_min)",
            r.min_distance >= kSeparationShare * r.d_min);
    r.wall_seconds = clock.seconds();
    return r;
}

}  // namespace ccrowd::validate
