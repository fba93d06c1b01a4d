/// @file subcell.cpp
/// Sub-cell geometry (issue 12): the open fraction of every cell and the
/// open share of every cell face, exact from the scene's polygons (the open
/// region of open_region.cpp), clipped with Boost.Geometry.
///
/// Row by row: the region clipped to a band about the row; cells that an
/// edge passes through ("cut" cells) are clipped one by one, and the runs
/// of cells between them, which no edge enters, are wholly open or wholly
/// closed (one point test per run). A face's aperture is the length of the
/// face that the open parts of both its cells touch, over h (the clipped
/// polygons' edges on the face's line): a face along a wall's edge is
/// touched from one side only and is closed. Faces between uncut cells are
/// 1 or 0 without clipping.
/// Floor-plan walls are rasters: their cells and faces close whole.

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <boost/geometry/algorithms/area.hpp>
#include <boost/geometry/algorithms/intersection.hpp>
#include <boost/geometry/algorithms/within.hpp>

#include "ccrowd/backend.hpp"
#include "ccrowd/error.hpp"
#include "kernels/walls.hpp"
#include "subcell.hpp"

namespace ccrowd::scene_detail {

namespace {

namespace bg = boost::geometry;
using geom::BBox;
using geom::BPoint;
using geom::BPolygon;
using geom::BRegion;

/// Closed intervals [lo, hi] along a cell face. [Units: m]
using Intervals = std::vector<std::pair<double, double>>;

/// The face pieces a cell's open part touches, per face (E, W, N, S): the
/// edges of its clipped polygon that lie on the face's line. A face is open
/// where both its cells touch it: along a wall's edge only one side does.
struct FaceTouch {
    Intervals side[4];
};

/// Intervals of @p clipped's edges lying on the cell's four face lines
/// (x = x0, x1 or y = y0, y1, within a rounding tolerance).
FaceTouch touchedFaces(const BRegion& clipped, double x0, double y0, double x1, double y1) {
    const double eps = 1e-9 * (std::fabs(x0) + std::fabs(y0) + (x1 - x0));
    FaceTouch t;
    auto ring = [&](const auto& r) {
        for (std::size_t k = 0; k + 1 < r.size(); ++k) {
            const BPoint& a = r[k];
            const BPoint& b = r[k + 1];
            const double ylo = std::min(a.y(), b.y()), yhi = std::max(a.y(), b.y());
            const double xlo = std::min(a.x(), b.x()), xhi = std::max(a.x(), b.x());
            if (std::fabs(a.x() - x1) <= eps && std::fabs(b.x() - x1) <= eps) t.side[0].push_back({ylo, yhi});
            if (std::fabs(a.x() - x0) <= eps && std::fabs(b.x() - x0) <= eps) t.side[1].push_back({ylo, yhi});
            if (std::fabs(a.y() - y1) <= eps && std::fabs(b.y() - y1) <= eps) t.side[2].push_back({xlo, xhi});
            if (std::fabs(a.y() - y0) <= eps && std::fabs(b.y() - y0) <= eps) t.side[3].push_back({xlo, xhi});
        }
    };
    for (const BPolygon& p : clipped) {
        ring(p.outer());
        for (const auto& hole : p.inners()) ring(hole);
    }
    return t;
}

/// Length covered by both interval lists. [Units: m]
double overlapLength(Intervals a, Intervals b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    double len = 0.0;
    for (const auto& p : a)
        for (const auto& q : b) len += std::max(0.0, std::min(p.second, q.second) - std::max(p.first, q.first));
    return len;
}

/// The region clipped to the box [x0, x1] x [y0, y1].
BRegion clipTo(const BRegion& region, double x0, double y0, double x1, double y1) {
    BRegion out;
    bg::intersection(region, BBox(BPoint(x0, y0), BPoint(x1, y1)), out);
    return out;
}

/// Marks the columns of row [y0, y1] whose interior an edge of @p band (the
/// region clipped to a band reaching past the row) passes through: each
/// edge's part within the row, less edges lying along the row's lines.
void markCutColumns(const BRegion& band, const geom::GridGeom& g, double y0, double y1, char* cut) {
    auto ring = [&](const auto& r) {
        for (std::size_t k = 0; k + 1 < r.size(); ++k) {
            const BPoint& a = r[k];
            const BPoint& b = r[k + 1];
            // the edge's part with y in [y0, y1]
            double ta = 0.0, tb = 1.0;
            if (a.y() == b.y()) {
                if (!(a.y() > y0 && a.y() < y1)) continue;  // outside the row, or along one of its lines
            } else {
                const double t0 = (y0 - a.y()) / (b.y() - a.y()), t1 = (y1 - a.y()) / (b.y() - a.y());
                ta = std::max(ta, std::min(t0, t1));
                tb = std::min(tb, std::max(t0, t1));
                if (!(ta < tb)) continue;
            }
            const double xa = a.x() + ta * (b.x() - a.x()), xb = a.x() + tb * (b.x() - a.x());
            const double lo = (std::min(xa, xb) - g.ox) / g.h, hi = (std::max(xa, xb) - g.ox) / g.h;
            const int c0 = std::max(0, static_cast<int>(std::floor(lo - 1e-9)));
            const int c1 = std::min(g.nx - 1, static_cast<int>(std::floor(hi + 1e-9)));
            for (int c = c0; c <= c1; ++c) cut[c] = 1;
        }
    };
    for (const BPolygon& p : band) {
        ring(p.outer());
        for (const auto& hole : p.inners()) ring(hole);
    }
}

}  // namespace

void rasterizeSubcell(const geom::BRegion& region, const geom::GridGeom& g, const Field<std::uint8_t>& planWalls,
                      SceneGrid& grid, int threads) {
    const int nx = g.nx, ny = g.ny;
    const double h = g.h;
    grid.open_fraction.assign(nx, ny, 0.f);
    grid.aperture_x.assign(nx + 1, ny, 0.f);
    grid.aperture_y.assign(nx, ny + 1, 0.f);
    std::vector<char> cutCells(static_cast<std::size_t>(nx) * ny, 0);
    // per row: the cut cells' columns and the face pieces they touch
    std::vector<std::vector<std::pair<int, FaceTouch>>> touches(static_cast<std::size_t>(ny));
    float* frac = grid.open_fraction.host();

    // rows: cut cells clipped, runs between them tested once
    auto rasterRow = [&](int j) {
        const double y0 = g.oy + j * h, y1 = y0 + h;
        // the band reaches half a cell past the row: its own edges lie on no
        // cell's edge (Boost 1.74's overlay returned whole cells for strips
        // whose vertices lay on the clipping box's edges)
        const BRegion strip = clipTo(region, g.ox, y0 - 0.5 * h, g.ox + nx * h, y1 + 0.5 * h);
        char* cut = &cutCells[static_cast<std::size_t>(j) * nx];
        markCutColumns(strip, g, y0, y1, cut);
        float* row = frac + static_cast<std::size_t>(j) * nx;
        for (int i = 0; i < nx;) {
            const double x0 = g.ox + i * h;
            if (cut[i]) {
                // a cut cell: its exact open area and the face pieces it touches
                const BRegion part = clipTo(strip, x0, y0, x0 + h, y1);
                row[i] = static_cast<float>(std::clamp(bg::area(part) / (h * h), 0.0, 1.0));
                touches[static_cast<std::size_t>(j)].emplace_back(i, touchedFaces(part, x0, y0, x0 + h, y1));
                ++i;
                continue;
            }
            // a run no edge enters: wholly open or wholly closed
            int e = i;
            while (e < nx && !cut[e]) ++e;
            const float v = bg::within(BPoint(g.cx(i), g.cy(j)), strip) ? 1.f : 0.f;
            std::fill(row + i, row + e, v);
            i = e;
        }
    };
    // an exception must not leave an OpenMP region: the first one is kept and rethrown
    std::string failure;
    #pragma omp parallel for num_threads(threads) schedule(dynamic, 4)
    for (int j = 0; j < ny; ++j) {
        try {
            rasterRow(j);
        } catch (const std::exception& e) {
            #pragma omp critical(subcell_failure)
            if (failure.empty()) failure = e.what();
        }
    }
    if (!failure.empty()) throw std::runtime_error(failure);

    // floor-plan walls close their cells whole
    const std::uint8_t* plan = planWalls.host();
    for (std::size_t c = 0; c < cutCells.size(); ++c) {
        if (!plan[c]) continue;
        frac[c] = 0.f;
        cutCells[c] = 0;
    }

    // The pieces of face @p side (0 E, 1 W, 2 N, 3 S) of cell (i, j) that its open part touches.
    auto touched = [&](int i, int j, int side) -> Intervals {
        const std::size_t c = static_cast<std::size_t>(j) * nx + i;
        if (!cutCells[c]) {
            if (!(frac[c] > 0.f)) return {};
            const double lo = side < 2 ? g.oy + j * h : g.ox + i * h;
            return {{lo, lo + h}};
        }
        const auto& row = touches[static_cast<std::size_t>(j)];
        const auto it = std::lower_bound(row.begin(), row.end(), i,
                                         [](const std::pair<int, FaceTouch>& a, int col) { return a.first < col; });
        return it->second.side[side];
    };
    // A face is open where both its cells touch it; faces between whole cells are 1 or 0.
    auto aperture = [&](int ia, int ja, int sa, int ib, int jb, int sb) {
        const std::size_t a = static_cast<std::size_t>(ja) * nx + ia, b = static_cast<std::size_t>(jb) * nx + ib;
        if (!cutCells[a] && !cutCells[b]) return frac[a] > 0.f && frac[b] > 0.f ? 1.f : 0.f;
        return static_cast<float>(std::clamp(overlapLength(touched(ia, ja, sa), touched(ib, jb, sb)) / h, 0.0, 1.0));
    };
    // x faces: E of (i - 1, j) against W of (i, j); y faces: N of (i, j - 1) against S of (i, j); grid edges stay closed
    #pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
    for (int j = 0; j < ny; ++j) {
        for (int i = 1; i < nx; ++i) grid.aperture_x(i, j) = aperture(i - 1, j, 0, i, j, 1);
        if (j > 0)
            for (int i = 0; i < nx; ++i) grid.aperture_y(i, j) = aperture(i, j - 1, 2, i, j, 3);
    }
}

std::vector<WallSegment> wallEdges(const geom::BRegion& region, const geom::GridGeom& g,
                                   const Field<std::uint8_t>& planWalls) {
    std::vector<WallSegment> out;
    // every ring's edges, in the ring's order
    auto ring = [&](const auto& r) {
        for (std::size_t k = 0; k + 1 < r.size(); ++k) {
            const WallSegment s{static_cast<float>(r[k].x()), static_cast<float>(r[k].y()),
                                static_cast<float>(r[k + 1].x()), static_cast<float>(r[k + 1].y())};
            if (s.ax != s.bx || s.ay != s.by) out.push_back(s);
        }
    };
    for (const BPolygon& p : region) {
        ring(p.outer());
        for (const auto& hole : p.inners()) ring(hole);
    }
    // floor-plan walls: their cells' faces (the grid's edge is already the domain's)
    bool anyPlan = false;
    for (std::size_t c = 0; c < planWalls.size() && !anyPlan; ++c) anyPlan = planWalls.host()[c] != 0;
    if (anyPlan) {
        const GridInfo gi{g.nx, g.ny, static_cast<float>(g.h), static_cast<float>(g.ox), static_cast<float>(g.oy)};
        for (const WallSegment& s : sim::maskWallSegments(gi, planWalls.hostView())) out.push_back(s);
    }
    return out;
}

void rasterizeGeometry(const Scene& scene, const geom::GridGeom& g, const Field<std::uint8_t>& planWalls,
                       SceneGrid& grid, int threads) {
    try {
        const geom::BRegion region = geom::sceneOpenRegion(scene);
        rasterizeSubcell(region, g, planWalls, grid, cpuThreads(Exec{Backend::Cpu, threads}));
        grid.walls = wallEdges(region, g, planWalls);
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        // Boost.Geometry's overlay refuses some valid-looking inputs (e.g. nearly coincident edges)
        scene_detail::failAt(scene.label, "/obstacles", "", std::string("the walkable area and the obstacles could not be "
                             "combined into exact walls (") + e.what() + ")",
                             "polygons whose edges do not nearly coincide (move or merge touching polygons)");
    }
}

}  // namespace ccrowd::scene_detail
