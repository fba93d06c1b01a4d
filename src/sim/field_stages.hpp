#pragma once
/// @file field_stages.hpp
/// The continuum's stages (DESIGN.md §2, seed 003 §2.2; Treuille et al.
/// 2006): active_box, splat, speed, cost, potential and desired_velocity.
/// They compute the grid fields and every agent's preferred velocity from
/// the agents where they stand, and move nobody: the operational model's
/// stages follow them.

#include <vector>

#include "sim/pipeline.hpp"

namespace ccrowd::sim {

/// State items present before any stage runs (the environment's layers,
/// the agent table, and the pressure of the last solve, 0 at first).
std::vector<std::string> initialStateItems();

/// The continuum's stages, in order (StagePhase::Fields).
std::vector<Stage> continuumStages();

}  // namespace ccrowd::sim
