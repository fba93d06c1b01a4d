/// @file scene_load.cpp
/// loadScene: file checks and reading, then parseScene; relative floor-plan
/// paths resolved against the scene file's directory.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "scene_internal.hpp"

namespace ccrowd {

namespace {

[[noreturn]] void fileError(const std::string& path, const std::string& problem) {
    throw InputError(path + ": /: " + problem + " (allowed: a readable JSON scene file of at most " +
                     std::to_string(scene_limits::kMaxFileBytes >> 20) + " MiB)");
}

}  // namespace

namespace scene_detail {

std::string readFileLimited(const std::string& path, long long maxBytes) {
    struct Close {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    std::unique_ptr<std::FILE, Close> f(std::fopen(path.c_str(), "rb"));
    if (!f) throw InputError(std::strerror(errno));
    // Chunks until EOF or one byte past the limit.
    std::string out;
    char buf[1 << 16];
    while (static_cast<long long>(out.size()) <= maxBytes) {
        const std::size_t n = std::fread(buf, 1, sizeof buf, f.get());
        out.append(buf, n);
        if (n < sizeof buf) break;
    }
    if (std::ferror(f.get())) throw InputError(std::string("read error: ") + std::strerror(errno));
    if (static_cast<long long>(out.size()) > maxBytes) {
        throw InputError("larger than " + std::to_string(maxBytes) + " bytes");
    }
    return out;
}

}  // namespace scene_detail

Scene loadScene(const std::string& path) {
    namespace fs = std::filesystem;
    // The file exists, is a regular file and is not huge.
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (path.empty()) fileError("(empty path)", "cannot open scene file: no file name given");
    if (!fs::exists(st)) fileError(path, "cannot open scene file: no such file");
    if (fs::is_directory(st)) fileError(path, "cannot open scene file: it is a directory");
    if (!fs::is_regular_file(st)) fileError(path, "cannot open scene file: not a regular file");
    const auto size = fs::file_size(path, ec);
    if (!ec && size > static_cast<std::uintmax_t>(scene_limits::kMaxFileBytes)) {
        fileError(path, "scene file too large (" + std::to_string(size) + " bytes)");
    }
    // Read it (permission and I/O errors name the system's reason).
    std::string text;
    try {
        text = scene_detail::readFileLimited(path, scene_limits::kMaxFileBytes);
    } catch (const InputError& e) {
        fileError(path, std::string("cannot read scene file: ") + e.what());
    }
    return parseSceneAt(text, path);
}

Scene parseSceneAt(const std::string& text, const std::string& path) {
    namespace fs = std::filesystem;
    Scene s = parseScene(text, path);
    s.path = path;
    if (s.name.empty()) s.name = fs::path(path).stem().string();
    // Floor-plan images are relative to the scene file.
    for (FloorPlanSpec& f : s.floor_plans) {
        const fs::path p(f.path);
        if (p.is_relative()) f.path = (fs::path(path).parent_path() / p).string();
    }
    return s;
}

}  // namespace ccrowd
