/// @file test_active_region.cpp
/// Seed 002's active grid (issue 13, Deliver 3): a region of fixed size
/// following a moving focus or an incident, simulating only inside it
/// (agents outside leave, fields stop at its edge), agents brought in at
/// its navigable border cells up to a density, its border as the escape
/// goal, results the same for 1 and 2 threads, and bad input named.

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "same_run.hpp"

namespace ccrowd::test {
namespace {

/// An 80 m x 40 m district on 0.5 m cells with two buildings; 300 persons
/// anywhere heading for the region's east side; a 30 m x 20 m region whose
/// focus moves from (15, 20) to (65, 20) over 40 s; eastbound persons enter
/// on its west side up to 0.3 / m^2, westbound on its east side up to 0.2 /
/// m^2 at most 5 a second. @p region replaces the region's object.
std::string district(const std::string& region = "", const std::string& extra = "") {
    const std::string r = region.empty() ? R"({
        "size": [30, 20], "focus": [[0, 15, 20], [40, 65, 20]],
        "spawn": [{"group": "eastbound", "density": 0.3, "sides": ["west"]},
                  {"group": "westbound", "density": 0.2, "sides": ["east"], "rate": 5}]})"
                                         : region;
    return R"({"format": "ccrowd-scene", "version": 1, "name": "district",
      "domain": {"width": 80, "height": 40, "cell": 0.5},
      "obstacles": [{"rect": {"min": [20, 14], "max": [26, 26]}}, {"rect": {"min": [50, 5], "max": [56, 12]}}],
      "goals": [{"name": "far_east", "areas": [{"rect": {"min": [78, 0], "max": [80, 40]}}]}],
      "groups": [
        {"name": "eastbound", "route": ["region_east"], "spawn": [{"rect": {"min": [0, 0], "max": [80, 40]}}], "count": 300},
        {"name": "westbound", "route": ["region_west"], "count": 0})" +
           extra + R"(],
      "active_region": )" + r + R"(,
      "model": {"seed": 1, "duration": 60, "dt": 0.1}})";
}

Simulation make(const std::string& json, int threads = 0) { return Simulation(parseScene(json, "region-test"), Exec{Backend::Cpu, threads}); }

/// True when (x, y) lies in the cells @p r of @p sim's grid.
bool insideCells(const Simulation& sim, const RegionCells& r, float x, float y) {
    const SceneGrid& g = sim.grid();
    const float x0 = g.origin.x + r.i0 * g.h, x1 = g.origin.x + r.i1 * g.h;
    const float y0 = g.origin.y + r.j0 * g.h, y1 = g.origin.y + r.j1 * g.h;
    return x >= x0 && x < x1 && y >= y0 && y < y1;
}

TEST(ActiveRegion, FollowsItsFocusAndSimulatesOnlyInside) {
    Simulation sim = make(district());
    const float h = sim.grid().h;
    // the initial agents outside the region left at once
    int outside = 0;
    while (sim.time() < 30.0) {
        sim.step();
        const RegionCells r = sim.activeRegion();
        // 30 m x 20 m, centred on the focus (x from 15 to 65 over 40 s, clamped to the domain)
        EXPECT_EQ(r.i1 - r.i0, 60);
        EXPECT_EQ(r.j1 - r.j0, 40);
        const double fx = std::clamp(15.0 + 50.0 * sim.time() / 40.0, 15.0, 65.0);
        EXPECT_NEAR(0.5 * (r.i0 + r.i1) * h, fx, h) << "at t = " << sim.time();
        // nobody outside it
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) outside += insideCells(sim, r, a.x[k], a.y[k]) ? 0 : 1;
        // every cell outside is closed to the fields, and no potential reaches it
        const int nx = sim.grid().nx;
        for (int j = 0; j < sim.grid().ny; j += 7)
            for (int i = 0; i < nx; i += 7) {
                if (i >= r.i0 && i < r.i1 && j >= r.j0 && j < r.j1) continue;
                ASSERT_TRUE(sim.grid().blocked.host()[i + j * nx]) << i << "," << j;
            }
    }
    EXPECT_EQ(outside, 0);
    // persons conserved: everyone placed or spawned is inside or has left
    long long spawned = 0, exited = 0, remaining = 0, leftRegion = 0;
    for (const GroupStats& g : sim.groupStats()) {
        spawned += g.spawned; exited += g.exited; remaining += g.remaining; leftRegion += g.left_region;
        EXPECT_EQ(g.spawned + g.switched_in, g.exited + g.remaining + g.switched_out) << g.name;
    }
    EXPECT_EQ(remaining, sim.agentCount());
    // the region moves away from the eastbound spawn's west side faster than 2 m per walk there: nobody born there
    EXPECT_EQ(sim.groupStats()[0].spawned, 300);
    EXPECT_GT(sim.groupStats()[1].spawned, 50);  // the westbound enter at its leading side
    EXPECT_GT(leftRegion, 0);  // the region moved off some, and the initial ones outside it
    EXPECT_LT(leftRegion, exited);  // others left through their goal side
}

TEST(ActiveRegion, BringsAgentsInAtItsBorderUpToTheDensity) {
    // a region that stays put: the spawns fill it from their sides
    Simulation sim = make(district(R"({"size": [30, 20], "focus": [[0, 40, 20]],
        "spawn": [{"group": "eastbound", "density": 0.3, "sides": ["west"]},
                  {"group": "westbound", "density": 0.2, "sides": ["east"], "rate": 5}]})"));
    const RegionCells r = sim.activeRegion();
    const float h = sim.grid().h;
    const float x0 = r.i0 * h, x1 = r.i1 * h;
    std::map<int, bool> seen;
    {
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) seen[a.id[k]] = true;
    }
    int firstSeen = 0, onTheirSide = 0;
    while (sim.time() < 40.0) {
        sim.step();
        // every newcomer appears in its side's border cells (one step's walk allowed)
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) {
            if (seen.count(a.id[k])) continue;
            seen[a.id[k]] = true;
            ++firstSeen;
            const float reach = h + 0.1f * 2.5f;
            const bool west = a.x[k] < x0 + reach, east = a.x[k] > x1 - reach;
            onTheirSide += (a.group[k] == 0 ? west : east) ? 1 : 0;
        }
    }
    EXPECT_GT(firstSeen, 100);
    EXPECT_EQ(onTheirSide, firstSeen);
    // the open area of the region: its cells less the building's 12 m x 6 m overlap... measured from the grid
    double open = 0.0;
    for (int j = r.j0; j < r.j1; ++j)
        for (int i = r.i0; i < r.i1; ++i) open += sim.grid().open_fraction.host()[i + j * sim.grid().nx];
    open *= h * h;
    // the groups hold their densities (within 10%), the rate-limited one too by now
    const std::vector<GroupStats>& g = sim.groupStats();
    EXPECT_NEAR(static_cast<double>(g[0].remaining), 0.3 * open, 0.1 * 0.3 * open);
    EXPECT_NEAR(static_cast<double>(g[1].remaining), 0.2 * open, 0.1 * 0.2 * open);
    // people walk through: the first have crossed to their goal side (30 m, against the other flow)
    EXPECT_GT(g[0].exited - g[0].left_region, 20);
    EXPECT_GT(g[1].exited - g[1].left_region, 10);
}

TEST(ActiveRegion, EscapeGroupsRunForItsBorderAwayFromTheIncident) {
    // a region on an incident at (40, 20); at 5 s everyone escapes to the region's border
    const std::string json = R"({"format": "ccrowd-scene", "version": 1, "name": "district",
      "domain": {"width": 80, "height": 40, "cell": 0.5},
      "goals": [{"name": "far_east", "areas": [{"rect": {"min": [78, 0], "max": [80, 40]}}]}],
      "groups": [
        {"name": "walkers", "route": ["far_east"], "spawn": [{"rect": {"min": [28, 12], "max": [52, 28]}}], "count": 400},
        {"name": "escapers", "behaviour": "escape", "count": 0, "speed": {"mean": 1.8, "sd": 0.2, "min": 1, "max": 2.5}}],
      "incidents": [{"name": "blast", "position": [40, 20], "radius": 3, "start": 5,
                     "switch": [{"from": "walkers", "to": "escapers"}]}],
      "active_region": {"size": [36, 24], "follow": "blast",
                        "spawn": [{"group": "walkers", "density": 0.3, "sides": ["west"]}]},
      "model": {"seed": 2, "duration": 60}})";
    Simulation sim = make(json);
    EXPECT_EQ(sim.scene().groups[1].route, std::vector<std::string>{"region_border"});
    const RegionCells r = sim.activeRegion();
    EXPECT_EQ(r.i1 - r.i0, 72);
    EXPECT_NEAR(0.5 * (r.i0 + r.i1) * 0.5, 40.0, 0.5);
    while (sim.time() < 5.0) sim.step();
    const long long walkersAt5 = sim.groupStats()[0].spawned;
    while (sim.time() < 40.0) sim.step();
    const std::vector<GroupStats>& g = sim.groupStats();
    // the spawn stops at the followed incident's start; the escapers leave through the border
    EXPECT_EQ(g[0].spawned, walkersAt5);
    EXPECT_GT(g[1].switched_in, 300);
    EXPECT_GT(g[1].exited, g[1].switched_in * 9 / 10);
    for (const ExitRecord& e : sim.exits()) {
        if (e.group != 1) continue;
        // at the border ring, not in the middle
        const bool ring = e.x < r.i0 * 0.5f + 1.f || e.x > r.i1 * 0.5f - 1.f || e.y < r.j0 * 0.5f + 1.f || e.y > r.j1 * 0.5f - 1.f;
        EXPECT_TRUE(ring) << e.x << ", " << e.y;
        EXPECT_GT(std::hypot(e.x - 40.f, e.y - 20.f), 3.f);
    }
}

TEST(ActiveRegion, SameResultsForOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    Simulation a = make(district(), 1), b = make(district(), 2);
    expectSameRun(a, b, 150);
    EXPECT_EQ(a.exits().size(), b.exits().size());
}

TEST(ActiveRegion, CitySceneKeepsItsCrowdInsideAndRunsItsIncident) {
    // scenes/city_active_region.json: the focus reaches the explosion at 25 s; here the blast comes at 1 s, 1 s after it
    Scene scene = loadScene(std::string(CCROWD_SOURCE_DIR) + "/scenes/city_active_region.json");
    scene.incidents[0].start = 1.0;
    for (RegionSpawnSpec& sp : scene.active_region.spawn) sp.end = std::min(sp.end, 1.0);
    scene.params.duration = 2.0;
    Simulation sim(scene, Exec{Backend::Cpu, 2});
    const RegionCells r0 = sim.activeRegion();
    EXPECT_EQ((r0.i1 - r0.i0) * sim.grid().h, 120.f);
    EXPECT_GT(sim.agentCount(), 1000);
    while (!sim.finished()) sim.step();
    // it walked east with its focus, and its crowd stayed inside
    const RegionCells r = sim.activeRegion();
    EXPECT_GT(r.i0, r0.i0);
    const AgentSnapshot a = sim.agents();
    for (int k = 0; k < a.size(); ++k) ASSERT_TRUE(insideCells(sim, r, a.x[k], a.y[k]));
    long long switched = 0;
    for (const GroupStats& g : sim.groupStats()) switched += g.switched_in;
    EXPECT_GT(switched, 500);
}

/// The InputError message of loading @p json.
std::string errorOf(const std::string& json) {
    try {
        parseScene(json, "region-test");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

TEST(ActiveRegion, BadInputIsNamed) {
    auto expectError = [](const std::string& json, const std::vector<std::string>& parts) {
        const std::string m = errorOf(json);
        ASSERT_FALSE(m.empty()) << json;
        for (const std::string& p : parts) EXPECT_NE(m.find(p), std::string::npos) << m << " lacks " << p;
    };
    expectError(district(R"({"size": [1, 20], "focus": [[0, 40, 20]]})"), {"/active_region/size", ">= 3 cells"});
    expectError(district(R"({"size": [90, 20], "focus": [[0, 40, 20]]})"), {"/active_region/size", "domain"});
    expectError(district(R"({"size": [30, 20]})"), {"/active_region", "\"follow\"", "\"focus\""});
    expectError(district(R"({"size": [30, 20], "follow": "fire"})"), {"/active_region/follow", "unknown incident"});
    expectError(district(R"({"size": [30, 20], "focus": [[0, 40, 20]], "follow": "x"})"), {"both"});
    expectError(district(R"({"size": [30, 20], "focus": [[5, 40, 20], [5, 50, 20]]})"), {"/active_region/focus/1", "increasing"});
    expectError(district(R"({"size": [30, 20], "focus": [[0, 140, 20]]})"), {"/active_region/focus/0", "inside the domain"});
    expectError(district(R"({"size": [30, 20], "focus": [[0, 40, 20]], "spawn": [{"group": "nobody", "density": 0.1}]})"),
                {"/active_region/spawn/0/group", "eastbound, westbound"});
    expectError(district(R"({"size": [30, 20], "focus": [[0, 40, 20]], "spawn": [{"group": "eastbound", "density": -1}]})"),
                {"/active_region/spawn/0/density", "> 0"});
    expectError(district(R"({"size": [30, 20], "focus": [[0, 40, 20]], "spawn": [{"group": "eastbound", "density": 0.1, "sides": ["up"]}]})"),
                {"/active_region/spawn/0/sides/0", "\"west\""});
    expectError(district(R"({"size": [30, 20], "focus": [[0, 40, 20]], "spawn": [{"group": "eastbound", "density": 0.1, "start": 5, "end": 2}]})"),
                {"/active_region/spawn/0/end", "> start"});
    expectError(district(R"({"size": [30, 20], "focus": [[0, 40, 20]], "extra": 1})"), {"/active_region", "extra"});
    // a goal of the scene named like one of the region's
    std::string taken = district();
    taken.replace(taken.find("far_east"), 8, "region_west");
    expectError(taken, {"region_west", "taken"});
}

}  // namespace
}  // namespace ccrowd::test
