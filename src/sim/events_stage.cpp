/// @file events_stage.cpp
#include "sim/events_stage.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <future>

#include "ccrowd/error.hpp"
#include "kernels/stages.hpp"
#include "sim/incidents_stage.hpp"
#include "sim/sim_state.hpp"
#include "sim/timeline.hpp"

namespace ccrowd::sim {

namespace {

/// Per cell, the nearest open cell by 4-neighbour steps (itself when open;
/// -1 when the grid has none): a breadth-first search from every open cell,
/// neighbours in a fixed order, so the result does not depend on threads.
Field<int> nearestOpenCells(const SceneGrid& grid) {
    const int nx = grid.nx, ny = grid.ny;
    Field<int> nearest(nx, ny, -1);
    std::deque<int> queue;
    const std::uint8_t* blocked = grid.blocked.host();
    for (int c = 0; c < nx * ny; ++c)
        if (!blocked[c]) { nearest.host()[c] = c; queue.push_back(c); }
    while (!queue.empty()) {
        const int c = queue.front();
        queue.pop_front();
        const int i = c % nx, j = c / nx;
        const int nb[4][2] = {{i + 1, j}, {i - 1, j}, {i, j + 1}, {i, j - 1}};
        for (const auto& n : nb) {
            if (n[0] < 0 || n[1] < 0 || n[0] >= nx || n[1] >= ny) continue;
            const int d = n[0] + n[1] * nx;
            if (nearest.host()[d] >= 0) continue;
            nearest.host()[d] = nearest.host()[c];
            queue.push_back(d);
        }
    }
    return nearest;
}

/// Motions move their targets in steps of a quarter cell.
float motionQuantum(const SimState& s) { return 0.25f * s.grid.h; }

/// Starts rasterising, on another thread, the environment at the next step
/// time at which the walls differ (when none is pending): the timeline is
/// known, so that step only swaps the grid in.
void rasterizeAhead(SimState& s) {
    if (s.pendingEnvironment.grid.valid() || !wallsMayChange(s.scene, s.timeline)) return;
    Scene next = s.scene;
    Timeline tl = s.timeline;
    // the step times to come, as the clock adds them, until the walls change or nothing more can change them
    const double dt = s.scene.params.dt;
    double t = s.time;
    for (int k = 0; k < 100000 && wallsMayChange(next, tl); ++k) {
        // nothing moving: on to the step before the next event (a far event costs no loop per step)
        if (tl.motions.empty() && tl.next < next.events.size()) {
            const double skip = std::floor((next.events[tl.next].time - t) / dt) - 1.0;
            if (skip > 0.0) t += skip * dt;
        }
        t += dt;
        if (!advanceTimeline(next, tl, t, motionQuantum(s)).walls) continue;
        s.pendingEnvironment.key = environmentKey(next);
        s.pendingEnvironment.grid = std::async(std::launch::async, [scene = std::move(next), threads = s.ex.threads] {
            return rasterizeEnvironment(scene, threads);
        });
        return;
    }
}

/// The walls or goals changed: the environment's layers again (rasterised
/// ahead when the timeline foresaw this state), on the backend's side.
void applyWalls(SimState& s) {
    SceneGrid grid;
    SimState::PendingEnvironment& pending = s.pendingEnvironment;
    if (pending.grid.valid() && pending.key == environmentKey(s.scene)) {
        grid = pending.grid.get();
        // the discomfort of now (events at this time may have set it after the walls were foreseen)
        rasterizeDiscomfort(s.scene, grid);
    } else {
        if (pending.grid.valid()) pending.grid.get();  // a state the timeline did not lead to: drop it
        grid = rasterizeEnvironment(s.scene, s.ex.threads);
    }
    grid.group_count = std::move(s.grid.group_count);  // the initial placement's, kept
    s.grid = std::move(grid);
    s.uploadEnvironment();
    ++s.wallsVersion;
    const Exec& ex = s.ex;
    // each field's sources, and where agents leave: its goal's open, enabled cells now
    for (std::size_t k = 0; k < s.problems.size(); ++k) setGoalSources(s.scene, s.grid, s.fields.goal[k], s.problems[k]);
    s.agents.setGoalCells(s.scene, s.grid);
    // nobody stays inside a closed barrier
    Field<int> nearest = nearestOpenCells(s.grid);
    nearest.toDevice(ex);
    pushOutOfBlocked(ex, s.agents.views(), s.gi, s.grid.blocked.view(ex), nearest.view(ex));
    s.agents.changed();
}

/// Group @p g's route changed: the fields of its new route (new ones when
/// it never had it), and its agents at the new route's first step.
void changeRoute(SimState& s, int g) {
    const GroupSpec& group = s.scene.groups[static_cast<std::size_t>(g)];
    const int first = s.fields.addRoute(g, routeGoals(s.scene, group.route, "set_route of group '" + group.name + "'"));
    s.addFields();
    setupIncidentFields(s, first);
    s.agents.setTable(s.fields, s.scene);
    const int to = s.fields.fieldOf[static_cast<std::size_t>(g)][0];
    s.agents.reassignFields([&](int field, int, float, float) { return s.fields.group[static_cast<std::size_t>(field)] == g ? to : field; },
                            s.splatWs.sort);
}

void runEvents(SimState& s) {
    // every event whose time has come, in order, and the motions to now
    const TimelineChange c = advanceTimeline(s.scene, s.timeline, s.time, motionQuantum(s));
    // the layers they change, and fields from scratch on the whole grid this step
    if (c.walls) applyWalls(s);
    else if (c.discomfort) {
        rasterizeDiscomfort(s.scene, s.grid);
        s.grid.discomfort.toDevice(s.ex);
    }
    for (int g : c.routes) changeRoute(s, g);
    if (!c.incidents.empty()) incidentsStartedEarly(s);
    if (c.panic) ++s.groupsVersion;
    if (c.fields()) s.environmentChanged = true;
    // the next change of walls, ahead
    rasterizeAhead(s);
}

}  // namespace

bool hasTimeline(const Scene& scene) {
    if (!scene.events.empty() || !scene.barriers.empty()) return true;
    for (const DiscomfortSpec& d : scene.discomfort)
        if (!d.name.empty()) return true;
    return false;
}

void addEvent(SimState& s, const EventSpec& e) {
    if (!hasTimeline(s.scene))
        throw InputError(fieldMessage("event", "'" + e.target + "'", "the scene has no timeline",
                                      "a scene with \"events\", \"barriers\" or named \"discomfort\" regions"));
    if (!(e.time >= s.time - 1e-9))
        throw InputError(fieldMessage("event time", std::to_string(e.time), "before the simulation's time",
                                      ">= " + std::to_string(s.time) + " s"));
    // after everything applied and everything of its time: the file's order rule
    std::vector<EventSpec>& events = s.scene.events;
    auto at = std::upper_bound(events.begin() + static_cast<std::ptrdiff_t>(s.timeline.next), events.end(), e.time,
                               [](double t, const EventSpec& x) { return t < x.time; });
    events.insert(at, e);
}

Stage eventsStage() {
    return {"events", StagePhase::Fields, {"agents.position"}, {"walls", "discomfort", "goals", "agents.position", "agents.field"}, runEvents};
}

}  // namespace ccrowd::sim
