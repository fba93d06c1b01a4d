/// @file test_local_density.cpp
/// The local density with which `ccrowd validate` checks the UIC limit on
/// the crowd (src/validate/body_checks.hpp, LocalDensity): a smooth kernel
/// reads a lattice of agents as the lattice's density wherever it samples
/// it, in the open and beside a wall, where counting centres in boxes
/// scatters.

#include <cmath>

#include <gtest/gtest.h>

#include "validate/body_checks.hpp"

namespace {

using ccrowd::AgentSnapshot;
using ccrowd::SceneGrid;

/// A 10 m x 10 m open grid of 0.25 m cells; columns x < @p wallX blocked.
SceneGrid grid(float wallX = 0.f) {
    SceneGrid g;
    g.nx = g.ny = 40;
    g.h = 0.25f;
    g.blocked.assign(g.nx, g.ny, 0);
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) g.blocked(i, j) = (i + 0.5f) * g.h < wallX ? 1 : 0;
    return g;
}

/// Agents on a lattice of spacing @p d (hexagonal or square) filling
/// [x0, x1] x [y0, y1].
AgentSnapshot lattice(double d, bool hex, double x0, double x1, double y0, double y1) {
    AgentSnapshot a;
    const double dy = hex ? d * std::sqrt(3.0) / 2.0 : d;
    int row = 0;
    for (double y = y0; y <= y1; y += dy, ++row)
        for (double x = x0 + (hex && row % 2 ? d / 2 : 0.0); x <= x1; x += d) {
            a.x.push_back(static_cast<float>(x));
            a.y.push_back(static_cast<float>(y));
        }
    return a;
}

double hexDensity(double d) { return 2.0 / (std::sqrt(3.0) * d * d); }

TEST(LocalDensity, AHexagonalLatticeAtTheLimitReadsTheLimit) {
    // d_min's default spacing packs exactly 5.4 persons/m^2 (Narain 2009 §4.1)
    const double d = ccrowd::minDistanceForDensity(5.4f);
    EXPECT_NEAR(hexDensity(d), 5.4, 1e-4);
    const SceneGrid g = grid();
    const ccrowd::validate::LocalDensity rho(g, 0.7);
    ccrowd::Vec2 at;
    const double m = rho.largest(lattice(d, true, 2.0, 8.0, 2.0, 8.0), &at);
    EXPECT_NEAR(m, 5.4, 0.02 * 5.4);
    EXPECT_GT(at.x, 2.0f);
    EXPECT_LT(at.x, 8.0f);
}

TEST(LocalDensity, ASquareLatticeReadsItsDensityWhereA2mBoxOfCentresReadsMore) {
    // 0.46 m square lattice: 4.73 persons/m^2; a 2 m box holds 5 x 5 = 25 centres (6.25)
    const double d = 0.46;
    const ccrowd::validate::LocalDensity rho(grid(), 0.7);
    const double m = rho.largest(lattice(d, false, 2.0, 8.0, 2.0, 8.0));
    EXPECT_NEAR(m, 1.0 / (d * d), 0.02 / (d * d));
    EXPECT_LT(m, 25.0 / 4.0 - 1.0);
}

TEST(LocalDensity, ACrowdPackedAboveTheLimitReadsAboveIt) {
    // 0.4 m hexagonal packing: 7.2 persons/m^2
    const ccrowd::validate::LocalDensity rho(grid(), 0.7);
    const double m = rho.largest(lattice(0.4, true, 2.0, 8.0, 2.0, 8.0));
    EXPECT_NEAR(m, hexDensity(0.4), 0.02 * hexDensity(0.4));
    EXPECT_GT(m, 5.4);
}

TEST(LocalDensity, BesideAWallTheDensityIsPerOpenFloor) {
    // wall at x < 2 m; a lattice from the wall's face: near the wall the
    // kernel's blocked share is discounted, so the reading stays the lattice's
    const double d = 0.5;
    const SceneGrid g = grid(2.0f);
    const ccrowd::validate::LocalDensity rho(g, 0.7);
    ccrowd::Vec2 at;
    const double m = rho.largest(lattice(d, false, 2.0 + d / 2, 8.0, 2.0, 8.0), &at);
    EXPECT_NEAR(m, 1.0 / (d * d), 0.05 / (d * d));
    // one agent alone far from walls: the kernel's peak 1 / (pi R^2)
    AgentSnapshot one;
    one.x = {6.125f};
    one.y = {5.125f};
    EXPECT_NEAR(rho.largest(one), 1.0 / (M_PI * 0.49), 1e-3);
    EXPECT_EQ(rho.largest(AgentSnapshot{}), 0.0);
}

}  // namespace
