/// @file timeline.cpp
/// The scene's timeline (timeline.hpp): events applied in order, motions
/// moved along their paths or spread outward as time goes on.

#include "sim/timeline.hpp"

#include <algorithm>
#include <cmath>

namespace ccrowd::sim {

namespace {

/// Indices of the items named @p name.
template <class T>
std::vector<int> named(const std::vector<T>& items, const std::string& name) {
    std::vector<int> k;
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].name == name) k.push_back(static_cast<int>(i));
    return k;
}

/// Centre of the bounding box of @p polys.
Vec2 boxCentre(const std::vector<Polygon>& polys) {
    float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (const Polygon& p : polys)
        for (const Vec2& v : p) {
            x0 = std::min(x0, v.x); x1 = std::max(x1, v.x);
            y0 = std::min(y0, v.y); y1 = std::max(y1, v.y);
        }
    return {0.5f * (x0 + x1), 0.5f * (y0 + y1)};
}

/// The point @p d along the polyline @p path (clamped to its ends). [Units: m]
Vec2 along(const std::vector<Vec2>& path, double d) {
    for (std::size_t k = 1; k < path.size(); ++k) {
        const double dx = path[k].x - path[k - 1].x, dy = path[k].y - path[k - 1].y;
        const double len = std::sqrt(dx * dx + dy * dy);
        if (d <= len && len > 0) {
            const double f = d / len;
            return {static_cast<float>(path[k - 1].x + f * dx), static_cast<float>(path[k - 1].y + f * dy)};
        }
        d -= len;
    }
    return path.back();
}

/// The motion an event starts, from its targets as they are now.
Motion startMotion(const Scene& scene, const EventSpec& e) {
    Motion m;
    m.action = e.action;
    m.start = e.time;
    m.speed = e.speed;
    if (e.action == EventAction::Move) {
        m.items = named(scene.barriers, e.target);
        for (int k : m.items) m.from.push_back(scene.barriers[static_cast<std::size_t>(k)].area);
    } else {
        m.items = named(scene.discomfort, e.target);
        for (int k : m.items) {
            m.from.push_back(scene.discomfort[static_cast<std::size_t>(k)].area);
            m.spreadFrom.push_back(scene.discomfort[static_cast<std::size_t>(k)].spread);
        }
    }
    if (e.action == EventAction::GrowDiscomfort) {
        m.distance = e.distance;
        return m;
    }
    // move*: from the targets' centre through the event's points
    m.path.push_back(boxCentre(m.from));
    m.path.insert(m.path.end(), e.path.begin(), e.path.end());
    double len = 0;
    for (std::size_t k = 1; k < m.path.size(); ++k) len += std::hypot(m.path[k].x - m.path[k - 1].x, m.path[k].y - m.path[k - 1].y);
    m.distance = static_cast<float>(len);
    return m;
}

/// Moves @p m's targets to where it is after @p gone metres.
void place(Scene& scene, const Motion& m, float gone) {
    if (m.action == EventAction::GrowDiscomfort) {
        for (std::size_t k = 0; k < m.items.size(); ++k) scene.discomfort[static_cast<std::size_t>(m.items[k])].spread = m.spreadFrom[k] + gone;
        return;
    }
    const Vec2 at = along(m.path, gone);
    const float dx = at.x - m.path[0].x, dy = at.y - m.path[0].y;
    for (std::size_t k = 0; k < m.items.size(); ++k) {
        Polygon p = m.from[k];
        for (Vec2& v : p) { v.x += dx; v.y += dy; }
        Polygon& target = m.action == EventAction::Move ? scene.barriers[static_cast<std::size_t>(m.items[k])].area
                                                        : scene.discomfort[static_cast<std::size_t>(m.items[k])].area;
        target = std::move(p);
    }
}

/// Applies event @p e to @p scene and @p tl, recording what it changed.
void apply(const EventSpec& e, Scene& scene, Timeline& tl, TimelineChange& change) {
    switch (e.action) {
    case EventAction::Open:
    case EventAction::Close:
        for (BarrierSpec& b : scene.barriers)
            if (b.name == e.target && b.closed != (e.action == EventAction::Close)) {
                b.closed = !b.closed;
                change.walls = true;
            }
        return;
    case EventAction::SetDiscomfort:
        for (DiscomfortSpec& d : scene.discomfort)
            if (d.name == e.target) d.value = e.value;
        change.discomfort = true;
        return;
    case EventAction::Move:
    case EventAction::MoveDiscomfort:
    case EventAction::GrowDiscomfort: {
        // a new motion of the same kind replaces the one going on (where it is now)
        Motion m = startMotion(scene, e);
        tl.motions.erase(std::remove_if(tl.motions.begin(), tl.motions.end(),
                                        [&](const Motion& o) { return o.action == m.action && o.items == m.items; }),
                         tl.motions.end());
        tl.motions.push_back(std::move(m));
        return;
    }
    case EventAction::EnableGoal:
    case EventAction::DisableGoal:
        for (GoalSpec& g : scene.goals) {
            if (g.name != e.target) continue;
            g.disabled.resize(g.areas.size(), false);
            for (std::size_t k = 0; k < g.areas.size(); ++k) {
                if (e.area >= 0 && static_cast<int>(k) != e.area) continue;
                const bool off = e.action == EventAction::DisableGoal;
                change.walls = change.walls || g.disabled[k] != off;
                g.disabled[k] = off;
            }
        }
        return;
    case EventAction::SetRoute:
        for (int g : named(scene.groups, e.target)) {
            scene.groups[static_cast<std::size_t>(g)].route = e.route;
            change.routes.push_back(g);
        }
        return;
    case EventAction::SetPanic:
        for (int g : named(scene.groups, e.target)) scene.groups[static_cast<std::size_t>(g)].panic = e.value;
        change.panic = true;
        return;
    case EventAction::StartIncident:
        for (int k : named(scene.incidents, e.target)) {
            IncidentSpec& in = scene.incidents[static_cast<std::size_t>(k)];
            if (in.start > e.time) {
                in.start = e.time;
                change.incidents.push_back(k);
            }
        }
        return;
    }
}

}  // namespace

TimelineChange advanceTimeline(Scene& scene, Timeline& tl, double t, float quantum) {
    TimelineChange change;
    // every event whose time has come, in order
    while (tl.next < scene.events.size() && scene.events[tl.next].time <= t + 1e-9) apply(scene.events[tl.next++], scene, tl, change);
    // the motions to t: moved once they have gone a quantum further, or arrived
    for (Motion& m : tl.motions) {
        const float gone = static_cast<float>(std::min<double>(m.distance, m.speed * std::max(0.0, t - m.start)));
        if (!(gone - m.applied >= quantum || (gone >= m.distance && m.applied < m.distance))) continue;
        place(scene, m, gone);
        m.applied = gone;
        (m.action == EventAction::Move ? change.walls : change.discomfort) = true;
    }
    tl.motions.erase(std::remove_if(tl.motions.begin(), tl.motions.end(), [](const Motion& m) { return m.applied >= m.distance; }),
                     tl.motions.end());
    return change;
}

bool wallsMayChange(const Scene& scene, const Timeline& tl) {
    for (std::size_t k = tl.next; k < scene.events.size(); ++k) {
        const EventAction a = scene.events[k].action;
        if (a == EventAction::Open || a == EventAction::Close || a == EventAction::Move || a == EventAction::EnableGoal ||
            a == EventAction::DisableGoal)
            return true;
    }
    return std::any_of(tl.motions.begin(), tl.motions.end(), [](const Motion& m) { return m.action == EventAction::Move; });
}

std::vector<double> environmentKey(const Scene& scene) {
    std::vector<double> key;
    for (const BarrierSpec& b : scene.barriers) {
        key.push_back(b.closed ? 1.0 : 0.0);
        for (const Vec2& v : b.area) { key.push_back(v.x); key.push_back(v.y); }
    }
    for (const GoalSpec& g : scene.goals)
        for (std::size_t k = 0; k < g.areas.size(); ++k) key.push_back(k < g.disabled.size() && g.disabled[k] ? 1.0 : 0.0);
    return key;
}

}  // namespace ccrowd::sim
