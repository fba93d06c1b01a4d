/// @file bundled_scenes.cpp
/// Where the validation cases find the scenes shipped in scenes/.

#include <filesystem>

#include "ccrowd/scene.hpp"
#include "cases.hpp"

namespace ccrowd::validate {

std::string bundledScene(const std::string& name) {
    // the default scene's directory: $CCROWD_SCENE_DIR, the source tree, or <prefix>/share/ccrowd/scenes
    return (std::filesystem::path(defaultScenePath()).parent_path() / (name + ".json")).string();
}

std::vector<std::string> bundledSceneNames() {
    return {"corridor", "l_corner", "room_exit", "bottleneck", "seed003_single_goal", "seed003_two_groups", "seed003_four_groups"};
}

}  // namespace ccrowd::validate
