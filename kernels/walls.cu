/// @file walls.cu
/// Host side of the wall edges (walls.hpp): the per-cell index and the
/// edges of a blocked mask. Compiled by nvcc in CUDA builds and by the C++
/// compiler otherwise; nothing here runs on the device.

#include <algorithm>
#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "walls.hpp"

namespace ccrowd::sim {

namespace {

/// Distance from point (x, y) to segment @p s. [Units: m]
double distanceTo(const WallSegment& s, double x, double y) {
    const double ux = s.bx - s.ax, uy = s.by - s.ay, l2 = ux * ux + uy * uy;
    double t = l2 > 0 ? ((x - s.ax) * ux + (y - s.ay) * uy) / l2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(x - (s.ax + t * ux), y - (s.ay + t * uy));
}

}  // namespace

void buildWallIndex(const Exec& ex, const std::vector<WallSegment>& segments, const GridInfo& g, float reach,
                    WallIndex& out) {
    if (!(reach >= 0.f) || !std::isfinite(reach))
        throw InputError(fieldMessage("wall index reach", std::to_string(reach), "out of range", ">= 0 m, finite"));
    const double r = std::max(reach, g.h), halfDiag = 0.5 * std::sqrt(2.0) * g.h;
    const int cells = g.nx * g.ny;
    // (cell, edge) pairs: cells whose centre lies within reach + half a diagonal of the edge
    std::vector<std::pair<int, int>> pairs;
    for (int k = 0; k < static_cast<int>(segments.size()); ++k) {
        const WallSegment& s = segments[static_cast<std::size_t>(k)];
        const double x0 = std::min(s.ax, s.bx) - r, x1 = std::max(s.ax, s.bx) + r;
        const double y0 = std::min(s.ay, s.by) - r, y1 = std::max(s.ay, s.by) + r;
        const int i0 = std::max(0, static_cast<int>(std::floor((x0 - g.ox) / g.h)));
        const int i1 = std::min(g.nx - 1, static_cast<int>(std::floor((x1 - g.ox) / g.h)));
        const int j0 = std::max(0, static_cast<int>(std::floor((y0 - g.oy) / g.h)));
        const int j1 = std::min(g.ny - 1, static_cast<int>(std::floor((y1 - g.oy) / g.h)));
        for (int j = j0; j <= j1; ++j)
            for (int i = i0; i <= i1; ++i)
                if (distanceTo(s, g.centreX(i), g.centreY(j)) <= r + halfDiag) pairs.emplace_back(g.index(i, j), k);
    }
    // compressed rows, edges ascending per cell
    std::sort(pairs.begin(), pairs.end());
    out.segments.vector() = segments;
    out.first.vector().assign(static_cast<std::size_t>(cells) + 1, 0);
    out.list.vector().resize(pairs.size());
    for (std::size_t p = 0; p < pairs.size(); ++p) {
        ++out.first[static_cast<std::size_t>(pairs[p].first) + 1];
        out.list[p] = pairs[p].second;
    }
    for (int c = 0; c < cells; ++c) out.first[static_cast<std::size_t>(c) + 1] += out.first[static_cast<std::size_t>(c)];
    out.reach = static_cast<float>(r);
    // once on the backend's side: the walls do not move
    out.segments.toDevice(ex);
    out.first.toDevice(ex);
    out.list.toDevice(ex);
}

std::vector<WallSegment> maskWallSegments(const GridInfo& g, const View2<const std::uint8_t>& blocked) {
    auto open = [&](int i, int j) { return g.inside(i, j) && !blocked(i, j); };
    std::vector<WallSegment> out;
    const float h = g.h;
    // vertical faces (x = ox + i h): runs of rows with the same open side
    for (int i = 0; i <= g.nx; ++i) {
        for (int j = 0; j < g.ny;) {
            const bool west = open(i - 1, j), east = open(i, j);
            if (west == east) { ++j; continue; }
            int e = j + 1;
            while (e < g.ny && open(i - 1, e) == west && open(i, e) == east) ++e;
            const float x = g.ox + i * h, y0 = g.oy + j * h, y1 = g.oy + e * h;
            // open on the left: northwards with the open cell west, southwards with it east
            out.push_back(west ? WallSegment{x, y0, x, y1} : WallSegment{x, y1, x, y0});
            j = e;
        }
    }
    // horizontal faces (y = oy + j h)
    for (int j = 0; j <= g.ny; ++j) {
        for (int i = 0; i < g.nx;) {
            const bool south = open(i, j - 1), north = open(i, j);
            if (south == north) { ++i; continue; }
            int e = i + 1;
            while (e < g.nx && open(e, j - 1) == south && open(e, j) == north) ++e;
            const float y = g.oy + j * h, x0 = g.ox + i * h, x1 = g.ox + e * h;
            // open on the left: eastwards with the open cell north, westwards with it south
            out.push_back(north ? WallSegment{x0, y, x1, y} : WallSegment{x1, y, x0, y});
            i = e;
        }
    }
    return out;
}

WallView wallView(const Exec& ex, const GridInfo& g, WallIndex& index) {
    WallView w;
    w.g = g;
    w.seg = index.segments.view(ex);
    w.first = index.first.view(ex);
    w.list = index.list.view(ex);
    w.reach = index.reach;
    return w;
}

}  // namespace ccrowd::sim
