/// @file grid_invariance.cpp
/// Results that do not depend on the grid (issue 12, Deliver 4): a room
/// with a door turned by several angles on one grid, and a one-door and a
/// four-door room on a grid and on one of half its cell size. The crowd
/// should not notice the grid: the same evacuation time at every angle,
/// the same when the cells halve, and no body inside a wall polygon.

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "body_checks.hpp"
#include "ccrowd/scene.hpp"
#include "cases.hpp"
#include "run_pool.hpp"
#include "stopwatch.hpp"

namespace ccrowd::validate {

namespace {

constexpr double kTimeLimit = 400.0;       // give up after this [s]
constexpr double kHalvingTolerance = 0.05; // evacuation time change allowed when the cells halve
/// Spread of the mean evacuation times over the angles allowed (issue 12).
constexpr double kAngleSpread = 0.05;

/// JSON of a polygon's points.
std::string polygonJson(const std::vector<Vec2>& p) {
    std::ostringstream o;
    o.precision(9);
    o << "[";
    for (std::size_t k = 0; k < p.size(); ++k) o << (k ? ", " : "") << "[" << p[k].x << ", " << p[k].y << "]";
    o << "]";
    return o.str();
}

/// Runs @p sim until everyone has left (or kTimeLimit), into @p r; with
/// @p bodies, the smallest body clearance from the wall polygons after
/// every step.
void evacuate(Simulation& sim, bool bodies, EvacuationRun& r) {
    r.agents = sim.agentCount();
    r.cell = sim.grid().h;
    const WallClearance walls(sim.grid(), largestBodyRadius(sim.scene()) + sim.grid().h);
    r.min_clearance = std::numeric_limits<double>::infinity();
    while (!sim.finished() && sim.time() < kTimeLimit) {
        sim.step();
        if (!bodies) continue;
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) {
            const double c = walls.distance(a.x[k], a.y[k]) - a.radius[k];
            if (!(c < r.min_clearance)) continue;
            r.min_clearance = c;
            r.worst_id = a.id[k];
            r.worst_x = a.x[k];
            r.worst_y = a.y[k];
            r.worst_time = sim.time();
        }
    }
    r.exited = sim.exitedTotal();
    r.time = r.exited >= r.agents ? sim.time() : -1.0;
}

/// Name of the turned room's scene at @p degrees with @p seed.
std::string turnedRoomName(double degrees, int seed) {
    return "turned_room_" + formatValue(degrees, 0) + "deg_seed" + std::to_string(seed);
}

/// Name of the room @p file ("one", "four") with doors on cells of @p cell [m].
std::string halvedRoomName(const char* file, double cell) {
    return std::string(file) + "_door_room_h" + formatValue(cell, 3);
}

/// Adds the "everyone left" criterion of run @p e to @p r.
void checkEveryoneLeft(CaseResult& r, const EvacuationRun& e) {
    r.check("everyone left, " + e.label,
            std::to_string(e.exited) + " of " + std::to_string(e.agents) +
                (e.time >= 0.0 ? " by " + formatValue(e.time, 1, "s") : ""),
            "all within " + formatValue(kTimeLimit, 0, "s"), e.time >= 0.0);
}

}  // namespace

std::string turnedRoomScene(double degrees, int seed) {
    // the room of 10 m x 10 m (0.3 m walls, 1 m door east) turned about (10, 10)
    const double a = degrees * M_PI / 180.0, c = std::cos(a), s = std::sin(a);
    auto turn = [&](double x, double y) {
        return Vec2{static_cast<float>(10.0 + (x - 10.0) * c - (y - 10.0) * s),
                    static_cast<float>(10.0 + (x - 10.0) * s + (y - 10.0) * c)};
    };
    auto box = [&](double x0, double y0, double x1, double y1) {
        return polygonJson({turn(x0, y0), turn(x1, y0), turn(x1, y1), turn(x0, y1)});
    };
    std::ostringstream j;
    j << R"({"format": "ccrowd-scene", "version": 1, "name": "turned_room",
      "domain": {"width": 20, "height": 20, "cell": 0.25},
      "obstacles": [)" << box(4.7, 4.7, 15.3, 5) << ", " << box(4.7, 15, 15.3, 15.3) << ", " << box(4.7, 5, 5, 15) << ", "
      << box(15, 5, 15.3, 9.5) << ", " << box(15, 10.5, 15.3, 15) << R"(],
      "goals": [{"name": "out", "areas": [)" << box(17.5, 8, 19, 12) << R"(]}],
      "groups": [{"name": "occupants", "spawn": [)" << box(5.5, 5.5, 14.5, 14.5) << R"(], "count": 200,
                  "route": ["out"]}],
      "model": {"seed": )" << seed << R"(, "duration": 400}})";
    return j.str();
}

std::string fourDoorRoomScene(double cell) {
    // a 30 m x 20 m room in 0.3 m walls, a 1 m door in each wall, no door edge on a cell face
    std::ostringstream j;
    j.precision(9);
    j << R"({"format": "ccrowd-scene", "version": 1, "name": "four_door_room",
      "domain": {"width": 34, "height": 24, "cell": )" << cell << R"(},
      "obstacles": [
        {"rect": {"min": [1.7, 1.7], "max": [16.57, 2]}}, {"rect": {"min": [17.57, 1.7], "max": [32.3, 2]}},
        {"rect": {"min": [1.7, 22], "max": [16.43, 22.3]}}, {"rect": {"min": [17.43, 22], "max": [32.3, 22.3]}},
        {"rect": {"min": [1.7, 2], "max": [2, 11.57]}}, {"rect": {"min": [1.7, 12.57], "max": [2, 22]}},
        {"rect": {"min": [32, 2], "max": [32.3, 11.43]}}, {"rect": {"min": [32, 12.43], "max": [32.3, 22]}}],
      "goals": [{"name": "out", "areas": [{"rect": {"min": [0, 0], "max": [34, 0.6]}},
                                          {"rect": {"min": [0, 23.4], "max": [34, 24]}},
                                          {"rect": {"min": [0, 0.6], "max": [0.6, 23.4]}},
                                          {"rect": {"min": [33.4, 0.6], "max": [34, 23.4]}}]}],
      "groups": [{"name": "occupants", "spawn": [{"rect": {"min": [2.5, 2.5], "max": [31.5, 21.5]}}], "count": 1000,
                  "route": ["out"]}],
      "model": {"seed": 7, "duration": 400}})";
    return j.str();
}

EvacuationRun turnedRoomRun(const Exec& ex, double degrees, int seed) {
    EvacuationRun e;
    e.angle = degrees;
    e.seed = seed;
    e.label = "turned " + formatValue(degrees, 0) + " degrees, seed " + std::to_string(seed);
    Simulation sim(validationScene(parseScene(turnedRoomScene(degrees, seed), turnedRoomName(degrees, seed))), ex);
    evacuate(sim, true, e);
    return e;
}

GridInvarianceResult gridInvariance(const Exec& ex, const std::vector<double>& angles, const std::vector<int>& seeds,
                                    bool fourDoors) {
    const Stopwatch clock;
    GridInvarianceResult r;
    r.title = "Results that do not depend on the grid";
    r.description = "A 10 m x 10 m room (0.3 m walls, 1 m door, 200 persons) turned by each angle on 0.25 m cells, "
                    "each with several seeds, run until everyone has left; a one-door room (200 persons) and a "
                    "30 m x 20 m room with four 1 m doors (1000 persons) on 0.25 m and 0.125 m cells.";
    r.source = "Issue 12: the grid must not change the answer. Evacuation times within 5% over the angles and when the "
               "cells halve; no body inside a wall polygon, turned or not";

    // the rooms whose cells halve: one door, four doors, each on both grids
    struct Room { const char* name; const char* file; std::string (*scene)(double); };
    const Room allRooms[] = {{"one-door room", "one", [](double h) { return roomWithDoorScene(1.0, h); }},
                             {"four-door room", "four", fourDoorRoomScene}};
    std::vector<Room> rooms(allRooms, allRooms + (fourDoors ? 2 : 1));
    const double cells[2] = {0.25, 0.125};

    // every run at once where the backend allows: each room on each grid
    // first (the four-door room's 1000 persons take longest: started last,
    // one thread ran it alone), then the turned room at every angle with
    // every seed
    const int turnedRuns = static_cast<int>(angles.size() * seeds.size());
    const int halvedRuns = 2 * static_cast<int>(rooms.size());
    const std::vector<EvacuationRun> runs = mapRuns<EvacuationRun>(ex, halvedRuns + turnedRuns, [&](const Exec& runEx, int k) {
        if (k >= halvedRuns)
            return turnedRoomRun(runEx, angles[(k - halvedRuns) / seeds.size()], seeds[(k - halvedRuns) % seeds.size()]);
        const Room& room = rooms[k / 2];
        const double cell = cells[k % 2];
        EvacuationRun e;
        e.label = std::string(room.name) + ", " + formatValue(cell, 3, "m") + " cells";
        Simulation sim(validationScene(parseScene(room.scene(cell), halvedRoomName(room.file, cell))), runEx);
        evacuate(sim, false, e);
        return e;
    });

    // the turned room: every angle with every seed
    r.angles = angles;
    for (std::size_t a = 0; a < angles.size(); ++a) {
        double sum = 0.0;
        int done = 0;
        for (std::size_t k = 0; k < seeds.size(); ++k) {
            const EvacuationRun& e = runs[halvedRuns + a * seeds.size() + k];
            r.scenes.push_back(SceneUse{turnedRoomName(angles[a], seeds[k]), "", turnedRoomScene(angles[a], seeds[k])});
            checkEveryoneLeft(r, e);
            // where a body overlapped, to find why
            const std::string where = e.min_clearance < -kBodyTolerance
                                          ? " (agent " + std::to_string(e.worst_id) + " at (" + formatValue(e.worst_x, 3) + ", " +
                                                formatValue(e.worst_y, 3) + ") m, t = " + formatValue(e.worst_time, 2, "s") + ")"
                                          : "";
            r.check("no body inside a wall polygon, " + e.label,
                    formatValue(e.min_clearance, 5, "m") + " smallest clearance" + where,
                    ">= -" + formatValue(kBodyTolerance, 4, "m"), e.min_clearance >= -kBodyTolerance);
            if (e.time >= 0.0) { sum += e.time; ++done; }
            r.turned.push_back(e);
        }
        r.mean_times.push_back(done == static_cast<int>(seeds.size()) && done > 0 ? sum / done : -1.0);
    }
    if (!r.mean_times.empty()) {
        const auto [lo, hi] = std::minmax_element(r.mean_times.begin(), r.mean_times.end());
        const bool all = *lo > 0.0;
        const double spread = all ? *hi / *lo - 1.0 : 1.0;
        r.check("spread of the mean evacuation time over the angles",
                all ? formatValue(100.0 * spread, 1, "%") : std::string("not everyone left"),
                "<= " + formatValue(100.0 * kAngleSpread, 0, "%"), all && spread <= kAngleSpread);
    }

    // halving the cell size: the evacuation time on both grids
    for (std::size_t m = 0; m < rooms.size(); ++m) {
        const EvacuationRun* e = &runs[2 * m];
        for (int c = 0; c < 2; ++c) {
            r.scenes.push_back(SceneUse{halvedRoomName(rooms[m].file, cells[c]), "", rooms[m].scene(cells[c])});
            checkEveryoneLeft(r, e[c]);
            r.halved.push_back(e[c]);
        }
        const double change = e[0].time > 0.0 && e[1].time > 0.0 ? e[1].time / e[0].time - 1.0 : 1.0;
        r.check(std::string("evacuation time, ") + rooms[m].name + ", 0.125 m against 0.250 m cells",
                formatValue(100.0 * change, 1, "%"), "within +-5%", std::fabs(change) <= kHalvingTolerance);
    }
    r.wall_seconds = clock.seconds();
    return r;
}

}  // namespace ccrowd::validate
