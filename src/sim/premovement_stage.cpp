/// @file premovement_stage.cpp
#include "sim/premovement_stage.hpp"

#include <algorithm>

#include "kernels/premovement.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

/// Agents still in their pre-movement time stand (ISO/TR 16738, RiMEA test 5).
void runPremovement(SimState& s) { premovement(s.ex, s.agents.views(), s.agents.startOfId(), s.time); }

}  // namespace

void recordPremovement(GroupStats& g, double t) {
    // running mean, shortest and longest
    const double n = static_cast<double>(++g.premovement_persons);
    g.premovement_mean = n == 1.0 ? t : g.premovement_mean + (t - g.premovement_mean) / n;
    g.premovement_min = n == 1.0 ? t : std::min(g.premovement_min, t);
    g.premovement_max = n == 1.0 ? t : std::max(g.premovement_max, t);
}

Stage premovementStage() {
    return {"premovement", StagePhase::Fields, {"agents.preferred"}, {"agents.preferred"}, runPremovement};
}

}  // namespace ccrowd::sim
