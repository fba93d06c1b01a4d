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

/// Completes every potential of the last step, for readers of whole fields
/// (outputs, viewer, Python): the potential stage solves each field only
/// until the cells its agents read are final (EikonalNeeded). Those cells,
/// and every cell of lower potential, keep their values; no-op when
/// nothing is left.
void completePotentials(SimState& s);

/// Desired velocity of field @p k over the whole active box, for readers of
/// the field (outputs, viewer, Python): the desired_velocity stage writes
/// only the cells the field's agents read. The same kernel on the same
/// potential and speeds, so those cells keep their values. Roaming groups'
/// fields (no potential) are left as they are.
void completeDesiredVelocity(SimState& s, int k);

}  // namespace ccrowd::sim
