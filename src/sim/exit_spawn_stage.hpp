#pragma once
/// @file exit_spawn_stage.hpp
/// The exit_spawn stage (DESIGN.md §2 (j)): agents inside their route goal
/// move on or leave at their exit (on the backend's side, kernels/exit_spawn.hpp),
/// their exit times are recorded, and sources add agents at their rate. The
/// one host sync point of a step: the host reads the step's small record,
/// the rows of the agents that left, and, in a step where a source owes a
/// birth, the positions of the agents near that source.

#include "sim/pipeline.hpp"

namespace ccrowd::sim {

/// The exit_spawn stage (StagePhase::Move); it also advances the clock by dt.
Stage exitSpawnStage();

}  // namespace ccrowd::sim
