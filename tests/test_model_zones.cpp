/// @file test_model_zones.cpp
/// Zone-repulsion operational model (seed 000 §4.6.3; kernels/zones.hpp),
/// per backend: the strength at every zone boundary and mid-zone against the
/// seed's precomputed slopes, a pair's velocities against hand computation
/// at each boundary, the preferred- and free-speed clamps, bitwise
/// determinism for 1 and 2 threads, and the room exit's door flow.

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "backends.hpp"
#include "mask_walls.hpp"
#include "room_exit_flow.hpp"
#include "kernels/zones.hpp"
#include "test_crowd.hpp"

namespace ccrowd::test {
namespace {

using sim::ZonesParams;

TEST(ZonesMaths, StrengthMatchesTheSeedAtEachZoneBoundary) {
    const ZonesParams z;  // d 0.25 / 2 / 4.5 m, f 3 / 1 / 0.1 m/s
    EXPECT_FLOAT_EQ(sim::zoneStrength(z, 0.f), 3.f);
    EXPECT_FLOAT_EQ(sim::zoneStrength(z, 0.25f), 1.f);
    EXPECT_FLOAT_EQ(sim::zoneStrength(z, 2.f), 0.1f);
    EXPECT_NEAR(sim::zoneStrength(z, 4.5f), 0.f, 1e-7f);
    EXPECT_EQ(sim::zoneStrength(z, 4.51f), 0.f);
    // inside each zone: the seed's lines m d + t (eqs. 4.12-4.13)
    const float m[3] = {-8.f, -0.514286f, -0.04f}, t[3] = {3.f, 1.12857f, 0.18f};
    const float d[3] = {0.1f, 1.f, 3.f};
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(sim::zoneStrength(z, d[k]), m[k] * d[k] + t[k], 2e-5f) << d[k];
}

/// A 20 m x 10 m open floor.
GridInfo openFloor() {
    GridInfo g;
    g.nx = 80; g.ny = 40; g.h = 0.25f; g.ox = 0.f; g.oy = 0.f;
    return g;
}

/// zonesVelocity on the open floor (no blocked cell), bodies of 0.2 m.
void zonesOnOpenFloor(const Exec& ex, TestCrowd& c, const ZonesParams& z, sim::AgentSortBuffers& sort,
                      sim::NeighbourGridBuffers& ws) {
    const GridInfo g = openFloor();
    Field<std::uint8_t> blocked(g.nx, g.ny, 0);
    MaskWalls walls(ex, g, blocked, 0.2f + g.h);
    sim::zonesVelocity(ex, c.views(ex), g, walls.view(ex), 0.2f, z, sort, ws);
}

class ZonesStage : public ::testing::TestWithParam<Exec> {};

TEST_P(ZonesStage, PairVelocityMatchesHandComputationAtEachBoundary) {
    ZonesParams z;
    z.push_cap = 100.f;  // the seed's repulsion alone
    // distances at the boundaries (and coincident), expected repulsion speed
    const float dist[4] = {0.25f, 2.f, 3.25f, 4.5f}, speed[4] = {1.f, 0.1f, 0.05f, 0.f};
    for (int k = 0; k < 4; ++k) {
        TestCrowd c;
        // i walks east at 0.5 m/s; j, dist[k] east of i, north; free speeds high enough not to clamp
        c.add(5.f, 5.f, 0.f, 0.f, 0.5f, 0.f, 9.f);
        c.add(5.f + dist[k], 5.f, 0.f, 0.f, 0.f, 0.5f, 9.f);
        sim::AgentSortBuffers sort;
        sim::NeighbourGridBuffers ws;
        zonesOnOpenFloor(GetParam(), c, z, sort, ws);
        c.fetch(GetParam());
        // i is slowed by j ahead of it; j is turned east at its preferred speed 0.5 m/s
        EXPECT_NEAR(c.vx[0], 0.5f - speed[k], 1e-5f) << dist[k];
        EXPECT_EQ(c.vy[0], 0.f);
        const float turned = 0.5f / std::hypot(speed[k], 0.5f);
        EXPECT_NEAR(c.vx[1], speed[k] * turned, 1e-5f) << dist[k];
        EXPECT_NEAR(c.vy[1], 0.5f * turned, 1e-5f) << dist[k];
    }
}

TEST_P(ZonesStage, RepulsionIsCappedAtPushCapTimesThePreferredSpeed) {
    TestCrowd c;
    // j 0.1 m ahead of i: strength 3 - 8 * 0.1 = 2.2 m/s, capped at 0.75 * 0.4 m/s
    c.add(5.f, 5.f, 0.f, 0.f, 0.4f, 0.f, 9.f);
    c.add(5.1f, 5.f, 0.f, 0.f, 0.f, 2.f, 9.f);
    sim::AgentSortBuffers sort;
    sim::NeighbourGridBuffers ws;
    zonesOnOpenFloor(GetParam(), c, ZonesParams{}, sort, ws);
    c.fetch(GetParam());
    EXPECT_NEAR(c.vx[0], 0.4f - 0.3f, 1e-5f);
    // j walks north at 2 m/s: its cap is 0.75 * 2 = 1.5 m/s < 2.2, and (1.5, 2) is clamped to its preferred 2 m/s
    EXPECT_NEAR(c.vx[1], 1.2f, 1e-5f);
    EXPECT_NEAR(c.vy[1], 1.6f, 1e-5f);
}

TEST_P(ZonesStage, CoincidentPairPushesApartAtFreeOrPreferredSpeedWhicheverIsLower) {
    TestCrowd c;
    // a coincident pair, push cap raised: the repulsion f1 = 3 m/s outweighs both preferred velocities
    c.add(5.f, 5.f, 0.f, 0.f, 0.f, 1.f, 9.f);  // prefers 1 m/s, free speed 9 m/s
    c.add(5.f, 5.f, 0.f, 0.f, 0.f, 2.f, 1.f);  // prefers 2 m/s, free speed 1 m/s
    sim::AgentSortBuffers sort;
    sim::NeighbourGridBuffers ws;
    ZonesParams z;
    z.push_cap = 1e4f;
    zonesOnOpenFloor(GetParam(), c, z, sort, ws);
    c.fetch(GetParam());
    EXPECT_NEAR(std::hypot(c.vx[0], c.vy[0]), 1.f, 1e-5f);  // its preferred speed
    EXPECT_NEAR(std::hypot(c.vx[1], c.vy[1]), 1.f, 1e-5f);  // its free speed
    // pushed apart: (0, 1) + 3 u and (0, 2) - 3 u, each rescaled to 1 m/s, differ by more than 1.7 m/s for any u
    EXPECT_GT(std::hypot(c.vx[0] - c.vx[1], c.vy[0] - c.vy[1]), 1.7f);
}

TEST(ZonesStageThreads, OneAndTwoThreadsGiveIdenticalResults) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    std::vector<TestCrowd> out;
    for (int threads : {1, 2}) {
        TestCrowd c;
        std::mt19937 rng(11);
        std::uniform_real_distribution<float> u(0.f, 1.f);
        for (int k = 0; k < 300; ++k) c.add(20.f * u(rng), 10.f * u(rng), 0.f, 0.f, u(rng) - 0.5f, u(rng) - 0.5f, 1.5f);
        sim::AgentSortBuffers sort;
        sim::NeighbourGridBuffers ws;
        const Exec ex{Backend::Cpu, threads};
        zonesOnOpenFloor(ex, c, ZonesParams{}, sort, ws);
        out.push_back(c);
    }
    expectIdenticalStates(out[0], out[1]);
}

/// room_exit (200 persons, 1 m door) under zones at the defaults: the
/// specific flow between 10% and 70% out (as `ccrowd validate` measures it)
/// lies in the 1.0-2.0 persons/(m s) people reach. Clamped to the free
/// speed instead of the preferred speed, the crowd behind pushed those in
/// the door through at 2.79.
TEST(ZonesRoomExitDoor, OneMetreDoorPassesAPedestrianFlowAtTheDefaults) {
    expectPedestrianDoorFlow("zones");
}

INSTANTIATE_TEST_SUITE_P(PerBackend, ZonesStage, ::testing::ValuesIn(testExecs()), ExecParamName());

}  // namespace
}  // namespace ccrowd::test
