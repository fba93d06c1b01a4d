/// @file test_stage_separate.cpp
/// Separate stage (DESIGN.md §5 "Minimum distance"), per backend: 12 agents
/// packed in a 1 m square reach >= 0.9 d_min in a few passes (in the open
/// and in a walled corner), coincident agents separate, agents never end in
/// blocked cells (and are moved out of one), the pass count's ping-pong
/// buffers agree, the velocity becomes the one walked (capped at the free
/// speed), thread-count determinism (bitwise).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "backends.hpp"
#include "mask_walls.hpp"
#include "test_crowd.hpp"
#include "kernels/separate.hpp"
#include "kernels/stages.hpp"

namespace ccrowd::test {
namespace {

using sim::SeparateWorkspace;

constexpr float kDMin = 0.4f;

using Crowd = TestCrowd;

struct World {
    GridInfo g;
    Field<std::uint8_t> blocked;
    World(int nx, int ny, float h) : blocked(nx, ny, 0) { g.nx = nx; g.ny = ny; g.h = h; g.ox = 3.f; g.oy = -2.f; }
    bool openAt(float x, float y) const {
        int i, j;
        g.cellOf(x, y, i, j);
        return g.inside(i, j) && !blocked(i, j);
    }
};

void runSeparate(const Exec& ex, Crowd& c, World& w, int passes, SeparateWorkspace& ws, float dMin = kDMin,
                 float dt = 0.f) {
    MaskWalls walls(ex, w.g, w.blocked, w.g.h);
    sim::AgentSortBuffers sort;
    sim::separate(ex, c.views(ex), w.g, walls.view(ex), dMin, passes, sort, ws, 0.f, dt);
    c.fetch(ex);
}

float minDistance(const Crowd& c) {
    float best = INFINITY;
    for (int a = 0; a < c.size(); ++a)
        for (int b = a + 1; b < c.size(); ++b) best = std::min(best, std::hypot(c.x[a] - c.x[b], c.y[a] - c.y[b]));
    return best;
}

/// 12 agents at random in the 1 m x 1 m square with corner (x0, y0).
Crowd packed12(float x0, float y0, unsigned seed) {
    Crowd c(12);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    for (int k = 0; k < 12; ++k) { c.x[k] = x0 + u(rng); c.y[k] = y0 + u(rng); }
    return c;
}

/// Passes the stage gets in the open packed-square test ("a few"). Plain
/// Jacobi with half-overlap pushes: seeds 1-20 need at most 9 (over 200
/// random packings at most 12).
constexpr int kPasses = 10;

class SeparateStage : public ::testing::TestWithParam<Exec> {};

TEST_P(SeparateStage, TwelvePackedAgentsReachMinimumDistanceInAFewPasses) {
    World w(40, 40, 0.25f);  // 10 m x 10 m, open
    for (unsigned seed = 1; seed <= 20; ++seed) {
        Crowd c = packed12(w.g.ox + 4.5f, w.g.oy + 4.5f, seed);
        ASSERT_LT(minDistance(c), 0.5f * kDMin);
        SeparateWorkspace ws;
        runSeparate(GetParam(), c, w, kPasses, ws);
        EXPECT_GE(minDistance(c), 0.9f * kDMin) << "seed " << seed;
    }
}

TEST_P(SeparateStage, TwelveAgentsOnOnePointSeparate) {
    World w(40, 40, 0.25f);
    Crowd c(12);
    for (int k = 0; k < 12; ++k) { c.x[k] = w.g.ox + 5.f; c.y[k] = w.g.oy + 5.f; }
    SeparateWorkspace ws;
    runSeparate(GetParam(), c, w, 3 * kPasses, ws);
    EXPECT_GE(minDistance(c), 0.9f * kDMin);
}

TEST_P(SeparateStage, CoincidentPairSeparatesToDMinInOnePass) {
    World w(20, 20, 0.25f);
    Crowd c(2);
    c.x[0] = c.x[1] = w.g.ox + 2.f;
    c.y[0] = c.y[1] = w.g.oy + 2.f;
    SeparateWorkspace ws;
    runSeparate(GetParam(), c, w, 1, ws);
    EXPECT_NEAR(minDistance(c), kDMin, 1e-5f);
    // symmetric: the midpoint stays
    EXPECT_NEAR(0.5f * (c.x[0] + c.x[1]), w.g.ox + 2.f, 1e-5f);
    EXPECT_NEAR(0.5f * (c.y[0] + c.y[1]), w.g.oy + 2.f, 1e-5f);
}

TEST_P(SeparateStage, SeparatedAgentsAreUntouched) {
    World w(20, 20, 0.25f);
    Crowd c(3);
    const float xs[3] = {3.5f, 3.91f, 5.f}, ys[3] = {-1.f, -1.f, 1.f};
    for (int k = 0; k < 3; ++k) { c.x[k] = xs[k]; c.y[k] = ys[k]; }
    SeparateWorkspace ws;
    runSeparate(GetParam(), c, w, 3, ws);
    for (int k = 0; k < 3; ++k) { EXPECT_EQ(c.x[k], xs[k]); EXPECT_EQ(c.y[k], ys[k]); }
}

TEST_P(SeparateStage, PackedInAWalledCornerStayOutOfWalls) {
    // a room with 1-cell walls; 12 agents packed into its south-west corner
    World w(24, 24, 0.25f);
    for (int j = 0; j < 24; ++j)
        for (int i = 0; i < 24; ++i)
            if (i < 2 || j < 2 || i > 21 || j > 21) w.blocked(i, j) = 1;
    w.blocked(6, 6) = 1;  // a pillar among them
    for (unsigned seed = 1; seed <= 10; ++seed) {
        Crowd c = packed12(w.g.ox + 0.5f, w.g.oy + 0.5f, seed);
        for (int k = 0; k < 12; ++k)
            if (!w.openAt(c.x[k], c.y[k])) { c.x[k] += 0.5f; c.y[k] += 0.5f; }  // start open
        SeparateWorkspace ws;
        // pushes into a wall are lost, so the corner needs more passes: 5 steps of 8
        for (int round = 0; round < 5; ++round) {
            runSeparate(GetParam(), c, w, 8, ws);
            for (int k = 0; k < 12; ++k) ASSERT_TRUE(w.openAt(c.x[k], c.y[k])) << "seed " << seed << " agent " << k;
        }
        EXPECT_GE(minDistance(c), 0.9f * kDMin) << "seed " << seed;
    }
}

TEST_P(SeparateStage, AgentsInBlockedCellsOrOutsideAreMovedOut) {
    World w(20, 20, 0.25f);
    for (int j = 5; j < 8; ++j)
        for (int i = 5; i < 8; ++i) w.blocked(i, j) = 1;
    Crowd c(3);
    c.x[0] = w.g.ox + 1.30f; c.y[0] = w.g.oy + 1.62f;  // in blocked cell (5, 6), west edge
    c.x[1] = w.g.ox - 0.3f; c.y[1] = w.g.oy + 3.f;     // outside the grid
    c.x[2] = w.g.ox + 4.f; c.y[2] = w.g.oy + 4.f;
    SeparateWorkspace ws;
    runSeparate(GetParam(), c, w, 1, ws);
    for (int k = 0; k < 3; ++k) EXPECT_TRUE(w.openAt(c.x[k], c.y[k])) << k;
    EXPECT_NEAR(c.x[0], w.g.ox + 1.25f, 1e-3f);  // nearest open point: across the west face
    EXPECT_NEAR(c.y[0], w.g.oy + 1.62f, 1e-5f);
}

TEST_P(SeparateStage, PassCountParityAndWorkspaceReuse) {
    World w(40, 40, 0.25f);
    SeparateWorkspace ws;
    Crowd once = packed12(w.g.ox + 4.5f, w.g.oy + 4.5f, 3), twice = once;
    // two single passes equal one call of two passes (ping-pong buffers)
    runSeparate(GetParam(), once, w, 1, ws);
    runSeparate(GetParam(), once, w, 1, ws);
    runSeparate(GetParam(), twice, w, 2, ws);
    EXPECT_EQ(std::memcmp(once.x.host(), twice.x.host(), 12 * sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(once.y.host(), twice.y.host(), 12 * sizeof(float)), 0);
    // the workspace serves a smaller and a larger crowd next
    Crowd two(2);
    two.x[0] = two.x[1] = w.g.ox + 1.f;
    two.y[0] = w.g.oy + 1.f; two.y[1] = w.g.oy + 1.1f;
    runSeparate(GetParam(), two, w, 1, ws);
    EXPECT_NEAR(minDistance(two), kDMin, 1e-5f);
    Crowd many(500);
    for (int k = 0; k < 500; ++k) { many.x[k] = w.g.ox + 0.5f + 0.4f * (k % 22); many.y[k] = w.g.oy + 0.5f + 0.4f * (k / 22); }
    runSeparate(GetParam(), many, w, 1, ws);
    EXPECT_GE(minDistance(many), kDMin * (1.f - 1e-5f));
    // nothing to do: d_min 0 or no passes
    Crowd still = packed12(w.g.ox + 4.5f, w.g.oy + 4.5f, 4), copy = still;
    runSeparate(GetParam(), still, w, 0, ws);
    runSeparate(GetParam(), still, w, 3, ws, 0.f);
    EXPECT_EQ(std::memcmp(still.x.host(), copy.x.host(), 12 * sizeof(float)), 0);
}

TEST_P(SeparateStage, VelocityBecomesTheVelocityWalked) {
    World w(40, 40, 0.25f);
    const float dt = 0.05f, x0 = w.g.ox + 5.f, y0 = w.g.oy + 5.f;
    // two walkers 0.3 m apart walking into each other: 0.05 m of push each
    Crowd c;
    c.add(x0, y0, 1.f, 0.2f, 0.f, 0.f, 1.34f);
    c.add(x0 + 0.3f, y0, -1.f, 0.f, 0.f, 0.f, 1.34f);
    // a third pushed hard (0.35 m of overlap) while standing: the push is capped at its free speed
    c.add(x0, y0 + 2.f, 0.f, 0.f, 0.f, 0.f, 1.f);
    c.add(x0, y0 + 2.05f, 0.f, 0.f, 0.f, 0.f, 1.f);
    Crowd still = c;
    SeparateWorkspace ws;
    runSeparate(GetParam(), c, w, 1, ws, kDMin, dt);
    // velocity + displacement / dt: 1 - 0.05 / 0.05 = 0 along x, the sideways part kept
    EXPECT_NEAR(c.vx[0], 0.f, 1e-3f);
    EXPECT_NEAR(c.vy[0], 0.2f, 1e-3f);
    EXPECT_NEAR(c.vx[1], 0.f, 1e-3f);
    // 0.175 m in 0.05 s would be 3.5 m/s: the velocity walked is capped at 1 m/s, pointing away
    EXPECT_NEAR(std::hypot(c.vx[2], c.vy[2]), 1.f, 1e-4f);
    EXPECT_LT(c.vy[2], -0.99f);
    EXPECT_GT(c.vy[3], 0.99f);
    // dt 0: positions move the same, velocities untouched
    runSeparate(GetParam(), still, w, 1, ws, kDMin, 0.f);
    EXPECT_EQ(still.x[0], c.x[0]);
    EXPECT_EQ(still.vx[0], 1.f);
    EXPECT_EQ(still.vx[2], 0.f);
}

INSTANTIATE_TEST_SUITE_P(PerBackend, SeparateStage, ::testing::ValuesIn(testExecs()), ExecParamName());

TEST(SeparateStage, BitwiseIdenticalForOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    World w(80, 60, 0.25f);
    for (int j = 0; j < 60; ++j) { w.blocked(40, j) = j != 30 && j != 31; }  // a wall with a door
    const int n = 3000;
    Crowd base(n);
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> ux(w.g.ox, w.g.ox + 20.f), uy(w.g.oy, w.g.oy + 15.f);
    for (int k = 0; k < n; ++k) {
        do { base.x[k] = ux(rng); base.y[k] = uy(rng); } while (!w.openAt(base.x[k], base.y[k]));
    }
    base.x[7] = base.x[8];  // a coincident pair
    base.y[7] = base.y[8];
    Crowd one = base, two = base;
    SeparateWorkspace w1, w2;
    runSeparate(Exec{Backend::Cpu, 1}, one, w, 5, w1);
    runSeparate(Exec{Backend::Cpu, 2}, two, w, 5, w2);
    EXPECT_EQ(std::memcmp(one.x.host(), two.x.host(), n * sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(one.y.host(), two.y.host(), n * sizeof(float)), 0);
    for (int k = 0; k < n; ++k) ASSERT_TRUE(w.openAt(one.x[k], one.y[k])) << k;
}

TEST(SeparateStage, InvalidParametersThrow) {
    World w(4, 4, 0.25f);
    Crowd c(2);
    SeparateWorkspace ws;
    EXPECT_THROW(runSeparate(Exec{Backend::Cpu, 1}, c, w, -1, ws), InputError);
    EXPECT_THROW(runSeparate(Exec{Backend::Cpu, 1}, c, w, 1, ws, -0.1f), InputError);
    EXPECT_THROW(runSeparate(Exec{Backend::Cpu, 1}, c, w, 1, ws, NAN), InputError);
    EXPECT_THROW(runSeparate(Exec{Backend::Cpu, 1}, c, w, 1, ws, kDMin, -0.05f), InputError);
    EXPECT_THROW(runSeparate(Exec{Backend::Cpu, 1}, c, w, 1, ws, kDMin, INFINITY), InputError);
}

}  // namespace
}  // namespace ccrowd::test
