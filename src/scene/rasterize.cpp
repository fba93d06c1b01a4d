/// @file rasterize.cpp
/// Scene -> SceneGrid: blocked cells, open fractions, face apertures and
/// wall edges (subcell.cpp), closed faces (closed_faces.cpp), discomfort, terrain, goal, spawn and source
/// cells (rules in scene.hpp), then the grid checks of scene_checks.cpp.

#include <algorithm>
#include <cmath>

#include "ccrowd/scene.hpp"
#include "closed_faces.hpp"
#include "scene_internal.hpp"

namespace ccrowd {

namespace {

using scene_detail::failAt;
using scene_detail::formatNumber;

/// Calls f(index) for every cell whose centre is inside @p p.
template <class F>
void forCellsIn(const Polygon& p, const geom::GridGeom& g, std::vector<geom::Run>& runs, F f) {
    runs.clear();
    geom::polygonRuns(p, g, runs);
    for (const geom::Run& r : runs) {
        for (int i = r.i0; i < r.i1; ++i) f(i + r.j * g.nx);
    }
}

/// Open cells whose centre is inside any of @p polys, sorted.
std::vector<int> openCellsIn(const std::vector<Polygon>& polys, const geom::GridGeom& g,
                             const Field<std::uint8_t>& blocked, std::vector<geom::Run>& runs) {
    std::vector<int> cells;
    for (const Polygon& p : polys) {
        forCellsIn(p, g, runs, [&](int c) { if (!blocked.host()[c]) cells.push_back(c); });
    }
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    return cells;
}

/// Domain sanity for scenes built in code (parsed scenes are already checked).
void checkDomain(const Scene& s, const geom::GridGeom& g) {
    const int cap = scene_limits::kMaxCellsPerAxis;
    const bool finite = std::isfinite(s.width) && std::isfinite(s.height) && std::isfinite(s.cell) &&
                        std::isfinite(s.origin.x) && std::isfinite(s.origin.y);
    if (!finite || !(s.width > 0) || !(s.height > 0) || !(s.cell > 0)) {
        failAt(s.label, "/domain", "", "width, height and cell must be finite and > 0",
               "width > 0, height > 0, cell > 0 [m]");
    }
    if (g.nx > cap || g.ny > cap) {
        failAt(s.label, "/domain", "", "grid too large: " + std::to_string(g.nx) + " x " + std::to_string(g.ny) + " cells",
               "at most " + std::to_string(cap) + " cells per axis");
    }
}

}  // namespace

void SceneGrid::cellOf(float x, float y, int& i, int& j) const {
    const double fi = std::floor((static_cast<double>(x) - origin.x) / h);
    const double fj = std::floor((static_cast<double>(y) - origin.y) / h);
    i = static_cast<int>(std::clamp(std::isnan(fi) ? 0.0 : fi, 0.0, static_cast<double>(nx - 1)));
    j = static_cast<int>(std::clamp(std::isnan(fj) ? 0.0 : fj, 0.0, static_cast<double>(ny - 1)));
}

namespace {

/// Squared distance from (x, y) to the segment from (ax, ay) to (bx, by).
/// [Units: m^2]
double segmentDistance2(double x, double y, double ax, double ay, double bx, double by) {
    const double ex = bx - ax, ey = by - ay, len2 = ex * ex + ey * ey;
    const double t = len2 > 0 ? std::clamp(((x - ax) * ex + (y - ay) * ey) / len2, 0.0, 1.0) : 0.0;
    const double dx = ax + t * ex - x, dy = ay + t * ey - y;
    return dx * dx + dy * dy;
}

/// Calls f(index) for every cell whose centre is within @p spread of
/// polygon @p p (outside it; the cells inside are forCellsIn's).
template <class F>
void forCellsNear(const Polygon& p, float spread, const geom::GridGeom& g, F f) {
    if (!(spread > 0.f) || p.empty()) return;
    // the cells of the polygon's box grown by the spread
    float x0 = p[0].x, x1 = p[0].x, y0 = p[0].y, y1 = p[0].y;
    for (const Vec2& v : p) { x0 = std::min(x0, v.x); x1 = std::max(x1, v.x); y0 = std::min(y0, v.y); y1 = std::max(y1, v.y); }
    const double r = std::min<double>(spread, 1e7);
    const int i0 = g.firstColumnAtOrAfter(x0 - r), i1 = g.firstColumnAtOrAfter(x1 + r);
    const int j0 = g.firstRowAtOrAfter(y0 - r), j1 = g.firstRowAtOrAfter(y1 + r);
    const double r2 = r * r;
    for (int j = j0; j < j1; ++j)
        for (int i = i0; i < i1; ++i) {
            // distance from the centre to the nearest edge
            const double x = g.cx(i), y = g.cy(j);
            if (geom::pointInPolygon(p, x, y)) continue;
            double best = INFINITY;
            for (std::size_t k = 0; k < p.size(); ++k) {
                const Vec2& a = p[k];
                const Vec2& b = p[(k + 1) % p.size()];
                best = std::min(best, segmentDistance2(x, y, a.x, a.y, b.x, b.y));
            }
            if (best <= r2) f(i + j * g.nx);
        }
}

/// Raises @p d (the discomfort layer) to ModelParams::wall_discomfort in
/// the open cells whose centre lies within wallClearance() of one of
/// @p grid's wall edges: the boundary layer along walls.
void markWallLayer(const Scene& s, const geom::GridGeom& g, const SceneGrid& grid, float* d) {
    const float clearance = wallClearance(s), gw = s.params.wall_discomfort;
    if (!(clearance > 0.f) || !(gw > 0.f)) return;
    const double c2 = static_cast<double>(clearance) * clearance;
    for (const WallSegment& w : grid.walls) {
        const int j0 = std::max(g.firstRowAtOrAfter(std::min(w.ay, w.by) - clearance - g.h), 0);
        const int j1 = std::min(g.firstRowAtOrAfter(std::max(w.ay, w.by) + clearance + g.h), g.ny);
        const double ex = w.bx - w.ax, ey = w.by - w.ay;
        for (int j = j0; j < j1; ++j) {
            // the columns near the part of the edge within the clearance of this row (a long diagonal edge
            // visits a band of cells, not its bounding box)
            const double y = g.cy(j);
            double t0 = 0.0, t1 = 1.0;
            if (ey != 0.0) {
                const double ta = (y - clearance - w.ay) / ey, tb = (y + clearance - w.ay) / ey;
                t0 = std::max(std::min(ta, tb), 0.0);
                t1 = std::min(std::max(ta, tb), 1.0);
                if (t0 > t1) continue;
            }
            const double xa = w.ax + t0 * ex, xb = w.ax + t1 * ex;
            const int i0 = std::max(g.firstColumnAtOrAfter(std::min(xa, xb) - clearance - g.h), 0);
            const int i1 = std::min(g.firstColumnAtOrAfter(std::max(xa, xb) + clearance + g.h), g.nx);
            for (int i = i0; i < i1; ++i) {
                const int c = i + j * g.nx;
                if (!grid.blocked.host()[c] && segmentDistance2(g.cx(i), y, w.ax, w.ay, w.bx, w.by) < c2)
                    d[c] = std::max(d[c], gw);
            }
        }
    }
}

}  // namespace

void rasterizeDiscomfort(const Scene& s, SceneGrid& grid) {
    const geom::GridGeom g = scene_detail::gridGeom(s);
    std::vector<geom::Run> runs;
    // the max of overlapping regions (each with the cells its spread reaches), 0 elsewhere
    grid.discomfort.assign(g.nx, g.ny, 0.f);
    float* d = grid.discomfort.host();
    for (const DiscomfortSpec& r : s.discomfort) {
        auto mark = [&](int c) { d[c] = std::max(d[c], r.value); };
        forCellsIn(r.area, g, runs, mark);
        forCellsNear(r.area, r.spread, g, mark);
    }
    // the boundary layer along walls
    markWallLayer(s, g, grid, d);
}

SceneGrid rasterizeEnvironment(const Scene& scene, int threads) {
    // closed barriers block like obstacles
    Scene withBarriers;
    const bool anyClosed = std::any_of(scene.barriers.begin(), scene.barriers.end(), [](const BarrierSpec& b) { return b.closed; });
    if (anyClosed) {
        withBarriers = scene;
        for (const BarrierSpec& b : scene.barriers)
            if (b.closed) withBarriers.obstacles.push_back(b.area);
    }
    const Scene& s = anyClosed ? withBarriers : scene;
    const geom::GridGeom g = scene_detail::gridGeom(s);
    checkDomain(s, g);
    SceneGrid grid;
    grid.nx = g.nx;
    grid.ny = g.ny;
    grid.h = s.cell;
    grid.origin = s.origin;
    std::vector<geom::Run> runs;

    // Walkable area: everything, or only the cells inside its polygons.
    grid.blocked.assign(g.nx, g.ny, s.walkable.empty() ? 0 : 1);
    std::uint8_t* blocked = grid.blocked.host();
    for (const Polygon& p : s.walkable) forCellsIn(p, g, runs, [&](int c) { blocked[c] = 0; });

    // Cells whose centre is past the domain's far edges (width/cell not whole).
    const int iEnd = g.firstColumnAtOrAfter(static_cast<double>(s.origin.x) + s.width);
    const int jEnd = g.firstRowAtOrAfter(static_cast<double>(s.origin.y) + s.height);
    for (int j = 0; j < g.ny; ++j) {
        for (int i = 0; i < g.nx; ++i) {
            if (i >= iEnd || j >= jEnd) blocked[i + j * g.nx] = 1;
        }
    }

    // Obstacles and floor plans (their walls kept apart for the sub-cell raster).
    for (const Polygon& p : s.obstacles) forCellsIn(p, g, runs, [&](int c) { blocked[c] = 1; });
    Field<std::uint8_t> planWalls(g.nx, g.ny, 0);
    for (std::size_t k = 0; k < s.floor_plans.size(); ++k) {
        scene_detail::applyFloorPlan(s, static_cast<int>(k), g, planWalls);
    }
    for (std::size_t c = 0; c < planWalls.size(); ++c) blocked[c] |= planWalls.host()[c];

    // Sub-cell geometry: open fractions, face apertures and wall edges, exact from the polygons.
    scene_detail::rasterizeGeometry(s, g, planWalls, grid, threads);
    // Faces the fields treat as walls: thin walls, and gaps narrower than the smallest body.
    scene_detail::closeFaces(grid, 2.f * smallestBodyRadius(s));

    // Discomfort: max of overlapping regions; terrain: min factor.
    rasterizeDiscomfort(s, grid);
    grid.terrain.assign(g.nx, g.ny, 1.f);
    for (const TerrainSpec& t : s.terrain) {
        float* out = grid.terrain.host();
        forCellsIn(t.area, g, runs, [&](int c) { out[c] = std::min(out[c], t.factor); });
    }

    // Goal cells: open centres inside; a polygon covering no centre at all
    // (thinner than a cell) uses the open cells it overlaps.
    for (const GoalSpec& goal : s.goals) {
        std::vector<int> cells;
        for (std::size_t a = 0; a < goal.areas.size(); ++a) {
            if (a < goal.disabled.size() && goal.disabled[a]) continue;  // switched off by an event
            const Polygon& p = goal.areas[a];
            bool anyCentre = false;
            forCellsIn(p, g, runs, [&](int c) {
                anyCentre = true;
                if (!blocked[c]) cells.push_back(c);
            });
            if (!anyCentre) {
                for (int c : geom::overlappedCells(p, g)) {
                    if (!blocked[c]) cells.push_back(c);
                }
            }
        }
        std::sort(cells.begin(), cells.end());
        cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
        grid.goal_cells.push_back(std::move(cells));
    }

    // Spawn and source cells.
    for (const GroupSpec& group : s.groups) grid.spawn_cells.push_back(openCellsIn(group.spawn, g, grid.blocked, runs));
    for (const SourceSpec& src : s.sources) grid.source_cells.push_back(openCellsIn({src.region}, g, grid.blocked, runs));

    return grid;
}

SceneGrid rasterizeScene(const Scene& s, int threads) {
    SceneGrid grid = rasterizeEnvironment(s, threads);
    // Goals reachable, counts fit: fail before anything runs.
    scene_detail::checkGrid(s, grid);
    return grid;
}

}  // namespace ccrowd
