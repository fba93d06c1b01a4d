/// @file test_subcell.cpp
/// Sub-cell geometry (issue 12, Deliver 1): open fractions and face
/// apertures against closed forms for slanted walls, doors of any width and
/// angle, the grid's edges, floor plans, and their agreement with the
/// blocked mask.

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "ccrowd/scene.hpp"

namespace ccrowd::test {
namespace {

Polygon rect(float x0, float y0, float x1, float y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

/// A rectangle of length @p len and thickness @p t centred on (cx, cy),
/// turned by @p deg degrees. [Units: m]
Polygon turned(double cx, double cy, double deg, double len, double t) {
    const double a = deg * M_PI / 180, ux = std::cos(a), uy = std::sin(a);
    auto pt = [&](double s, double o) { return Vec2{static_cast<float>(cx + s * ux - o * uy), static_cast<float>(cy + s * uy + o * ux)}; };
    return {pt(-len / 2, -t / 2), pt(len / 2, -t / 2), pt(len / 2, t / 2), pt(-len / 2, t / 2)};
}

/// A scene of @p w x @p hgt metres on cells of @p cell with one agent in
/// the top-left corner and a goal in the top-right one.
Scene sceneOf(float w, float hgt, float cell) {
    Scene s;
    s.label = "subcell-test";
    s.width = w;
    s.height = hgt;
    s.cell = cell;
    const float b = cell > 0.5f ? cell : 0.5f;
    s.goals.push_back({"goal", {rect(w - b, hgt - b, w, hgt)}, 0.f, true, {}});
    GroupSpec g;
    g.name = "g";
    g.spawn = {rect(0.f, hgt - b, b, hgt)};
    g.count = 1;
    g.route = {"goal"};
    s.groups.push_back(g);
    return s;
}

double openArea(const SceneGrid& g) {
    double a = 0;
    for (std::size_t c = 0; c < g.open_fraction.size(); ++c) a += g.open_fraction.host()[c];
    return a * g.h * g.h;
}

TEST(Subcell, SlantedWallMatchesTheClosedForm) {
    // open where y > 2 - x / 2: a triangle (0,0) (4,0) (0,2) is the wall
    Scene s = sceneOf(4, 4, 1);
    s.obstacles = {{{0, 0}, {4, 0}, {0, 2}}};
    const SceneGrid g = rasterizeScene(s);
    ASSERT_EQ(g.nx, 4);
    auto clamp01 = [](double v) { return v < 0 ? 0.0 : (v > 1 ? 1.0 : v); };
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) {
            // cell: integral over x of the open height (closed form per cell)
            double area = 0;
            const int n = 4000;
            for (int k = 0; k < n; ++k) {
                const double x = i + (k + 0.5) / n;
                area += clamp01(j + 1 - std::max<double>(j, 2 - x / 2)) / n;
            }
            EXPECT_NEAR(g.open_fraction(i, j), area, 1e-6) << "cell " << i << "," << j;
            // x face at x = i: open for y in [max(j, 2 - i/2), j + 1]
            if (i > 0) { EXPECT_NEAR(g.aperture_x(i, j), clamp01(j + 1 - std::max<double>(j, 2 - i / 2.0)), 1e-6) << i << "," << j; }
            // y face at y = j: open for x in [max(i, 4 - 2j), i + 1]
            if (j > 0) { EXPECT_NEAR(g.aperture_y(i, j), clamp01(i + 1 - std::max<double>(i, 4 - 2.0 * j)), 1e-6) << i << "," << j; }
        }
    EXPECT_NEAR(openArea(g), 16 - 4, 1e-5);
}

TEST(Subcell, GridEdgesAreClosed) {
    const SceneGrid g = rasterizeScene(sceneOf(3, 2, 0.5f));
    for (int j = 0; j < g.ny; ++j) {
        EXPECT_EQ(g.aperture_x(0, j), 0.f);
        EXPECT_EQ(g.aperture_x(g.nx, j), 0.f);
    }
    for (int i = 0; i < g.nx; ++i) {
        EXPECT_EQ(g.aperture_y(i, 0), 0.f);
        EXPECT_EQ(g.aperture_y(i, g.ny), 0.f);
    }
    // inside, an open floor is open everywhere
    EXPECT_EQ(g.aperture_x(3, 1), 1.f);
    EXPECT_EQ(g.aperture_y(2, 2), 1.f);
    EXPECT_NEAR(openArea(g), 6.0, 1e-6);
}

/// Open length of the wall line x = xw (a face line of the grid) summed over
/// its faces. [Units: m]
double openLengthAlongX(const SceneGrid& g, int i) {
    double len = 0;
    for (int j = 0; j < g.ny; ++j) len += g.aperture_x(i, j) * g.h;
    return len;
}

TEST(Subcell, DoorKeepsItsWidthAtAnyOffsetOnTheGrid) {
    // a wall 0.25 m thick along x = 5 with a door of each width at offsets
    // that do not fall on cell faces: the faces on the wall's line carry
    // the door's width exactly, not a whole number of cells
    for (float width : {0.6f, 0.8f, 1.0f, 1.2f, 1.4f}) {
        for (float offset : {0.0f, 0.07f, 0.125f, 0.19f}) {
            Scene s = sceneOf(10, 10, 0.25f);
            const float y0 = 4.f + offset, y1 = y0 + width;
            s.obstacles = {rect(5.f, 0.f, 5.25f, y0), rect(5.f, y1, 5.25f, 10.f)};
            const SceneGrid g = rasterizeScene(s);
            EXPECT_NEAR(openLengthAlongX(g, 20), width, 1e-5) << "door " << width << " at offset " << offset;
            EXPECT_NEAR(openLengthAlongX(g, 21), width, 1e-5) << "door " << width << " at offset " << offset;
            EXPECT_NEAR(openArea(g), 100 - 0.25 * (10 - width), 1e-4);
        }
    }
}

TEST(Subcell, TurnedWallsGiveTheExactOpenArea) {
    // a 6 m x 0.3 m wall at 0, 15, 30 and 45 degrees in a 10 m room
    for (double deg : {0.0, 15.0, 30.0, 45.0}) {
        Scene s = sceneOf(10, 10, 0.25f);
        s.obstacles = {turned(5.1, 4.9, deg, 6.0, 0.3)};
        const SceneGrid g = rasterizeScene(s);
        EXPECT_NEAR(openArea(g), 100 - 6 * 0.3, 1e-4) << deg << " degrees";
        int partial = 0;
        for (std::size_t c = 0; c < g.open_fraction.size(); ++c) {
            const float f = g.open_fraction.host()[c];
            partial += f > 0.f && f < 1.f;
        }
        EXPECT_GT(partial, 0) << deg;
    }
}

/// Length of the vertical line x = @p x inside the rectangle of turned()
/// (centre, angle, length, thickness): the line clipped to the two slabs of
/// the rectangle's own axes. [Units: m]
double chordAtX(double cx, double cy, double deg, double len, double t, double x) {
    const double a = deg * M_PI / 180, ux = std::cos(a), uy = std::sin(a);
    // points (x, y): s = (x - cx) ux + (y - cy) uy in [-len/2, len/2], o = -(x - cx) uy + (y - cy) ux in [-t/2, t/2]
    double lo = -1e9, hi = 1e9;
    auto slab = [&](double base, double slope, double half) {
        if (std::fabs(slope) < 1e-12) {
            if (std::fabs(base) > half) { lo = 1; hi = 0; }
            return;
        }
        const double y0 = (-half - base) / slope, y1 = (half - base) / slope;
        lo = std::max(lo, std::min(y0, y1));
        hi = std::min(hi, std::max(y0, y1));
    };
    slab((x - cx) * ux - cy * uy, uy, len / 2);
    slab(-(x - cx) * uy - cy * ux, ux, t / 2);
    return hi > lo ? hi - lo : 0.0;
}

TEST(Subcell, WallsAtEveryAngleGiveExactAreasAndFaceLengths) {
    // a 5 m x 0.35 m wall every 7.5 degrees at sub-cell offsets: the open
    // area and, on every vertical face line, the open length are exact
    for (int k = 0; k <= 12; ++k) {
        const double deg = 7.5 * k, cx = 5.03 + 0.011 * k, cy = 4.97 - 0.007 * k;
        Scene s = sceneOf(10, 10, 0.25f);
        s.obstacles = {turned(cx, cy, deg, 5.0, 0.35)};
        const SceneGrid g = rasterizeScene(s);
        EXPECT_NEAR(openArea(g), 100 - 5 * 0.35, 1e-4) << deg << " degrees";
        for (int i = 1; i < g.nx; ++i) {
            const double x = i * 0.25;
            double len = 0;
            for (int j = 0; j < g.ny; ++j) len += g.aperture_x(i, j) * 0.25;
            EXPECT_NEAR(len, 10 - chordAtX(cx, cy, deg, 5.0, 0.35, x), 2e-5) << deg << " degrees, x = " << x;
        }
    }
}

TEST(Subcell, WholeCellsAgreeWithTheBlockedMaskAndFacesWithTheirCells) {
    Scene s = sceneOf(12, 9, 0.25f);
    s.walkable = {{{0.3f, 0.1f}, {11.7f, 0.2f}, {11.9f, 8.8f}, {0.1f, 8.6f}}};
    s.obstacles = {turned(4, 4, 30, 3, 0.6), turned(8, 5, 70, 2.5, 0.4), rect(2.1f, 6.1f, 3.3f, 7.4f)};
    s.groups[0].spawn = {rect(1.f, 7.f, 1.5f, 7.5f)};
    s.goals[0].areas = {rect(10.f, 7.f, 10.5f, 7.5f)};
    const SceneGrid g = rasterizeScene(s);
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) {
            const float f = g.open_fraction(i, j);
            ASSERT_GE(f, 0.f);
            ASSERT_LE(f, 1.f);
            if (f == 1.f) { EXPECT_FALSE(g.blocked(i, j)) << i << "," << j; }
            if (f == 0.f) { EXPECT_TRUE(g.blocked(i, j)) << i << "," << j; }
            // an open face joins two cells with open area
            if (i > 0 && g.aperture_x(i, j) > 0.f) {
                EXPECT_GT(g.open_fraction(i - 1, j), 0.f);
                EXPECT_GT(f, 0.f);
            }
            if (j > 0 && g.aperture_y(i, j) > 0.f) {
                EXPECT_GT(g.open_fraction(i, j - 1), 0.f);
                EXPECT_GT(f, 0.f);
            }
        }
}

TEST(Subcell, FaceAlongAWallEdgeIsClosed) {
    // a wall whose edge lies exactly on the face line x = 2 (cells 8.. are wall)
    Scene s = sceneOf(4, 4, 0.25f);
    s.goals[0].areas = {rect(0.f, 3.5f, 0.5f, 4.f)};
    s.obstacles = {rect(2.f, 1.f, 4.f, 3.f)};
    const SceneGrid g = rasterizeScene(s);
    for (int j = 4; j < 12; ++j) {
        EXPECT_EQ(g.aperture_x(8, j), 0.f) << j;
        EXPECT_EQ(g.open_fraction(8, j), 0.f) << j;
        EXPECT_EQ(g.open_fraction(7, j), 1.f) << j;
    }
    EXPECT_EQ(g.aperture_x(8, 3), 1.f);
    EXPECT_EQ(g.aperture_x(8, 12), 1.f);
}

}  // namespace
}  // namespace ccrowd::test
