/// @file test_initial_state.cpp
/// A Simulation's fields before its first step (issue 11, item 2): the
/// constructor computes the field stages for the agents where they stand,
/// so the density integrates to the persons present, the potentials they
/// follow are solved, and every field accessor works on every backend,
/// including potentials nobody follows yet (which exist on the host only).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "backends.hpp"
#include "ccrowd/config.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"

namespace ccrowd {
namespace {

std::string scenePath(const std::string& name) { return std::string(CCROWD_SOURCE_DIR) + "/scenes/" + name + ".json"; }

/// Sum of rho h^2 over the grid. [Units: persons]
double persons(const Field<float>& rho, double h) {
    double n = 0.0;
    for (std::size_t c = 0; c < rho.size(); ++c) n += static_cast<double>(rho.host()[c]) * h * h;
    return n;
}

/// A room whose group walks to a kiosk and then to the exit: two potential
/// fields, the second followed by nobody at the start.
Scene routeScene() {
    return parseScene(R"({
      "format": "ccrowd-scene", "version": 1, "name": "route",
      "domain": {"origin": [0, 0], "width": 20, "height": 10, "cell": 0.5},
      "goals": [{"name": "exit", "areas": [{"rect": {"min": [19, 4], "max": [20, 6]}}], "exit": true},
                {"name": "kiosk", "areas": [{"rect": {"min": [9, 8], "max": [11, 9.5]}}], "exit": false}],
      "groups": [{"name": "a", "spawn": [{"rect": {"min": [1, 1], "max": [6, 6]}}], "count": 40,
                  "route": ["kiosk", "exit"]}]
    })", "route scene");
}

class InitialState : public ::testing::TestWithParam<Exec> {};

TEST_P(InitialState, DensityIntegratesToThePersonsPresentAndPotentialsAreSolved) {
    Simulation sim(loadScene(scenePath("room_exit")), GetParam());
    const int present = sim.agentCount();
    ASSERT_GT(present, 0);
    EXPECT_EQ(sim.steps(), 0);
    EXPECT_EQ(sim.time(), 0.0);
    const Field<float>& rho = sim.density();
    EXPECT_NEAR(persons(rho, sim.grid().h), present, 1e-4 * present);
    EXPECT_EQ(sim.maxDensity(), *std::max_element(rho.host(), rho.host() + rho.size()));
    EXPECT_GT(sim.maxDensity(), 0.f);
    // the potential every agent follows is finite where it stands, and lower
    // than +inf means solved; the desired velocity moves it
    const AgentSnapshot a = sim.agents();
    ASSERT_EQ(a.size(), present);
    const Field<float>& phi = sim.potential(0);
    const std::vector<float> v = sim.desiredVelocity(0);
    int finite = 0, moving = 0;
    for (int k = 0; k < a.size(); ++k) {
        int i = 0, j = 0;
        sim.grid().cellOf(a.x[k], a.y[k], i, j);
        finite += std::isfinite(phi(i, j)) ? 1 : 0;
        const std::size_t c = phi.index(i, j);
        moving += std::hypot(v[2 * c], v[2 * c + 1]) > 0.1f ? 1 : 0;
    }
    EXPECT_EQ(finite, present);
    EXPECT_GT(moving, present / 2);
    // nobody moved, no pressure solve yet, no step timed
    for (int k = 0; k < a.size(); ++k) EXPECT_EQ(a.vx[k], 0.f);
    const Field<float>& p = sim.pressure();
    EXPECT_EQ(*std::max_element(p.host(), p.host() + p.size()), 0.f);
    EXPECT_EQ(sim.times().steps, 0);
    for (double ms : sim.times().total_ms) EXPECT_EQ(ms, 0.0);
    EXPECT_EQ(sim.lastReport().potentials_solved, 0);
}

TEST_P(InitialState, EveryFieldOfARouteIsReadableBeforeAndAfterSteps) {
    // the CUDA backend used to throw reading a potential with no device copy
    Simulation sim(routeScene(), GetParam());
    ASSERT_EQ(sim.fieldCount(), 2);
    const int kiosk = 0, exitField = 1;  // route steps 0 and 1 of group a
    ASSERT_EQ(sim.fieldStep(kiosk), 0);
    ASSERT_EQ(sim.fieldStep(exitField), 1);
    for (int step = 0; step < 3; ++step) {
        // followed: solved, finite somewhere; not followed yet: +inf everywhere, no desired velocity
        const Field<float>& followed = sim.potential(kiosk);
        EXPECT_TRUE(std::any_of(followed.host(), followed.host() + followed.size(), [](float x) { return std::isfinite(x); }));
        const Field<float>& waiting = sim.potential(exitField);
        EXPECT_TRUE(std::all_of(waiting.host(), waiting.host() + waiting.size(), [](float x) { return std::isinf(x); }))
            << "after " << step << " steps";
        const std::vector<float> v = sim.desiredVelocity(exitField);
        EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](float x) { return x == 0.f; }));
        EXPECT_EQ(sim.faceSpeed().size(), 4 * sim.density().size());
        EXPECT_EQ(sim.meanVelocity().size(), 2 * sim.density().size());
        EXPECT_NEAR(persons(sim.density(), sim.grid().h), sim.agentCount(), 1e-4 * sim.agentCount());
        sim.step();
    }
}

TEST_P(InitialState, DesiredVelocityCoversTheActiveBoxNotOnlyTheCellsAgentsRead) {
    // the step computes a field only where its agents read it; readers get the box
    Simulation sim(routeScene(), GetParam());
    for (int step = 0; step < 2; ++step) sim.step();
    const AgentSnapshot a = sim.agents();
    ASSERT_GT(a.size(), 0);
    float x0 = a.x[0], x1 = a.x[0], y0 = a.y[0], y1 = a.y[0];
    for (int k = 0; k < a.size(); ++k) {
        x0 = std::min(x0, a.x[k]); x1 = std::max(x1, a.x[k]);
        y0 = std::min(y0, a.y[k]); y1 = std::max(y1, a.y[k]);
    }
    // every cell within 1.5 m of the crowd's bounds (the box margin is 2 m) moves towards the kiosk
    const SceneGrid& g = sim.grid();
    const std::vector<float> v = sim.desiredVelocity(0);
    int cells = 0;
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) {
            const float cx = g.origin.x + (i + 0.5f) * g.h, cy = g.origin.y + (j + 0.5f) * g.h;
            if (cx < x0 - 1.5f || cx > x1 + 1.5f || cy < y0 - 1.5f || cy > y1 + 1.5f) continue;
            const std::size_t c = static_cast<std::size_t>(i + j * g.nx);
            EXPECT_GT(std::hypot(v[2 * c], v[2 * c + 1]), 0.05f) << i << "," << j;
            ++cells;
        }
    EXPECT_GT(cells, 4 * a.size());
    // asked again without a step: the same field
    EXPECT_EQ(sim.desiredVelocity(0), v);
}

INSTANTIATE_TEST_SUITE_P(Backends, InitialState, ::testing::ValuesIn(test::testExecs()), test::ExecParamName{});

}  // namespace
}  // namespace ccrowd
