#pragma once
/// @file exit_spawn_stage.hpp
/// The exit_spawn stage (DESIGN.md §2 (j)): agents inside their route goal
/// move on or leave at their exit (on the backend's side, kernels/exit_spawn.hpp),
/// their exit times are recorded, and sources add agents at their rate. The
/// one host sync point of a step: the host reads the step's small record,
/// the rows of the agents that left, and, in a step where a source owes a
/// birth, the positions of the agents near that source.

#include <vector>

#include "sim/agents.hpp"
#include "sim/pipeline.hpp"

namespace ccrowd::sim {

struct SimState;

/// Route advance and leavers (AgentStore::advanceRoutes): agents at their
/// final exit, or outside the active region, leave; each leaver's exit is
/// recorded and its group's counts follow (GroupStats).
void leaveAndAdvance(SimState& s);

/// Appends @p born (sources, the active region's spawns) and counts them
/// in their groups.
void addAgents(SimState& s, const std::vector<NewAgent>& born);

/// The exit_spawn stage (StagePhase::Move); it also advances the clock by dt.
Stage exitSpawnStage();

}  // namespace ccrowd::sim
