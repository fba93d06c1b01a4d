/// @file snapshot_frame.cpp
#include "snapshot_frame.hpp"

#include <cmath>
#include <set>

#include "ccrowd/error.hpp"

namespace ccrowd::io {

namespace {

constexpr std::size_t kMaxNameLength = 64;

bool nameChar(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

[[noreturn]] void fail(const SnapshotFrame& f, const std::string& what) {
    throw Error("invalid snapshot frame (step " + std::to_string(f.step) + "): " + what);
}

}  // namespace

void validateSnapshotFrame(const SnapshotFrame& f) {
    // Grid and time.
    if (f.nx < 1 || f.ny < 1) fail(f, "grid " + std::to_string(f.nx) + "x" + std::to_string(f.ny) + " (allowed: nx, ny >= 1)");
    if (!(std::isfinite(f.h) && f.h > 0.f)) fail(f, "cell size h = " + std::to_string(f.h) + " m (allowed: finite, > 0)");
    if (!std::isfinite(f.origin_x) || !std::isfinite(f.origin_y)) fail(f, "origin is not finite");
    if (!std::isfinite(f.time)) fail(f, "time is not finite");
    if (f.step < 0) fail(f, "step " + std::to_string(f.step) + " (allowed: >= 0)");
    if (f.fields.empty()) fail(f, "no fields (allowed: at least one)");
    // Fields: names usable in file names, sizes matching the grid.
    std::set<std::string> seen;
    const std::size_t cells = static_cast<std::size_t>(f.nx) * static_cast<std::size_t>(f.ny);
    for (const SnapshotField& fd : f.fields) {
        const std::string label = "field '" + fd.name + "'";
        if (fd.name.empty() || fd.name.size() > kMaxNameLength) fail(f, label + ": name length " + std::to_string(fd.name.size()) + " (allowed: 1..64)");
        for (char c : fd.name)
            if (!nameChar(c)) fail(f, label + ": name contains '" + std::string(1, c) + "' (allowed: A-Z a-z 0-9 _ -)");
        if (!seen.insert(fd.name).second) fail(f, label + ": duplicate name");
        if (fd.components < 1 || fd.components > 4) fail(f, label + ": components = " + std::to_string(fd.components) + " (allowed: 1..4)");
        const std::size_t want = cells * static_cast<std::size_t>(fd.components);
        if (fd.data.size() != want) {
            fail(f, label + ": " + std::to_string(fd.data.size()) + " values, expected nx*ny*components = " +
                        std::to_string(f.nx) + "*" + std::to_string(f.ny) + "*" + std::to_string(fd.components) + " = " +
                        std::to_string(want));
        }
    }
}

std::string snapshotLayoutDifference(const SnapshotFrame& a, const SnapshotFrame& b) {
    // Grid first, then the field list.
    if (a.nx != b.nx) return "nx " + std::to_string(b.nx) + " != " + std::to_string(a.nx);
    if (a.ny != b.ny) return "ny " + std::to_string(b.ny) + " != " + std::to_string(a.ny);
    if (a.h != b.h) return "cell size " + std::to_string(b.h) + " m != " + std::to_string(a.h) + " m";
    if (a.origin_x != b.origin_x || a.origin_y != b.origin_y) return "grid origin differs";
    if (a.fields.size() != b.fields.size()) return std::to_string(b.fields.size()) + " fields != " + std::to_string(a.fields.size());
    for (std::size_t k = 0; k < a.fields.size(); ++k) {
        const SnapshotField& fa = a.fields[k];
        const SnapshotField& fb = b.fields[k];
        if (fa.name != fb.name) return "field " + std::to_string(k) + " is '" + fb.name + "', not '" + fa.name + "'";
        if (fa.units != fb.units) return "field '" + fa.name + "' units '" + fb.units + "' != '" + fa.units + "'";
        if (fa.components != fb.components) return "field '" + fa.name + "' components " + std::to_string(fb.components) + " != " + std::to_string(fa.components);
    }
    return {};
}

}  // namespace ccrowd::io
