/// @file test_street_network.cpp
/// The street network derived from the free space (route/street_network):
/// crossings, T junctions, a town grid, a courtyard ring, scene-given
/// networks, degenerate rasters and the speed on a 1200 x 1200 town.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "route/street_network.hpp"

using ccrowd::Field;
using ccrowd::GridInfo;
using namespace ccrowd::route;

namespace {

/// An all-blocked nx x ny raster and its grid (h = 0.5 m, origin 0).
struct Raster {
    Field<std::uint8_t> blocked;
    GridInfo g;
    Raster(int nx, int ny, float h = 0.5f) : blocked(nx, ny, 1) { g.nx = nx, g.ny = ny, g.h = h; }
    /// Frees the cells whose centres lie in [x0, x1) x [y0, y1). [Units: m]
    void carve(float x0, float y0, float x1, float y1) {
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i)
                if (g.centreX(i) >= x0 && g.centreX(i) < x1 && g.centreY(j) >= y0 && g.centreY(j) < y1) blocked(i, j) = 0;
    }
    /// Blocks the cells whose centres lie in [x0, x1) x [y0, y1). [Units: m]
    void block(float x0, float y0, float x1, float y1) {
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i)
                if (g.centreX(i) >= x0 && g.centreX(i) < x1 && g.centreY(j) >= y0 && g.centreY(j) < y1) blocked(i, j) = 1;
    }
};

int countDegree(const StreetNetwork& n, int d) {
    int c = 0;
    for (int j = 0; j < static_cast<int>(n.junctions.size()); ++j) c += n.degree(j) == d;
    return c;
}

/// The adjacency lists every road at both ends (a loop once).
void expectAdjacencyConsistent(const StreetNetwork& n) {
    ASSERT_EQ(n.first.size(), n.junctions.size() + 1);
    for (int j = 0; j < static_cast<int>(n.junctions.size()); ++j)
        for (int k = n.first[j]; k < n.first[j + 1]; ++k) {
            const Road& r = n.roads[n.road[k]];
            EXPECT_TRUE((r.a == j && r.b == n.nbr[k]) || (r.b == j && r.a == n.nbr[k]));
        }
}

}  // namespace

// Two 4 m streets crossing in the middle of a 40 m x 40 m raster, ending at
// the (blocked) grid border: one degree-4 junction at the centre, a dead end
// near each street end (about half a street width in from the border, where
// the skeleton stops), four roads of about the half-length less that.
TEST(StreetNetwork, PlusCrossing) {
    Raster r(80, 80);
    r.carve(18, 0, 22, 40);
    r.carve(0, 18, 40, 22);
    const StreetNetwork n = deriveNetwork(r.blocked, r.g);
    ASSERT_EQ(n.junctions.size(), 5u);
    ASSERT_EQ(n.roads.size(), 4u);
    ASSERT_EQ(countDegree(n, 4), 1);
    EXPECT_EQ(countDegree(n, 1), 4);
    for (int j = 0; j < 5; ++j) {
        const Junction& J = n.junctions[j];
        if (n.degree(j) == 4) {
            EXPECT_NEAR(J.x, 20.f, 1.f);
            EXPECT_NEAR(J.y, 20.f, 1.f);
            EXPECT_NEAR(J.radius, 2.f * std::sqrt(2.f), 0.6f);  // clearance to the block corners
        } else {
            // a dead end on a street's axis, within a street width of its end
            const bool vertical = std::fabs(J.x - 20.f) < 1.f;
            const bool horizontal = std::fabs(J.y - 20.f) < 1.f;
            EXPECT_TRUE(vertical != horizontal) << J.x << ", " << J.y;
            const float along = vertical ? J.y : J.x;
            EXPECT_LT(std::min(along, 40.f - along), 4.f) << J.x << ", " << J.y;
        }
    }
    for (const Road& road : n.roads) {
        EXPECT_NEAR(road.length, 18.f, 1.5f);  // 20 m half-length, less ~2 m at the dead end
        EXPECT_NEAR(road.width, 4.f, 1.f);
        EXPECT_LE(road.x.size(), 3u);  // straight along the street
        EXPECT_EQ(road.x.front(), n.junctions[road.a].x);
        EXPECT_EQ(road.y.back(), n.junctions[road.b].y);
    }
    expectAdjacencyConsistent(n);
}

// A T: a 6 m street along the bottom half meets a 6 m street coming down from the top.
TEST(StreetNetwork, TJunction) {
    Raster r(120, 80);
    r.carve(0, 17, 60, 23);
    r.carve(27, 20, 33, 40);
    const StreetNetwork n = deriveNetwork(r.blocked, r.g);
    EXPECT_EQ(countDegree(n, 3), 1);
    EXPECT_EQ(countDegree(n, 1), 3);
    EXPECT_EQ(n.roads.size(), 3u);
    for (int j = 0; j < static_cast<int>(n.junctions.size()); ++j)
        if (n.degree(j) == 3) {
            EXPECT_NEAR(n.junctions[j].x, 30.f, 1.5f);
            EXPECT_NEAR(n.junctions[j].y, 20.f, 1.5f);
        }
}

// A 4 x 4 grid of 20 m blocks, 6 m streets, a 6 m ring street inside the
// blocked grid border. Street crossings every 26 m (5 x 5). By the rules
// (a skeleton point with two branches is not a junction) the ring's four
// corners are not junctions: 21 junctions = 9 crossings of degree 4 inside
// + 12 T crossings of degree 3 on the ring; 40 grid edges less 4 joined at
// the corners = 36 roads: 32 of one pitch, 4 round a corner of two pitches.
TEST(StreetNetwork, GridOfBlocks) {
    const float street = 6, blockW = 20, pitch = street + blockW, size = 5 * street + 4 * blockW;  // 110 m
    Raster r(220, 220);
    r.carve(0, 0, size, size);
    for (int bj = 0; bj < 4; ++bj)
        for (int bi = 0; bi < 4; ++bi)
            r.block(street + bi * pitch, street + bj * pitch, street + bi * pitch + blockW, street + bj * pitch + blockW);
    const StreetNetwork n = deriveNetwork(r.blocked, r.g);
    ASSERT_EQ(n.junctions.size(), 21u);
    EXPECT_EQ(countDegree(n, 4), 9);
    EXPECT_EQ(countDegree(n, 3), 12);
    ASSERT_EQ(n.roads.size(), 36u);
    // every junction within one street width of a crossing that is not a ring corner, one per crossing
    std::vector<int> hits(25, 0);
    for (int j = 0; j < 21; ++j) {
        const Junction& J = n.junctions[j];
        const int ci = static_cast<int>(std::lround((J.x - street / 2) / pitch));
        const int cj = static_cast<int>(std::lround((J.y - street / 2) / pitch));
        ASSERT_TRUE(ci >= 0 && ci < 5 && cj >= 0 && cj < 5);
        EXPECT_LT(std::hypot(J.x - (street / 2 + ci * pitch), J.y - (street / 2 + cj * pitch)), street);
        EXPECT_FALSE((ci == 0 || ci == 4) && (cj == 0 || cj == 4)) << "junction at a ring corner";
        ++hits[ci + 5 * cj];
        EXPECT_EQ(n.degree(j), (ci == 0 || ci == 4 || cj == 0 || cj == 4) ? 3 : 4);
    }
    for (int c = 0; c < 25; ++c) {
        const bool corner = (c % 5 == 0 || c % 5 == 4) && (c / 5 == 0 || c / 5 == 4);
        EXPECT_EQ(hits[c], corner ? 0 : 1) << "crossing " << c;
    }
    // roads run straight along the streets: every vertex but the two
    // junction centres within one cell of a street's axis (the T junctions
    // on the ring sit about w/8 to w/4 off the ring's axis, as the medial
    // axis of a T does, so the first and last pieces may bend)
    auto offAxis = [&](float v) {
        const float k = std::round((v - street / 2) / pitch);
        return std::fabs(v - (street / 2 + k * pitch));
    };
    int corners = 0;
    for (const Road& road : n.roads) {
        if (road.length > 1.5f * pitch) {
            ++corners;
            EXPECT_NEAR(road.length, 2 * pitch, 0.15f * 2 * pitch);
            EXPECT_LE(road.x.size(), 8u);
        } else {
            EXPECT_NEAR(road.length, pitch, 0.15f * pitch);
            EXPECT_LE(road.x.size(), 4u);
        }
        for (std::size_t k = 1; k + 1 < road.x.size(); ++k)
            EXPECT_LE(std::min(offAxis(road.x[k]), offAxis(road.y[k])), 0.5f + 1e-4f) << road.x[k] << ", " << road.y[k];
        EXPECT_NEAR(road.width, street, 1.f);
    }
    EXPECT_EQ(corners, 4);
    expectAdjacencyConsistent(n);
}

// A courtyard: a 6 m ring around one 20 m block (grid border blocked): a
// cycle with no branch point gets one junction and a loop road.
TEST(StreetNetwork, ClosedRing) {
    Raster r(64, 64);
    r.carve(0, 0, 32, 32);
    r.block(6, 6, 26, 26);
    const StreetNetwork n = deriveNetwork(r.blocked, r.g);
    ASSERT_GE(n.junctions.size(), 1u);
    ASSERT_GE(n.roads.size(), 1u);
    EXPECT_EQ(n.junctions.size(), 1u);
    EXPECT_EQ(n.roads[0].a, n.roads[0].b);
    EXPECT_NEAR(n.roads[0].length, 4 * 26.f, 0.15f * 4 * 26.f);
    expectAdjacencyConsistent(n);
}

// Scene-given network: errors name the entry; radius from the clearance.
TEST(StreetNetwork, GivenNetwork) {
    Raster r(80, 80);
    r.carve(18, 0, 22, 40);
    r.carve(0, 18, 40, 22);
    const std::vector<float> x{20, 20, 2, 38}, y{20, 2, 20, 20};
    const StreetNetwork n = givenNetwork(x, y, {{0, 1}, {0, 2}, {3, 0}}, r.blocked, r.g);
    ASSERT_EQ(n.junctions.size(), 4u);
    ASSERT_EQ(n.roads.size(), 3u);
    EXPECT_EQ(n.first[1] - n.first[0], 3);
    EXPECT_NEAR(n.junctions[0].radius, 2.f * std::sqrt(2.f), 0.3f);  // the crossing's clearance to the block corners
    EXPECT_NEAR(n.junctions[1].radius, 2.f, 0.3f);                  // half the street width
    EXPECT_NEAR(n.roads[0].length, 18.f, 1e-4f);
    EXPECT_NEAR(n.roads[0].width, 4.f, 0.6f);
    // with a larger minimum radius
    EXPECT_NEAR(givenNetwork(x, y, {}, r.blocked, r.g, 2.5f).junctions[1].radius, 2.5f, 1e-6f);

    auto message = [&](const std::vector<float>& xs, const std::vector<float>& ys,
                       const std::vector<std::array<int, 2>>& roads) {
        try {
            givenNetwork(xs, ys, roads, r.blocked, r.g);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message(x, y, {{0, 1}, {0, 4}}).find("network.roads[1]"), std::string::npos);
    EXPECT_NE(message(x, y, {{-1, 1}}).find("network.roads[0]"), std::string::npos);
    EXPECT_NE(message(x, y, {{0, 1}, {2, 2}}).find("network.roads[1]"), std::string::npos);
    EXPECT_NE(message(x, y, {{0, 1}, {0, 2}, {1, 0}}).find("network.roads[2]"), std::string::npos);
    EXPECT_NE(message({20, 5}, {20, 5}, {}).find("network.junctions[1]"), std::string::npos);   // blocked cell
    EXPECT_NE(message({20, 50}, {20, 20}, {}).find("network.junctions[1]"), std::string::npos);  // outside
    EXPECT_NE(message({20, 20}, {20}, {}).find("network.junctions"), std::string::npos);
}

// No walkable cell: no skeleton, an error naming the network. A one-row
// raster is a corridor: two dead ends and one road.
TEST(StreetNetwork, DegenerateRasters) {
    Raster all(30, 20);
    try {
        deriveNetwork(all.blocked, all.g);
        ADD_FAILURE() << "no error";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("network"), std::string::npos);
    }
    Raster row(50, 1);
    row.carve(0, 0, 25, 0.5f);
    const StreetNetwork n = deriveNetwork(row.blocked, row.g);
    EXPECT_EQ(n.junctions.size(), 2u);
    EXPECT_EQ(n.roads.size(), 1u);
    Raster one(1, 1);
    one.carve(0, 0, 1, 1);
    EXPECT_EQ(deriveNetwork(one.blocked, one.g).junctions.size(), 1u);
    Raster mismatch(10, 10);
    mismatch.g.nx = 11;
    EXPECT_THROW(deriveNetwork(mismatch.blocked, mismatch.g), std::invalid_argument);
}

// The same raster gives the same network (no dependence on anything else).
TEST(StreetNetwork, Deterministic) {
    Raster r(120, 80);
    r.carve(0, 17, 60, 23);
    r.carve(27, 0, 33, 40);
    r.carve(40, 5, 50, 15);
    const StreetNetwork a = deriveNetwork(r.blocked, r.g), b = deriveNetwork(r.blocked, r.g);
    ASSERT_EQ(a.junctions.size(), b.junctions.size());
    ASSERT_EQ(a.roads.size(), b.roads.size());
    for (std::size_t k = 0; k < a.roads.size(); ++k) {
        EXPECT_EQ(a.roads[k].x, b.roads[k].x);
        EXPECT_EQ(a.roads[k].y, b.roads[k].y);
    }
}

// Timing (printed, not asserted): a 600 m x 600 m town at 0.5 m (1200 x 1200
// cells) of random blocks 15-60 m on random 4-8 m streets, some blocks left out as squares.
TEST(StreetNetwork, TimingRandomTown) {
    const int nx = 1200;
    Raster r(nx, nx);
    std::uint32_t s = 12345u;
    auto rnd = [&](int lo, int hi) {  // own LCG: the same town on every platform
        s = s * 1664525u + 1013904223u;
        return lo + static_cast<int>((s >> 8) % static_cast<std::uint32_t>(hi - lo + 1));
    };
    r.blocked.fill(0);
    std::vector<int> xs{0}, ys{0};
    while (xs.back() < nx) xs.push_back(xs.back() + rnd(8, 16) + rnd(30, 120));
    while (ys.back() < nx) ys.push_back(ys.back() + rnd(8, 16) + rnd(30, 120));
    for (std::size_t bj = 0; bj + 1 < ys.size(); ++bj)
        for (std::size_t bi = 0; bi + 1 < xs.size(); ++bi) {
            if (rnd(0, 9) == 0) continue;  // a square
            const int x0 = xs[bi] + rnd(8, 16), y0 = ys[bj] + rnd(8, 16);
            for (int j = y0; j < std::min(ys[bj + 1], nx); ++j)
                for (int i = x0; i < std::min(xs[bi + 1], nx); ++i) r.blocked(i, j) = 1;
        }
    const auto t0 = std::chrono::steady_clock::now();
    const StreetNetwork n = deriveNetwork(r.blocked, r.g);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::printf("[ timing ] deriveNetwork 1200 x 1200: %.1f ms, %zu junctions, %zu roads\n", ms, n.junctions.size(),
                n.roads.size());
    EXPECT_GT(n.junctions.size(), 10u);
    expectAdjacencyConsistent(n);
}
