/// @file test_placement.cpp
/// Initial agent placement (include/ccrowd/placement.hpp): the count, every
/// position inside a spawn polygon and on an open cell, pairs at least the
/// minimum distance apart, the same positions for the same seed, a clear
/// InputError when the agents cannot fit, and 50,000 agents in well under a
/// second.

#include <algorithm>
#include <chrono>
#include <iostream>
#include <cmath>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "ccrowd/error.hpp"
#include "ccrowd/placement.hpp"
#include "ccrowd/scene.hpp"
#include "src/scene/polygon.hpp"

namespace ccrowd::test {
namespace {

Polygon rectPoly(float x0, float y0, float x1, float y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

/// One group spawning in @p spawn, the goal along the east edge.
Scene sceneWith(float w, float h, float cell, std::vector<Polygon> spawn, int count) {
    Scene s;
    s.label = "placement-test";
    s.width = w;
    s.height = h;
    s.cell = cell;
    s.goals.push_back({"goal", {rectPoly(w - 1, 0, w, h)}, 0.f, true, {}});
    GroupSpec g;
    g.name = "g";
    g.spawn = std::move(spawn);
    g.count = count;
    g.radius = 0.15f;
    g.route = {"goal"};
    s.groups.push_back(g);
    s.params.d_min = 0.4f;  // the placements below are written for d = 0.4 m (seed 003's d_min)
    return s;
}

/// Smallest pairwise distance (uniform-grid neighbour search). [Units: m]
double minPairDistance(const std::vector<Vec2>& p, double cellSize) {
    std::unordered_map<long long, std::vector<int>> grid;
    auto key = [&](long long i, long long j) { return i * 1000003 + j; };
    for (int k = 0; k < static_cast<int>(p.size()); ++k) {
        grid[key(static_cast<long long>(std::floor(p[k].x / cellSize)), static_cast<long long>(std::floor(p[k].y / cellSize)))]
            .push_back(k);
    }
    double best = 1e30;
    for (int k = 0; k < static_cast<int>(p.size()); ++k) {
        const long long i = static_cast<long long>(std::floor(p[k].x / cellSize)), j = static_cast<long long>(std::floor(p[k].y / cellSize));
        for (long long di = -1; di <= 1; ++di) {
            for (long long dj = -1; dj <= 1; ++dj) {
                auto it = grid.find(key(i + di, j + dj));
                if (it == grid.end()) continue;
                for (int q : it->second) {
                    if (q != k) best = std::min(best, std::hypot(double(p[q].x) - p[k].x, double(p[q].y) - p[k].y));
                }
            }
        }
    }
    return best;
}

/// Every position inside a spawn polygon and on an open cell.
void expectInsideOpen(const Scene& s, const SceneGrid& g, int group, const std::vector<Vec2>& pts) {
    for (const Vec2& p : pts) {
        bool inside = false;
        for (const Polygon& poly : s.groups[group].spawn) inside = inside || geom::pointInPolygon(poly, p.x, p.y);
        ASSERT_TRUE(inside) << p.x << "," << p.y;
        const int i = static_cast<int>(std::floor((p.x - g.origin.x) / g.h)), j = static_cast<int>(std::floor((p.y - g.origin.y) / g.h));
        ASSERT_TRUE(i >= 0 && j >= 0 && i < g.nx && j < g.ny);
        ASSERT_EQ(g.blocked(i, j), 0) << p.x << "," << p.y;
    }
}

TEST(Placement, CountInsideAndApart) {
    Scene s = sceneWith(20, 10, 0.25f, {rectPoly(1, 1, 9, 9)}, 200);
    s.obstacles = {rectPoly(3, 3, 5, 5), {{6, 6}, {8, 6.5f}, {7, 8}}};
    const SceneGrid g = rasterizeScene(s);
    for (float d : {0.f, 0.3f, 0.4f, 0.5f}) {
        SCOPED_TRACE(d);
        const auto pts = placeAgents(s, g, 0, 42, d);
        ASSERT_EQ(pts.size(), 200u);
        expectInsideOpen(s, g, 0, pts);
        if (d > 0) {
            EXPECT_GE(minPairDistance(pts, d), d);
        }
    }
}

TEST(Placement, DeterministicForASeed) {
    const Scene s = sceneWith(20, 10, 0.25f, {rectPoly(1, 1, 9, 9)}, 150);
    const SceneGrid g = rasterizeScene(s);
    const auto a = placeAgents(s, g, 0, 7, 0.4f);
    const auto b = placeAgents(s, g, 0, 7, 0.4f);
    const auto c = placeAgents(s, g, 0, 8, 0.4f);
    ASSERT_EQ(a.size(), b.size());
    bool same = true, differs = false;
    for (std::size_t k = 0; k < a.size(); ++k) {
        same = same && a[k].x == b[k].x && a[k].y == b[k].y;
        differs = differs || a[k].x != c[k].x || a[k].y != c[k].y;
    }
    EXPECT_TRUE(same);
    EXPECT_TRUE(differs);
}

TEST(Placement, FillsToCapacityInAwkwardShapes) {
    // Triangle, L shape (two overlapping rectangles), thin strip, a disc
    // around an obstacle, and a rotated square: spawnCapacity agents always fit.
    std::vector<std::vector<Polygon>> shapes = {
        {{{1, 1}, {9, 1}, {1, 8}}},
        {rectPoly(1, 1, 9, 3), rectPoly(1, 1, 3, 9)},
        {rectPoly(1, 4, 15, 4.75f)},
        {{{5, 1}, {9, 5}, {5, 9}, {1, 5}}},
    };
    Polygon disc;
    for (int k = 0; k < 40; ++k) disc.push_back({static_cast<float>(10 + 4 * std::cos(k * M_PI / 20)), static_cast<float>(5 + 4 * std::sin(k * M_PI / 20))});
    shapes.push_back({disc});
    for (std::size_t t = 0; t < shapes.size(); ++t) {
        for (float d : {0.4f, 0.6f}) {
            SCOPED_TRACE(testing::Message() << "shape " << t << " d " << d);
            Scene s = sceneWith(20, 10, 0.25f, shapes[t], 1);
            if (t == 4) s.obstacles = {rectPoly(9, 4, 11, 6)};
            s.params.d_min = d;
            SceneGrid g = rasterizeScene(s);
            const long long cap = spawnCapacity(s, g, 0, placementDistance(s, 0));
            ASSERT_GT(cap, 0);
            s.groups[0].count = static_cast<int>(cap);
            g = rasterizeScene(s);
            for (std::uint64_t seed : {1ull, 2ull, 3ull}) {
                const auto pts = placeAgents(s, g, 0, seed, placementDistance(s, 0));
                ASSERT_EQ(static_cast<long long>(pts.size()), cap);
                expectInsideOpen(s, g, 0, pts);
                EXPECT_GE(minPairDistance(pts, d), d);
            }
        }
    }
}

TEST(Placement, DensityBecomesACount) {
    Scene s = sceneWith(20, 10, 0.5f, {rectPoly(0, 0, 6, 5)}, 0);
    s.groups[0].density = 2.f;
    const SceneGrid g = rasterizeScene(s);
    EXPECT_EQ(g.group_count[0], 60);  // 2 /m^2 * 30 m^2
    EXPECT_EQ(placeAgents(s, g, 0, 1, 0.4f).size(), 60u);
}

TEST(Placement, CannotFitNamesTheCount) {
    // 4 m^2 at d = 0.4 m: spawnCapacity is 21; rasterizeScene refuses 500.
    Scene s = sceneWith(20, 10, 0.25f, {rectPoly(1, 1, 3, 3)}, 500);
    try {
        rasterizeScene(s);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("placement-test: /groups/0/count = 500"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("cannot fit"), std::string::npos) << e.what();
    }
    // A count that passes the check but not a larger distance asked of placeAgents.
    s.groups[0].count = 20;
    const SceneGrid g = rasterizeScene(s);
    try {
        placeAgents(s, g, 0, 1, 1.5f);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("/groups/0/count"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("cannot be placed"), std::string::npos) << e.what();
    }
    EXPECT_THROW(placeAgents(s, g, 1, 1, 0.4f), std::out_of_range);
    EXPECT_THROW(placeAgents(s, g, 0, 1, -1.f), InputError);
}

TEST(Placement, FiftyThousandAgentsAtFivePerSquareMetre) {
    // 100 m x 100 m spawn, 5 /m^2, d = 0.4 m.
    Scene s = sceneWith(120, 110, 0.5f, {rectPoly(2, 2, 102, 102)}, 50000);
    s.obstacles = {rectPoly(40, 40, 60, 60)};
    const SceneGrid g = rasterizeScene(s);
    const auto t0 = std::chrono::steady_clock::now();
    const auto pts = placeAgents(s, g, 0, 2024, 0.4f);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(pts.size(), 50000u);
    // the time is information (speed targets live in the benchmarks, not in unit tests)
    std::cout << "[ info ] 50,000 agents placed in " << secs << " s\n";
    expectInsideOpen(s, g, 0, pts);
    EXPECT_GE(minPairDistance(pts, 0.4), 0.4);
}

}  // namespace
}  // namespace ccrowd::test
