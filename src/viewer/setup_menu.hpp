#pragma once
/// @file setup_menu.hpp
/// Seed 003's set-up menu: agent count, radius, d_min, vmax and grid size,
/// applied to a scene before (re)starting it. No GL here.

#include "ccrowd/scene.hpp"

namespace ccrowd::viewer {

/// The editable set-up of a scene.
struct SetupParams {
    int agents = 0;        ///< Initial agents, split evenly over the groups. [Limit: 0..10^7]
    float radius = 0.2f;   ///< Body radius of every group. [Units: m] [Limit: 0.05..0.99]
    float d_min = 0.4f;    ///< Minimum centre distance. [Units: m] [Limit: 0..5]
    float vmax = 2.0f;     ///< Largest free speed of every group (its mean is clamped to it). [Units: m/s] [Limit: 0.1..10]
    int grid = 0;          ///< Cells along the longer side of the domain. [Limit: 8..4096]
};

/// Reads the set-up of @p scene (its resolved agent counts from @p grid).
SetupParams readSetup(const Scene& scene, const SceneGrid& grid);
/// Returns @p scene with @p p applied (counts replace densities). The
/// result is validated when a Simulation is built from it.
Scene applySetup(Scene scene, const SetupParams& p);

}  // namespace ccrowd::viewer
