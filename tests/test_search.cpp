/// @file test_search.cpp
/// Search in smoke (issue 14; Helbing, Farkas & Vicsek 2000, Fig. 3): a
/// group's `visibility` makes members beyond it walk their own way (the
/// kernel's rules, one by one), the stage runs only in scenes that ask for
/// it, a visibility wider than the room changes nothing, a searcher walks
/// straight until a wall and then along it, results are the same for 1 and
/// 2 threads, and bad input is named.

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "ccrowd/wall_segment.hpp"
#include "kernels/search.hpp"
#include "kernels/walls.hpp"
#include "same_run.hpp"

namespace ccrowd::test {
namespace {

/// A 20 m x 10 m hall with an exit strip at its west end; @p group is the
/// rest of the group object (after the route), @p local the model.
std::string hall(const std::string& group, const std::string& local = "uic", int count = 1,
                 const std::string& spawn = "[10, 4], \"max\": [11, 5]") {
    return R"({"format": "ccrowd-scene", "version": 1, "name": "hall",
      "domain": {"width": 20, "height": 10, "cell": 0.25},
      "goals": [{"name": "exit", "areas": [{"rect": {"min": [0, 0], "max": [0.5, 10]}}]}],
      "groups": [{"name": "walkers", "spawn": [{"rect": {"min": )" + spawn + R"(}}], "count": )" + std::to_string(count) +
           R"(, "speed": 1.2, "radius": 0.2, "route": ["exit"])" + group + R"(}],
      "model": {"seed": 7, "duration": 120, "local": ")" + local + R"("}})";
}

/// Spawn rectangle over most of the hall (hall()'s spawn argument).
const char* kWide = R"([6, 1], "max": [18, 9])";

Simulation make(const std::string& json, int threads = 0) { return Simulation(parseScene(json, "search-test"), Exec{Backend::Cpu, threads}); }

bool hasStage(const Simulation& sim, const std::string& name) {
    for (const std::string& s : sim.stageNames())
        if (s == name) return true;
    return false;
}

/// One agent's columns, in host arrays the kernel's views point into.
struct OneAgent {
    float x = 10.f, y = 5.f, vx = 0.f, vy = 0.f, px = -1.f, py = 0.f, vmax = 1.2f;
    int field = 0, id = 3;
    sim::AgentViews views() {
        sim::AgentViews a;
        a.n = 1;
        a.x = {&x, 1}; a.y = {&y, 1}; a.vx = {&vx, 1}; a.vy = {&vy, 1}; a.px = {&px, 1}; a.py = {&py, 1};
        a.vmax = {&vmax, 1}; a.field = {&field, 1}; a.id = {&id, 1};
        return a;
    }
};

/// The kernel on one agent 10 m from its goal in a 20 x 10 grid of 1 m cells
/// (with a wall along its south edge when @p wall).
void runKernel(OneAgent& one, float visibility, float time, bool wall = false) {
    GridInfo g;
    g.nx = 20; g.ny = 10; g.h = 1.f;
    sim::WallIndex index;
    // open side on the edge's left: north of a west-to-east edge
    sim::buildWallIndex(Exec{}, wall ? std::vector<WallSegment>{{0.f, 0.f, 20.f, 0.f}} : std::vector<WallSegment>{}, g, 1.f, index);
    std::vector<float> dist(200);
    for (int j = 0; j < 10; ++j)
        for (int i = 0; i < 20; ++i) dist[static_cast<std::size_t>(i + 20 * j)] = static_cast<float>(i);
    sim::SearchKernel k;
    k.a = one.views();
    k.g = g;
    k.walls = sim::wallView(Exec{}, g, index);
    k.radius = 0.2f;
    k.distance = View2<const float>{dist.data(), 20, 10};
    k.visibility = visibility;
    k.time = time;
    k.seed = 11u;
    k(0);
}

TEST(Search, KernelRules) {
    // within sight (10 m <= 12 m): the continuum's preferred velocity stands
    OneAgent near;
    runKernel(near, 12.f, 0.f);
    EXPECT_EQ(near.px, -1.f);
    EXPECT_EQ(near.py, 0.f);
    // beyond it and walking: its own direction at the continuum's speed
    OneAgent walking;
    walking.vx = 0.6f; walking.vy = 0.8f;
    runKernel(walking, 5.f, 0.f);
    EXPECT_FLOAT_EQ(walking.px, 0.6f);
    EXPECT_FLOAT_EQ(walking.py, 0.8f);
    // stopped: the draw of its id and time window, unit length, the same within a window, new in the next
    OneAgent a, b, c;
    a.vx = b.vx = c.vx = 0.1f;  // below kSearchStopped x 1.2 m/s
    runKernel(a, 5.f, 0.5f);
    runKernel(b, 5.f, 1.5f);
    runKernel(c, 5.f, 2.5f);
    float ux, uy;
    sim::searchHeading(11u, 3, 0, ux, uy);
    EXPECT_FLOAT_EQ(a.px, ux);
    EXPECT_FLOAT_EQ(a.py, uy);
    EXPECT_NEAR(std::hypot(a.px, a.py), 1.f, 1e-5f);
    EXPECT_EQ(a.px, b.px);
    EXPECT_EQ(a.py, b.py);
    EXPECT_TRUE(a.px != c.px || a.py != c.py);
    // no continuum speed (unreachable goal): the free speed
    OneAgent lost;
    lost.px = 0.f;
    lost.vx = 0.9f;
    runKernel(lost, 5.f, 0.f);
    EXPECT_FLOAT_EQ(lost.px, 1.2f);
    // touching a wall (0.3 m from it < 0.2 m + a quarter cell): along it when walking into it at a slant
    OneAgent slant;
    slant.y = 0.3f; slant.vx = 0.6f; slant.vy = -0.8f;
    runKernel(slant, 5.f, 0.f, true);
    EXPECT_FLOAT_EQ(slant.px, 1.f);
    EXPECT_NEAR(slant.py, 0.f, 1e-6f);
    // ... and away from it (the draw, mirrored) when walking straight into it
    OneAgent head;
    head.y = 0.3f; head.vx = 0.f; head.vy = -1.f;
    runKernel(head, 5.f, 0.f, true);
    sim::searchHeading(11u, 3, 0, ux, uy);
    EXPECT_GE(head.py, 0.f);
    EXPECT_FLOAT_EQ(head.px, ux);
    EXPECT_FLOAT_EQ(head.py, std::fabs(uy));
    // ... and unchanged when walking away from it, or farther from it
    OneAgent away, far;
    away.y = 0.3f; away.vx = 0.6f; away.vy = 0.8f;
    far.y = 2.f; far.vx = 0.6f; far.vy = -0.8f;
    runKernel(away, 5.f, 0.f, true);
    runKernel(far, 5.f, 0.f, true);
    EXPECT_FLOAT_EQ(away.py, 0.8f);
    EXPECT_FLOAT_EQ(far.py, -0.8f);
    // draws spread over the circle: mean of 1000 unit vectors near 0
    double sx = 0, sy = 0;
    for (int id = 0; id < 1000; ++id) {
        sim::searchHeading(11u, id, 0, ux, uy);
        sx += ux;
        sy += uy;
    }
    EXPECT_LT(std::hypot(sx, sy) / 1000.0, 0.08);
}

TEST(Search, StageOnlyWithAVisibilityAndAWideOneChangesNothing) {
    Simulation plain = make(hall("", "uic", 40, kWide));
    Simulation wide = make(hall(R"(, "visibility": 1000)", "uic", 40, kWide));
    EXPECT_FALSE(hasStage(plain, "search"));
    EXPECT_TRUE(hasStage(wide, "search"));
    expectSameRun(plain, wide, 150);
}

TEST(Search, ASearcherWalksStraightThenAlongTheWall) {
    // one walker 9.5 m from the exit, seeing 1 m: it walks its first draw's way, not west
    Simulation sim = make(hall(R"(, "visibility": 1)"));
    const AgentSnapshot a0 = sim.agents();
    for (int k = 0; k < 20; ++k) sim.step();  // 1 s
    const AgentSnapshot a1 = sim.agents();
    for (int k = 0; k < 20; ++k) sim.step();  // 2 s
    const AgentSnapshot a2 = sim.agents();
    ASSERT_EQ(a2.size(), 1);
    const float dx1 = a1.x[0] - a0.x[0], dy1 = a1.y[0] - a0.y[0];
    const float dx2 = a2.x[0] - a1.x[0], dy2 = a2.y[0] - a1.y[0];
    // it moved at walking pace and kept its heading (the second second's way is the first's)
    EXPECT_GT(std::hypot(dx2, dy2), 0.8f);
    const float cosTurn = (dx1 * dx2 + dy1 * dy2) / (std::hypot(dx1, dy1) * std::hypot(dx2, dy2));
    EXPECT_GT(cosTurn, 0.99f);
    // long enough to meet a wall: afterwards it stays inside and keeps moving (along the walls)
    float travelled = 0.f;
    bool found = false;
    AgentSnapshot prev = a2;
    for (int k = 0; k < 400; ++k) {
        sim.step();
        const AgentSnapshot now = sim.agents();
        if (now.size() == 0) { found = true; break; }  // it came within sight of the exit
        travelled += std::hypot(now.x[0] - prev.x[0], now.y[0] - prev.y[0]);
        EXPECT_GE(now.y[0], 0.2f - 1e-3f);
        EXPECT_LE(now.y[0], 9.8f + 1e-3f);
        prev = now;
    }
    EXPECT_TRUE(found || travelled > 10.f) << "a searcher at a wall slides along it, it does not stop: " << travelled << " m";
}

TEST(Search, SmokeRoomEveryoneFindsTheExitUnderEveryModel) {
    for (const char* local : {"uic", "social_force", "orca", "zones"}) {
        Simulation sim = make(hall(R"(, "visibility": 2, "panic": 0.4)", local, 30, kWide));
        while (sim.agentCount() > 0 && sim.time() < 120.0) sim.step();
        EXPECT_EQ(sim.agentCount(), 0) << local << ": searchers left inside after 120 s";
        std::printf("[ measured ] %s: %d searchers inside after %.0f s\n", local, sim.agentCount(), sim.time());
    }
}

TEST(Search, SameResultsForOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    const std::string s = hall(R"(, "visibility": 2, "panic": 0.5)", "social_force", 60, kWide);
    Simulation a = make(s, 1), b = make(s, 2);
    expectSameRun(a, b, 200);
}

TEST(Search, BadInputIsNamed) {
    for (const char* bad : {R"(, "visibility": 0)", R"(, "visibility": -2)", R"(, "visibility": 1e5)", R"(, "visibility": "far")"}) {
        std::string m;
        try {
            parseScene(hall(bad), "search-test");
        } catch (const InputError& e) {
            m = e.what();
        }
        ASSERT_FALSE(m.empty()) << bad;
        EXPECT_NE(m.find("/groups/0/visibility"), std::string::npos) << m;
    }
}

}  // namespace
}  // namespace ccrowd::test
