/// @file parse_incidents.cpp
/// Incidents in scene JSON (seed 002 §4.3): "incidents" {name, position,
/// radius, start, offset, weight, switch [{from, to, fraction, within}]},
/// checked here: keys, types, ranges, a centre inside the domain, switch
/// rules between two different existing groups. Also the escape groups
/// without a route: their goal, the domain's border, added as a goal.

#include <cmath>
#include <limits>

#include "ccrowd/scene.hpp"
#include "parse_shapes.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

namespace {

/// The existing group named by @p n's string, else a failure listing them.
std::string groupName(const Node& n, const Scene& s) {
    const std::string name = n.string();
    std::string names;
    for (const GroupSpec& g : s.groups) {
        if (g.name == name) return name;
        names += (names.empty() ? "" : ", ") + g.name;
    }
    n.fail("unknown group", "one of the group names: " + names);
    return name;
}

SwitchRule parseSwitch(const Node& n, const Scene& s) {
    n.object({"from", "to", "fraction", "within"});
    SwitchRule r;
    r.from = groupName(n.get("from", "a group's name"), s);
    const Node to = n.get("to", "a group's name");
    r.to = groupName(to, s);
    if (r.to == r.from) to.fail("the same group as \"from\"", "another group");
    if (n.has("fraction")) r.fraction = n.get("fraction", "").numberF(closed(0, 1));
    if (n.has("within")) r.within = n.get("within", "").numberF(openClosed(0, 1e6, "m"));
    return r;
}

}  // namespace

IncidentSpec parseIncident(const Node& n, const Scene& s) {
    n.object({"name", "position", "radius", "start", "offset", "weight", "switch"});
    IncidentSpec in;
    in.name = n.get("name", "a non-empty string (at most 256 bytes)").string();
    const Node pos = n.get("position", "[x, y] inside the domain [m]");
    in.position = parsePoint(pos);
    if (!(in.position.x >= s.origin.x && in.position.x <= s.origin.x + s.width && in.position.y >= s.origin.y &&
          in.position.y <= s.origin.y + s.height))
        pos.fail("outside the domain", "a point inside the domain [m]");
    if (n.has("radius")) in.radius = n.get("radius", "").numberF(openClosed(0, 1e4, "m"));
    if (n.has("start")) in.start = n.get("start", "").number(closed(0, 1e9, "s"));
    if (n.has("offset")) in.offset = n.get("offset", "").numberF(closed(-1e6, 1e6, "s"));
    if (n.has("weight")) in.weight = n.get("weight", "").numberF(closed(1, 1000));
    if (n.has("switch")) {
        const Node list = n.get("switch", "");
        const std::size_t k = list.array(0, 64, "switch rules {\"from\", \"to\", \"fraction\", \"within\"}");
        for (std::size_t r = 0; r < k; ++r) in.switches.push_back(parseSwitch(list.at(r), s));
    }
    return in;
}

void addBorderGoal(Scene& s) {
    // escape groups without a route run for the domain's open border (seed 002: the active grid's navigable border cells)
    bool needed = false;
    for (const GroupSpec& g : s.groups) needed = needed || (g.behaviour == Behaviour::Escape && g.route.empty());
    if (!needed) return;
    // with an active region: its border, moving with it
    if (s.active_region.enabled()) {
        for (GroupSpec& g : s.groups)
            if (g.behaviour == Behaviour::Escape && g.route.empty()) g.route = {kRegionGoalNames[0]};
        return;
    }
    const std::string name = freeGoalName(s, "border");
    // a strip one cell wide inside each side of the domain
    const float x0 = s.origin.x, y0 = s.origin.y, x1 = x0 + s.width, y1 = y0 + s.height, w = s.cell;
    auto box = [](float a, float b, float c, float d) { return Polygon{{a, b}, {c, b}, {c, d}, {a, d}}; };
    GoalSpec border;
    border.name = name;
    border.areas = {box(x0, y0, x1, y0 + w), box(x0, y1 - w, x1, y1), box(x0, y0, x0 + w, y1), box(x1 - w, y0, x1, y1)};
    s.goals.push_back(border);
    for (GroupSpec& g : s.groups)
        if (g.behaviour == Behaviour::Escape && g.route.empty()) g.route = {name};
}

}  // namespace ccrowd::scene_detail

namespace ccrowd {

IncidentSpec parseIncident(const std::string& text, const Scene& scene, const std::string& label) {
    const scene_detail::json doc = scene_detail::parseJsonText(text, label);
    return scene_detail::parseIncident(scene_detail::Node(doc, "", label), scene);
}

}  // namespace ccrowd
