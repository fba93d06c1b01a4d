/// @file test_scene_raster.cpp
/// Rasterisation (rasterizeScene) and its geometry (src/scene/polygon.hpp):
/// scanline runs agree with point-in-polygon; walls one cell thick or more
/// never leak at 0/30/45/60/90 degrees; a 1 m door on a 0.25 m grid keeps at
/// least 3 open cells at every sub-cell offset; walkable areas, domain edges,
/// discomfort (max), terrain (min), goal cells (thin goals), floor plans.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <queue>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "src/plot/canvas.hpp"
#include "src/plot/png.hpp"
#include "src/scene/polygon.hpp"

namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;

Polygon rectPoly(float x0, float y0, float x1, float y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

/// A rotated rectangle: centre line through (cx, cy) at @p angleDeg, length
/// @p len, thickness @p t. [Units: m]
Polygon strip(double cx, double cy, double angleDeg, double len, double t) {
    const double a = angleDeg * M_PI / 180, ux = std::cos(a), uy = std::sin(a), nx = -uy, ny = ux;
    auto pt = [&](double s, double o) {
        return Vec2{static_cast<float>(cx + s * ux + o * nx), static_cast<float>(cy + s * uy + o * ny)};
    };
    return {pt(-len / 2, -t / 2), pt(len / 2, -t / 2), pt(len / 2, t / 2), pt(-len / 2, t / 2)};
}

/// A scene with one goal and one group (one agent), for rasterisation tests.
Scene sceneWith(float w, float h, float cell, const Polygon& goal, const Polygon& spawn) {
    Scene s;
    s.label = "raster-test";
    s.width = w;
    s.height = h;
    s.cell = cell;
    s.goals.push_back({"goal", {goal}, 0.f, true, {}});
    GroupSpec g;
    g.name = "g";
    g.spawn = {spawn};
    g.count = 1;
    g.route = {"goal"};
    s.groups.push_back(g);
    return s;
}

/// Open cells reachable from (i0, j0) through 4-neighbours.
std::vector<char> floodFill(const SceneGrid& g, int i0, int j0) {
    std::vector<char> seen(static_cast<std::size_t>(g.nx) * g.ny, 0);
    std::queue<std::pair<int, int>> q;
    if (!g.blocked(i0, j0)) { seen[i0 + j0 * g.nx] = 1; q.push({i0, j0}); }
    while (!q.empty()) {
        const auto [i, j] = q.front();
        q.pop();
        const int di[4] = {1, -1, 0, 0}, dj[4] = {0, 0, 1, -1};
        for (int k = 0; k < 4; ++k) {
            const int a = i + di[k], b = j + dj[k];
            if (a < 0 || b < 0 || a >= g.nx || b >= g.ny || g.blocked(a, b) || seen[a + b * g.nx]) continue;
            seen[a + b * g.nx] = 1;
            q.push({a, b});
        }
    }
    return seen;
}

double cx(const SceneGrid& g, int i) { return g.origin.x + (i + 0.5) * g.h; }
double cy(const SceneGrid& g, int j) { return g.origin.y + (j + 0.5) * g.h; }

TEST(SceneRaster, RunsAgreeWithPointInPolygon) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(0, 1);
    for (int trial = 0; trial < 200; ++trial) {
        // Random star-shaped polygon, random grid placement (cell centres on edges too).
        const int n = 3 + trial % 12;
        Polygon p;
        for (int k = 0; k < n; ++k) {
            const double a = 2 * M_PI * (k + 0.8 * u(rng)) / n, r = 1 + 4 * u(rng);
            const double snap = trial % 3 == 0 ? 0.25 : 0;  // vertices on cell edges/centres
            double x = 5 + r * std::cos(a), y = 5 + r * std::sin(a);
            if (snap > 0) { x = std::round(x / 0.125) * 0.125; y = std::round(y / 0.125) * 0.125; }
            p.push_back({static_cast<float>(x), static_cast<float>(y)});
        }
        geom::GridGeom g;
        g.nx = 44;
        g.ny = 44;
        g.h = 0.25;
        g.ox = trial % 2 ? -0.5 : -0.5 + 0.1 * u(rng);
        g.oy = -0.5;
        std::vector<geom::Run> runs;
        geom::polygonRuns(p, g, runs);
        std::vector<char> in(static_cast<std::size_t>(g.nx) * g.ny, 0);
        for (const geom::Run& r : runs) {
            for (int i = r.i0; i < r.i1; ++i) in[i + r.j * g.nx] = 1;
        }
        for (int j = 0; j < g.ny; ++j) {
            for (int i = 0; i < g.nx; ++i) {
                ASSERT_EQ(in[i + j * g.nx], geom::pointInPolygon(p, g.cx(i), g.cy(j)))
                    << "trial " << trial << " cell " << i << "," << j;
            }
        }
    }
}

TEST(SceneRaster, PolygonPrimitives) {
    const Polygon sq = rectPoly(0, 0, 2, 1);
    EXPECT_DOUBLE_EQ(geom::signedArea(sq), 2.0);
    Polygon cw(sq.rbegin(), sq.rend());
    EXPECT_DOUBLE_EQ(geom::signedArea(cw), -2.0);
    // Lower and left edges inside, upper and right outside.
    EXPECT_TRUE(geom::pointInPolygon(sq, 0.0, 0.5));
    EXPECT_FALSE(geom::pointInPolygon(sq, 2.0, 0.5));
    EXPECT_TRUE(geom::pointInPolygon(sq, 1.0, 0.0));
    EXPECT_FALSE(geom::pointInPolygon(sq, 1.0, 1.0));
    EXPECT_TRUE(geom::segmentsIntersect({0, 0}, {2, 2}, {0, 2}, {2, 0}));
    EXPECT_TRUE(geom::segmentsIntersect({0, 0}, {2, 0}, {1, 0}, {1, 5}));   // touching
    EXPECT_TRUE(geom::segmentsIntersect({0, 0}, {2, 0}, {1, 0}, {3, 0}));   // collinear overlap
    EXPECT_FALSE(geom::segmentsIntersect({0, 0}, {2, 0}, {3, 0}, {4, 0}));  // collinear apart
    EXPECT_FALSE(geom::segmentsIntersect({0, 0}, {1, 1}, {0, 1}, {0.4f, 0.6f}));
    EXPECT_EQ(geom::findSelfIntersection(sq).first, -1);
    EXPECT_GE(geom::findSelfIntersection({{0, 0}, {1, 1}, {1, 0}, {0, 1}}).first, 0);  // bowtie
    EXPECT_GE(geom::findSelfIntersection({{0, 0}, {2, 0}, {1, 0}, {1, 1}}).first, 0);  // spike
    EXPECT_EQ(geom::findSelfIntersection({{0, 0}, {4, 0}, {4, 4}, {2, 1}, {0, 4}}).first, -1);  // concave, simple
    EXPECT_NEAR(geom::clippedArea(sq, {1, 0, 3, 3}), 1.0, 1e-12);
    EXPECT_NEAR(geom::clippedArea({{0, 0}, {2, 0}, {0, 2}}, {0, 0, 1, 1}), 1.0, 1e-12);
    EXPECT_NEAR(geom::clippedArea(sq, {5, 5, 6, 6}), 0.0, 1e-12);
}

TEST(SceneRaster, WallsNeverLeak) {
    // 20 m x 20 m, h = 0.25 m; a wall through the middle at each angle,
    // thickness 1, 1.2 and 2 cells, several sub-cell offsets of its centre line.
    const float h = 0.25f;
    for (double angle : {0.0, 30.0, 45.0, 60.0, 90.0, 15.0, 75.0, 135.0}) {
        for (double thick : {1.0, 1.2, 2.0}) {
            for (double off : {0.0, 0.05, 0.125, 0.2, 0.25 / 3}) {
                SCOPED_TRACE(testing::Message() << "angle " << angle << " thickness " << thick << " cells, offset " << off);
                const double a = angle * M_PI / 180, nx = -std::sin(a), ny = std::cos(a);
                const double ccx = 10 + off, ccy = 10 + off / 2;
                // Goal and spawn on the negative side of the wall.
                const float gx = static_cast<float>(ccx - 6 * nx), gy = static_cast<float>(ccy - 6 * ny);
                Scene s = sceneWith(20, 20, h, rectPoly(gx - 0.5f, gy - 0.5f, gx + 0.5f, gy + 0.5f),
                                    rectPoly(gx - 1.5f, gy - 1.5f, gx - 0.6f, gy - 0.6f));
                s.obstacles.push_back(strip(ccx, ccy, angle, 60, thick * h));
                const SceneGrid g = rasterizeScene(s);
                int i0, j0;
                g.cellOf(gx, gy, i0, j0);
                const std::vector<char> seen = floodFill(g, i0, j0);
                int reachedBeyond = 0, openBeyond = 0;
                for (int j = 0; j < g.ny; ++j) {
                    for (int i = 0; i < g.nx; ++i) {
                        const double side = (cx(g, i) - ccx) * nx + (cy(g, j) - ccy) * ny;
                        if (side <= thick * h / 2) continue;
                        openBeyond += !g.blocked(i, j);
                        reachedBeyond += seen[i + j * g.nx];
                    }
                }
                EXPECT_GT(openBeyond, 100);  // the other side exists
                EXPECT_EQ(reachedBeyond, 0);
            }
        }
    }
}

TEST(SceneRaster, SameLayersForAnyThreadCount) {
    // turned walls cut many cells (the rows' clipping and the faces' overlaps go to the threads)
    Scene s = sceneWith(20, 20, 0.25f, rectPoly(18, 9, 19, 11), rectPoly(1, 1, 3, 3));
    for (double angle : {15.0, 40.0, 70.0}) s.obstacles.push_back(strip(10, 10, angle, 12, 0.3));
    const SceneGrid base = rasterizeScene(s, 1);
    int cut = 0;
    for (int j = 0; j < base.ny; ++j)
        for (int i = 0; i < base.nx; ++i) cut += base.open_fraction(i, j) > 0.f && base.open_fraction(i, j) < 1.f;
    EXPECT_GT(cut, 100);
    for (int threads : {2, 3, 0}) {
        const SceneGrid g = rasterizeScene(s, threads);
        ASSERT_EQ(g.nx, base.nx);
        ASSERT_EQ(g.ny, base.ny);
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i) {
                EXPECT_EQ(g.open_fraction(i, j), base.open_fraction(i, j)) << threads << " threads, cell " << i << ", " << j;
                EXPECT_EQ(g.aperture_x(i, j), base.aperture_x(i, j)) << threads << " threads, x face " << i << ", " << j;
                EXPECT_EQ(g.aperture_y(i, j), base.aperture_y(i, j)) << threads << " threads, y face " << i << ", " << j;
                EXPECT_EQ(g.blocked(i, j), base.blocked(i, j)) << threads << " threads, cell " << i << ", " << j;
            }
        EXPECT_EQ(g.walls.size(), base.walls.size()) << threads << " threads";
    }
}

TEST(SceneRaster, OneMetreDoorKeepsThreeOpenCells) {
    // A 0.5 m thick wall with a 1 m gap, on a 0.25 m grid, at sub-cell offsets
    // of the door and of the wall, horizontal and vertical.
    const float h = 0.25f;
    for (bool vertical : {false, true}) {
        for (double doorOff : {0.0, 0.03, 0.1, 0.125, 0.2, 0.24}) {
            for (double wallOff : {0.0, 0.07, 0.125, 0.2}) {
                SCOPED_TRACE(testing::Message() << (vertical ? "vertical" : "horizontal") << " door offset " << doorOff
                                                << " wall offset " << wallOff);
                const float d0 = static_cast<float>(5 + doorOff), d1 = d0 + 1.f;
                const float w0 = static_cast<float>(5 + wallOff), w1 = w0 + 0.5f;
                auto oriented = [&](float a0, float b0, float a1, float b1) {
                    return vertical ? rectPoly(b0, a0, b1, a1) : rectPoly(a0, b0, a1, b1);
                };
                Scene s = sceneWith(12, 12, h, oriented(1, 10, 2, 11), oriented(1, 1, 2, 2));
                s.obstacles = {oriented(0, w0, d0, w1), oriented(d1, w0, 12, w1)};
                const SceneGrid g = rasterizeScene(s);
                // Narrowest open width across the wall band.
                int narrowest = 1 << 30;
                for (int k = 0; k < (vertical ? g.nx : g.ny); ++k) {
                    const double c = vertical ? cx(g, k) : cy(g, k);
                    if (c < w0 || c >= w1) continue;
                    int open = 0;
                    for (int m = 0; m < (vertical ? g.ny : g.nx); ++m) open += vertical ? !g.blocked(k, m) : !g.blocked(m, k);
                    narrowest = std::min(narrowest, open);
                }
                EXPECT_GE(narrowest, 3);
                EXPECT_LE(narrowest, 5);
                // And the door connects the two sides (rasterizeScene checked it too).
                int i0, j0, i1, j1;
                g.cellOf(vertical ? 1.5f : 1.5f, 1.5f, i0, j0);
                g.cellOf(vertical ? 10.5f : 1.5f, vertical ? 1.5f : 10.5f, i1, j1);
                EXPECT_TRUE(floodFill(g, i0, j0)[i1 + j1 * g.nx]);
            }
        }
    }
}

TEST(SceneRaster, DiagonalDoorConnects) {
    for (double off : {0.0, 0.1, 0.2}) {
        for (double angle : {30.0, 45.0, 60.0}) {
            SCOPED_TRACE(testing::Message() << "angle " << angle << " offset " << off);
            const double a = angle * M_PI / 180, ux = std::cos(a), uy = std::sin(a);
            const double c0x = 10 + off, c0y = 10;
            // Two wall pieces along the line with a 1 m gap at the centre.
            Scene s = sceneWith(20, 20, 0.25f, rectPoly(2, 16, 4, 18), rectPoly(16, 2, 18, 4));
            s.obstacles.push_back(strip(c0x - 15.5 * ux, c0y - 15.5 * uy, angle, 30, 0.5));
            s.obstacles.push_back(strip(c0x + 15.5 * ux, c0y + 15.5 * uy, angle, 30, 0.5));
            EXPECT_NO_THROW(rasterizeScene(s));  // reachability through the door
        }
    }
}

TEST(SceneRaster, WalkableDomainEdgesDiscomfortTerrain) {
    // 10.3 m x 5 m on 0.5 m cells: 21 columns, the last centred at 10.25 > 10.3? no: 10.25 < 10.3 -> open.
    Scene s = sceneWith(10.3f, 5, 0.5f, rectPoly(8, 0, 9, 1), rectPoly(0, 0, 1, 1));
    SceneGrid g = rasterizeScene(s);
    EXPECT_EQ(g.nx, 21);
    EXPECT_EQ(g.ny, 10);
    EXPECT_EQ(g.blocked(20, 0), 0);
    // 10.1 m: 21 columns, the last centred at 10.25 is outside the domain -> blocked.
    s.width = 10.1f;
    g = rasterizeScene(s);
    EXPECT_EQ(g.nx, 21);
    for (int j = 0; j < g.ny; ++j) EXPECT_EQ(g.blocked(20, j), 1);
    EXPECT_EQ(g.blocked(19, 0), 0);

    // Walkable: an L of two rectangles; everything else blocked.
    s.width = 10;
    s.walkable = {rectPoly(0, 0, 10, 2), rectPoly(0, 0, 2, 5)};
    g = rasterizeScene(s);
    for (int j = 0; j < g.ny; ++j) {
        for (int i = 0; i < g.nx; ++i) {
            const bool inL = cy(g, j) < 2 || cx(g, i) < 2;
            EXPECT_EQ(g.blocked(i, j), inL ? 0 : 1) << i << "," << j;
        }
    }

    // Discomfort: max of overlaps, 0 elsewhere; terrain: min, 1 elsewhere.
    s.walkable.clear();
    s.discomfort = {{rectPoly(2, 2, 6, 4), 1.5f, ""}, {rectPoly(4, 2, 8, 4), 3.f, ""}};
    s.terrain = {{rectPoly(2, 2, 6, 4), 0.5f}, {rectPoly(4, 2, 8, 4), 0.8f}};
    g = rasterizeScene(s);
    int i, j;
    g.cellOf(3, 3, i, j);
    EXPECT_FLOAT_EQ(g.discomfort(i, j), 1.5f);
    EXPECT_FLOAT_EQ(g.terrain(i, j), 0.5f);
    g.cellOf(5, 3, i, j);
    EXPECT_FLOAT_EQ(g.discomfort(i, j), 3.f);
    EXPECT_FLOAT_EQ(g.terrain(i, j), 0.5f);
    g.cellOf(7, 3, i, j);
    EXPECT_FLOAT_EQ(g.discomfort(i, j), 3.f);
    EXPECT_FLOAT_EQ(g.terrain(i, j), 0.8f);
    g.cellOf(9, 0.5f, i, j);
    EXPECT_FLOAT_EQ(g.discomfort(i, j), 0.f);
    EXPECT_FLOAT_EQ(g.terrain(i, j), 1.f);
}

TEST(SceneRaster, WallBoundaryLayerMarksTheCellsWithinTheClearance) {
    // 6 m x 4 m on 0.5 m cells, an obstacle [2, 3] x [1, 3]: cell centres lie 0.25 m from the domain's edge and
    // the obstacle's sides, 0.354 m from its corners (diagonally), 0.75 m and more elsewhere
    Scene s = sceneWith(6, 4, 0.5f, rectPoly(5, 0, 6, 4), rectPoly(0, 0, 1, 1));
    s.obstacles = {rectPoly(2, 1, 3, 3)};
    s.groups[0].radius = 0.3f;
    s.discomfort = {{rectPoly(0, 2, 1, 3), 3.f, ""}, {rectPoly(5, 2, 6, 3), 0.5f, ""}};
    auto distance = [](const SceneGrid& g, int i, int j) {  // from the centre to the nearest wall, by hand
        const double x = cx(g, i), y = cy(g, j);
        const double edge = std::min({x, 6 - x, y, 4 - y});
        const double ox = std::max({2 - x, 0.0, x - 3}), oy = std::max({1 - y, 0.0, y - 3});
        return std::min(edge, std::hypot(ox, oy));
    };
    auto regions = [](const SceneGrid& g, int i, int j) {
        const double x = cx(g, i), y = cy(g, j);
        if (y > 2 && y < 3 && x < 1) return 3.f;
        if (y > 2 && y < 3 && x > 5) return 0.5f;
        return 0.f;
    };
    // (local, clearance, the layer's g): the automatic clearance is the largest radius under social_force, none
    // under uic; 0.3 m marks the cells along walls, 0.4 m the corners' diagonals too, 0.2 m none
    struct Case { const char* local; float clearance, g, resolved; int marked; };
    for (const Case& c : {Case{"uic", -1.f, 1.f, 0.f, 0}, Case{"social_force", -1.f, 1.f, 0.3f, 48},
                          Case{"orca", 0.4f, 2.f, 0.4f, 52}, Case{"social_force", 0.2f, 1.f, 0.2f, 0},
                          Case{"social_force", 0.f, 1.f, 0.f, 0}, Case{"social_force", 0.3f, 0.f, 0.3f, 0}}) {
        s.params.local = c.local;
        s.params.wall_clearance = c.clearance;
        s.params.wall_discomfort = c.g;
        EXPECT_FLOAT_EQ(wallClearance(s), c.resolved) << c.local << " " << c.clearance;
        const SceneGrid g = rasterizeScene(s);
        int marked = 0;
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i) {
                const bool in = !g.blocked(i, j) && c.g > 0.f && distance(g, i, j) < c.resolved;
                const float want = g.blocked(i, j) ? 0.f : std::max(regions(g, i, j), in ? c.g : 0.f);
                marked += in;
                EXPECT_FLOAT_EQ(g.discomfort(i, j), want) << c.local << " " << c.clearance << " cell " << i << "," << j;
            }
        // the domain's ring of 36 cells and the obstacle's 12 side cells; at 0.4 m its 4 diagonal cells too
        EXPECT_EQ(marked, c.marked) << c.local << " " << c.clearance;
    }
    // slanted walls (strips at 30 and 75 degrees, 0.1 m cells): every open cell against the nearest of all the
    // grid's wall edges, so the band of cells visited along a long diagonal edge misses none
    Scene t = sceneWith(12, 8, 0.1f, rectPoly(11, 0, 12, 8), rectPoly(0, 0, 1, 1));
    t.obstacles = {strip(5, 4, 30, 7, 0.4), strip(8.5, 4, 75, 5, 0.3)};
    t.params.local = "social_force";
    t.params.wall_clearance = 0.35f;
    const SceneGrid g = rasterizeScene(t);
    int marked = 0;
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) {
            double best = INFINITY;
            for (const WallSegment& w : g.walls) {
                const double ex = w.bx - w.ax, ey = w.by - w.ay;
                const double u = std::clamp(((cx(g, i) - w.ax) * ex + (cy(g, j) - w.ay) * ey) / (ex * ex + ey * ey), 0.0, 1.0);
                const double dx = w.ax + u * ex - cx(g, i), dy = w.ay + u * ey - cy(g, j);
                best = std::min(best, dx * dx + dy * dy);
            }
            const bool in = !g.blocked(i, j) && best < static_cast<double>(0.35f) * 0.35f;
            marked += in;
            EXPECT_EQ(g.discomfort(i, j), in ? 1.f : 0.f) << "cell " << i << "," << j << " at " << std::sqrt(best) << " m";
        }
    EXPECT_GT(marked, 400);
}

TEST(SceneRaster, GoalCells) {
    // A goal half inside an obstacle: only its open cells, centres inside.
    Scene s = sceneWith(10, 10, 0.5f, rectPoly(6, 6, 8, 8), rectPoly(0, 0, 2, 2));
    s.obstacles = {rectPoly(7, 5, 9, 9)};
    SceneGrid g = rasterizeScene(s);
    ASSERT_EQ(g.goal_cells.size(), 1u);
    EXPECT_EQ(g.goal_cells[0].size(), 8u);  // x in [6, 7) -> 2 columns, 4 rows
    for (int c : g.goal_cells[0]) {
        EXPECT_EQ(g.blocked.host()[c], 0);
        const double x = cx(g, c % g.nx), y = cy(g, c / g.nx);
        EXPECT_TRUE(x >= 6 && x < 7 && y >= 6 && y < 8) << x << "," << y;
    }
    // A goal line thinner than a cell (covers no centre): the cells it overlaps.
    s.obstacles.clear();
    s.goals[0].areas = {rectPoly(9.3f, 2.1f, 9.4f, 3.9f)};
    g = rasterizeScene(s);
    std::vector<int> expect;
    for (int jj = 4; jj <= 7; ++jj) expect.push_back(18 + jj * g.nx);  // column 18 = [9, 9.5)
    EXPECT_EQ(g.goal_cells[0], expect);
    // On a cell edge (x = 9.5 .. 9.55): only the cells with positive overlap.
    s.goals[0].areas = {rectPoly(9.5f, 2.1f, 9.55f, 2.4f)};
    g = rasterizeScene(s);
    EXPECT_EQ(g.goal_cells[0], std::vector<int>{19 + 4 * g.nx});
}

TEST(SceneRaster, FloorPlanDarkPixelsAreWalls) {
    const fs::path png = fs::temp_directory_path() / "ccrowd-test-floorplan.png";
    // 100 x 50 px at 0.1 m/px over a 10 m x 5 m domain: a black bar at
    // x in [4, 5) m (columns 40..49), y in [0, 4) m (rows 10..49 from the top),
    // and a grey (luminance 0.6) bar at x in [7, 8) m.
    plot::Canvas c(100, 50);
    for (int y = 10; y < 50; ++y) {
        for (int x = 40; x < 50; ++x) c.set(x, y, {0, 0, 0});
        for (int x = 70; x < 80; ++x) c.set(x, y, {153, 153, 153});
    }
    plot::writePng(png.string(), c);
    Scene s = sceneWith(10, 5, 0.25f, rectPoly(9, 0, 10, 5), rectPoly(0, 0, 2, 2));
    s.floor_plans.push_back({png.string(), 0.1f, {0, 0}, 0.5f});
    SceneGrid g = rasterizeScene(s);
    for (int j = 0; j < g.ny; ++j) {
        for (int i = 0; i < g.nx; ++i) {
            const double x = cx(g, i), y = cy(g, j);
            EXPECT_EQ(g.blocked(i, j), (x >= 4 && x < 5 && y < 4) ? 1 : 0) << i << "," << j;
        }
    }
    // A higher threshold makes the grey bar a wall too.
    s.floor_plans[0].threshold = 0.7f;
    g = rasterizeScene(s);
    int i, j;
    g.cellOf(7.5f, 1, i, j);
    EXPECT_EQ(g.blocked(i, j), 1);
    fs::remove(png);
}

TEST(SceneRaster, GridCapIsEnforcedAndA4096CellWideGridRasterises) {
    // 4096 x 2048 cells rasterise; 4097 is refused naming /domain.
    Scene s = sceneWith(1024, 512, 0.25f, rectPoly(1000, 0, 1024, 512), rectPoly(0, 0, 2, 2));
    s.obstacles = {strip(512, 256, 33, 400, 1)};
    const SceneGrid g = rasterizeScene(s);
    EXPECT_EQ(g.nx, 4096);
    s.width = 1024.25f;
    try {
        rasterizeScene(s);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("raster-test: /domain"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace ccrowd::test
