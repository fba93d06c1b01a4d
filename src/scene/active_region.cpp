/// @file active_region.cpp
/// Seed 002's active grid (§4.2.3): where the active region is at a time,
/// on the scene's grid, and the strips of cells along its sides that its
/// goals cover.

#include <algorithm>
#include <cmath>

#include "ccrowd/scene.hpp"
#include "scene_internal.hpp"

namespace ccrowd {

Vec2 activeRegionCentre(const Scene& scene, double t) {
    const ActiveRegionSpec& r = scene.active_region;
    // an incident's centre, where it is followed
    for (const IncidentSpec& in : scene.incidents)
        if (!r.follow.empty() && in.name == r.follow) return in.position;
    // else the focus path, held at its ends, linear between its points
    const std::vector<FocusPoint>& f = r.focus;
    if (f.empty()) return {scene.origin.x + 0.5f * scene.width, scene.origin.y + 0.5f * scene.height};
    if (t <= f.front().time) return f.front().position;
    if (t >= f.back().time) return f.back().position;
    const auto next = std::upper_bound(f.begin(), f.end(), t, [](double x, const FocusPoint& p) { return x < p.time; });
    const FocusPoint &b = *next, &a = *(next - 1);
    const double u = (t - a.time) / (b.time - a.time);
    return {static_cast<float>(a.position.x + u * (b.position.x - a.position.x)),
            static_cast<float>(a.position.y + u * (b.position.y - a.position.y))};
}

RegionCells activeRegionCells(const Scene& scene, double t) {
    const geom::GridGeom g = scene_detail::gridGeom(scene);
    if (!scene.active_region.enabled()) return {0, 0, g.nx, g.ny};
    // the size in whole cells (at least 3: a border and an inside), at most the grid
    auto cells = [](double size, double h, int n) { return std::clamp(static_cast<int>(std::lround(size / h)), std::min(3, n), n); };
    const int w = cells(scene.active_region.size.x, g.h, g.nx), h = cells(scene.active_region.size.y, g.h, g.ny);
    // centred on the nearest cell corner to the centre, shifted inside the grid
    const Vec2 c = activeRegionCentre(scene, t);
    const int i0 = std::clamp(static_cast<int>(std::lround((c.x - g.ox) / g.h - 0.5 * w)), 0, g.nx - w);
    const int j0 = std::clamp(static_cast<int>(std::lround((c.y - g.oy) / g.h - 0.5 * h)), 0, g.ny - h);
    return {i0, j0, i0 + w, j0 + h};
}

std::vector<Polygon> regionGoalAreas(const Scene& scene, const RegionCells& r, int side) {
    const float h = scene.cell, ox = scene.origin.x, oy = scene.origin.y;
    const float x0 = ox + r.i0 * h, x1 = ox + r.i1 * h, y0 = oy + r.j0 * h, y1 = oy + r.j1 * h;
    auto box = [](float a, float b, float c, float d) { return Polygon{{a, b}, {c, b}, {c, d}, {a, d}}; };
    // one strip a cell wide inside each side (kRegionGoalNames' order)
    const Polygon strips[4] = {box(x0, y0, x0 + h, y1), box(x1 - h, y0, x1, y1), box(x0, y0, x1, y0 + h), box(x0, y1 - h, x1, y1)};
    if (side >= 1 && side <= 4) return {strips[side - 1]};
    return {strips[0], strips[1], strips[2], strips[3]};
}

}  // namespace ccrowd
