#pragma once
/// @file active_region_stage.hpp
/// Seed 002's active grid (§4.2.3) and border spawning (§4.2.4), in scenes
/// with an "active_region". Two stages:
///  - "active_region" (after the events, before the incidents): the region
///    at this step's time (activeRegionCentre: a followed incident or a
///    moving focus). When it moved, or events changed the walls, cells
///    outside it are closed (the blocked layer is the environment's plus
///    the outside, so speeds, costs and every potential stop at its edge
///    and the solves cover its cells only), its goals (kRegionGoalNames)
///    move to its navigable border ring, and agents now outside leave (as
///    exits); that step's fields are computed afresh on its cells.
///  - "region_spawn" (after exit_spawn): each spawn brings agents of its
///    group in at the ring's open cells on its sides, never overlapping
///    others (d_min), on cells the region keeps until the newcomer has
///    walked 2 m in, while the group has fewer than density x the
///    region's open area, at most `rate` a second; draws from the scene's
///    seed, so the same for every thread count.

#include "ccrowd/scene.hpp"
#include "sim/pipeline.hpp"

namespace ccrowd::sim {

struct SimState;

/// The active_region stage (StagePhase::Fields).
Stage activeRegionStage();

/// The region_spawn stage (StagePhase::Move, after exit_spawn).
Stage regionSpawnStage();

/// True while some spawn of @p scene's active region may still bring agents
/// in after time @p t [s].
bool regionSpawnPending(const Scene& scene, double t);

}  // namespace ccrowd::sim
