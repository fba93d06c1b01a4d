/// @file scene_path.cpp
/// defaultScenePath: where the built-in default scene lives.

#include <cstdlib>
#include <filesystem>

#include "ccrowd/config.hpp"
#include "ccrowd/scene.hpp"

namespace ccrowd {

std::string defaultScenePath() {
    namespace fs = std::filesystem;
    // 1. An explicit scene directory.
    if (const char* dir = std::getenv("CCROWD_SCENE_DIR"); dir && *dir) return (fs::path(dir) / "default.json").string();
    // 2. The source tree this build came from.
    const fs::path src = fs::path(CCROWD_SOURCE_DIR) / "scenes" / "default.json";
    std::error_code ec;
    if (fs::is_regular_file(src, ec)) return src.string();
    // 3. An installed tree: <prefix>/bin/ccrowd -> <prefix>/share/ccrowd/scenes.
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) return (exe.parent_path() / ".." / "share" / "ccrowd" / "scenes" / "default.json").lexically_normal().string();
    return src.string();
}

}  // namespace ccrowd
