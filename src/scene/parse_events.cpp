/// @file parse_events.cpp
/// The environment's timeline in scene JSON: "barriers" (named obstacles
/// that open, close and move) and "events" (time, action, target and the
/// action's own keys: value, path, speed, distance, area, route), checked
/// here: keys, types, ranges, known actions, targets that exist, each key
/// only where the action takes it. Sorted by time, ties in file order.

#include <algorithm>
#include <map>

#include "ccrowd/scene.hpp"
#include "parse_shapes.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

namespace {

constexpr const char* kActions =
    "\"open\", \"close\", \"move\" (a barrier), \"set_discomfort\", \"move_discomfort\", \"grow_discomfort\" (a named "
    "discomfort region), \"enable_goal\", \"disable_goal\" (a goal), \"set_route\", \"set_panic\" (a group), \"start_incident\" (an incident)";

/// The action's name in the file, its enum and what its target is.
struct ActionInfo {
    const char* name;
    EventAction action;
    const char* targetKind;
};
constexpr ActionInfo kActionTable[] = {
    {"open", EventAction::Open, "barrier"},
    {"close", EventAction::Close, "barrier"},
    {"move", EventAction::Move, "barrier"},
    {"set_discomfort", EventAction::SetDiscomfort, "discomfort region"},
    {"move_discomfort", EventAction::MoveDiscomfort, "discomfort region"},
    {"grow_discomfort", EventAction::GrowDiscomfort, "discomfort region"},
    {"enable_goal", EventAction::EnableGoal, "goal"},
    {"disable_goal", EventAction::DisableGoal, "goal"},
    {"set_route", EventAction::SetRoute, "group"},
    {"start_incident", EventAction::StartIncident, "incident"},
    {"set_panic", EventAction::SetPanic, "group"},
};

/// The names an event of @p kind may target in @p s, in file order.
std::vector<std::string> targetNames(const std::string& kind, const Scene& s) {
    std::vector<std::string> names;
    auto add = [&](const std::string& n) {
        if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    };
    if (kind == "barrier") for (const BarrierSpec& b : s.barriers) add(b.name);
    if (kind == "discomfort region") for (const DiscomfortSpec& d : s.discomfort) add(d.name);
    if (kind == "goal") for (const GoalSpec& g : s.goals) add(g.name);
    if (kind == "group") for (const GroupSpec& g : s.groups) add(g.name);
    if (kind == "incident") for (const IncidentSpec& in : s.incidents) add(in.name);
    return names;
}

/// A point inside the scene's domain.
Vec2 pointInDomain(const Node& n, const Scene& s) {
    const Vec2 p = parsePoint(n);
    if (!(p.x >= s.origin.x && p.x <= s.origin.x + s.width && p.y >= s.origin.y && p.y <= s.origin.y + s.height))
        n.fail("outside the domain", "a point [x, y] inside the domain [m]");
    return p;
}

/// Fails on @p key when the event has it though its action takes none.
void noKey(const Node& n, const char* key, const char* action) {
    if (n.has(key)) n.get(key, "").fail(std::string(action) + " takes no \"" + key + "\"", std::string("no \"") + key + "\" key");
}

}  // namespace

BarrierSpec parseBarrier(const Node& n) {
    n.object({"name", "area", "closed"});
    BarrierSpec b;
    b.name = n.get("name", "a non-empty string (at most 256 bytes)").string();
    b.area = parsePolygon(n.get("area", kPolygonAllowed));
    if (n.has("closed")) b.closed = n.get("closed", "true or false").boolean();
    return b;
}

EventSpec parseEvent(const Node& n, const Scene& s) {
    n.object({"time", "action", "target", "value", "path", "speed", "distance", "area", "route"});
    EventSpec e;
    e.time = n.get("time", "a number of seconds >= 0").number(closed(0, 1e9, "s"));
    const Node action = n.get("action", kActions);
    const std::string a = action.string();
    const ActionInfo* info = nullptr;
    for (const ActionInfo& x : kActionTable)
        if (a == x.name) info = &x;
    if (!info) action.fail("unknown action", kActions);
    e.action = info->action;
    // the target exists
    const std::string kind = info->targetKind;
    const Node target = n.get("target", "a " + kind + "'s name");
    e.target = target.string();
    const std::vector<std::string> names = targetNames(kind, s);
    if (std::find(names.begin(), names.end(), e.target) == names.end()) {
        std::string list;
        for (const std::string& x : names) list += (list.empty() ? "" : ", ") + x;
        target.fail("no " + kind + " of that name",
                    list.empty() ? "a named " + kind + " (the scene has none)" : "one of: " + list);
    }
    // the keys the action takes, and no others
    const bool moves = e.action == EventAction::Move || e.action == EventAction::MoveDiscomfort;
    const bool grows = e.action == EventAction::GrowDiscomfort;
    const bool goal = e.action == EventAction::EnableGoal || e.action == EventAction::DisableGoal;
    if (e.action == EventAction::SetDiscomfort) e.value = n.get("value", "the region's new discomfort g, 0 .. 1e6").numberF(closed(0, 1e6));
    else if (e.action == EventAction::SetPanic) e.value = n.get("value", "the group's new panic p, 0 .. 1").numberF(closed(0, 1));
    else noKey(n, "value", info->name);
    if (moves) {
        const Node path = n.get("path", "a list of 1 to 10000 points [x, y] inside the domain [m]");
        const std::size_t np = path.array(1, 10000, "points [x, y] inside the domain [m]");
        for (std::size_t k = 0; k < np; ++k) e.path.push_back(pointInDomain(path.at(k), s));
    } else noKey(n, "path", info->name);
    if (moves || grows) e.speed = n.get("speed", "a speed > 0 and <= 1000 [m/s]").numberF(openClosed(0, 1e3, "m/s"));
    else noKey(n, "speed", info->name);
    if (grows) {
        if (n.has("distance")) e.distance = n.get("distance", "").numberF(openClosed(0, 1e6, "m"));
    } else noKey(n, "distance", info->name);
    if (goal) {
        const GoalSpec& g = *std::find_if(s.goals.begin(), s.goals.end(), [&](const GoalSpec& x) { return x.name == e.target; });
        if (n.has("area"))
            e.area = static_cast<int>(n.get("area", "").integer(0, static_cast<long long>(g.areas.size()) - 1,
                                                                  "0 .. " + std::to_string(g.areas.size() - 1) + " (an index into the goal's areas)"));
    } else noKey(n, "area", info->name);
    if (e.action == EventAction::SetRoute) {
        const auto roams = std::find_if(s.groups.begin(), s.groups.end(), [&](const GroupSpec& g) { return g.name == e.target; });
        if (roams != s.groups.end() && roams->route_choice.enabled())
            n.get("target", "").fail("group '" + e.target + "' roams the street network (route_choice)", "a group with a route");
        const Node route = n.get("route", "a list of 1 or more goal names");
        const std::size_t nr = route.array(1, 256, "goal names");
        const std::vector<std::string> goals = targetNames("goal", s);
        for (std::size_t k = 0; k < nr; ++k) {
            const Node item = route.at(k);
            e.route.push_back(item.string());
            if (std::find(goals.begin(), goals.end(), e.route.back()) == goals.end()) {
                std::string list;
                for (const std::string& x : goals) list += (list.empty() ? "" : ", ") + x;
                item.fail("no goal of that name", "one of: " + list);
            }
        }
    } else noKey(n, "route", info->name);
    return e;
}

void sortEvents(std::vector<EventSpec>& events) {
    std::stable_sort(events.begin(), events.end(), [](const EventSpec& a, const EventSpec& b) { return a.time < b.time; });
}

}  // namespace ccrowd::scene_detail

namespace ccrowd {

EventSpec parseEvent(const std::string& text, const Scene& scene, const std::string& label) {
    const scene_detail::json doc = scene_detail::parseJsonText(text, label);
    return scene_detail::parseEvent(scene_detail::Node(doc, "", label), scene);
}

}  // namespace ccrowd
