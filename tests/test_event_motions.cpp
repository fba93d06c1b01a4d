/// @file test_event_motions.cpp
/// The timeline's other actions (issue 13, Deliver 1): a barrier moving
/// along a path pushes agents aside and loses none, a discomfort edge
/// spreads at its rate and stops at its distance, a discomfort region
/// moves, a disabled goal area sends everyone to the other, a set_route
/// sends a group to its new goal, start_incident starts an incident early,
/// results do not depend on the thread count, and bad events get clear
/// errors.

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "src/output/snapshot_fields.hpp"

namespace ccrowd::test {
namespace {

/// A 20 m x 10 m hall, exits "west" (x 0 .. 1) and "east" (x 19 .. 20) and
/// "both" (the two strips), a 2 m x 2 m barrier "cart" at (4 .. 6, 4 .. 6),
/// closed, a discomfort region "fire" at (9.5 .. 10.5, 4.5 .. 5.5) of g 0,
/// @p count persons in x 7 .. 13 walking to @p goal. @p extra: more
/// top-level keys (the events).
std::string hall(const std::string& extra, const std::string& goal = "both", int count = 100) {
    return R"({"format": "ccrowd-scene", "version": 1, "name": "hall",
      "domain": {"width": 20, "height": 10, "cell": 0.25},
      "barriers": [{"name": "cart", "area": {"rect": {"min": [4, 4], "max": [6, 6]}}, "closed": true}],
      "discomfort": [{"name": "fire", "area": {"rect": {"min": [9.5, 4.5], "max": [10.5, 5.5]}}, "value": 0}],
      "goals": [{"name": "west", "areas": [{"rect": {"min": [0, 0], "max": [1, 10]}}]},
                {"name": "east", "areas": [{"rect": {"min": [19, 0], "max": [20, 10]}}]},
                {"name": "both", "areas": [{"rect": {"min": [0, 0], "max": [1, 10]}}, {"rect": {"min": [19, 0], "max": [20, 10]}}]}],
      "groups": [{"name": "people", "spawn": [{"rect": {"min": [7, 1], "max": [13, 9]}}], "count": )" +
           std::to_string(count) + R"(, "route": [")" + goal + R"("]}],
      "model": {"seed": 3, "duration": 60})" +
           (extra.empty() ? "" : ", " + extra) + "}";
}

Simulation make(const std::string& json, int threads = 0) { return Simulation(parseScene(json, "motions-test"), Exec{Backend::Cpu, threads}); }

/// Discomfort of the cell whose centre is nearest (x, y).
float discomfortAt(const Simulation& sim, float x, float y) {
    int i, j;
    sim.grid().cellOf(x, y, i, j);
    return sim.grid().discomfort.host()[i + j * sim.grid().nx];
}

TEST(EventMotions, AMovingBarrierPushesAgentsAsideAndLosesNone) {
    // the cart drives east through the crowd at 3 m/s from t = 1 s, to x = 15, then north to y = 8
    Simulation sim = make(hall(R"("events": [{"time": 1, "action": "move", "target": "cart", "path": [[15, 5], [15, 8]], "speed": 3}])", "both", 150));
    const float radius = sim.scene().groups[0].radius;
    bool metSomeone = false;
    while (sim.time() < 6.0) {
        sim.step();
        const Polygon& cart = sim.scene().barriers[0].area;
        float x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
        for (const Vec2& v : cart) { x0 = std::min(x0, v.x); x1 = std::max(x1, v.x); y0 = std::min(y0, v.y); y1 = std::max(y1, v.y); }
        const AgentSnapshot a = sim.agents();
        ASSERT_EQ(a.size() + sim.exitedTotal(), 150) << "t = " << sim.time();
        for (int k = 0; k < a.size(); ++k) {
            // every body clear of the cart: its centre a radius from the box or more
            const float dx = std::max({x0 - a.x[k], a.x[k] - x1, 0.f}), dy = std::max({y0 - a.y[k], a.y[k] - y1, 0.f});
            const float clear = std::sqrt(dx * dx + dy * dy);
            ASSERT_GE(clear, radius - 0.01f) << "agent " << a.id[k] << " at (" << a.x[k] << ", " << a.y[k] << ") in the cart [" << x0
                                             << ", " << x1 << "] x [" << y0 << ", " << y1 << "] at t = " << sim.time();
            metSomeone = metSomeone || clear < radius + 0.1f;
        }
    }
    EXPECT_TRUE(metSomeone) << "the test needs the cart to push someone";
    // where it arrived: centre (15, 8), quantised to a quarter cell at most
    const Polygon& cart = sim.scene().barriers[0].area;
    EXPECT_NEAR(0.5f * (cart[0].x + cart[2].x), 15.f, 1e-4f);
    EXPECT_NEAR(0.5f * (cart[0].y + cart[2].y), 8.f, 1e-4f);
    while (!sim.finished() && sim.agentCount() > 0) sim.step();
    EXPECT_EQ(sim.exitedTotal(), 150);
}

TEST(EventMotions, ADiscomfortEdgeSpreadsAtItsRateAndStopsAtItsDistance) {
    // the fire flares up at t = 0 and spreads at 0.5 m/s for 2 m
    Simulation sim = make(hall(R"("events": [{"time": 0, "action": "set_discomfort", "target": "fire", "value": 4},
        {"time": 0, "action": "grow_discomfort", "target": "fire", "speed": 0.5, "distance": 2}])"));
    while (sim.time() < 2.0 - 1e-6) sim.step();
    // after 2 s: spread ~1 m (the layer is redone each quarter cell), so 0.8 m east of the edge burns, 1.5 m does not
    EXPECT_EQ(discomfortAt(sim, 10.5f + 0.8f, 5.f), 4.f);
    EXPECT_EQ(discomfortAt(sim, 10.5f + 1.5f, 5.f), 0.f);
    EXPECT_EQ(discomfortAt(sim, 10.f, 5.5f + 0.8f), 4.f);
    while (sim.time() < 10.0) sim.step();
    // stopped at 2 m: 1.8 m burns, 2.4 m does not; the corner's reach is round
    EXPECT_EQ(discomfortAt(sim, 10.5f + 1.8f, 5.f), 4.f);
    EXPECT_EQ(discomfortAt(sim, 10.5f + 2.4f, 5.f), 0.f);
    EXPECT_EQ(discomfortAt(sim, 10.5f + 1.2f, 5.5f + 1.2f), 4.f);
    EXPECT_EQ(discomfortAt(sim, 10.5f + 1.7f, 5.5f + 1.7f), 0.f);
    EXPECT_FLOAT_EQ(sim.scene().discomfort[0].spread, 2.f);
    // the snapshots' discomfort layer is the spread one
    const io::SnapshotFrame frame = output::snapshotFrame(sim, output::parseSnapshotFields("discomfort"));
    ASSERT_EQ(frame.fields.size(), 1u);
    EXPECT_EQ(frame.fields[0].name, "discomfort");
    const Field<float>& g = sim.grid().discomfort;
    ASSERT_EQ(frame.fields[0].data.size(), g.size());
    int burning = 0;
    for (std::size_t c = 0; c < g.size(); ++c) {
        EXPECT_EQ(frame.fields[0].data[c], g.host()[c]);
        burning += g.host()[c] > 0.f;
    }
    EXPECT_GT(burning, 4 * 5 * 16) << "cells of the 1 m x 1 m fire spread by 2 m (about 5 m x 5 m at 16 cells/m^2)";
}

TEST(EventMotions, ADiscomfortRegionMovesAlongItsPath) {
    Simulation sim = make(hall(R"("events": [{"time": 0, "action": "set_discomfort", "target": "fire", "value": 3},
        {"time": 0, "action": "move_discomfort", "target": "fire", "path": [[15, 5]], "speed": 2}])"));
    sim.step();
    EXPECT_EQ(discomfortAt(sim, 10.f, 5.f), 3.f);
    while (sim.time() < 3.0) sim.step();
    // 5 m at 2 m/s: arrived after 2.5 s
    EXPECT_EQ(discomfortAt(sim, 10.f, 5.f), 0.f);
    EXPECT_EQ(discomfortAt(sim, 15.f, 5.f), 3.f);
}

TEST(EventMotions, ADisabledGoalAreaSendsEveryoneToTheOther) {
    // the east strip of "both" is switched off from the start: everyone leaves west
    Simulation sim = make(hall(R"("events": [{"time": 0, "action": "disable_goal", "target": "both", "area": 1}])"));
    while (!sim.finished() && sim.agentCount() > 0) sim.step();
    ASSERT_EQ(sim.exitedTotal(), 100);
    for (const ExitRecord& e : sim.exits()) EXPECT_LT(e.x, 10.f) << "agent " << e.id << " left east at t = " << e.time;
    // the whole goal off until 5 s: nobody leaves before, everyone after
    Simulation off = make(hall(R"("events": [{"time": 0, "action": "disable_goal", "target": "both"},
        {"time": 5, "action": "enable_goal", "target": "both"}])"));
    while (!off.finished() && off.agentCount() > 0) off.step();
    ASSERT_EQ(off.exitedTotal(), 100);
    for (const ExitRecord& e : off.exits()) EXPECT_GT(e.time, 5.0);
}

TEST(EventMotions, SetRouteSendsTheGroupToItsNewGoal) {
    // walking east; at 2 s the route becomes west
    Simulation sim = make(hall(R"("events": [{"time": 2, "action": "set_route", "target": "people", "route": ["west"]}])", "east"));
    EXPECT_EQ(sim.fieldCount(), 2) << "one field per route the group will have";
    while (sim.time() < 2.0 - 1e-6) sim.step();
    const long long eastEarly = sim.exitedTotal();
    EXPECT_EQ(eastEarly, 0);
    while (!sim.finished() && sim.agentCount() > 0) sim.step();
    ASSERT_EQ(sim.exitedTotal(), 100);
    for (const ExitRecord& e : sim.exits()) EXPECT_LT(e.x, 10.f) << "agent " << e.id << " left east";
    // added while running, to a route the file never named: a new field, the same behaviour
    Simulation added = make(hall(R"("events": [])", "east"));
    ASSERT_EQ(added.fieldCount(), 1);
    added.step();
    added.addEvent(parseEvent(R"({"time": 2, "action": "set_route", "target": "people", "route": ["west"]})", added.scene(), "added"));
    while (!added.finished() && added.agentCount() > 0) added.step();
    EXPECT_EQ(added.fieldCount(), 2);
    ASSERT_EQ(added.exitedTotal(), 100);
    for (const ExitRecord& e : added.exits()) EXPECT_LT(e.x, 10.f);
}

TEST(EventMotions, StartIncidentStartsAnIncidentEarly) {
    const std::string incidents = R"("incidents": [{"name": "blast", "position": [10, 5], "radius": 1, "start": 1000}],
        "events": [{"time": 2, "action": "start_incident", "target": "blast"}])";
    Simulation sim = make(hall(incidents));
    while (sim.time() < 2.0 - 1e-6) sim.step();
    EXPECT_TRUE(sim.startedIncidents().empty());
    sim.step();
    ASSERT_EQ(sim.startedIncidents().size(), 1u);
    EXPECT_EQ(sim.scene().incidents[0].start, 2.0);
}

TEST(EventMotions, SetPanicActsAsTheGroupsPanicFromTheStart) {
    // social force; panic p = 1 from the file, or set to 1 by an event at t = 0, or none
    auto socialForce = [](std::string json, bool panicInFile) {
        const std::string model = R"("model": {"seed": 3, "duration": 60})";
        json.replace(json.find(model), model.size(), R"("model": {"seed": 3, "duration": 60, "local": "social_force"})");
        if (panicInFile) json.replace(json.find(R"("route": ["both"]})"), 18, R"("route": ["both"], "panic": 1})");
        return json;
    };
    Simulation file = make(socialForce(hall(""), true));
    Simulation event = make(socialForce(hall(R"("events": [{"time": 0, "action": "set_panic", "target": "people", "value": 1}])"), false));
    Simulation calm = make(socialForce(hall(""), false));
    for (int k = 0; k < 40; ++k) {
        file.step();
        event.step();
        calm.step();
    }
    const AgentSnapshot a = file.agents(), b = event.agents(), c = calm.agents();
    ASSERT_EQ(a.size(), b.size());
    int differ = 0;
    for (int k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a.x[k], b.x[k]);
        EXPECT_EQ(a.y[k], b.y[k]);
        differ += k < c.size() && (a.x[k] != c.x[k] || a.y[k] != c.y[k]);
    }
    EXPECT_GT(differ, a.size() / 2) << "panic changes how people walk";
    EXPECT_FLOAT_EQ(event.scene().groups[0].panic, 1.f);
}

TEST(EventMotions, NobodyIsBornUnderAClosedBarrier) {
    // a source of 5 persons/s under the cart, which closes at once (the file's state must leave the source open) and opens at 3 s
    std::string json = hall(R"("events": [{"time": 0, "action": "close", "target": "cart"}, {"time": 3, "action": "open", "target": "cart"}])", "both", 10);
    json.replace(json.find(R"("closed": true)"), 14, R"("closed": false)");
    json.insert(json.rfind('}'), R"(, "sources": [{"group": "people", "region": {"rect": {"min": [4.2, 4.2], "max": [5.8, 5.8]}}, "rate": 5}])");
    Simulation sim = make(json);
    while (sim.time() < 3.0 - 1e-6) sim.step();
    EXPECT_EQ(sim.spawnedTotal(), 10) << "births under the closed cart";
    while (sim.time() < 6.0) sim.step();
    EXPECT_GT(sim.spawnedTotal(), 20) << "the source works once the cart has gone";
}

TEST(EventMotions, SameResultsOnOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    const std::string json = hall(R"("events": [{"time": 0.5, "action": "move", "target": "cart", "path": [[12, 5]], "speed": 1.5},
        {"time": 0, "action": "set_discomfort", "target": "fire", "value": 2},
        {"time": 1, "action": "grow_discomfort", "target": "fire", "speed": 0.3},
        {"time": 3, "action": "set_route", "target": "people", "route": ["west"]}])", "both", 80);
    Simulation a = make(json, 1), b = make(json, 2);
    while (!a.finished() && a.agentCount() > 0) a.step();
    while (!b.finished() && b.agentCount() > 0) b.step();
    ASSERT_EQ(a.exits().size(), b.exits().size());
    ASSERT_EQ(a.exitedTotal(), 80);
    for (std::size_t k = 0; k < a.exits().size(); ++k) {
        EXPECT_EQ(a.exits()[k].id, b.exits()[k].id);
        EXPECT_EQ(a.exits()[k].time, b.exits()[k].time);
        EXPECT_EQ(a.exits()[k].x, b.exits()[k].x);
    }
}

TEST(EventMotions, BadEventsNameTheKeyAndTheAllowedValues) {
    auto message = [](const std::string& events) {
        try {
            (void)parseScene(hall("\"events\": [" + events + "]"), "motions-test");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    auto expectIn = [&](const std::string& events, const std::string& part) {
        const std::string m = message(events);
        EXPECT_NE(m.find(part), std::string::npos) << events << " -> " << m;
    };
    expectIn(R"({"time": 1, "action": "move", "target": "cart", "speed": 1})", "/events/0");
    expectIn(R"({"time": 1, "action": "move", "target": "cart", "speed": 1})", "path");
    expectIn(R"({"time": 1, "action": "move", "target": "cart", "path": [[30, 5]], "speed": 1})", "/events/0/path/0");
    expectIn(R"({"time": 1, "action": "move", "target": "cart", "path": [[3, 5]], "speed": 0})", "/events/0/speed");
    expectIn(R"({"time": 1, "action": "move", "target": "cart", "path": [[3, 5]]})", "speed");
    expectIn(R"({"time": 1, "action": "move", "target": "fire", "path": [[3, 5]], "speed": 1})", "one of: cart");
    expectIn(R"({"time": 1, "action": "move_discomfort", "target": "cart", "path": [[3, 5]], "speed": 1})", "one of: fire");
    expectIn(R"({"time": 1, "action": "grow_discomfort", "target": "fire", "speed": 1, "distance": -1})", "/events/0/distance");
    expectIn(R"({"time": 1, "action": "close", "target": "cart", "speed": 1})", "/events/0/speed");
    expectIn(R"({"time": 1, "action": "disable_goal", "target": "both", "area": 2})", "0 .. 1");
    expectIn(R"({"time": 1, "action": "disable_goal", "target": "exit"})", "one of: west, east, both");
    expectIn(R"({"time": 1, "action": "set_route", "target": "people", "route": ["north"]})", "/events/0/route/0");
    expectIn(R"({"time": 1, "action": "set_route", "target": "people", "route": []})", "/events/0/route");
    expectIn(R"({"time": 1, "action": "set_route", "target": "crowd", "route": ["west"]})", "one of: people");
    expectIn(R"({"time": 1, "action": "start_incident", "target": "blast"})", "the scene has none");
    expectIn(R"({"time": 1, "action": "open", "target": "cart", "route": ["west"]})", "/events/0/route");
    expectIn(R"({"time": 1, "action": "set_panic", "target": "people"})", "/events/0/value");
    expectIn(R"({"time": 1, "action": "set_panic", "target": "people", "value": 1.5})", "/events/0/value");
}

}  // namespace
}  // namespace ccrowd::test
