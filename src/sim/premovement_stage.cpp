/// @file premovement_stage.cpp
#include "sim/premovement_stage.hpp"

#include "kernels/premovement.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

/// Agents still in their pre-movement time stand (ISO/TR 16738, RiMEA test 5).
void runPremovement(SimState& s) { premovement(s.ex, s.agents.views(), s.agents.startOfId(), s.time); }

}  // namespace

Stage premovementStage() {
    return {"premovement", StagePhase::Fields, {"agents.preferred"}, {"agents.preferred"}, runPremovement};
}

}  // namespace ccrowd::sim
