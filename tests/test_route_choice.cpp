/// @file test_route_choice.cpp
/// Route choice by affordance (issue 15 Deliver 2-4; seed 004, Nicosia et
/// al.): the kernel's choice (weights, never back unless at a dead end, one
/// count per arrival), the scene keys and their errors, walkers that roam
/// a network walk its streets and are counted, the same counts on 1 and 2
/// threads, a change of walls changing the viewsheds that see it (the map
/// updated near a change equal to one built anew, the rest not redone), the
/// traffic outputs, and on scenes/old_town_small.json the contrast of
/// seed 004: under affordance the wide straight shopping streets carry the
/// most traffic, under random choice they do not.

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "backends.hpp"
#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/agent_columns.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "kernels/route_choice.hpp"
#include "output/run_outputs.hpp"
#include "output/snapshot_fields.hpp"
#include "route/route_map.hpp"
#include "same_run.hpp"
#include "temp_dir.hpp"

namespace ccrowd::test {
namespace {

/// A star: junction 0 at the centre, neighbours 1, 2, 3 with weights
/// @p w (entries of junction 0), each leaf's only neighbour junction 0.
struct Star {
    std::vector<float> x{0, 10, 0, -10}, y{0, 0, 10, 0}, r{1, 1, 1, 1};
    std::vector<int> first{0, 3, 4, 5, 6}, nbr{1, 2, 3, 0, 0, 0}, road{0, 1, 2, 0, 1, 2};
    std::vector<float> weight;
    std::vector<int> i0{0, 0, 0, 0}, j0{0, 0, 0, 0}, nx{1, 1, 1, 1}, ny{1, 1, 1, 1};
    std::vector<long long> off{0, 0, 0, 0};
    std::vector<float> phi{INFINITY};
    explicit Star(std::vector<float> w) : weight(std::move(w)) { weight.resize(6, 1.f); }
    sim::RouteNetView view() {
        sim::RouteNetView v;
        v.junctions = 4;
        v.x = {x.data(), 4}; v.y = {y.data(), 4}; v.radius = {r.data(), 4};
        v.first = {first.data(), 5}; v.nbr = {nbr.data(), 6}; v.road = {road.data(), 6}; v.weight = {weight.data(), 6};
        v.wi0 = {i0.data(), 4}; v.wj0 = {j0.data(), 4}; v.wnx = {nx.data(), 4}; v.wny = {ny.data(), 4}; v.woff = {off.data(), 4};
        v.phi = {phi.data(), 1};
        return v;
    }
};

/// How often choose() picks each junction over @p n evenly spread draws.
std::vector<int> picks(const sim::RouteChoiceKernel& k, int t, int came, bool affordance, int n = 10000) {
    std::vector<int> count(4, 0);
    for (int q = 0; q < n; ++q) ++count[static_cast<std::size_t>(k.choose(t, came, affordance, (q + 0.5f) / static_cast<float>(n)))];
    return count;
}

TEST(RouteChoice, ChoiceFollowsTheWeightsAndNeverGoesBackUnlessAtADeadEnd) {
    Star star({1.f, 3.f, 6.f});
    sim::RouteChoiceKernel k;
    k.net = star.view();
    // affordance: in proportion to the weights of the others than the one it came from
    std::vector<int> c = picks(k, 0, 1, true);
    EXPECT_EQ(c[1], 0);
    EXPECT_NEAR(c[2] / 10000.0, 3.0 / 9.0, 0.01);
    EXPECT_NEAR(c[3] / 10000.0, 6.0 / 9.0, 0.01);
    // no previous junction: all three by weight
    c = picks(k, 0, -1, true);
    EXPECT_NEAR(c[1] / 10000.0, 0.1, 0.01);
    EXPECT_NEAR(c[3] / 10000.0, 0.6, 0.01);
    // random: uniformly among the others
    c = picks(k, 0, 3, false);
    EXPECT_EQ(c[3], 0);
    EXPECT_NEAR(c[1] / 10000.0, 0.5, 0.01);
    EXPECT_NEAR(c[2] / 10000.0, 0.5, 0.01);
    // a dead end (a leaf): back the way it came
    EXPECT_EQ(k.choose(2, 0, true, 0.3f), 0);
    // no weight anywhere: uniform
    Star flat({0.f, 0.f, 0.f});
    k.net = flat.view();
    c = picks(k, 0, 2, true);
    EXPECT_NEAR(c[1] / 10000.0, 0.5, 0.01);
    EXPECT_EQ(c[2], 0);
}

TEST(RouteChoice, DrawsAreUniformAndDependOnPersonAndStep) {
    // mean and spread of the hash's uniform draws; distinct for persons and steps
    double sum = 0.0, sq = 0.0;
    const int n = 20000;
    for (int q = 0; q < n; ++q) {
        const float u = sim::routeDraw(7u, q % 200, q / 200);
        ASSERT_GE(u, 0.f);
        ASSERT_LT(u, 1.f);
        sum += u;
        sq += static_cast<double>(u) * u;
    }
    EXPECT_NEAR(sum / n, 0.5, 0.01);
    EXPECT_NEAR(sq / n - (sum / n) * (sum / n), 1.0 / 12.0, 0.005);
    EXPECT_NE(sim::routeDraw(7u, 1, 5), sim::routeDraw(7u, 2, 5));
    EXPECT_NE(sim::routeDraw(7u, 1, 5), sim::routeDraw(7u, 1, 6));
    EXPECT_NE(sim::routeDraw(7u, 1, 5), sim::routeDraw(8u, 1, 5));
}

/// A plus-shaped crossing: a 6 m wide east-west street 60 m long and a 4 m
/// wide north-south street 30 m long, crossing at (30, 15); junctions at
/// the crossing and the four street ends; @p groups the groups' JSON.
std::string plus(const std::string& groups, const std::string& extra = "") {
    return R"({"format": "ccrowd-scene", "version": 1, "name": "plus",
      "domain": {"width": 60, "height": 30, "cell": 0.5},
      "obstacles": [{"rect": {"min": [0, 0], "max": [28, 12]}}, {"rect": {"min": [32, 0], "max": [60, 12]}},
                    {"rect": {"min": [0, 18], "max": [28, 30]}}, {"rect": {"min": [32, 18], "max": [60, 30]}}],
      "network": {"junctions": [[30, 15], [2, 15], [58, 15], [30, 2], [30, 28]], "roads": [[0, 1], [0, 2], [0, 3], [0, 4]]},
      "groups": [)" + groups + R"(],
      "model": {"seed": 3, "duration": 60})" + extra + "}";
}

const char* kWalkers = R"({"name": "walkers", "spawn": [{"rect": {"min": [0, 12], "max": [60, 18]}}], "count": 40,
                          "radius": 0.2, "route_choice": {"mode": "affordance"}})";

Simulation make(const std::string& json, int threads = 0) { return Simulation(parseScene(json, "route-test"), Exec{Backend::Cpu, threads}); }

/// On each backend (the CPU with all threads, CUDA when a GPU works).
class RouteChoiceOn : public ::testing::TestWithParam<Exec> {};

TEST_P(RouteChoiceOn, WalkersRoamTheStreetsAndAreCounted) {
    Simulation sim(parseScene(plus(kWalkers), "route-test"), GetParam());
    // the stage is there; no potential of a goal is solved
    const std::vector<std::string>& names = sim.stageNames();
    EXPECT_NE(std::find(names.begin(), names.end(), "route_choice"), names.end());
    const StreetTraffic net = sim.traffic();
    ASSERT_EQ(net.junctions(), 5);
    ASSERT_EQ(net.roads(), 4);
    // the crossing sees farther along the long east-west street: larger weights toward it
    EXPECT_GT(net.weight_ab[0], 1.5f * net.weight_ab[2]);
    EXPECT_GT(net.weight_ab[1], 1.5f * net.weight_ab[3]);
    for (int s = 0; s < 600; ++s) sim.step();
    EXPECT_EQ(sim.lastReport().potentials_solved, 0);
    // everyone still inside, on the streets; many arrivals, each road used, counts add up
    const AgentSnapshot a = sim.agents();
    ASSERT_EQ(a.size(), 40);
    for (int k = 0; k < a.size(); ++k) {
        const bool street = (a.y[k] > 11.5f && a.y[k] < 18.5f) || (a.x[k] > 27.5f && a.x[k] < 32.5f);
        EXPECT_TRUE(street) << a.x[k] << ", " << a.y[k];
    }
    const StreetTraffic t = sim.traffic();
    const long long roads = std::accumulate(t.road_count.begin(), t.road_count.end(), 0LL);
    const long long junctions = std::accumulate(t.junction_count.begin(), t.junction_count.end(), 0LL);
    EXPECT_GT(roads, 30);
    for (int r = 0; r < 4; ++r) EXPECT_GT(t.road_count[static_cast<std::size_t>(r)], 0) << r;
    // every road arrival is an arrival at a junction; first arrivals come along no road
    EXPECT_GE(junctions, roads);
    EXPECT_LE(junctions, roads + 40);
    // the crossing is passed most: every trip from a street end goes through it
    EXPECT_EQ(std::max_element(t.junction_count.begin(), t.junction_count.end()) - t.junction_count.begin(), 0);
}

INSTANTIATE_TEST_SUITE_P(PerBackend, RouteChoiceOn, ::testing::ValuesIn(oneExecPerBackend(0)), ExecParamName());

TEST(RouteChoice, SameCountsAndPositionsForOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    Simulation a = make(plus(kWalkers), 1), b = make(plus(kWalkers), 2);
    expectSameRun(a, b, 300);
    EXPECT_EQ(a.traffic().road_count, b.traffic().road_count);
    EXPECT_EQ(a.traffic().junction_count, b.traffic().junction_count);
}

TEST(RouteChoice, DerivedNetworkWhenNoneIsGiven) {
    std::string s = plus(kWalkers);
    const std::size_t at = s.find("\"network\"");
    s.erase(at, s.find("]]},", at) + 4 - at);
    Simulation sim = make(s);
    const StreetTraffic t = sim.traffic();
    // the skeleton of the plus: the crossing (degree 4) and four dead ends
    ASSERT_EQ(t.junctions(), 5);
    ASSERT_EQ(t.roads(), 4);
    int centre = -1;
    for (int j = 0; j < 5; ++j)
        if (std::hypot(t.junction_x[static_cast<std::size_t>(j)] - 30.f, t.junction_y[static_cast<std::size_t>(j)] - 15.f) < 1.5f) centre = j;
    ASSERT_GE(centre, 0);
    for (int s2 = 0; s2 < 300; ++s2) sim.step();
    EXPECT_GT(sim.traffic().junction_count[static_cast<std::size_t>(centre)], 5);
}

TEST(RouteChoice, PlacementByViewshedPutsMorePeopleNearJunctionsThatSeeMore) {
    const std::string g = R"({"name": "walkers", "spawn": [{"rect": {"min": [0, 12], "max": [60, 18]}}], "count": 200,
                          "radius": 0.2, "route_choice": {"mode": "affordance", "placement": "viewshed"}})";
    Simulation sim = make(plus(g));
    const StreetTraffic t = sim.traffic();
    const AgentSnapshot a = sim.agents();
    ASSERT_EQ(a.size(), 200);
    // each person within max(2 r, 6 m) of some junction; more near the crossing than near a north-south end
    std::vector<int> near(5, 0);
    for (int k = 0; k < a.size(); ++k) {
        int best = -1;
        float bd = 1e9f;
        for (int j = 0; j < 5; ++j) {
            const float d = std::hypot(a.x[k] - t.junction_x[static_cast<std::size_t>(j)], a.y[k] - t.junction_y[static_cast<std::size_t>(j)]);
            if (d < bd) { bd = d; best = j; }
        }
        ++near[static_cast<std::size_t>(best)];
        // within max(2 r, 6 m) of some junction
        bool within = false;
        for (int j = 0; j < 5; ++j)
            within = within || std::hypot(a.x[k] - t.junction_x[static_cast<std::size_t>(j)], a.y[k] - t.junction_y[static_cast<std::size_t>(j)]) <=
                                   std::max(2.f * t.junction_radius[static_cast<std::size_t>(j)], 6.f) + 0.01f;
        EXPECT_TRUE(within) << a.x[k] << ", " << a.y[k];
    }
    EXPECT_GT(near[0], near[3]);
    EXPECT_GT(near[0], near[4]);
    // the share follows the viewsheds: the crossing's share within 0.1 of its area's
    const double total = std::accumulate(t.viewshed_area.begin(), t.viewshed_area.end(), 0.0);
    EXPECT_NEAR(near[0] / 200.0, t.viewshed_area[0] / total, 0.1);
}

TEST(RouteChoice, AClosedBarrierChangesTheViewshedsThatSeeIt) {
    // a 20 x 20 grid of 10 m cells: 3 x 3 blocks, streets 4 m wide; a barrier closes a street in the south-west corner
    std::string obstacles, junctions, roads;
    for (int bj = 0; bj < 3; ++bj)
        for (int bi = 0; bi < 3; ++bi)
            obstacles += std::string(obstacles.empty() ? "" : ", ") + "{\"rect\": {\"min\": [" + std::to_string(4 + 20 * bi) + ", " +
                         std::to_string(4 + 20 * bj) + "], \"max\": [" + std::to_string(20 + 20 * bi) + ", " + std::to_string(20 + 20 * bj) + "]}}";
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) junctions += std::string(junctions.empty() ? "" : ", ") + "[" + std::to_string(2 + 20 * i) + ", " + std::to_string(2 + 20 * j) + "]";
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) {
            if (i < 3) roads += std::string(roads.empty() ? "" : ", ") + "[" + std::to_string(i + 4 * j) + ", " + std::to_string(i + 1 + 4 * j) + "]";
            if (j < 3) roads += ", [" + std::to_string(i + 4 * j) + ", " + std::to_string(i + 4 * (j + 1)) + "]";
        }
    const std::string scene = R"({"format": "ccrowd-scene", "version": 1, "name": "blocks",
      "domain": {"width": 64, "height": 64, "cell": 0.5},
      "obstacles": [)" + obstacles + R"(],
      "barriers": [{"name": "gate", "area": {"rect": {"min": [10, 0], "max": [11, 4]}}, "closed": false}],
      "events": [{"time": 1, "action": "close", "target": "gate"}],
      "network": {"junctions": [)" + junctions + R"(], "roads": [)" + roads + R"(]},
      "groups": [{"name": "walkers", "spawn": [{"rect": {"min": [0, 0], "max": [64, 4]}}], "count": 10, "radius": 0.2,
                  "route_choice": {"mode": "random"}}],
      "model": {"seed": 3, "duration": 60}})";
    Simulation sim = make(scene);
    const StreetTraffic before = sim.traffic();
    for (int s = 0; s < 40; ++s) sim.step();
    const StreetTraffic after = sim.traffic();
    // the junctions that saw the gate lose area; one that did not keeps its viewshed
    int changed = 0;
    for (int j = 0; j < before.junctions(); ++j)
        if (after.viewshed_area[static_cast<std::size_t>(j)] != before.viewshed_area[static_cast<std::size_t>(j)]) ++changed;
    EXPECT_GE(changed, 2);
    EXPECT_LT(after.viewshed_area[0], before.viewshed_area[0]);
    EXPECT_LT(after.viewshed_area[1], before.viewshed_area[1]);
    EXPECT_EQ(after.viewshed_area[15], before.viewshed_area[15]);
    EXPECT_LT(changed, before.junctions());
}

TEST(RouteChoice, UpdatedMapEqualsAFreshOneAndRedoesOnlyWhatTheChangeReaches) {
    // the plus crossing, then a pillar in the east arm of the long street
    const std::string before = plus(kWalkers);
    std::string after = before;
    after.replace(after.find("\"obstacles\": ["), 14, "\"obstacles\": [{\"rect\": {\"min\": [50, 14], \"max\": [51, 15]}}, ");
    const Scene s0 = parseScene(before, "route-test"), s1 = parseScene(after, "route-test");
    const SceneGrid g0 = rasterizeScene(s0), g1 = rasterizeScene(s1);
    route::RouteMap m = route::buildRouteMap(s0, g0, 1);
    const route::RouteMap fresh = route::buildRouteMap(s1, g1, 1);
    const route::RouteMapUpdate u = route::updateRouteMap(m, s1, g1, g0.walls, 1);
    // the same viewsheds, weights and potentials as a map built on the new walls
    ASSERT_EQ(m.viewsheds.size(), fresh.viewsheds.size());
    for (std::size_t j = 0; j < m.viewsheds.size(); ++j) EXPECT_EQ(m.viewsheds[j].area(), fresh.viewsheds[j].area()) << j;
    EXPECT_EQ(m.weight, fresh.weight);
    ASSERT_EQ(m.phi.size(), fresh.phi.size());
    EXPECT_TRUE(std::equal(m.phi.begin(), m.phi.end(), fresh.phi.begin(), [](float a, float b) { return a == b || (std::isinf(a) && std::isinf(b)); }));
    // the pillar changed the crossing's and the east end's view and potentials; the north and south ends' windows do not reach it
    EXPECT_LT(m.viewsheds[2].area(), route::buildRouteMap(s0, g0, 1).viewsheds[2].area());
    EXPECT_GE(u.viewsheds, 2);
    EXPECT_GE(u.potentials, 2);
    EXPECT_LT(u.potentials, 5);
}

class RouteChoiceOutputs : public TempDirTest {};

TEST_F(RouteChoiceOutputs, TrafficTablesMapAndSnapshotLayer) {
    Simulation sim = make(plus(kWalkers));
    output::OutputOptions o;
    o.dir = dir_.string();
    o.measure_interval = 5.0;
    output::RunOutputs out(o, sim);
    for (int s = 0; s < 400; ++s) {  // 20 s: four intervals
        sim.step();
        out.afterStep(sim);
    }
    out.finish(sim);
    // four intervals of 5 junctions and 4 roads, whose arrivals add up to the counts
    std::ifstream j(path("traffic_junctions.csv")), r(path("traffic_roads.csv"));
    ASSERT_TRUE(j && r);
    std::string line;
    int jr = 0, rr = 0;
    long long sum = 0;
    std::getline(j, line);
    EXPECT_NE(line.find("arrivals [persons]"), std::string::npos);
    while (std::getline(j, line)) ++jr;
    std::getline(r, line);
    while (std::getline(r, line)) {
        ++rr;
        sum += std::stoll(line.substr(line.rfind(',') + 1));
    }
    // (the last, possibly a sliver: 400 steps of the float dt 0.05 s end just after 20 s)
    EXPECT_TRUE(jr == 4 * 5 || jr == 5 * 5) << jr;
    EXPECT_EQ(rr * 5, jr * 4);
    const StreetTraffic t = sim.traffic();
    EXPECT_EQ(sum, std::accumulate(t.road_count.begin(), t.road_count.end(), 0LL));
    EXPECT_TRUE(std::ifstream(path("traffic_map.png")).good());
    // the snapshot layer: a road's cells hold its count, buildings 0
    const std::vector<float> layer = output::trafficLayer(t, sim.grid());
    const SceneGrid& g = sim.grid();
    EXPECT_EQ(layer[static_cast<std::size_t>(10 + 30 * g.nx)], static_cast<float>(t.road_count[0]));  // (5.25, 15.25) m on road 0
    EXPECT_EQ(layer[static_cast<std::size_t>(10 + 10 * g.nx)], 0.f);                                   // (5.25, 5.25) m: a building
}

/// Road arrivals on scenes/old_town_small.json for @p mode over @p steps,
/// and the shopping streets' roads from scenes/old_town_streets.csv.
struct TownRun {
    std::vector<long long> roads;
    std::set<int> shopping;
};
TownRun runTown(const std::string& mode, int warm, int steps, int walkers) {
    Scene s = loadScene(std::string(CCROWD_SOURCE_DIR) + "/scenes/old_town_small.json");
    s.groups[0].route_choice.mode = mode == "random" ? RouteChoiceSpec::Mode::Random : RouteChoiceSpec::Mode::Affordance;
    s.groups[0].count = walkers;
    s.cell = 1.f;  // 1 m cells (streets of 3 to 11 cells): a quarter of the cells, the same streets and views
    Simulation sim(std::move(s), Exec{Backend::Cpu, 0});
    // the arrivals after a warm-up of @p warm steps (the start overfills the wide streets: placement is by area)
    for (int k = 0; k < warm; ++k) sim.step();
    const std::vector<long long> start = sim.traffic().road_count;
    for (int k = 0; k < steps; ++k) sim.step();
    TownRun out;
    out.roads = sim.traffic().road_count;
    for (std::size_t k = 0; k < out.roads.size(); ++k) out.roads[k] -= start[k];
    // scenes/old_town_streets.csv: scene,street,road,width
    std::ifstream f(std::string(CCROWD_SOURCE_DIR) + "/scenes/old_town_streets.csv");
    std::string line;
    std::getline(f, line);
    while (std::getline(f, line))
        if (line.rfind("old_town_small,", 0) == 0) {
            const std::size_t a = line.find(',', 15) + 1;
            out.shopping.insert(std::stoi(line.substr(a, line.find(',', a) - a)));
        }
    return out;
}

/// Mean arrivals on the shopping roads over the mean on the others, and how
/// many shopping roads are among the busiest as many roads.
void contrast(const TownRun& r, double& ratio, int& inTop) {
    double shop = 0.0, other = 0.0;
    for (std::size_t k = 0; k < r.roads.size(); ++k) (r.shopping.count(static_cast<int>(k)) ? shop : other) += static_cast<double>(r.roads[k]);
    ratio = (shop / static_cast<double>(r.shopping.size())) / (other / static_cast<double>(r.roads.size() - r.shopping.size()));
    std::vector<int> order(r.roads.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return r.roads[static_cast<std::size_t>(a)] > r.roads[static_cast<std::size_t>(b)]; });
    inTop = 0;
    for (std::size_t k = 0; k < r.shopping.size(); ++k) inTop += r.shopping.count(order[k]) ? 1 : 0;
}

TEST(RouteChoice, OldTownShoppingStreetsCarryTheMostTrafficUnderAffordanceOnly) {
    // seed 004's contrast on the 64-junction town at 1 m cells, 600 walkers, 1000 steps (50 s) after 400 (20 s)
    double ra, rr;
    int ta, tr;
    contrast(runTown("affordance", 400, 1000, 600), ra, ta);
    contrast(runTown("random", 400, 1000, 600), rr, tr);
    std::printf("[ contrast ] shopping / other roads' mean arrivals: affordance %.2f (%d of the 14 busiest), random %.2f (%d)\n", ra, ta, rr, tr);
    EXPECT_GT(ra, 2.0);
    EXPECT_GE(ta, 10);
    EXPECT_LT(rr, 1.5);
    EXPECT_LE(tr, 7);
}

TEST(RouteChoice, BadInputIsNamed) {
    auto message = [](const std::string& json) {
        try {
            parseScene(json, "route-test");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string g = R"({"name": "walkers", "spawn": [{"rect": {"min": [0, 12], "max": [60, 18]}}], "count": 4, "route_choice": )";
    struct Case { std::string json, where; };
    const std::vector<Case> cases = {
        {plus(g + R"({"mode": "sideways"}})"), "/groups/0/route_choice/mode"},
        {plus(g + R"({"mode": "random", "placement": "everywhere"}})"), "/groups/0/route_choice/placement"},
        {plus(g + R"({"mode": "random"}, "route": ["x"]})"), "/groups/0/route"},
        {plus(g + R"({"mode": "random"}, "visibility": 3})"), "/groups/0/visibility"},
        {plus(R"({"name": "w", "spawn": [{"rect": {"min": [0, 12], "max": [60, 18]}}], "count": 4, "route": ["x"]})"), "/goals"},
    };
    for (const Case& c : cases) {
        const std::string m = message(c.json);
        EXPECT_NE(m.find(c.where), std::string::npos) << c.where << ": " << m;
    }
    // the network: bad road indices, a loop, a duplicate, a missing half, a frustum out of range
    const std::string ok = std::string(kWalkers);
    auto withNetwork = [&](const std::string& net) {
        std::string s = plus(ok);
        const std::size_t at = s.find("\"network\"");
        s.replace(at, s.find("]]},", at) + 3 - at, "\"network\": " + net);
        return s;
    };
    EXPECT_NE(message(withNetwork(R"({"junctions": [[30, 15], [2, 15]], "roads": [[0, 2]]})")).find("/network/roads/0/1"), std::string::npos);
    EXPECT_NE(message(withNetwork(R"({"junctions": [[30, 15], [2, 15]], "roads": [[1, 1]]})")).find("/network/roads/0"), std::string::npos);
    EXPECT_NE(message(withNetwork(R"({"junctions": [[30, 15], [2, 15]], "roads": [[0, 1], [1, 0]]})")).find("/network/roads/1"), std::string::npos);
    EXPECT_NE(message(withNetwork(R"({"junctions": [[30, 15], [2, 15]]})")).find("/network/roads"), std::string::npos);
    EXPECT_NE(message(withNetwork(R"({"frustum": 400})")).find("/network/frustum"), std::string::npos);
    // a junction inside a building is named when the simulation builds the network
    std::string inside;
    try {
        make(withNetwork(R"({"junctions": [[30, 15], [5, 5]], "roads": [[0, 1]]})"));
    } catch (const InputError& e) {
        inside = e.what();
    }
    EXPECT_NE(inside.find("network.junctions[1]"), std::string::npos) << inside;
    EXPECT_NE(inside.find("route-test"), std::string::npos) << inside;
    // more junctions than the agent table's 16-bit junction columns hold
    std::string many = R"({"junctions": [)";
    for (int k = 0; k <= kMaxJunctions; ++k) many += k ? ", [30, 15]" : "[30, 15]";
    many += R"(], "roads": [[0, 1]]})";
    std::string tooMany;
    try {
        make(withNetwork(many));
    } catch (const InputError& e) {
        tooMany = e.what();
    }
    EXPECT_NE(tooMany.find("route-test: /network: 32768 junctions; allowed: at most 32767"), std::string::npos) << tooMany;
}

}  // namespace
}  // namespace ccrowd::test
