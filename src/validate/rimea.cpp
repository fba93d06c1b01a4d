/// @file rimea.cpp
/// RiMEA tests 1, 5 and 6 (RiMEA e.V., "Guideline for Microscopic
/// Evacuation Analysis", test 1 "maintaining the set walking speed in a
/// corridor", test 5 "pre-movement time" and test 6 "movement around a
/// corner"): 1 and 6 on the shipped scenes, 5 on a generated room.

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "body_checks.hpp"
#include "ccrowd/scene.hpp"
#include "cases.hpp"
#include "stopwatch.hpp"

namespace ccrowd::validate {

namespace {

constexpr float kWalkerSpeed = 1.33f;          // RiMEA 1's walking speed [m/s]
constexpr double kCrossingMin = 26.0, kCrossingMax = 34.0;  // RiMEA 1's travel time window [s]
constexpr int kCornerAgents = 20;              // RiMEA 6's persons
constexpr int kReactingAgents = 10;            // RiMEA 5's persons
constexpr double kReactionMin = 10.0, kReactionMax = 100.0;  // RiMEA 5's pre-movement times, uniform [s]
constexpr double kStillTolerance = 1e-3;       // RiMEA 5: standing means within 1 mm of the spot [m]
constexpr double kWalkedOff = 0.1;             // RiMEA 5: walking means 0.1 m from the spot [m]
constexpr double kWalkOffWithin = 1.5;         // RiMEA 5: ... within this long after the start [s]

}  // namespace

CorridorResult corridorCrossing(const Exec& ex, float cell, const std::string& local) {
    const Stopwatch clock;
    CorridorResult r;
    r.title = "RiMEA test 1 (h = " + formatValue(cell, 2) + " m" + (local.empty() ? "" : ", " + local) + ")";
    r.description = "One walker with a free speed of 1.33 m/s walks the length of a 2 m x 40 m corridor on a " +
                    formatValue(cell, 2) + " m grid; measured: its exit time at the far end.";
    r.source = "RiMEA guideline, test 1 (travel time 26-34 s)";
    const std::string path = bundledScene("corridor");
    r.scenes.push_back(SceneUse{"corridor", path, ""});
    r.cell = cell;

    // the shipped scene on the requested grid
    Scene scene = loadScene(path);
    scene.cell = cell;
    if (!local.empty()) scene.params.local = local;
    Simulation sim(validationScene(std::move(scene)), ex);
    r.agents = sim.agentCount();
    const AgentSnapshot first = sim.agents();
    if (first.size() > 0) {
        r.walker_speed = first.vmax[0];
        r.track.emplace_back(0.0, first.x[0]);
    }

    // walk to the end, recording the walker's position
    while (!sim.finished()) {
        sim.step();
        const AgentSnapshot a = sim.agents();
        if (a.size() == 1) r.track.emplace_back(sim.time(), a.x[0]);
    }
    r.crossing_time = sim.exits().size() == 1 ? sim.exits()[0].time : -1.0;

    const std::string walkers = std::to_string(r.agents) + (r.agents == 1 ? " walker" : " walkers");
    r.require("one walker of free speed 1.33 m/s", walkers + " at " + formatValue(r.walker_speed, 3, "m/s"),
            "1 walker at 1.330 m/s", r.agents == 1 && std::fabs(r.walker_speed - kWalkerSpeed) <= 1e-6f);
    r.check("crossing time", r.crossing_time < 0 ? "never arrived" : formatValue(r.crossing_time, 2, "s"), "26-34 s",
            r.crossing_time >= kCrossingMin && r.crossing_time <= kCrossingMax);
    r.wall_seconds = clock.seconds();
    return r;
}

std::string premovementScene(int seed) {
    // an 8 m x 10 m room, its 1 m exit in the middle of the east wall, a 2 m strip outside to leave
    // through; the persons stand 0.93 m apart on an arc 6 m from the exit, so that nobody's way out
    // passes another's spot (a walker would push a standing person aside: RiMEA 5 asks when each starts)
    std::ostringstream j;
    j << R"({"format": "ccrowd-scene", "version": 1, "name": "rimea5_premovement",
      "description": "After RiMEA test 5: 10 persons in an 8 m x 10 m room with a 1 m exit; pre-movement times uniform on 10-100 s.",
      "domain": {"width": 10.25, "height": 10, "cell": 0.25},
      "obstacles": [{"rect": {"min": [8, 0], "max": [8.25, 4.5]}}, {"rect": {"min": [8, 5.5], "max": [8.25, 10]}}],
      "goals": [{"name": "outside", "areas": [{"rect": {"min": [9.75, 0], "max": [10.25, 10]}}]}],
      "groups": [)";
    for (int k = 0; k < kReactingAgents; ++k) {
        // one person per group (each group draws its own time), on the arc
        const double a = -0.7 + 1.4 * k / (kReactingAgents - 1);
        const double x = 8.0 - 6.0 * std::cos(a), y = 5.0 + 6.0 * std::sin(a);
        j << (k ? ", " : "") << R"({"name": "person)" << k << R"(", "spawn": [{"rect": {"min": [)" << formatValue(x - 0.25, 3)
          << ", " << formatValue(y - 0.25, 3) << R"(], "max": [)" << formatValue(x + 0.25, 3) << ", " << formatValue(y + 0.25, 3)
          << R"(]}}], "count": 1, "premovement": {"distribution": "uniform", "min": )" << kReactionMin << R"(, "max": )"
          << kReactionMax << R"(}, "route": ["outside"], "colour": "#9467bd"})";
    }
    j << R"(], "model": {"duration": 300, "seed": )" << seed << R"(}})";
    return j.str();
}

PremovementResult premovementStarts(const Exec& ex) {
    const Stopwatch clock;
    PremovementResult r;
    r.title = "RiMEA test 5 (pre-movement)";
    r.description = "10 persons in an 8 m x 10 m room with a 1 m exit, standing apart on an arc 6 m from it, their "
                    "pre-movement times drawn uniformly from 10-100 s; measured after every step: how long each stood "
                    "where it was placed, and when it walked off.";
    r.source = "RiMEA guideline, test 5 (each person starts at its pre-movement time)";
    const std::string text = premovementScene(1);
    r.scenes.push_back(SceneUse{"rimea5_premovement", "", text});
    Simulation sim(validationScene(parseScene(text, "rimea5_premovement")), ex);
    const double dt = sim.scene().params.dt;

    // each person's spot and start time
    const AgentSnapshot a0 = sim.agents();
    const std::vector<float> starts = sim.startTimes();
    r.agents = a0.size();
    std::map<int, std::pair<float, float>> spot;
    std::map<int, PremovementPerson> byId;
    for (int k = 0; k < a0.size(); ++k) {
        spot[a0.id[k]] = {a0.x[k], a0.y[k]};
        PremovementPerson& p = byId[a0.id[k]];
        p.id = a0.id[k];
        p.start = static_cast<std::size_t>(a0.id[k]) < starts.size() ? starts[static_cast<std::size_t>(a0.id[k])] : -1.0;
    }
    // after every step: standing on the spot, or walked off
    while (!sim.finished()) {
        sim.step();
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) {
            PremovementPerson& p = byId[a.id[k]];
            const auto& [x0, y0] = spot[a.id[k]];
            const double d = std::hypot(a.x[k] - x0, a.y[k] - y0);
            if (d <= kStillTolerance) p.still_until = sim.time();
            if (d >= kWalkedOff && p.walked_at < 0.0) p.walked_at = sim.time();
        }
    }
    for (const ExitRecord& e : sim.exits())
        if (byId.count(e.id)) byId[e.id].exit_time = e.time;

    // in order of start time; the worst of each check
    for (const auto& [id, p] : byId) r.persons.push_back(p);
    std::sort(r.persons.begin(), r.persons.end(), [](const PremovementPerson& a, const PremovementPerson& b) { return a.start < b.start; });
    std::set<double> distinct;
    bool inRange = true, walked = true, left = true;
    r.earliest_move = std::numeric_limits<double>::infinity();
    for (const PremovementPerson& p : r.persons) {
        distinct.insert(p.start);
        inRange = inRange && p.start >= kReactionMin && p.start <= kReactionMax;
        r.earliest_move = std::min(r.earliest_move, p.still_until - p.start);
        walked = walked && p.walked_at >= 0.0;
        if (p.walked_at >= 0.0) r.latest_start_delay = std::max(r.latest_start_delay, p.walked_at - p.start);
        left = left && p.exit_time >= 0.0;
    }
    if (r.persons.empty()) r.earliest_move = 0.0;

    r.require("persons", std::to_string(r.agents), std::to_string(kReactingAgents), r.agents == kReactingAgents);
    const std::string range = r.persons.empty() ? "none"
                                                : formatValue(r.persons.front().start, 1) + "-" + formatValue(r.persons.back().start, 1, "s") +
                                                      ", " + std::to_string(distinct.size()) + " distinct";
    r.require("pre-movement times drawn", range, "10 distinct, within 10-100 s",
              inRange && static_cast<int>(distinct.size()) == kReactingAgents);
    r.check("stood still until its start (stood until - start, smallest)", formatValue(r.earliest_move, 2, "s"),
            ">= -" + formatValue(dt, 2, "s") + " (one step)", r.earliest_move >= -dt - 1e-9);
    r.check("walked off 0.1 m after its start (largest delay)", walked ? formatValue(r.latest_start_delay, 2, "s") : "someone never walked",
            "<= " + formatValue(kWalkOffWithin, 1, "s"), walked && r.latest_start_delay <= kWalkOffWithin);
    const long long out = static_cast<long long>(std::count_if(r.persons.begin(), r.persons.end(), [](const PremovementPerson& p) { return p.exit_time >= 0.0; }));
    r.check("left the room", std::to_string(out) + " of " + std::to_string(r.persons.size()), "all 10", left && out == kReactingAgents);
    r.wall_seconds = clock.seconds();
    return r;
}

LCornerResult lCorner(const Exec& ex, const std::string& local) {
    const Stopwatch clock;
    LCornerResult r;
    r.title = std::string("RiMEA test 6 (L corner") + (local.empty() ? "" : ", " + local) + ")";
    r.description = "20 persons walk along a 2 m wide corridor that turns left after 12 m; every agent is checked "
                    "after every step against the walls and the outline of the L, centre and body (radius).";
    r.source = "RiMEA guideline, test 6 (nobody crosses the walls of the corner)";
    const std::string path = bundledScene("l_corner");
    r.scenes.push_back(SceneUse{"l_corner", path, ""});

    Scene scene = loadScene(path);
    if (!local.empty()) scene.params.local = local;
    Simulation sim(validationScene(std::move(scene)), ex);
    r.agents = sim.agentCount();
    const SceneGrid& g = sim.grid();
    r.min_clearance = std::numeric_limits<double>::infinity();
    float largest = 0.f;
    for (const GroupSpec& gs : sim.scene().groups) largest = std::max(largest, gs.radius);
    const WallClearance walls(g, largest + g.h);
    while (!sim.finished()) {
        sim.step();
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) {
            // the body: distance to the wall edges (the domain's included), and
            // to the outside of the L's inner corner {x < 10, y > 2} (exact)
            const double x = a.x[k], y = a.y[k];
            const double corner = x >= 10.0 ? (y <= 2.0 ? std::hypot(x - 10.0, y - 2.0) : x - 10.0) : (y <= 2.0 ? 2.0 - y : 0.0);
            const double wall = walls.distance(x, y);
            const double clear = std::min(wall, corner) - a.radius[k];
            r.min_clearance = std::min(r.min_clearance, clear);
            if (clear < -kBodyTolerance && r.overlaps++ == 0)
                r.first_overlap = "agent " + std::to_string(a.id[k]) + " at (" + formatValue(x, 3) + ", " + formatValue(y, 3) +
                                  ") m overlaps a wall by " + formatValue(-clear, 3, "m") + " at t = " +
                                  formatValue(sim.time(), 2, "s");
            // never inside a wall, never outside the L (first arm y <= 2 m, second arm x >= 10 m)
            const bool inWall = wall < 0.0, outside = !(a.y[k] <= 2.f || a.x[k] >= 10.f);
            if (inWall || outside) {
                if (r.violations == 0)
                    r.first_violation = "agent " + std::to_string(a.id[k]) + " at (" + formatValue(a.x[k], 2) + ", " +
                                        formatValue(a.y[k], 2) + ") m" + (inWall ? " inside a wall" : " outside the L") +
                                        " at t = " + formatValue(sim.time(), 2, "s");
                ++r.violations;
            }
            r.turned = r.turned || a.y[k] > 4.f;
        }
    }
    r.exited = sim.exitedTotal();
    r.remaining = sim.agentCount();
    r.last_exit = sim.groupStats().empty() ? -1.0 : sim.groupStats()[0].last_exit;

    r.require("persons", std::to_string(r.agents), "20", r.agents == kCornerAgents);
    const std::string violations = std::to_string(r.violations) + (r.violations ? " (first: " + r.first_violation + ")" : "");
    r.check("agent-steps in a wall or outside the L", violations, "0", r.violations == 0);
    const std::string overlaps = std::to_string(r.overlaps) + ", smallest clearance " + formatValue(r.min_clearance, 4, "m") +
                                 (r.overlaps ? " (first: " + r.first_overlap + ")" : "");
    r.check("agent-steps whose body (centre + radius) overlaps a wall", overlaps, "0 (tolerance 1e-4 m)", r.overlaps == 0);
    r.check("walkers turned the corner (y > 4 m)", r.turned ? "yes" : "no", "yes", r.turned);
    const std::string arrived =
        std::to_string(r.exited) + " of " + std::to_string(r.agents) + ", last at " + formatValue(r.last_exit, 2, "s");
    r.check("arrived", arrived, "all 20, none left inside", r.exited == kCornerAgents && r.remaining == 0);
    r.wall_seconds = clock.seconds();
    return r;
}

}  // namespace ccrowd::validate
