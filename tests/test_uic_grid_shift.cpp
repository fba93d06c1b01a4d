/// @file test_uic_grid_shift.cpp
/// model.pressure_grid_shift in whole simulations of room_exit (200
/// persons, a 1 m door): the pressure each step lies on that step's UIC
/// grid (uicShift), which does move; the results are the same on 1 and 2
/// threads; the room empties with no centre in a wall cell; and off, the
/// pressure stays on the fixed grid.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "backends.hpp"
#include "ccrowd/config.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "kernels/uic_grid.hpp"
#include "same_run.hpp"

namespace ccrowd {
namespace {

/// scenes/room_exit.json with the UIC grid moving (@p shift) or fixed.
Scene roomExit(bool shift) {
    Scene s = loadScene(std::string(CCROWD_SOURCE_DIR) + "/scenes/room_exit.json");
    s.params.pressure_grid_shift = shift;
    return s;
}

/// True when the fine pressure is constant on every block of @p l.
bool constantOnBlocks(const Field<float>& p, const sim::UicLayout& l) {
    for (int j = 0; j < p.ny(); ++j)
        for (int i = 0; i < p.nx(); ++i) {
            // the block's first cell inside the grid
            const int i0 = std::max(0, (i + l.oi) / l.c * l.c - l.oi), j0 = std::max(0, (j + l.oj) / l.c * l.c - l.oj);
            if (p(i, j) != p(i0, j0)) return false;
        }
    return true;
}

/// Largest pressure of @p p. [Units: m^2/s]
float maxPressure(const Field<float>& p) {
    float m = 0.f;
    for (int j = 0; j < p.ny(); ++j)
        for (int i = 0; i < p.nx(); ++i) m = std::max(m, p(i, j));
    return m;
}

class UicGridShift : public ::testing::TestWithParam<Exec> {};

TEST_P(UicGridShift, EachStepsPressureLiesOnThatStepsGridWhichMoves) {
    for (bool shift : {true, false}) {
        Simulation sim(roomExit(shift), GetParam());
        const int c = sim::uicFactor(sim.scene().params.perception_radius, sim.grid().h);
        ASSERT_EQ(c, 4);
        int pressed = 0, offFixed = 0;
        for (int k = 0; k < 400; ++k) {
            sim.step();
            const Field<float>& p = sim.pressure();
            if (!(maxPressure(p) > 0.f)) continue;
            ++pressed;
            // the step just taken (steps() - 1) placed the grid
            const sim::UicLayout now = shift ? sim::uicShift(c, sim.steps() - 1) : sim::UicLayout{c, 0, 0};
            ASSERT_TRUE(constantOnBlocks(p, now)) << "step " << k << (shift ? ", moving" : ", fixed");
            if (!constantOnBlocks(p, sim::UicLayout{c, 0, 0})) ++offFixed;
        }
        // the crowd at the door makes pressure; a moving grid leaves the fixed grid's blocks
        EXPECT_GT(pressed, 100) << shift;
        if (shift) EXPECT_GT(offFixed, pressed / 2);
        else EXPECT_EQ(offFixed, 0);
    }
}

TEST_P(UicGridShift, RoomEmptiesWithNoCentreInAWallCell) {
    Simulation sim(roomExit(true), GetParam());
    const long long n = sim.agentCount();
    while (!sim.finished() && sim.time() < 300.0) {
        sim.step();
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) {
            int i = 0, j = 0;
            sim.grid().cellOf(a.x[k], a.y[k], i, j);
            ASSERT_EQ(sim.grid().blocked(i, j), 0) << "agent " << a.id[k] << " at t = " << sim.time();
        }
    }
    std::printf("[ measured ] room_exit, moving UIC grid, %s: %lld of %lld out by %.2f s\n",
                backendName(GetParam().backend), sim.exitedTotal(), n, sim.time());
    EXPECT_EQ(sim.exitedTotal(), n);
    EXPECT_LT(sim.time(), 300.0);
}

INSTANTIATE_TEST_SUITE_P(PerBackend, UicGridShift, ::testing::ValuesIn(test::testExecs()), test::ExecParamName());

TEST(UicGridShiftCpu, SameOnOneAndTwoThreadsAndNotTheFixedGridsRun) {
    Simulation one(roomExit(true), Exec{Backend::Cpu, 1}), two(roomExit(true), Exec{Backend::Cpu, 2});
    test::expectSameRun(one, two, 300);
    // the setting takes effect: the fixed grid's run is another one
    Simulation fixed(roomExit(false), Exec{Backend::Cpu, 1});
    for (int k = 0; k < 300; ++k) fixed.step();
    const AgentSnapshot a = one.agents(), b = fixed.agents();
    bool differ = a.size() != b.size();
    for (int k = 0; !differ && k < a.size(); ++k) differ = a.x[k] != b.x[k] || a.y[k] != b.y[k];
    EXPECT_TRUE(differ);
}

}  // namespace
}  // namespace ccrowd
