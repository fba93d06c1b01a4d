/// @file test_scene_load.cpp
/// Scene files (include/ccrowd/scene.hpp, scenes/README.md): every shipped
/// scene loads, rasterises and places its agents; the seed 003 scenes have
/// the sizes the paper gives; every field of a complete scene reads back;
/// absent fields take ModelParams' defaults; defaultScenePath.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "temp_dir.hpp"

#include "ccrowd/config.hpp"
#include "ccrowd/eikonal.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/placement.hpp"
#include "ccrowd/scene.hpp"

namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;

const fs::path kScenes = fs::path(CCROWD_SOURCE_DIR) / "scenes";

/// A fresh temporary directory per test, removed afterwards.
class SceneLoad : public ::ccrowd::test::TempDirTest {};

/// Centroid of a polygon's vertices. [Units: m]
Vec2 centre(const Polygon& p) {
    Vec2 c;
    for (const Vec2& v : p) { c.x += v.x / p.size(); c.y += v.y / p.size(); }
    return c;
}

int goalIndex(const Scene& s, const std::string& name) {
    for (std::size_t k = 0; k < s.goals.size(); ++k) {
        if (s.goals[k].name == name) return static_cast<int>(k);
    }
    return -1;
}

long long totalAgents(const SceneGrid& g) {
    long long n = 0;
    for (int c : g.group_count) n += c;
    return n;
}

TEST_F(SceneLoad, EveryShippedSceneLoadsRasterisesAndPlaces) {
    const std::set<std::string> expected = {"seed003_single_goal.json", "seed003_two_groups.json",
                                            "seed003_four_groups.json", "corridor.json",
                                            "room_exit.json",          "bottleneck.json",
                                            "eight_groups.json",       "default.json"};
    std::set<std::string> found;
    for (const auto& e : fs::directory_iterator(kScenes)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() != ".json" || name == "scene.schema.json") continue;
        found.insert(name);
        SCOPED_TRACE(name);
        Scene s;
        ASSERT_NO_THROW(s = loadScene(e.path().string()));
        SceneGrid g;
        ASSERT_NO_THROW(g = rasterizeScene(s));
        EXPECT_EQ(g.nx, static_cast<int>(std::ceil(s.width / s.cell - 1e-6)));
        EXPECT_EQ(g.ny, static_cast<int>(std::ceil(s.height / s.cell - 1e-6)));
        ASSERT_EQ(g.goal_cells.size(), s.goals.size());
        // every goal covers open cells (but the one route-choice groups get: it has no areas)
        for (std::size_t k = 0; k < g.goal_cells.size(); ++k) EXPECT_EQ(g.goal_cells[k].empty(), s.goals[k].areas.empty()) << s.goals[k].name;
        // Every group places its agents, inside open cells, d apart (spot check).
        for (int k = 0; k < static_cast<int>(s.groups.size()); ++k) {
            const auto pts = placeAgents(s, g, k, s.params.seed, placementDistance(s, k));
            ASSERT_EQ(static_cast<int>(pts.size()), g.group_count[k]);
            for (const Vec2& p : pts) {
                int i, j;
                g.cellOf(p.x, p.y, i, j);
                ASSERT_EQ(g.blocked(i, j), 0);
            }
        }
    }
    for (const std::string& n : expected) EXPECT_TRUE(found.count(n)) << "missing scenes/" << n;
}

TEST_F(SceneLoad, Seed003SingleGoalMatchesThePaper) {
    const Scene s = loadScene((kScenes / "seed003_single_goal.json").string());
    const SceneGrid g = rasterizeScene(s);
    // 14 x 10 grid, 12 agents of radius 0.15 m, d_min 0.4 m, v_max 1.2 m/s, alpha = beta = gamma = 1.
    EXPECT_EQ(g.nx, 14);
    EXPECT_EQ(g.ny, 10);
    ASSERT_EQ(s.groups.size(), 1u);
    ASSERT_EQ(s.goals.size(), 1u);
    EXPECT_EQ(g.group_count[0], 12);
    EXPECT_FLOAT_EQ(s.groups[0].radius, 0.15f);
    EXPECT_FLOAT_EQ(s.params.d_min, 0.4f);
    EXPECT_FLOAT_EQ(s.groups[0].speed.mean, 1.2f);
    EXPECT_FLOAT_EQ(s.groups[0].speed.max, 1.2f);
    EXPECT_FLOAT_EQ(s.groups[0].speed.sd, 0.f);
    EXPECT_FLOAT_EQ(s.params.alpha, 1.f);
    EXPECT_FLOAT_EQ(s.params.beta, 1.f);
    EXPECT_FLOAT_EQ(s.params.gamma, 1.f);
    EXPECT_GE(s.cell, 0.5f);  // a real room: 7 m x 5 m or larger
}

TEST_F(SceneLoad, Seed003TwoGroupsCrossFromOppositeSides) {
    const Scene s = loadScene((kScenes / "seed003_two_groups.json").string());
    const SceneGrid g = rasterizeScene(s);
    ASSERT_EQ(s.groups.size(), 2u);
    EXPECT_EQ(g.group_count[0], 120);
    EXPECT_EQ(g.group_count[1], 120);
    // Each group starts on one side and its goal is on the other.
    for (const GroupSpec& grp : s.groups) {
        const float sx = centre(grp.spawn[0]).x;
        const int goal = goalIndex(s, grp.route.back());
        ASSERT_GE(goal, 0);
        const float gx = centre(s.goals[goal].areas[0]).x;
        EXPECT_LT((sx - s.width / 2) * (gx - s.width / 2), 0.f) << grp.name;
    }
}

TEST_F(SceneLoad, Seed003FourGroupsCrossDiagonallyAmongObstacles) {
    const Scene s = loadScene((kScenes / "seed003_four_groups.json").string());
    const SceneGrid g = rasterizeScene(s);
    ASSERT_EQ(s.groups.size(), 4u);
    EXPECT_FALSE(s.obstacles.empty());
    std::set<std::pair<int, int>> corners;
    for (std::size_t k = 0; k < 4; ++k) {
        EXPECT_EQ(g.group_count[k], 25);
        const Vec2 sc = centre(s.groups[k].spawn[0]);
        const Vec2 gc = centre(s.goals[goalIndex(s, s.groups[k].route.back())].areas[0]);
        const int qx = sc.x > s.width / 2, qy = sc.y > s.height / 2;
        corners.insert({qx, qy});
        // The goal is in the diagonally opposite quadrant.
        EXPECT_EQ(gc.x > s.width / 2, !qx);
        EXPECT_EQ(gc.y > s.height / 2, !qy);
    }
    EXPECT_EQ(corners.size(), 4u);
}

TEST_F(SceneLoad, ValidationScenesHaveTheirStatedSizes) {
    const Scene corridor = loadScene((kScenes / "corridor.json").string());
    const SceneGrid cg = rasterizeScene(corridor);
    EXPECT_FLOAT_EQ(std::max(corridor.width, corridor.height), 40.f);
    EXPECT_FLOAT_EQ(std::min(corridor.width, corridor.height), 2.f);
    EXPECT_EQ(totalAgents(cg), 1);

    // The room's only exit is 1 m: 4 open cells of 0.25 m in the wall column.
    const Scene room = loadScene((kScenes / "room_exit.json").string());
    const SceneGrid rg = rasterizeScene(room);
    EXPECT_GE(totalAgents(rg), 100);
    int wallColumnMin = rg.ny;
    for (int i = 0; i < rg.nx; ++i) {
        int open = 0;
        for (int j = 0; j < rg.ny; ++j) open += !rg.blocked(i, j);
        wallColumnMin = std::min(wallColumnMin, open);
    }
    EXPECT_EQ(wallColumnMin * rg.h, 1.0f);

    const Scene bottle = loadScene((kScenes / "bottleneck.json").string());
    const SceneGrid bg = rasterizeScene(bottle);
    int narrowest = bg.ny, widest = 0;
    for (int i = 0; i < bg.nx; ++i) {
        int open = 0;
        for (int j = 0; j < bg.ny; ++j) open += !bg.blocked(i, j);
        narrowest = std::min(narrowest, open);
        widest = std::max(widest, open);
    }
    EXPECT_LE(narrowest * bg.h, 1.5f);
    EXPECT_GE(widest * bg.h, 4 * narrowest * bg.h);

    const Scene eight = loadScene((kScenes / "eight_groups.json").string());
    const SceneGrid eg = rasterizeScene(eight);
    EXPECT_GE(eight.groups.size(), 8u);
    std::set<std::string> finals;
    for (const GroupSpec& grp : eight.groups) finals.insert(grp.route.back());
    EXPECT_GE(finals.size(), 8u);
    EXPECT_GT(totalAgents(eg), 0);
}

TEST_F(SceneLoad, DefaultSceneIsALargeEgressWithFourExits) {
    const Scene s = loadScene((kScenes / "default.json").string());
    const SceneGrid g = rasterizeScene(s);
    EXPECT_GE(totalAgents(g), 50000);
    int exits = 0;
    for (const GoalSpec& goal : s.goals) exits += goal.exit;
    EXPECT_GE(exits, 4);
    EXPECT_FLOAT_EQ(s.cell, 0.5f);
    std::set<std::string> routed;
    for (const GroupSpec& grp : s.groups) routed.insert(grp.route.back());
    EXPECT_GE(routed.size(), 4u);
}

TEST_F(SceneLoad, EveryFieldReadsBack) {
    write("plan.png", "not read by loadScene");
    const std::string path = write("full.json", R"({
      "$schema": "./scene.schema.json",
      "format": "ccrowd-scene", "version": 1,
      "name": "full", "description": "all fields",
      "domain": {"origin": [-1, -2], "width": 21, "height": 12, "cell": 0.5},
      "walkable": [{"rect": {"min": [-1, -2], "max": [20, 10]}}],
      "obstacles": [[[5, 5], [6, 5], [6, 6], [5, 6]]],
      "floor_plans": [{"image": "plan.png", "metres_per_pixel": 0.1, "origin": [1, 2], "threshold": 0.25}],
      "goals": [{"name": "exit", "areas": [{"rect": {"min": [18, 0], "max": [20, 4]}}], "potential": 2.5, "exit": true},
                {"name": "kiosk", "areas": [[[10, 8], [12, 8], [11, 9.5]]], "exit": false}],
      "groups": [{"name": "a", "spawn": [{"rect": {"min": [0, 0], "max": [4, 4]}}], "count": 7,
                  "speed": {"mean": 1.1, "sd": 0.2, "min": 0.6, "max": 1.6}, "radius": 0.25,
                  "route": ["kiosk", "exit"], "colour": "#ff8000"},
                 {"name": "b", "spawn": [{"rect": {"min": [0, 5], "max": [4, 9]}}], "density": 1.5,
                  "speed": 1.0, "route": ["exit"], "colour": [1, 2, 3]},
                 {"name": "c", "route": ["exit"]}],
      "sources": [{"group": "c", "region": {"rect": {"min": [0, -2], "max": [2, -1]}}, "rate": 0.5,
                   "start": 3, "end": 30, "max_agents": 40},
                  {"group": "a", "region": {"rect": {"min": [2, -2], "max": [3, -1]}}, "rate": 2}],
      "discomfort": [{"area": {"rect": {"min": [8, 0], "max": [9, 2]}}, "value": 3}],
      "terrain": [{"area": {"rect": {"min": [14, 0], "max": [15, 2]}}, "factor": 0.6}],
      "measurement": {"lines": [{"name": "l1", "from": [17, 0], "to": [17, 5]}],
                      "areas": [{"name": "a1", "area": {"rect": {"min": [15, 0], "max": [17, 5]}}}]},
      "model": {"alpha": 0.5, "beta": 2, "gamma": 3, "rho_min": 0.25, "rho_max": 3.5, "rho_limit": 5,
                "v0": 1.3, "rho_jam": 5.5, "gamma_fd": 2, "d_min": 0.35, "dt": 0.1, "duration": 90,
                "max_steps": 1000, "seed": 18446744073709551615, "box_margin": 3, "pressure_iterations": 40,
                "pressure_tolerance": 0.01, "separation_passes": 5, "potential_warm_start": true,
                "pressure_grid_shift": true, "potential_stencil": 8, "potential_sweeps": 5, "potential_band_tiles": 12,
                "potential_front_budget": 175}
    })");
    const Scene s = loadScene(path);
    EXPECT_EQ(s.path, path);
    EXPECT_EQ(s.label, path);
    EXPECT_EQ(s.version, 1);
    EXPECT_EQ(s.name, "full");
    EXPECT_EQ(s.description, "all fields");
    EXPECT_FLOAT_EQ(s.origin.x, -1);
    EXPECT_FLOAT_EQ(s.origin.y, -2);
    EXPECT_FLOAT_EQ(s.width, 21);
    EXPECT_FLOAT_EQ(s.height, 12);
    EXPECT_FLOAT_EQ(s.cell, 0.5);
    // A rect becomes a 4-vertex polygon with the right corners.
    ASSERT_EQ(s.walkable.size(), 1u);
    ASSERT_EQ(s.walkable[0].size(), 4u);
    EXPECT_FLOAT_EQ(s.walkable[0][0].x, -1);
    EXPECT_FLOAT_EQ(s.walkable[0][2].x, 20);
    EXPECT_FLOAT_EQ(s.walkable[0][2].y, 10);
    ASSERT_EQ(s.obstacles.size(), 1u);
    EXPECT_EQ(s.obstacles[0].size(), 4u);
    EXPECT_FLOAT_EQ(s.obstacles[0][1].x, 6);
    // Floor plan: path resolved against the scene file's directory.
    ASSERT_EQ(s.floor_plans.size(), 1u);
    EXPECT_EQ(fs::path(s.floor_plans[0].path), dir_ / "plan.png");
    EXPECT_FLOAT_EQ(s.floor_plans[0].metres_per_pixel, 0.1f);
    EXPECT_FLOAT_EQ(s.floor_plans[0].origin.x, 1);
    EXPECT_FLOAT_EQ(s.floor_plans[0].origin.y, 2);
    EXPECT_FLOAT_EQ(s.floor_plans[0].threshold, 0.25f);
    // Goals.
    ASSERT_EQ(s.goals.size(), 2u);
    EXPECT_EQ(s.goals[0].name, "exit");
    EXPECT_FLOAT_EQ(s.goals[0].potential, 2.5f);
    EXPECT_TRUE(s.goals[0].exit);
    EXPECT_FALSE(s.goals[1].exit);
    EXPECT_EQ(s.goals[1].areas[0].size(), 3u);
    // Groups: count, density, speed object and number, colours, defaults.
    ASSERT_EQ(s.groups.size(), 3u);
    const GroupSpec& a = s.groups[0];
    EXPECT_EQ(a.count, 7);
    EXPECT_FLOAT_EQ(a.speed.mean, 1.1f);
    EXPECT_FLOAT_EQ(a.speed.sd, 0.2f);
    EXPECT_FLOAT_EQ(a.speed.min, 0.6f);
    EXPECT_FLOAT_EQ(a.speed.max, 1.6f);
    EXPECT_FLOAT_EQ(a.radius, 0.25f);
    EXPECT_EQ(a.route, (std::vector<std::string>{"kiosk", "exit"}));
    EXPECT_EQ(a.colour, (std::array<std::uint8_t, 3>{255, 128, 0}));
    const GroupSpec& b = s.groups[1];
    EXPECT_FLOAT_EQ(b.density, 1.5f);
    EXPECT_FLOAT_EQ(b.speed.mean, 1.0f);
    EXPECT_FLOAT_EQ(b.speed.min, 1.0f);
    EXPECT_FLOAT_EQ(b.speed.max, 1.0f);
    EXPECT_FLOAT_EQ(b.speed.sd, 0.f);
    EXPECT_FLOAT_EQ(b.radius, GroupSpec{}.radius);
    EXPECT_EQ(b.colour, (std::array<std::uint8_t, 3>{1, 2, 3}));
    const GroupSpec& c = s.groups[2];
    EXPECT_TRUE(c.spawn.empty());
    EXPECT_EQ(c.count, 0);
    // Sources: all fields, and the defaults of the second.
    ASSERT_EQ(s.sources.size(), 2u);
    EXPECT_EQ(s.sources[0].group, "c");
    EXPECT_FLOAT_EQ(s.sources[0].rate, 0.5f);
    EXPECT_FLOAT_EQ(s.sources[0].start, 3);
    EXPECT_FLOAT_EQ(s.sources[0].end, 30);
    EXPECT_EQ(s.sources[0].max_agents, 40);
    EXPECT_FLOAT_EQ(s.sources[1].start, 0);
    EXPECT_TRUE(std::isinf(s.sources[1].end));
    EXPECT_EQ(s.sources[1].max_agents, -1);
    // Regions and measurements.
    ASSERT_EQ(s.discomfort.size(), 1u);
    EXPECT_FLOAT_EQ(s.discomfort[0].value, 3);
    ASSERT_EQ(s.terrain.size(), 1u);
    EXPECT_FLOAT_EQ(s.terrain[0].factor, 0.6f);
    ASSERT_EQ(s.lines.size(), 1u);
    EXPECT_EQ(s.lines[0].name, "l1");
    EXPECT_FLOAT_EQ(s.lines[0].a.x, 17);
    EXPECT_FLOAT_EQ(s.lines[0].b.y, 5);
    ASSERT_EQ(s.areas.size(), 1u);
    EXPECT_EQ(s.areas[0].name, "a1");
    // Model: all 18 parameters.
    const ModelParams& p = s.params;
    EXPECT_FLOAT_EQ(p.alpha, 0.5f);
    EXPECT_FLOAT_EQ(p.beta, 2);
    EXPECT_FLOAT_EQ(p.gamma, 3);
    EXPECT_FLOAT_EQ(p.rho_min, 0.25f);
    EXPECT_FLOAT_EQ(p.rho_max, 3.5f);
    EXPECT_FLOAT_EQ(p.rho_limit, 5);
    EXPECT_FLOAT_EQ(p.v0, 1.3f);
    EXPECT_FLOAT_EQ(p.rho_jam, 5.5f);
    EXPECT_FLOAT_EQ(p.gamma_fd, 2);
    EXPECT_FLOAT_EQ(p.d_min, 0.35f);
    EXPECT_FLOAT_EQ(p.dt, 0.1f);
    EXPECT_DOUBLE_EQ(p.duration, 90);
    EXPECT_EQ(p.max_steps, 1000);
    EXPECT_EQ(p.seed, 18446744073709551615ull);
    EXPECT_FLOAT_EQ(p.box_margin, 3);
    EXPECT_EQ(p.pressure_iterations, 40);
    EXPECT_FLOAT_EQ(p.pressure_tolerance, 0.01f);
    EXPECT_EQ(p.separation_passes, 5);
    EXPECT_TRUE(p.potential_warm_start);
    EXPECT_FALSE(ModelParams{}.potential_warm_start);  // the default solves every step from scratch
    EXPECT_TRUE(p.pressure_grid_shift);
    EXPECT_FALSE(ModelParams{}.pressure_grid_shift);  // the default: Narain 2009's fixed UIC grid
    EXPECT_EQ(p.potential_stencil, 8);
    EXPECT_EQ(ModelParams{}.potential_stencil, 4);  // the default: the 4-neighbour update
    EXPECT_EQ(p.potential_sweeps, 5);
    EXPECT_EQ(ModelParams{}.potential_sweeps, 0);  // each backend's default sweep budget
    EXPECT_FALSE(EikonalOptions{}.inner_iterations.has_value());
    EXPECT_FLOAT_EQ(p.potential_band_tiles, 12.f);
    EXPECT_LT(ModelParams{}.potential_band_tiles, 0.f);  // each backend's default band
    EXPECT_EQ(p.potential_front_budget, 175);
    EXPECT_LT(ModelParams{}.potential_front_budget, 0);  // each backend's default front budget
    EXPECT_FALSE(EikonalOptions{}.front_budget.has_value());
}

TEST_F(SceneLoad, DensityResolvesToACountOverTheOpenSpawnArea) {
    // 4 m x 4 m spawn with a 1 m x 1 m obstacle inside: 15 m^2 open, 1.5 /m^2 -> 22.5 -> 23 (rounded half away).
    const Scene s = parseScene(R"({"format": "ccrowd-scene", "version": 1,
      "domain": {"width": 10, "height": 10, "cell": 0.5},
      "obstacles": [{"rect": {"min": [1, 1], "max": [2, 2]}}],
      "goals": [{"name": "g", "areas": [{"rect": {"min": [9, 0], "max": [10, 10]}}]}],
      "groups": [{"name": "d", "spawn": [{"rect": {"min": [0, 0], "max": [4, 4]}}], "density": 1.5, "route": ["g"]}]})",
                               "density.json");
    const SceneGrid g = rasterizeScene(s);
    EXPECT_DOUBLE_EQ(openSpawnArea(s, g, 0), 15.0);
    EXPECT_EQ(g.group_count[0], 23);
    EXPECT_EQ(resolveGroupCount(s, g, 0), 23);
    EXPECT_EQ(placeAgents(s, g, 0, 1, 0.4f).size(), 23u);
}

TEST_F(SceneLoad, AbsentFieldsTakeTheDefaults) {
    const std::string path = write("minimal_room.json", R"({"format": "ccrowd-scene", "version": 1,
      "domain": {"width": 10, "height": 5},
      "goals": [{"name": "g", "areas": [{"rect": {"min": [9, 0], "max": [10, 5]}}]}],
      "groups": [{"name": "x", "spawn": [{"rect": {"min": [0, 0], "max": [2, 2]}}], "count": 3, "route": ["g"]},
                 {"name": "y", "spawn": [{"rect": {"min": [0, 3], "max": [2, 5]}}], "count": 3, "route": ["g"]}]})");
    const Scene s = loadScene(path);
    EXPECT_EQ(s.name, "minimal_room");  // the file name without extension
    EXPECT_FLOAT_EQ(s.origin.x, 0);
    EXPECT_FLOAT_EQ(s.cell, 0.25f);
    EXPECT_TRUE(s.walkable.empty());
    EXPECT_FLOAT_EQ(s.goals[0].potential, 0);
    EXPECT_TRUE(s.goals[0].exit);
    const SpeedDistribution sd;
    EXPECT_FLOAT_EQ(s.groups[0].speed.mean, sd.mean);
    EXPECT_FLOAT_EQ(s.groups[0].speed.sd, sd.sd);
    EXPECT_FLOAT_EQ(s.groups[0].speed.min, sd.min);
    EXPECT_FLOAT_EQ(s.groups[0].speed.max, sd.max);
    EXPECT_FLOAT_EQ(s.groups[0].radius, GroupSpec{}.radius);
    // Default colours differ between groups (tab10 palette).
    EXPECT_NE(s.groups[0].colour, s.groups[1].colour);
    const ModelParams d;
    const ModelParams& p = s.params;
    EXPECT_EQ(p.alpha, d.alpha);
    EXPECT_EQ(p.beta, d.beta);
    EXPECT_EQ(p.gamma, d.gamma);
    EXPECT_EQ(p.rho_min, d.rho_min);
    EXPECT_EQ(p.rho_max, d.rho_max);
    EXPECT_EQ(p.rho_limit, d.rho_limit);
    EXPECT_EQ(p.v0, d.v0);
    EXPECT_EQ(p.rho_jam, d.rho_jam);
    EXPECT_EQ(p.gamma_fd, d.gamma_fd);
    EXPECT_EQ(p.d_min, d.d_min);
    EXPECT_EQ(p.dt, d.dt);
    EXPECT_EQ(p.duration, d.duration);
    EXPECT_EQ(p.max_steps, d.max_steps);
    EXPECT_EQ(p.seed, d.seed);
    EXPECT_EQ(p.box_margin, d.box_margin);
    EXPECT_EQ(p.pressure_iterations, d.pressure_iterations);
    EXPECT_EQ(p.pressure_tolerance, d.pressure_tolerance);
    EXPECT_EQ(p.separation_passes, d.separation_passes);
    EXPECT_EQ(p.pressure_grid_shift, d.pressure_grid_shift);
}

TEST_F(SceneLoad, AbsentDMinPacksHexagonallyAtTheUicLimit) {
    // d_min absent: the spacing of a hexagonal packing at rho_limit (Narain 2009 §4.1, alpha = 1)
    auto withModel = [](const std::string& model) {
        return parseScene(R"({"format": "ccrowd-scene", "version": 1, "name": "t",
          "domain": {"width": 4, "height": 4, "cell": 1},
          "goals": [{"name": "g", "areas": [{"rect": {"min": [3, 0], "max": [4, 4]}}]}],
          "groups": [{"name": "x", "spawn": [{"rect": {"min": [0, 0], "max": [1, 1]}}], "count": 1, "route": ["g"]}],
          "model": )" + model + "}",
                          "<inline>")
            .params;
    };
    EXPECT_NEAR(withModel("{}").d_min, 0.462421, 1e-5);                    // sqrt(2 / (sqrt(3) 5.4))
    EXPECT_NEAR(withModel(R"({"rho_limit": 4})").d_min, 0.537285, 1e-5);   // sqrt(2 / (sqrt(3) 4))
    EXPECT_FLOAT_EQ(withModel(R"({"rho_limit": 4, "d_min": 0.3})").d_min, 0.3f);
    EXPECT_FLOAT_EQ(withModel(R"({"d_min": 0})").d_min, 0.f);              // separation off stays off
    // the packing it names: 2 / (sqrt(3) d^2) = rho_limit
    const float d = minDistanceForDensity(3.f);
    EXPECT_NEAR(2.0 / (std::sqrt(3.0) * d * d), 3.0, 1e-5);
}

TEST_F(SceneLoad, ParseSceneUsesTheLabel) {
    const Scene s = parseScene(R"({"format": "ccrowd-scene", "version": 1, "name": "t",
      "domain": {"width": 4, "height": 4, "cell": 1},
      "goals": [{"name": "g", "areas": [{"rect": {"min": [3, 0], "max": [4, 4]}}]}],
      "groups": [{"name": "x", "spawn": [{"rect": {"min": [0, 0], "max": [1, 1]}}], "count": 1, "route": ["g"]}]})",
                               "<inline>");
    EXPECT_EQ(s.label, "<inline>");
    EXPECT_TRUE(s.path.empty());
    EXPECT_EQ(rasterizeScene(s).nx, 4);
}

TEST_F(SceneLoad, ReadmeExampleLoads) {
    // The first ```json block of scenes/README.md is a complete scene.
    std::ifstream in(kScenes / "README.md");
    const std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto begin = md.find("```json\n");
    ASSERT_NE(begin, std::string::npos);
    const auto end = md.find("```", begin + 8);
    ASSERT_NE(end, std::string::npos);
    const Scene s = parseScene(md.substr(begin + 8, end - begin - 8), "README example");
    const SceneGrid g = rasterizeScene(s);
    EXPECT_EQ(g.group_count[0], 40);
    EXPECT_EQ(placeAgents(s, g, 0, s.params.seed, placementDistance(s, 0)).size(), 40u);
}

TEST_F(SceneLoad, DefaultScenePath) {
    const char* old = std::getenv("CCROWD_SCENE_DIR");
    const std::string saved = old ? old : "";
    // An explicit directory wins.
    setenv("CCROWD_SCENE_DIR", dir_.c_str(), 1);
    EXPECT_EQ(fs::path(defaultScenePath()), dir_ / "default.json");
    // Otherwise the source tree's scene, which loads.
    unsetenv("CCROWD_SCENE_DIR");
    const std::string p = defaultScenePath();
    EXPECT_EQ(fs::path(p), kScenes / "default.json");
    EXPECT_NO_THROW(loadScene(p));
    if (old) setenv("CCROWD_SCENE_DIR", saved.c_str(), 1);
}

}  // namespace
}  // namespace ccrowd::test
