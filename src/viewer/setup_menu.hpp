#pragma once
/// @file setup_menu.hpp
/// Seed 003's set-up menu (agent count, radius, d_min, vmax and grid size)
/// and the operational model with its main parameters (issue 14: social
/// force A, B and panic p; ORCA's time horizon), applied to a scene before (re)starting it. No
/// GL here.

#include <string>

#include "ccrowd/scene.hpp"

namespace ccrowd::viewer {

/// The editable set-up of a scene.
struct SetupParams {
    int agents = 0;        ///< Initial agents, split evenly over the groups. [Limit: 0..10^7]
    float radius = 0.2f;   ///< Body radius of every group. [Units: m] [Limit: 0.05..0.99]
    float d_min = 0.4f;    ///< Minimum centre distance. [Units: m] [Limit: 0..5]
    float vmax = 2.0f;     ///< Largest free speed of every group (its mean is clamped to it). [Units: m/s] [Limit: 0.1..10]
    int grid = 0;          ///< Cells along the longer side of the domain. [Limit: 8..4096]
    std::string local = "uic";  ///< Operational model (model.local). [Limit: a name of operationalModelNames()]
    float panic = 0.f;     ///< Social force panic p of every group. [Limit: 0..1]
    float A = 2000.f;      ///< Social force repulsion strength. [Units: N] [Limit: 0..1e6]
    float B = 0.08f;       ///< Social force repulsion range. [Units: m] [Limit: > 0, <= 10]
    float time_horizon = 2.f;  ///< ORCA time horizon. [Units: s] [Limit: > 0, <= 100]
};

/// Reads the set-up of @p scene (its resolved agent counts from @p grid).
SetupParams readSetup(const Scene& scene, const SceneGrid& grid);
/// Returns @p scene with @p p applied (counts replace densities; the panic
/// replaces every group's own). The result is validated when a Simulation
/// is built from it.
Scene applySetup(Scene scene, const SetupParams& p);

}  // namespace ccrowd::viewer
