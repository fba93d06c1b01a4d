/// @file snapshot_index.cpp
#include "snapshot_index.hpp"

#include <nlohmann/json.hpp>

namespace ccrowd::io {

const char* const kSnapshotIndexFormat = "ccrowd-snapshots";

namespace {

using json = nlohmann::ordered_json;  // members in the order written

json gridJson(const SnapshotFrame& f) {
    return {{"nx", f.nx},
            {"ny", f.ny},
            {"cell_size_m", f.h},
            {"origin_m", {f.origin_x, f.origin_y}},
            {"cell_centre", "origin_m + (i + 0.5, j + 0.5) * cell_size_m for cell (i, j)"},
            {"npy_layout", "C order, shape (ny, nx) or (ny, nx, components); element [j, i] is cell (i, j), row j = 0 at the lowest y"}};
}

json fieldJson(const SnapshotField& fd, int nx, int ny) {
    json shape = {ny, nx};
    if (fd.components > 1) shape.push_back(fd.components);
    return {{"name", fd.name}, {"units", fd.units}, {"components", fd.components}, {"npy_shape", shape}, {"dtype", "<f4"}};
}

json frameJson(const SnapshotRecord& r) {
    json files = json::object();
    if (!r.vti.empty()) files["vti"] = r.vti;
    if (!r.npy.empty()) files["npy"] = r.npy;
    if (!r.png.empty()) files["png"] = r.png;
    return {{"index", r.index}, {"time_s", r.time}, {"step", r.step}, {"files", files}};
}

}  // namespace

std::string snapshotIndexJson(const SnapshotFormats& formats, const SnapshotFrame* layout,
                              const std::vector<SnapshotRecord>& frames) {
    json j;
    j["format"] = kSnapshotIndexFormat;
    j["version"] = kSnapshotIndexVersion;
    // Formats, grid and fields, then the frames written so far.
    j["formats"] = json::array();
    if (formats.vti) j["formats"].push_back("vti");
    if (formats.npy) j["formats"].push_back("npy");
    if (formats.png) j["formats"].push_back("png");
    j["grid"] = layout ? gridJson(*layout) : json(nullptr);
    j["fields"] = json::array();
    if (layout)
        for (const SnapshotField& fd : layout->fields) j["fields"].push_back(fieldJson(fd, layout->nx, layout->ny));
    j["frames"] = json::array();
    for (const SnapshotRecord& r : frames) j["frames"].push_back(frameJson(r));
    // Invalid UTF-8 (e.g. in units) becomes U+FFFD instead of an exception.
    return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace ccrowd::io
