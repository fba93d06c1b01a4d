/// @file rimea.cpp
/// RiMEA tests 1 and 6 (RiMEA e.V., "Guideline for Microscopic Evacuation
/// Analysis", test 1 "maintaining the set walking speed in a corridor" and
/// test 6 "movement around a corner"), on the shipped scenes.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "body_checks.hpp"
#include "ccrowd/scene.hpp"
#include "cases.hpp"
#include "stopwatch.hpp"

namespace ccrowd::validate {

namespace {

constexpr float kWalkerSpeed = 1.33f;          // RiMEA 1's walking speed [m/s]
constexpr double kCrossingMin = 26.0, kCrossingMax = 34.0;  // RiMEA 1's travel time window [s]
constexpr int kCornerAgents = 20;              // RiMEA 6's persons

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
