/// @file floor_plan.cpp
/// PNG floor plans: cells whose centre falls on a dark, opaque pixel are
/// blocked. The one translation unit of the core with stb_image's
/// implementation (static, so it cannot clash with another copy, e.g. the
/// one tests/test_plot.cpp uses to read PNGs back).

#include <cmath>
#include <filesystem>
#include <memory>

#include "ccrowd/error.hpp"
#include "scene_internal.hpp"

// (a system include, CMakeLists.txt: its own warnings stay out of -Werror)
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#include <stb/stb_image.h>

namespace ccrowd::scene_detail {

namespace {

struct StbiFree {
    void operator()(unsigned char* p) const { stbi_image_free(p); }
};

}  // namespace

void applyFloorPlan(const Scene& scene, int k, const geom::GridGeom& g, Field<std::uint8_t>& blocked) {
    namespace fs = std::filesystem;
    const FloorPlanSpec& f = scene.floor_plans[static_cast<std::size_t>(k)];
    const std::string path = itemPath("floor_plans", static_cast<std::size_t>(k)) + "/image";
    const std::string value = describe(json(f.path));
    const char* allowed = "a readable PNG file (relative to the scene file) of at most 2^26 pixels";
    // A regular, reasonably sized file (never a device or a pipe).
    std::error_code ec;
    if (!fs::is_regular_file(f.path, ec)) failAt(scene.label, path, value, "no such image file", allowed);
    const auto size = fs::file_size(f.path, ec);
    if (ec || size > static_cast<std::uintmax_t>(scene_limits::kMaxFileBytes)) {
        failAt(scene.label, path, value, "image file unreadable or too large", allowed);
    }
    std::string bytes;
    try {
        bytes = readFileLimited(f.path, scene_limits::kMaxFileBytes);
    } catch (const InputError& e) {
        failAt(scene.label, path, value, std::string("cannot read image: ") + e.what(), allowed);
    }
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    // Check the size before decoding (a small file can claim a huge image).
    int w = 0, h = 0, comp = 0;
    const int len = static_cast<int>(bytes.size());
    if (!stbi_info_from_memory(data, len, &w, &h, &comp)) {
        failAt(scene.label, path, value, std::string("not a PNG image: ") + stbi_failure_reason(), allowed);
    }
    if (w <= 0 || h <= 0 || static_cast<long long>(w) * h > scene_limits::kMaxImagePixels) {
        failAt(scene.label, path, value, "image too large (" + std::to_string(w) + " x " + std::to_string(h) + ")",
               allowed);
    }
    // Grey + alpha, 8 bits per channel.
    std::unique_ptr<unsigned char, StbiFree> img(stbi_load_from_memory(data, len, &w, &h, &comp, 2));
    if (!img) failAt(scene.label, path, value, std::string("cannot decode PNG: ") + stbi_failure_reason(), allowed);

    // Sample the pixel under every cell centre; outside the image is open.
    const double mpp = f.metres_per_pixel;
    const double threshold = f.threshold * 255.0;
    std::uint8_t* out = blocked.host();
    for (int j = 0; j < g.ny; ++j) {
        const double py = std::floor((g.cy(j) - f.origin.y) / mpp);
        if (py < 0 || py >= h) continue;
        const long long row = h - 1 - static_cast<long long>(py);  // image row 0 is the top
        for (int i = 0; i < g.nx; ++i) {
            const double px = std::floor((g.cx(i) - f.origin.x) / mpp);
            if (px < 0 || px >= w) continue;
            const unsigned char* p = img.get() + 2 * (row * w + static_cast<long long>(px));
            if (p[0] < threshold && p[1] >= 128) out[i + j * g.nx] = 1;
        }
    }
}

}  // namespace ccrowd::scene_detail
