#pragma once
/// @file region_state.hpp
/// State of the active region (seed 002 §4.2.3-4.2.4; the active_region
/// and region_spawn stages, active_region_stage.hpp): where it is, the
/// environment's blocked layer before its mask, its goals, and its
/// spawners' debts.

#include <cstdint>
#include <random>
#include <vector>

#include "ccrowd/field.hpp"
#include "ccrowd/scene.hpp"

namespace ccrowd::sim {

/// Active region state (unused in scenes without one).
struct RegionState {
    RegionCells cells;                 ///< Where it is now (the whole grid without one).
    bool placed = false;               ///< Its mask applied at least once.
    int version = 0;                   ///< Bumped at each move.
    int wallsVersion = -1;             ///< SimState::wallsVersion of envBlocked.
    Field<std::uint8_t> envBlocked;    ///< The environment's blocked layer (walls, obstacles, barriers), before the region's mask.
    int goals[5] = {-1, -1, -1, -1, -1};  ///< Scene::goals indices of kRegionGoalNames.
    std::vector<int> sideCells[4];     ///< Open cells of the ring on each side (west, east, south, north), sorted.
    double openArea = 0.0;             ///< Open area inside the region. [Units: m^2]
    std::vector<double> owed;          ///< Per spawn: births due, not placed yet.
    std::mt19937_64 rng;               ///< Places and speeds of births (the scene's seed).
};

}  // namespace ccrowd::sim
