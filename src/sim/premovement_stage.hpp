#pragma once
/// @file premovement_stage.hpp
/// Pre-movement, in scenes whose groups have `premovement`: the stage
/// "premovement" (after desired_velocity and whatever else sets the
/// preferred velocity: route choice, search, cohesion) makes the agents
/// whose start time has not come stand (kernels/premovement.hpp). Each
/// agent's start time is its birth plus a time drawn from its group's
/// distribution, kept per id by the agent table (AgentStore::startOfId).

#include "ccrowd/simulation.hpp"
#include "sim/pipeline.hpp"

namespace ccrowd::sim {

/// The premovement stage (StagePhase::Fields, after the stages that set the preferred velocity).
Stage premovementStage();

/// Adds a person's pre-movement time @p t [s] to its group's statistics
/// (GroupStats::premovement_*).
void recordPremovement(GroupStats& g, double t);

}  // namespace ccrowd::sim
