/// @file setup_menu.cpp
#include "viewer/setup_menu.hpp"

#include <algorithm>
#include <cmath>

namespace ccrowd::viewer {

SetupParams readSetup(const Scene& scene, const SceneGrid& grid) {
    SetupParams p;
    p.agents = 0;
    for (int n : grid.group_count) p.agents += n;
    if (!scene.groups.empty()) {
        p.radius = scene.groups[0].radius;
        p.vmax = scene.groups[0].speed.max;
    }
    p.d_min = scene.params.d_min;
    p.grid = std::max(grid.nx, grid.ny);
    // the operational model; the first group's own panic, else the model's
    const SocialForceSpec& sf = scene.params.social_force;
    p.local = scene.params.local;
    p.panic = !scene.groups.empty() && scene.groups[0].panic >= 0.f ? scene.groups[0].panic : sf.panic;
    p.A = sf.A;
    p.B = sf.B;
    p.time_horizon = scene.params.orca.time_horizon;
    return p;
}

Scene applySetup(Scene scene, const SetupParams& p) {
    const int groups = static_cast<int>(scene.groups.size());
    for (int g = 0; g < groups; ++g) {
        GroupSpec& s = scene.groups[g];
        // agents split evenly, the first groups take the remainder
        s.count = p.agents / groups + (g < p.agents % groups ? 1 : 0);
        s.density = 0.f;
        s.radius = p.radius;
        s.speed.max = p.vmax;
        s.speed.min = std::min(s.speed.min, p.vmax);
        s.speed.mean = std::clamp(s.speed.mean, s.speed.min, p.vmax);
        s.panic = -1.f;  // the model's panic below
    }
    scene.params.local = p.local;
    scene.params.social_force.panic = p.panic;
    scene.params.social_force.A = p.A;
    scene.params.social_force.B = p.B;
    scene.params.orca.time_horizon = p.time_horizon;
    scene.params.d_min = p.d_min;
    if (p.grid > 0) scene.cell = std::max(scene.width, scene.height) / static_cast<float>(p.grid);
    return scene;
}

}  // namespace ccrowd::viewer
