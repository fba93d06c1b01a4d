/// @file parse_active_region.cpp
/// The active region in scene JSON (seed 002 §4.2.3-4.2.4):
/// "active_region" {size, follow | focus, spawn [{group, density, sides,
/// rate, start, end}]}, checked here: keys, types, ranges, a followed
/// incident that exists, focus times in order and points inside the
/// domain, spawns naming existing groups. Its goals (kRegionGoalNames) are
/// added to the scene at the region's place at time 0.

#include <cmath>
#include <limits>

#include "ccrowd/scene.hpp"
#include "parse_shapes.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

namespace {

bool insideDomain(const Scene& s, Vec2 p) {
    return p.x >= s.origin.x && p.x <= s.origin.x + s.width && p.y >= s.origin.y && p.y <= s.origin.y + s.height;
}

FocusPoint parseFocusPoint(const Node& n, const Scene& s) {
    const char* allowed = "[time [s], x [m], y [m]] with the point inside the domain";
    n.array(3, 3, allowed);
    FocusPoint f;
    f.time = n.at(0).number(closed(0, 1e9, "s"));
    f.position = {n.at(1).numberF(closed(-1e7, 1e7, "m")), n.at(2).numberF(closed(-1e7, 1e7, "m"))};
    if (!insideDomain(s, f.position)) n.fail("a point outside the domain", allowed);
    return f;
}

std::uint8_t parseSides(const Node& n) {
    const char* allowed = "a list of 1 to 4 of \"west\", \"east\", \"south\", \"north\"";
    const std::size_t k = n.array(1, 4, allowed);
    std::uint8_t bits = 0;
    for (std::size_t i = 0; i < k; ++i) {
        const std::string side = n.at(i).string();
        if (side == "west") bits |= kRegionWest;
        else if (side == "east") bits |= kRegionEast;
        else if (side == "south") bits |= kRegionSouth;
        else if (side == "north") bits |= kRegionNorth;
        else n.at(i).fail("unknown side", allowed);
    }
    return bits;
}

RegionSpawnSpec parseRegionSpawn(const Node& n, const Scene& s, double followStart) {
    n.object({"group", "density", "sides", "rate", "start", "end"});
    RegionSpawnSpec sp;
    const Node group = n.get("group", "a group's name");
    sp.group = group.string();
    bool known = false;
    std::string names;
    for (const GroupSpec& g : s.groups) {
        known = known || g.name == sp.group;
        names += (names.empty() ? "" : ", ") + g.name;
    }
    if (!known) group.fail("unknown group", "one of the group names: " + names);
    sp.density = n.get("density", "a number > 0 and <= 10 [1/m^2]").numberF(openClosed(0, 10, "1/m^2"));
    if (n.has("sides")) sp.sides = parseSides(n.get("sides", ""));
    if (n.has("rate")) sp.rate = n.get("rate", "").numberF(openClosed(0, 1e5, "persons/s"));
    if (n.has("start")) sp.start = n.get("start", "").number(closed(0, 1e9, "s"));
    sp.end = followStart;
    if (n.has("end")) {
        const Node end = n.get("end", "");
        sp.end = end.number(closed(0, 1e9, "s"));
        if (!(sp.end > sp.start)) end.fail("not after \"start\"", "a time > start [s]");
    }
    return sp;
}

}  // namespace

void parseActiveRegion(const Node& n, Scene& s) {
    n.object({"size", "follow", "focus", "spawn"});
    ActiveRegionSpec& r = s.active_region;
    // the size: at least 3 cells, at most the domain
    const Node size = n.get("size", "[width, height] [m]");
    const std::string sizeAllowed = "[width, height] each >= 3 cells (" + formatNumber(3 * s.cell) +
                                    " m) and <= the domain's (" + formatNumber(s.width) + ", " + formatNumber(s.height) + ") [m]";
    size.array(2, 2, sizeAllowed);
    const float w = size.at(0).numberF(closed(0, 1e7, "m")), h = size.at(1).numberF(closed(0, 1e7, "m"));
    if (w < 3 * s.cell * 0.999f || h < 3 * s.cell * 0.999f || w > s.width * 1.0001f || h > s.height * 1.0001f)
        size.fail("out of range", sizeAllowed);
    r.size = {w, h};
    // the centre: an incident, or a focus moving in time
    const char* where = "either \"follow\" (an incident's name) or \"focus\" ([[time, x, y], ...])";
    if (n.has("follow") == n.has("focus")) n.fail(n.has("follow") ? "both \"follow\" and \"focus\"" : "no centre", where);
    double followStart = std::numeric_limits<double>::infinity();
    if (n.has("follow")) {
        const Node f = n.get("follow", "");
        r.follow = f.string();
        std::string names;
        bool known = false;
        for (const IncidentSpec& in : s.incidents) {
            if (in.name == r.follow) { known = true; followStart = in.start; }
            names += (names.empty() ? "" : ", ") + in.name;
        }
        if (!known) f.fail("unknown incident", names.empty() ? "the name of an item of \"incidents\" (the scene has none)" : "one of the incidents: " + names);
    } else {
        const Node f = n.get("focus", "");
        const std::size_t k = f.array(1, 10000, "[time, x, y] points");
        for (std::size_t i = 0; i < k; ++i) {
            r.focus.push_back(parseFocusPoint(f.at(i), s));
            if (i > 0 && !(r.focus[i].time > r.focus[i - 1].time))
                f.at(i).fail("a time not after the previous point's", "times increasing along the list [s]");
        }
    }
    // who enters at the border
    if (n.has("spawn")) {
        const Node list = n.get("spawn", "");
        const std::size_t k = list.array(0, 64, "spawns {\"group\", \"density\", \"sides\", \"rate\", \"start\", \"end\"}");
        for (std::size_t i = 0; i < k; ++i) r.spawn.push_back(parseRegionSpawn(list.at(i), s, followStart));
    }
    // its goals, where it is at time 0
    for (const char* name : kRegionGoalNames)
        for (const GoalSpec& g : s.goals)
            if (g.name == name)
                n.fail(std::string("the goal name '") + name + "' is taken by a goal of the scene",
                       "a scene whose goals are not named region_border, region_west, region_east, region_south or region_north");
    const RegionCells cells = activeRegionCells(s, 0.0);
    for (int side = 0; side < 5; ++side) {
        GoalSpec g;
        g.name = kRegionGoalNames[side];
        g.areas = regionGoalAreas(s, cells, side);
        s.goals.push_back(std::move(g));
    }
}

}  // namespace ccrowd::scene_detail
