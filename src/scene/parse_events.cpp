/// @file parse_events.cpp
/// The environment's timeline in scene JSON: "barriers" (named obstacles
/// that open and close) and "events" (time, action, target, value), checked
/// here: keys, types, ranges, known actions, targets that exist, values
/// only where the action takes one. Sorted by time, ties in file order.

#include <algorithm>
#include <map>

#include "ccrowd/scene.hpp"
#include "parse_shapes.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

namespace {

constexpr const char* kActions = "\"open\", \"close\" (a barrier), \"set_discomfort\" (a named discomfort region)";

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
    n.object({"time", "action", "target", "value"});
    EventSpec e;
    e.time = n.get("time", "a number of seconds >= 0").number(closed(0, 1e9, "s"));
    const Node action = n.get("action", kActions);
    const std::string a = action.string();
    if (a == "open") e.action = EventAction::Open;
    else if (a == "close") e.action = EventAction::Close;
    else if (a == "set_discomfort") e.action = EventAction::SetDiscomfort;
    else action.fail("unknown action", kActions);
    // the target exists: a barrier, or a named discomfort region
    const Node target = n.get("target", e.action == EventAction::SetDiscomfort ? "a discomfort region's name"
                                                                                : "a barrier's name");
    e.target = target.string();
    std::string names;
    bool found = false;
    if (e.action == EventAction::SetDiscomfort) {
        for (const DiscomfortSpec& d : s.discomfort) {
            if (d.name.empty()) continue;
            found = found || d.name == e.target;
            names += (names.empty() ? "" : ", ") + d.name;
        }
        if (!found) target.fail("no discomfort region of that name", names.empty() ? "a named discomfort region (none has a name)" : "one of: " + names);
        e.value = n.get("value", "the region's new discomfort g, 0 .. 1e6").numberF(closed(0, 1e6));
    } else {
        for (const BarrierSpec& b : s.barriers) {
            found = found || b.name == e.target;
            names += (names.empty() ? "" : ", ") + b.name;
        }
        if (!found) target.fail("no barrier of that name", names.empty() ? "a barrier's name (the scene has no \"barriers\")" : "one of: " + names);
        if (n.has("value")) n.get("value", "").fail("open and close take no value", "no \"value\" key");
    }
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
