/// @file social_stage.cpp
#include "sim/social_stage.hpp"

#include <algorithm>

#include "kernels/social.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

/// Cohesion (seed 000 §4.6.2: members keep near their group's centroid),
/// then the spread of each group's units.
void runCohesion(SimState& s) {
    SocialUnits& U = s.social;
    const Exec& ex = s.ex;
    cohesion(ex, s.agents.views(), s.gi, s.agents.unitOfId(), U.spread.view(ex), U.cohesion.view(ex), s.perceivedDensity.view(ex),
             U.sums.view(ex));
    // per group: the mean over its units of two or more of their members' mean distance to the centroid
    U.sums.toHost(ex, device::Payload::Record);
    const std::vector<unsigned long long>& v = U.sums.vector();
    std::vector<double> spread(s.groups.size(), 0.0);
    std::vector<int> counted(s.groups.size(), 0);
    for (int u = 0; u < U.count; ++u) {
        const long long n = static_cast<long long>(v[static_cast<std::size_t>(kUnitSums * u + 2)]);
        if (n < 2) continue;
        const std::size_t g = static_cast<std::size_t>(U.group[static_cast<std::size_t>(u)]);
        spread[g] += fromFixed(v[static_cast<std::size_t>(kUnitSums * u + 3)]) / static_cast<double>(n);
        ++counted[g];
    }
    for (std::size_t g = 0; g < s.groups.size(); ++g) {
        if (!counted[g]) continue;
        const double mean = spread[g] / counted[g];
        SocialUnits::Sums& m = U.sums_[g];
        m.spread += mean;
        ++m.steps;
        GroupStats& gs = s.groups[g];
        gs.mean_spread = m.spread / static_cast<double>(m.steps);
        gs.max_spread = std::max(gs.max_spread, mean);
    }
}

}  // namespace

bool hasSocialUnits(const Scene& scene) {
    return std::any_of(scene.groups.begin(), scene.groups.end(), [](const GroupSpec& g) { return g.social.enabled(); });
}

void recordUnitWaits(SimState& s) {
    SocialUnits& U = s.social;
    const std::vector<unsigned long long>& c = s.agents.unitCounts();
    for (int u = 0; u < U.count; ++u) {
        const unsigned long long alive = c[2 * static_cast<std::size_t>(u)], arrived = c[2 * static_cast<std::size_t>(u) + 1];
        double& start = U.waitStart[static_cast<std::size_t>(u)];
        if (arrived > 0 && start < 0.0) start = s.time;
        if (alive == 0 || arrived < alive || start < 0.0) continue;
        // all in: the unit moved on after waiting since its first member arrived
        const std::size_t g = static_cast<std::size_t>(U.group[static_cast<std::size_t>(u)]);
        const double wait = s.time - start;
        SocialUnits::Sums& m = U.sums_[g];
        ++m.waits;
        m.wait += wait;
        GroupStats& gs = s.groups[g];
        gs.unit_waits = m.waits;
        gs.mean_wait = m.wait / static_cast<double>(m.waits);
        gs.max_wait = std::max(gs.max_wait, wait);
        start = -1.0;
    }
}

Stage cohesionStage() {
    return {"cohesion", StagePhase::Fields, {"agents.position", "agents.preferred", "perceived_density"}, {"agents.preferred"}, runCohesion};
}

}  // namespace ccrowd::sim
