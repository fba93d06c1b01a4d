/// @file validation_scene.cpp
/// One potential schedule for every backend: the cases run their scenes
/// with the CPU's default FIM band and sweep budget wherever they run.

#include "cases.hpp"
#include "kernels/fim_schedule.hpp"

namespace ccrowd::validate {

Scene validationScene(Scene scene) {
    // the backends' defaults differ (CPU 4 tiles and 8 sweeps, CUDA 16 and 6, each the faster there); the
    // potential is the same within the solver's tolerance either way, but not bit for bit, and the
    // trajectories then drift apart (the default scene's within 5 s)
    if (scene.params.potential_band_tiles < 0.f) scene.params.potential_band_tiles = kFimBandTilesCpu;
    if (scene.params.potential_sweeps == 0) scene.params.potential_sweeps = kFimSweepsCpu;
    return scene;
}

}  // namespace ccrowd::validate
