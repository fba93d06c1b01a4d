/// @file scene_fuzz.cpp
/// libFuzzer target for scene files: any byte string goes through
/// parseScene + rasterizeScene (+ placeAgents for modest counts). The only
/// acceptable failure is ccrowd::InputError; any other exception, crash,
/// sanitizer report, leak or hang is a bug. Build and run: tests/fuzz/CMakeLists.txt.

#include <cstddef>
#include <cstdint>
#include <string>

#include "ccrowd/error.hpp"
#include "ccrowd/placement.hpp"
#include "ccrowd/scene.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        // Load and rasterise: a bad scene must end here, as an InputError.
        const ccrowd::Scene scene = ccrowd::parseScene(text, "fuzz-input");
        const ccrowd::SceneGrid grid = ccrowd::rasterizeScene(scene);
        // Place agents while the total stays small (placement is O(agents)).
        long long placed = 0;
        for (int g = 0; g < static_cast<int>(scene.groups.size()); ++g) {
            placed += grid.group_count[g];
            if (placed > 20000) break;
            (void)ccrowd::placeAgents(scene, grid, g, scene.params.seed, ccrowd::placementDistance(scene, g));
        }
    } catch (const ccrowd::InputError&) {
        // Expected for bad input.
    }
    return 0;
}
