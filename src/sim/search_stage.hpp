#pragma once
/// @file search_stage.hpp
/// Search in smoke (Helbing, Farkas & Vicsek 2000, Fig. 3), in scenes whose
/// groups have `visibility`:
///  - "search" (after desired_velocity): a member farther than its group's
///    visibility from its route's current goal (walking metres, a unit-cost
///    eikonal solve per field, redone when the walls or goals change) does
///    not know the way: it keeps walking its own way, slides along walls,
///    takes a new random heading when stopped (kernels/search.hpp), and
///    herds by the panic p of the operational model.

#include "ccrowd/scene.hpp"
#include "sim/pipeline.hpp"

namespace ccrowd::sim {

/// True when some group of @p scene has a visibility (smoke).
bool hasSearchers(const Scene& scene);

/// The search stage (StagePhase::Fields, after desired_velocity, before cohesion).
Stage searchStage();

}  // namespace ccrowd::sim
