/// @file test_events.cpp
/// The environment's timeline (issue 13, Deliver 1: events): closing a door
/// reroutes everyone through the other door, agents inside a closing
/// barrier are pushed out and none is lost, a discomfort region switched on
/// turns a crowd away, results do not depend on the thread count, and bad
/// events get clear errors.

#include <cmath>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"

namespace ccrowd::test {
namespace {

/// A 10 m x 10 m room (x 5 .. 15) in a 20 m x 10 m domain with a 1 m door
/// in its west and east walls (y 4.5 .. 5.5) and an exit beyond each; the
/// barrier "east_door" fills the east doorway, "west_door" the west one and
/// "block" a 3 m square in the room's middle (all open); 120 persons in the room. @p timeline: the "events" list
/// (JSON) and anything else to add at the top level.
std::string twoDoorRoom(const std::string& timeline, int count = 120) {
    return R"({"format": "ccrowd-scene", "version": 1, "name": "two_doors",
      "domain": {"width": 20, "height": 10, "cell": 0.25},
      "obstacles": [{"rect": {"min": [4.5, 0], "max": [5, 4.5]}}, {"rect": {"min": [4.5, 5.5], "max": [5, 10]}},
                    {"rect": {"min": [15, 0], "max": [15.5, 4.5]}}, {"rect": {"min": [15, 5.5], "max": [15.5, 10]}}],
      "barriers": [{"name": "east_door", "area": {"rect": {"min": [15, 4.5], "max": [15.5, 5.5]}}},
                   {"name": "west_door", "area": {"rect": {"min": [4.5, 4.5], "max": [5, 5.5]}}},
                   {"name": "block", "area": {"rect": {"min": [8.5, 3.5], "max": [11.5, 6.5]}}}],
      "discomfort": [{"name": "smoke", "area": {"rect": {"min": [5, 2], "max": [8, 8]}}, "value": 0}],
      "goals": [{"name": "out", "areas": [{"rect": {"min": [0, 0], "max": [1, 10]}}, {"rect": {"min": [19, 0], "max": [20, 10]}}]}],
      "groups": [{"name": "people", "spawn": [{"rect": {"min": [6, 1], "max": [14, 9]}}], "count": )" +
           std::to_string(count) + R"(, "route": ["out"]}],
      "model": {"seed": 5, "duration": 150})" +
           (timeline.empty() ? "" : ", " + timeline) + "}";
}

/// Runs to the end; counts the exits west (x < 10) and east.
struct Outcome {
    int west = 0, east = 0;
    long long spawned = 0, exited = 0, remaining = 0;
    std::vector<ExitRecord> exits;
};
Outcome run(const std::string& json, int threads = 0) {
    Simulation sim(parseScene(json, "events-test"), Exec{Backend::Cpu, threads});
    while (!sim.finished()) sim.step();
    Outcome o;
    for (const ExitRecord& e : sim.exits()) (e.x < 10.f ? o.west : o.east)++;
    o.spawned = sim.spawnedTotal();
    o.exited = sim.exitedTotal();
    o.remaining = sim.agentCount();
    o.exits = sim.exits();
    return o;
}

TEST(Events, ClosingADoorReroutesEveryoneThroughTheOtherDoor) {
    // both doors open: the crowd splits
    const Outcome open = run(twoDoorRoom(""));
    ASSERT_EQ(open.exited, 120);
    EXPECT_GT(open.west, 30);
    EXPECT_GT(open.east, 30);
    // the east door closes after 2 s: nobody still in the room then leaves east, and everyone leaves
    Simulation sim(parseScene(twoDoorRoom(R"("events": [{"time": 2, "action": "close", "target": "east_door"}])"), "events-test"),
                   Exec{Backend::Cpu, 0});
    while (sim.time() < 2.0 - 1e-6) sim.step();
    std::set<int> inRoom;
    const AgentSnapshot a = sim.agents();
    for (int k = 0; k < a.size(); ++k)
        if (a.x[k] < 15.f) inRoom.insert(a.id[k]);
    EXPECT_GT(inRoom.size(), 100u);
    while (!sim.finished()) sim.step();
    EXPECT_EQ(sim.exitedTotal(), 120);
    EXPECT_EQ(sim.agentCount(), 0);
    int east = 0, inRoomEast = 0;
    for (const ExitRecord& e : sim.exits()) {
        east += e.x > 10.f;
        inRoomEast += e.x > 10.f && inRoom.count(e.id);
    }
    EXPECT_EQ(inRoomEast, 0);
    EXPECT_LT(east, 10) << "only those already through the east door when it closed leave east";
}

TEST(Events, AgentsInAClosingBarrierArePushedOutAndNoneIsLost) {
    // a 3 m x 3 m barrier (a vehicle, a shutter) drops onto the crowd at 0.5 s and lifts at 20 s
    const std::string json = twoDoorRoom(R"("events": [{"time": 0.5, "action": "close", "target": "block"},
                                                       {"time": 20, "action": "open", "target": "block"}])");
    Simulation sim(parseScene(json, "events-test"), Exec{Backend::Cpu, 0});
    ASSERT_EQ(sim.stageNames().front(), "events");
    auto inBlock = [](float x, float y) { return x > 8.5f && x < 11.5f && y > 3.5f && y < 6.5f; };
    while (sim.time() < 0.5 - 1e-6) sim.step();
    int inside = 0;
    {
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) inside += inBlock(a.x[k], a.y[k]);
    }
    EXPECT_GT(inside, 8) << "the test needs agents under the barrier when it closes";
    // the events stage runs first: it closes the barrier and moves them out; nobody enters it while closed
    while (sim.time() < 19.9) {
        sim.step();
        const AgentSnapshot a = sim.agents();
        ASSERT_EQ(a.size() + sim.exitedTotal(), 120) << "t = " << sim.time();
        for (int k = 0; k < a.size(); ++k)
            ASSERT_FALSE(inBlock(a.x[k], a.y[k])) << "agent " << a.id[k] << " at (" << a.x[k] << ", " << a.y[k]
                                                  << ") inside the closed barrier at t = " << sim.time();
    }
    // after it lifts, everyone leaves
    while (!sim.finished()) sim.step();
    EXPECT_EQ(sim.exitedTotal(), 120);
}

TEST(Events, DiscomfortSwitchedOnTurnsTheCrowdAway) {
    // smoke in front of the west door from t = 0 (a huge discomfort): most go east
    const Outcome base = run(twoDoorRoom(""));
    const Outcome smoke = run(twoDoorRoom(R"("events": [{"time": 0, "action": "set_discomfort", "target": "smoke", "value": 50}])"));
    EXPECT_EQ(smoke.exited, 120);
    EXPECT_LT(smoke.west, base.west / 2) << "west exits: " << smoke.west << " with smoke, " << base.west << " without";
}

TEST(Events, TheWallsBoundaryLayerFollowsTheBarriersAndOutlivesDiscomfortEvents) {
    // under social_force the discomfort layer marks the cells within a body radius (0.25 m) of a wall: a barrier
    // that closes gains that layer, one that opens loses it, and a discomfort event keeps it under its regions
    std::string json = twoDoorRoom(R"("events": [{"time": 0.5, "action": "close", "target": "block"},
                                                 {"time": 1, "action": "open", "target": "block"},
                                                 {"time": 1.5, "action": "set_discomfort", "target": "smoke", "value": 0.5}])");
    json.replace(json.find(R"("model": {)"), 10, R"("model": {"local": "social_force", )");
    Simulation sim(parseScene(json, "events-test"), Exec{Backend::Cpu, 0});
    auto g = [&](float x, float y) {
        int i, j;
        sim.grid().cellOf(x, y, i, j);
        return sim.grid().discomfort(i, j);
    };
    // beside the block (open), beside the west wall inside the smoke, inside the smoke away from walls
    const float besideBlock[2] = {8.375f, 5.f}, besideWall[2] = {5.125f, 3.f}, inSmoke[2] = {6.5f, 3.f};
    EXPECT_EQ(g(besideBlock[0], besideBlock[1]), 0.f);
    EXPECT_EQ(g(besideWall[0], besideWall[1]), 1.f);
    EXPECT_EQ(g(inSmoke[0], inSmoke[1]), 0.f);
    while (sim.time() < 0.75) sim.step();
    EXPECT_EQ(g(besideBlock[0], besideBlock[1]), 1.f) << "the closed block's boundary layer";
    while (sim.time() < 1.25) sim.step();
    EXPECT_EQ(g(besideBlock[0], besideBlock[1]), 0.f) << "the open block's layer is gone";
    while (sim.time() < 1.75) sim.step();
    EXPECT_EQ(g(besideWall[0], besideWall[1]), 1.f) << "the wall's layer under the smoke's 0.5";
    EXPECT_EQ(g(inSmoke[0], inSmoke[1]), 0.5f);
}

TEST(Events, SameResultsOnOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    const std::string json = twoDoorRoom(R"("events": [{"time": 3, "action": "close", "target": "east_door"},
        {"time": 1, "action": "set_discomfort", "target": "smoke", "value": 5}, {"time": 9, "action": "open", "target": "east_door"}])",
                                         80);
    const Outcome a = run(json, 1), b = run(json, 2);
    ASSERT_EQ(a.exits.size(), b.exits.size());
    for (std::size_t k = 0; k < a.exits.size(); ++k) {
        EXPECT_EQ(a.exits[k].id, b.exits[k].id);
        EXPECT_EQ(a.exits[k].time, b.exits[k].time);
        EXPECT_EQ(a.exits[k].x, b.exits[k].x);
    }
}

TEST(Events, AnEventAddedWhileRunningActsAsTheSameEventInTheFile) {
    // the scene file's event, and the same event added at t = 1 s while running: the same exits
    const Outcome file = run(twoDoorRoom(R"("events": [{"time": 2, "action": "close", "target": "east_door"}])"), 0);
    Simulation sim(parseScene(twoDoorRoom(""), "events-test"), Exec{Backend::Cpu, 0});
    ASSERT_EQ(sim.stageNames().front(), "events");  // barriers: the timeline's stage is there
    while (sim.time() < 1.0 - 1e-6) sim.step();
    sim.addEvent(parseEvent(R"({"time": 2, "action": "close", "target": "east_door"})", sim.scene(), "added"));
    while (!sim.finished()) sim.step();
    ASSERT_EQ(sim.exits().size(), file.exits.size());
    for (std::size_t k = 0; k < file.exits.size(); ++k) {
        EXPECT_EQ(sim.exits()[k].id, file.exits[k].id);
        EXPECT_EQ(sim.exits()[k].time, file.exits[k].time);
    }
    // not in the past, not without a timeline, not to an unknown target
    EXPECT_THROW(sim.addEvent(parseEvent(R"({"time": 0.5, "action": "open", "target": "east_door"})", sim.scene(), "added")),
                 InputError);
    EXPECT_THROW((void)parseEvent(R"({"time": 900, "action": "open", "target": "garage"})", sim.scene(), "added"), InputError);
    Simulation plain(parseScene(R"({"format": "ccrowd-scene", "version": 1, "domain": {"width": 4, "height": 4},
        "goals": [{"name": "g", "areas": [{"rect": {"min": [3, 0], "max": [4, 4]}}]}],
        "groups": [{"name": "p", "spawn": [{"rect": {"min": [0, 0], "max": [1, 4]}}], "count": 2, "route": ["g"]}]})",
                                "plain"),
                     Exec{Backend::Cpu, 0});
    EXPECT_NE(plain.stageNames().front(), "events");
    EventSpec open;
    open.time = 1.0;
    open.target = "door";
    EXPECT_THROW(plain.addEvent(open), InputError);
}

TEST(Events, BadEventsNameTheFieldAndTheAllowedValues) {
    auto message = [](const std::string& timeline) {
        try {
            (void)parseScene(twoDoorRoom(timeline), "events-test");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    EXPECT_NE(message(R"("events": [{"time": 1, "action": "explode", "target": "east_door"}])").find("/events/0/action"),
              std::string::npos);
    const std::string unknown = message(R"("events": [{"time": 1, "action": "close", "target": "north_door"}])");
    EXPECT_NE(unknown.find("/events/0/target"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("east_door, west_door, block"), std::string::npos) << unknown;
    EXPECT_NE(message(R"("events": [{"time": -1, "action": "close", "target": "east_door"}])").find("/events/0/time"),
              std::string::npos);
    EXPECT_NE(message(R"("events": [{"time": 1, "action": "close", "target": "east_door", "value": 3}])").find("/events/0/value"),
              std::string::npos);
    EXPECT_NE(message(R"("events": [{"time": 1, "action": "set_discomfort", "target": "fog", "value": 3}])").find("smoke"),
              std::string::npos);
    EXPECT_NE(message(R"("events": [{"time": 1, "action": "set_discomfort", "target": "smoke"}])").find("/events/0/value"),
              std::string::npos);
    EXPECT_NE(message(R"("barriers": [{"name": "a", "area": {"rect": {"min": [1, 1], "max": [2, 2]}}}])").find("/barriers"),
              std::string::npos);  // "barriers" twice in one object
    // events come out sorted by time
    const Scene s = parseScene(twoDoorRoom(R"("events": [{"time": 5, "action": "open", "target": "east_door"},
        {"time": 1, "action": "close", "target": "east_door"}])"), "events-test");
    ASSERT_EQ(s.events.size(), 2u);
    EXPECT_EQ(s.events[0].time, 1.0);
    EXPECT_EQ(s.events[0].action, EventAction::Close);
}

}  // namespace
}  // namespace ccrowd::test
