/// @file test_incidents.cpp
/// Incidents and behaviour groups (seed 002 §4.3; issue 13, Deliver 2):
/// eq. 4.9's cost factor against hand computation; when an incident starts
/// every walker becomes an escaper, persons are conserved, escapers' mean
/// distance to the incident (those who left counted where they left) never
/// decreases after the first seconds, nobody who stood outside the harm
/// radius enters it, and all leave by the domain's border; with two
/// incidents (eq. 4.8) hiders end in the shelter and responders reach the
/// incident; results do not depend on the thread count; bad incidents get
/// clear errors.

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "backends.hpp"
#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "kernels/incident.hpp"
#include "src/output/snapshot_fields.hpp"

namespace ccrowd::test {
namespace {

/// A 40 m x 40 m open square on 0.5 m cells, 300 walkers around its centre
/// (none within 4 m of it) heading east, an escape group, and @p extra
/// (groups, goals and incidents as JSON members, each list complete).
std::string square(const std::string& incidents, const std::string& moreGroups = "", const std::string& moreGoals = "") {
    return R"({"format": "ccrowd-scene", "version": 1, "name": "incident_square",
      "domain": {"width": 40, "height": 40, "cell": 0.5},
      "goals": [{"name": "east", "areas": [{"rect": {"min": [39, 0], "max": [40, 40]}}]})" + moreGoals + R"(],
      "groups": [{"name": "walkers", "count": 300, "route": ["east"],
                  "spawn": [{"rect": {"min": [10, 10], "max": [30, 16]}}, {"rect": {"min": [10, 24], "max": [30, 30]}},
                            {"rect": {"min": [10, 16], "max": [16, 24]}}, {"rect": {"min": [24, 16], "max": [30, 24]}}]},
                 {"name": "escapers", "behaviour": "escape", "count": 0})" + moreGroups + R"(],
      "incidents": [)" + incidents + R"(],
      "model": {"seed": 4, "duration": 150}})";
}

const char* kOneIncident = R"({"name": "fire", "position": [20, 20], "radius": 3, "start": 2, "weight": 4,
                                "switch": [{"from": "walkers", "to": "escapers"}]})";

TEST(IncidentCost, ScaleOfEq49MakesApproachingDearerTheCloserOneGets) {
    // away from the incident or level: no change
    EXPECT_EQ(sim::incidentScale(2.f, 3.f, 4.f), 1.f);
    EXPECT_EQ(sim::incidentScale(2.f, 2.f, 4.f), 1.f);
    // toward it: c d_A / d_B, larger for the same step taken nearer
    EXPECT_FLOAT_EQ(sim::incidentScale(3.f, 2.f, 2.f), 3.f);
    EXPECT_GT(sim::incidentScale(1.5f, 0.5f, 2.f), sim::incidentScale(11.f, 10.f, 2.f));
    // capped, finite; into the harm region (distance <= 0) and every move inside it: the cap (a hill)
    EXPECT_EQ(sim::incidentScale(1e6f, 1e-6f, 2.f), sim::kMaxIncidentScale);
    EXPECT_EQ(sim::incidentScale(0.3f, -0.2f, 2.f), sim::kMaxIncidentScale);
    EXPECT_EQ(sim::incidentScale(-0.5f, -1.f, 2.f), sim::kMaxIncidentScale);
    EXPECT_EQ(sim::incidentScale(-1.f, -0.5f, 2.f), sim::kMaxIncidentScale);
    // no incident started: every distance +inf, nothing scaled
    EXPECT_EQ(sim::incidentScale(INFINITY, INFINITY, 4.f), 1.f);
}

class IncidentCostStage : public ::testing::TestWithParam<Exec> {};

TEST_P(IncidentCostStage, ScalesEachFaceTowardTheIncident) {
    const Exec ex = GetParam();
    GridInfo g;
    g.nx = 3; g.ny = 2; g.h = 1.f;
    Field<FaceCost> cost(3, 2, FaceCost{1.f, 2.f, 3.f, 4.f}), out(3, 2, FaceCost{});
    Field<float> dist(3, 2, 0.f), weight(3, 2, 2.f);
    // distances fall westward along each row; the top row is farther
    for (int i = 0; i < 3; ++i) { dist(i, 0) = 1.f + i; dist(i, 1) = 5.f + i; }
    cost.toDevice(ex); dist.toDevice(ex); weight.toDevice(ex); out.toDevice(ex);
    sim::incidentCost(ex, g, cost.view(ex), dist.view(ex), weight.view(ex), out.view(ex));
    out.toHost(ex);
    // cell (1, 0): west is nearer (2 -> 1): 3 x 2 x 2/1; east and north are farther; south is the edge
    EXPECT_FLOAT_EQ(out(1, 0).w, 3.f * 2.f * 2.f);
    EXPECT_FLOAT_EQ(out(1, 0).e, 1.f);
    EXPECT_FLOAT_EQ(out(1, 0).n, 2.f);
    EXPECT_FLOAT_EQ(out(1, 0).s, 4.f);
    // cell (2, 1): south (7 -> 3) and west (7 -> 6) are nearer
    EXPECT_FLOAT_EQ(out(2, 1).s, 4.f * 2.f * 7.f / 3.f);
    EXPECT_FLOAT_EQ(out(2, 1).w, 3.f * 2.f * 7.f / 6.f);
}

INSTANTIATE_TEST_SUITE_P(PerBackend, IncidentCostStage, ::testing::ValuesIn(testExecs()), ExecParamName());

/// Who comes how close to an incident's centre: an agent outside the harm
/// radius when first seen as an escaper or hider must never enter it; one
/// inside (walking there before the start) must be out within 10 s.
struct HarmWatch {
    double cx = 0.0, cy = 0.0, radius = 0.0, start = 0.0;
    std::map<int, double> first;     ///< id -> distance when first seen.
    double closestOutside = INFINITY;  ///< Smallest distance of those first seen outside. [m]
    int insideLate = 0;              ///< Samples inside the radius 10 s after the start.
    void see(double t, int id, double x, double y) {
        const double d = std::hypot(x - cx, y - cy);
        const double f = first.emplace(id, d).first->second;
        if (f >= radius) closestOutside = std::min(closestOutside, d);
        if (t > start + 10.0 && d < radius) ++insideLate;
    }
};

/// What a run of the one-incident square showed.
struct EscapeRun {
    long long spawned = 0, exited = 0, switched = 0;
    double startedAt = -1.0;
    bool conserved = true;
    long long walkersAfterStart = -1;
    HarmWatch harm{20.0, 20.0, 3.0, 2.0, {}, INFINITY, 0};
    double worstMeanDrop = 0.0;       ///< Largest fall of the escapers' mean distance, from 2 s after the start. [m]
    std::vector<ExitRecord> exits;
};

EscapeRun runEscape(const Exec& ex) {
    Simulation sim(parseScene(square(kOneIncident), "incident-test"), ex);
    EscapeRun r;
    std::map<int, double> dist;  // escaper id -> last distance (where it left, once it left)
    double lastMean = -1.0;
    while (!sim.finished() && sim.time() < 150.0) {
        sim.step();
        // persons conserved across the switch
        long long inGroups = 0;
        for (const GroupStats& g : sim.groupStats()) inGroups += g.remaining;
        r.conserved = r.conserved && inGroups == sim.agentCount() && sim.agentCount() + sim.exitedTotal() == sim.spawnedTotal();
        if (sim.time() < 2.0 + 1e-6) continue;
        if (r.walkersAfterStart < 0) r.walkersAfterStart = sim.groupStats()[0].remaining;
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) {
            if (a.group[k] != 1) continue;
            dist[a.id[k]] = std::hypot(a.x[k] - 20.0, a.y[k] - 20.0);
            r.harm.see(sim.time(), a.id[k], a.x[k], a.y[k]);
        }
        double mean = 0.0;
        for (const auto& e : dist) mean += e.second;
        mean = dist.empty() ? 0.0 : mean / dist.size();
        if (sim.time() > 4.0 && lastMean >= 0.0) r.worstMeanDrop = std::max(r.worstMeanDrop, lastMean - mean);
        lastMean = mean;
    }
    r.spawned = sim.spawnedTotal();
    r.exited = sim.exitedTotal();
    r.switched = sim.incidentStats().at(0).switched;
    r.startedAt = sim.incidentStats().at(0).started_at;
    r.exits = sim.exits();
    return r;
}

class IncidentRun : public ::testing::TestWithParam<Exec> {};

TEST_P(IncidentRun, EscapersRunOutwardAroundTheHarmAndLeaveByTheBorder) {
    const EscapeRun r = runEscape(GetParam());
    std::printf("[ measured ] %s: %lld switched at %.2f s, closest of those outside %.2f m, %d samples inside after 10 s, "
                "worst mean drop %.4f m, %lld of %lld left\n",
                backendName(GetParam().backend), r.switched, r.startedAt, r.harm.closestOutside, r.harm.insideLate,
                r.worstMeanDrop, r.exited, r.spawned);
    EXPECT_NEAR(r.startedAt, 2.0, 0.051);
    EXPECT_EQ(r.switched, 300);
    EXPECT_EQ(r.walkersAfterStart, 0);
    EXPECT_TRUE(r.conserved);
    // nobody outside the 3 m harm radius enters it; those who had walked in are out within 10 s
    EXPECT_GE(r.harm.closestOutside, 3.0);
    EXPECT_EQ(r.harm.insideLate, 0);
    EXPECT_LE(r.worstMeanDrop, 1e-3);
    // all left, at the border (not only through the walkers' east goal)
    EXPECT_EQ(r.exited, 300);
    int west = 0;
    for (const ExitRecord& e : r.exits) {
        const bool border = e.x < 0.6f || e.x > 39.4f || e.y < 0.6f || e.y > 39.4f;
        EXPECT_TRUE(border) << "agent " << e.id << " left at (" << e.x << ", " << e.y << ")";
        west += e.x < 20.f;
    }
    EXPECT_GT(west, 60) << "escapers west of the incident run west, away from it";
}

INSTANTIATE_TEST_SUITE_P(PerBackend, IncidentRun, ::testing::ValuesIn(testExecs()), ExecParamName());

TEST(Incidents, SameResultsForOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    const EscapeRun a = runEscape(Exec{Backend::Cpu, 1}), b = runEscape(Exec{Backend::Cpu, 2});
    ASSERT_EQ(a.exits.size(), b.exits.size());
    for (std::size_t k = 0; k < a.exits.size(); ++k) {
        EXPECT_EQ(a.exits[k].id, b.exits[k].id);
        EXPECT_EQ(a.exits[k].time, b.exits[k].time);
        EXPECT_EQ(a.exits[k].x, b.exits[k].x);
    }
}

TEST(Incidents, AnIncidentAddedWhileRunningActsAsTheSameIncidentInTheFile) {
    auto exitsOf = [](Simulation& sim) {
        while (!sim.finished() && sim.time() < 150.0) sim.step();
        return sim.exits();
    };
    Simulation file(parseScene(square(kOneIncident), "incident-test"), Exec{Backend::Cpu, 2});
    Simulation added(parseScene(square(""), "incident-test"), Exec{Backend::Cpu, 2});
    while (added.time() < 1.0 - 1e-6) added.step();
    added.addIncident(parseIncident(kOneIncident, added.scene(), "incident"));
    const std::vector<ExitRecord> a = exitsOf(file), b = exitsOf(added);
    ASSERT_EQ(a.size(), 300u);
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].id, b[k].id);
        EXPECT_EQ(a[k].time, b[k].time);
    }
    EXPECT_EQ(added.incidentStats().at(0).switched, 300);
    // not before now, not twice
    EXPECT_THROW(added.addIncident(parseIncident(R"({"name": "late", "position": [5, 5], "start": 1})", added.scene(), "i")),
                 InputError);
    EXPECT_THROW(added.addIncident(parseIncident(R"({"name": "fire", "position": [5, 5], "start": 500})", added.scene(), "i")),
                 InputError);
}

TEST(Incidents, TwoIncidentsHidersReachTheShelterRespondersTheIncident) {
    // two incidents (eq. 4.8): walkers within 9 m of the first hide in a shelter in the north-west
    // corner, the rest escape; responders from the west approach the first incident
    const std::string incidents = R"({"name": "a", "position": [14, 20], "radius": 2, "start": 1,
        "switch": [{"from": "walkers", "to": "hiders", "within": 9}, {"from": "walkers", "to": "escapers"}]},
        {"name": "b", "position": [27, 20], "radius": 2, "start": 1})";
    const std::string groups = R"(, {"name": "hiders", "behaviour": "hide", "count": 0, "route": ["shelter"]},
        {"name": "responders", "behaviour": "approach", "count": 10, "route": ["zone"],
         "spawn": [{"rect": {"min": [1, 18], "max": [4, 22]}}]})";
    const std::string goals = R"(, {"name": "shelter", "areas": [{"rect": {"min": [1, 37], "max": [3, 39]}}]},
        {"name": "zone", "areas": [{"rect": {"min": [11, 19], "max": [12, 21]}}]})";
    Simulation sim(parseScene(square(incidents, groups, goals), "incident-test"), Exec{Backend::Cpu, 2});
    HarmWatch a{14.0, 20.0, 2.0, 1.0, {}, INFINITY, 0}, b{27.0, 20.0, 2.0, 1.0, {}, INFINITY, 0};
    while (!sim.finished() && sim.time() < 150.0) {
        sim.step();
        if (sim.time() < 1.0 + 1e-6) continue;
        const AgentSnapshot s = sim.agents();
        for (int k = 0; k < s.size(); ++k) {
            if (s.group[k] != 1 && s.group[k] != 2) continue;  // escapers and hiders keep away from both
            a.see(sim.time(), s.id[k], s.x[k], s.y[k]);
            b.see(sim.time(), s.id[k], s.x[k], s.y[k]);
        }
    }
    const std::vector<GroupStats>& g = sim.groupStats();
    std::printf("[ measured ] hiders %lld, escapers %lld, responders %lld left; closest of those outside: to a %.2f m, "
                "to b %.2f m; samples inside after 10 s: %d, %d\n",
                g[2].exited, g[1].exited, g[3].exited, a.closestOutside, b.closestOutside, a.insideLate, b.insideLate);
    EXPECT_TRUE(sim.finished());
    EXPECT_GT(g[2].switched_in, 20);
    EXPECT_EQ(g[2].switched_in + g[1].switched_in, 300);
    EXPECT_GE(a.closestOutside, 2.0);
    EXPECT_GE(b.closestOutside, 2.0);
    EXPECT_EQ(a.insideLate + b.insideLate, 0);
    for (const ExitRecord& e : sim.exits()) {
        if (e.group == 2) {
            EXPECT_TRUE(e.x >= 1.f && e.x <= 3.f && e.y >= 37.f && e.y <= 39.f) << "hider left at " << e.x << ", " << e.y;
        }
        if (e.group == 3) {
            EXPECT_TRUE(e.x >= 11.f && e.x <= 12.f && e.y >= 19.f && e.y <= 21.f) << "responder left at " << e.x << ", " << e.y;
        }
    }
    EXPECT_EQ(g[3].exited, 10);
}

TEST(Incidents, SnapshotsHoldTheIncidentLayer) {
    Simulation sim(parseScene(square(kOneIncident), "incident-test"), Exec{Backend::Cpu, 2});
    const output::SnapshotFieldSet fields = output::parseSnapshotFields("density, incident_distance");
    auto layer = [&]() -> std::vector<float> {
        for (const io::SnapshotField& f : output::snapshotFrame(sim, fields).fields)
            if (f.name == "incident_distance") return f.data;
        return {};
    };
    // before the start: +inf everywhere
    const std::vector<float> before = layer();
    ASSERT_EQ(before.size(), static_cast<std::size_t>(sim.grid().nx * sim.grid().ny));
    for (float v : before) ASSERT_TRUE(std::isinf(v) && v > 0.f);
    while (sim.time() < 2.5) sim.step();
    // after: |centre - (20, 20)| - 3 at every cell
    const std::vector<float> after = layer();
    const GridInfo g = sim.grid().info();
    for (int j = 0; j < g.ny; j += 7)
        for (int i = 0; i < g.nx; i += 7)
            EXPECT_NEAR(after[static_cast<std::size_t>(g.index(i, j))], std::hypot(g.centreX(i) - 20.0, g.centreY(j) - 20.0) - 3.0, 1e-4);
    // a scene without incidents has no such layer
    Simulation plain(parseScene(R"({"format": "ccrowd-scene", "version": 1, "domain": {"width": 10, "height": 10},
        "goals": [{"name": "g", "areas": [{"rect": {"min": [9, 0], "max": [10, 10]}}]}],
        "groups": [{"name": "p", "count": 5, "spawn": [{"rect": {"min": [1, 1], "max": [4, 9]}}], "route": ["g"]}]})", "plain"),
                     Exec{Backend::Cpu, 1});
    EXPECT_EQ(plain.incidentDistance(), nullptr);
    for (const io::SnapshotField& f : output::snapshotFrame(plain, fields).fields) EXPECT_NE(f.name, "incident_distance");
}

TEST(Incidents, CityDistrictSwitchesWalkersNearTheBlastAndKeepsEveryoneCounted) {
    // scenes/city_district.json (320 buildings, 20,000 walkers) with its explosion at 0.5 s instead of 30 s, 1 s after it
    Scene scene = loadScene(std::string(CCROWD_SOURCE_DIR) + "/scenes/city_district.json");
    ASSERT_GE(scene.obstacles.size(), 300u);
    scene.incidents[0].start = 0.5;
    scene.params.duration = 1.5;
    Simulation sim(scene, Exec{Backend::Cpu, 2});
    EXPECT_GE(sim.agentCount(), 20000);
    const IncidentSpec& blast = scene.incidents[0];
    auto group = [&](const std::string& name) {
        for (std::size_t g = 0; g < scene.groups.size(); ++g)
            if (scene.groups[g].name == name) return static_cast<int>(g);
        return -1;
    };
    const int escapers = group("escapers"), hiders = group("hiders");
    int insideAtStart = -1;
    while (!sim.finished()) {
        sim.step();
        if (sim.startedIncidents().empty()) continue;
        // escapers and hiders inside the harm disc: never more than when it started
        const AgentSnapshot a = sim.agents();
        int inside = 0;
        for (int k = 0; k < a.size(); ++k)
            inside += (a.group[k] == escapers || a.group[k] == hiders) &&
                      std::hypot(a.x[k] - blast.position.x, a.y[k] - blast.position.y) < blast.radius;
        if (insideAtStart < 0) insideAtStart = inside;
        EXPECT_LE(inside, insideAtStart) << "t = " << sim.time();
    }
    // within 60 m: a quarter hide, the rest escape; everyone counted across the switches
    long long in = 0, out = 0, spawned = 0, exited = 0, remaining = 0;
    for (const GroupStats& g : sim.groupStats()) {
        in += g.switched_in;
        out += g.switched_out;
        spawned += g.spawned;
        exited += g.exited;
        remaining += g.remaining;
    }
    EXPECT_GT(in, 1000);
    EXPECT_EQ(in, out);
    EXPECT_EQ(spawned, exited + remaining);
    EXPECT_EQ(remaining, sim.agentCount());
    const double hideShare = static_cast<double>(sim.groupStats()[static_cast<std::size_t>(hiders)].switched_in) / static_cast<double>(in);
    EXPECT_NEAR(hideShare, 0.25, 0.05);
}

TEST(Incidents, EscapeWithoutARouteGetsTheBorderGoal) {
    const Scene s = parseScene(square(kOneIncident), "incident-test");
    ASSERT_EQ(s.groups[1].route.size(), 1u);
    EXPECT_EQ(s.groups[1].route[0], "border");
    EXPECT_EQ(s.goals.back().name, "border");
    // a goal already named "border" keeps its name
    const Scene t = parseScene(square(kOneIncident, "", R"(, {"name": "border", "areas": [{"rect": {"min": [0, 0], "max": [1, 1]}}]})"),
                               "incident-test");
    EXPECT_EQ(t.groups[1].route[0], "_border");
}

TEST(Incidents, BadIncidentsNameTheFieldAndTheAllowedValues) {
    struct Bad { std::string incident, path, allowed; };
    const std::vector<Bad> bad = {
        {R"({"name": "x", "position": [20, 20], "switch": [{"from": "nobody", "to": "escapers"}]})", "/incidents/0/switch/0/from",
         "one of the group names"},
        {R"({"name": "x", "position": [20, 20], "switch": [{"from": "walkers", "to": "walkers"}]})", "/incidents/0/switch/0/to",
         "another group"},
        {R"({"name": "x", "position": [50, 20]})", "/incidents/0/position", "inside the domain"},
        {R"({"name": "x", "position": [20, 20], "weight": 0.5})", "/incidents/0/weight", "1"},
        {R"({"name": "x", "position": [20, 20], "radius": 0})", "/incidents/0/radius", "> 0"},
        {R"({"name": "x", "position": [20, 20], "switch": [{"from": "walkers", "to": "escapers", "fraction": 1.5}]})",
         "/incidents/0/switch/0/fraction", "1"},
        {R"({"name": "x", "position": [20, 20], "when": 3})", "/incidents/0", "start"},
        {R"({"name": "x", "position": [20, 20]}, {"name": "x", "position": [10, 10]})", "/incidents/1/name", "no other incident"},
    };
    for (const Bad& b : bad) {
        try {
            (void)parseScene(square(b.incident), "incident-test");
            ADD_FAILURE() << "accepted: " << b.incident;
        } catch (const InputError& e) {
            const std::string m = e.what();
            EXPECT_NE(m.find("incident-test"), std::string::npos) << m;
            EXPECT_NE(m.find(b.path), std::string::npos) << m;
            EXPECT_NE(m.find(b.allowed), std::string::npos) << b.allowed << " not in: " << m;
        }
    }
    // an unknown behaviour
    try {
        (void)parseScene(square(kOneIncident, R"(, {"name": "z", "behaviour": "flee", "route": ["east"]})"), "incident-test");
        ADD_FAILURE() << "accepted behaviour \"flee\"";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("\"walk\", \"escape\", \"hide\", \"approach\""), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace ccrowd::test
