/// @file validation_scene.cpp
/// One potential schedule for every backend: the cases run their scenes
/// with the CPU's default FIM band, sweep and front budgets wherever they run.

#include "cases.hpp"
#include "kernels/fim_schedule.hpp"

namespace ccrowd::validate {

Scene validationScene(Scene scene) {
    // the backends' defaults differ (CPU 4 tiles, 8 sweeps and no front budget, CUDA 16, 6 and 150, each the faster there); the
    // potential is the same within the solver's tolerance either way, but not bit for bit, and the
    // trajectories then drift apart (the default scene's within 5 s)
    if (scene.params.potential_band_tiles < 0.f) scene.params.potential_band_tiles = kFimBandTilesCpu;
    if (scene.params.potential_sweeps == 0) scene.params.potential_sweeps = kFimSweepsCpu;
    if (scene.params.potential_front_budget < 0) scene.params.potential_front_budget = kFimFrontBudgetCpu;
    return scene;
}

}  // namespace ccrowd::validate
