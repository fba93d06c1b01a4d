/// @file rimea_exits.cpp
/// RiMEA tests 9 and 11 (RiMEA e.V., "Guideline for Microscopic Evacuation
/// Analysis"): test 9 "crowd leaving a large public room", 1000 persons in
/// a 30 m x 20 m room with two 1 m exits in each long wall, which with one
/// wall's exits closed should take about twice as long to empty; test 11
/// "choice of exit", 1000 persons in a room with two exits, who should
/// prefer the nearer but partly use the other. The rooms are JuPedSim's
/// for these tests.

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "ccrowd/scene.hpp"
#include "cases.hpp"
#include "run_pool.hpp"
#include "stopwatch.hpp"

namespace ccrowd::validate {

namespace {

constexpr int kPersons = 1000;                          // RiMEA 9's persons
constexpr double kRatioMin = 1.6, kRatioMax = 2.4;      // "about double": JuPedSim's bound for RiMEA 9
constexpr double kLimit = 900.0;                        // longest run [s]
constexpr double kExitWest = 7.0, kExitEast = 22.0;     // the exits' west edges along the long walls [m]
constexpr double kRoomY0 = 2.25, kRoomY1 = 22.25;       // the room between its long walls [m]

}  // namespace

std::string exitsRoomScene(int exits, int seed) {
    // the room's long walls at y = 2 .. 2.25 and 22.25 .. 22.5, 1 m exits at x = 7 .. 8 and 22 .. 23 in each
    // (the upper wall's closed with 2 exits), 2 m strips outside, the goal at their far edges
    std::ostringstream walls;
    const auto wall = [&](double y0, double y1, bool open) {
        std::vector<double> xs{0.0};
        if (open) xs.insert(xs.end(), {kExitWest, kExitWest + 1.0, kExitEast, kExitEast + 1.0});
        xs.push_back(30.0);
        for (std::size_t k = 0; k + 1 < xs.size(); k += 2)
            walls << (walls.tellp() > 0 ? ", " : "") << R"({"rect": {"min": [)" << xs[k] << ", " << y0 << R"(], "max": [)"
                  << xs[k + 1] << ", " << y1 << "]}}";
    };
    wall(2.0, kRoomY0, true);
    wall(kRoomY1, kRoomY1 + 0.25, exits == 4);
    std::ostringstream j;
    j << R"({"format": "ccrowd-scene", "version": 1, "name": "rimea9_)" << exits << R"(_exits",
      "description": "RiMEA test 9: 1000 persons leave a 30 m x 20 m room through )" << exits << R"( 1 m exits.",
      "domain": {"width": 30, "height": 24.5, "cell": 0.25},
      "obstacles": [)" << walls.str() << R"(],
      "goals": [{"name": "outside", "areas": [{"rect": {"min": [0, 0], "max": [30, 0.5]}})"
      << (exits == 4 ? R"(, {"rect": {"min": [0, 24], "max": [30, 24.5]}})" : "") << R"(]}],
      "groups": [{"name": "occupants", "spawn": [{"rect": {"min": [0.5, 2.75], "max": [29.5, 21.75]}}], "count": )" << kPersons
      << R"(, "route": ["outside"]}],
      "model": {"duration": )" << kLimit << R"(, "seed": )" << seed << R"(}})";
    return j.str();
}

ExitsClosedResult exitsClosed(const Exec& ex) {
    const Stopwatch clock;
    ExitsClosedResult r;
    r.title = "RiMEA test 9 (exits closed)";
    r.description = "1000 persons leave a 30 m x 20 m room through four 1 m exits, two in each long wall, and again "
                    "with one wall's two exits closed; measured: the time of the last exit of each room.";
    r.source = "RiMEA guideline, test 9 (with half the exits the room takes about twice as long: 1.6-2.4 times)";
    for (int exits : {4, 2}) r.scenes.push_back(SceneUse{"rimea9_" + std::to_string(exits) + "_exits", "", exitsRoomScene(exits, 1)});
    // both rooms, at once where the backend allows
    const std::vector<ExitsRoom> rooms = mapRuns<ExitsRoom>(ex, 2, [&](const Exec& runEx, int k) {
        ExitsRoom room;
        room.exits = k == 0 ? 4 : 2;
        Simulation sim(validationScene(parseScene(exitsRoomScene(room.exits, 1), r.scenes[static_cast<std::size_t>(k)].name)), runEx);
        room.placed = sim.agentCount();
        while (sim.exitedTotal() < room.placed && sim.time() < kLimit) sim.step();
        room.exited = sim.exitedTotal();
        // who left where: the exit below (or above) each person's last position
        room.per_exit.assign(static_cast<std::size_t>(room.exits), 0);
        double last = -1.0;
        for (const ExitRecord& e : sim.exits()) {
            last = std::max(last, e.time);
            const int door = (e.x < 15.f ? 0 : 1) + (e.y > 0.5f * (kRoomY0 + kRoomY1) ? 2 : 0);
            if (door < room.exits) ++room.per_exit[static_cast<std::size_t>(door)];
        }
        room.time = room.exited == room.placed && room.placed > 0 ? last : -1.0;
        return room;
    });
    r.four = rooms[0];
    r.two = rooms[1];
    if (r.four.time > 0.0 && r.two.time > 0.0) r.ratio = r.two.time / r.four.time;

    for (const ExitsRoom* room : {&r.four, &r.two}) {
        const std::string which = std::to_string(room->exits) + " exits";
        r.require("persons placed, " + which, std::to_string(room->placed), std::to_string(kPersons), room->placed == kPersons);
        r.check("all left, " + which, std::to_string(room->exited) + (room->time > 0.0 ? ", last at " + formatValue(room->time, 1, "s") : ""),
                "all 1000 within " + formatValue(kLimit, 0, "s"), room->time > 0.0);
    }
    r.check("time with 2 exits over time with 4", r.ratio > 0.0 ? formatValue(r.ratio, 3) : std::string("a room did not empty"),
            formatValue(kRatioMin, 1) + "-" + formatValue(kRatioMax, 1), r.ratio >= kRatioMin && r.ratio <= kRatioMax);
    r.wall_seconds = clock.seconds();
    return r;
}

std::string exitChoiceScene(int seed) {
    // the north wall at y = 20 .. 20.25 with 1 m exits at x = 21 .. 22 (near) and 27 .. 28 (far), a 2 m strip outside
    std::ostringstream j;
    j << R"({"format": "ccrowd-scene", "version": 1, "name": "rimea11_exit_choice",
      "description": "RiMEA test 11: 1000 persons leave a 30 m x 20 m room through two 1 m exits, one nearer than the other.",
      "domain": {"width": 30, "height": 22.25, "cell": 0.25},
      "obstacles": [{"rect": {"min": [0, 20], "max": [21, 20.25]}}, {"rect": {"min": [22, 20], "max": [27, 20.25]}},
                    {"rect": {"min": [28, 20], "max": [30, 20.25]}}],
      "goals": [{"name": "outside", "areas": [{"rect": {"min": [0, 21.75], "max": [30, 22.25]}}]}],
      "groups": [{"name": "occupants", "spawn": [{"rect": {"min": [1, 1], "max": [17, 19]}}], "count": )" << kPersons
      << R"(, "route": ["outside"]}],
      "model": {"duration": )" << kLimit << R"(, "seed": )" << seed << R"(}})";
    return j.str();
}

ExitChoiceResult exitChoice(const Exec& ex) {
    const Stopwatch clock;
    ExitChoiceResult r;
    r.title = "RiMEA test 11 (choice of exit)";
    r.description = "1000 persons in the west half of a 30 m x 20 m room leave through two 1 m exits in its north wall, "
                    "at x = 21-22 m (the nearer) and 27-28 m; measured: who left through which.";
    r.source = "RiMEA guideline, test 11 (the nearer exit preferred, the other used by some)";
    r.scenes.push_back(SceneUse{"rimea11_exit_choice", "", exitChoiceScene(1)});
    Simulation sim(validationScene(parseScene(r.scenes[0].json, r.scenes[0].name)), ex);
    r.placed = sim.agentCount();
    while (sim.exitedTotal() < r.placed && sim.time() < kLimit) sim.step();
    // which exit: the one below each person's position in the strip outside
    double last = -1.0;
    for (const ExitRecord& e : sim.exits()) {
        last = std::max(last, e.time);
        ++(e.x < 24.5f ? r.near : r.far);
    }
    const long long out = r.near + r.far;
    r.time = out == r.placed && r.placed > 0 ? last : -1.0;
    if (out > 0) r.near_share = static_cast<double>(r.near) / static_cast<double>(out);

    r.require("persons placed", std::to_string(r.placed), std::to_string(kPersons), r.placed == kPersons);
    r.check("all left", std::to_string(out) + (r.time > 0.0 ? ", last at " + formatValue(r.time, 1, "s") : ""),
            "all 1000 within " + formatValue(kLimit, 0, "s"), r.time > 0.0);
    const std::string split = formatValue(r.near_share, 3) + " (" + std::to_string(r.near) + " near, " + std::to_string(r.far) + " far)";
    r.check("share of the nearer exit", split, "> 0.5", r.near_share > 0.5);
    r.check("share of the farther exit", formatValue(1.0 - r.near_share, 3), ">= 0.1", out > 0 && 1.0 - r.near_share >= 0.1);
    r.wall_seconds = clock.seconds();
    return r;
}

}  // namespace ccrowd::validate
