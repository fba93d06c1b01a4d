#pragma once
/// @file social_stage.hpp
/// Social units (seed 000's small groups; Moussaïd et al. 2010), in scenes
/// whose groups have `social`:
///  - "cohesion" (after desired_velocity): every member farther from its
///    unit's centroid than the allowed spread (larger in a crowd) is pulled
///    toward it (kernels/social.hpp), on top of the continuum's preferred
///    velocity, so every operational model keeps units together; the
///    units' mean member-to-centroid distance is measured.
///  - the gate (AgentStore::advanceRoutes, exit_spawn): a unit moves on from
///    a waypoint only when all its members stand in it; recordUnitWaits()
///    measures how long the first had waited.

#include "ccrowd/scene.hpp"
#include "sim/pipeline.hpp"

namespace ccrowd::sim {

struct SimState;

/// True when some group of @p scene walks in social units.
bool hasSocialUnits(const Scene& scene);

/// The cohesion stage (StagePhase::Fields, after desired_velocity).
Stage cohesionStage();

/// After advanceRoutes(): units whose first member just reached a waypoint
/// start waiting; units that move on record the wait in their group's stats.
void recordUnitWaits(SimState& s);

}  // namespace ccrowd::sim
