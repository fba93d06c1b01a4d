/// @file events_stage.cpp
#include "sim/events_stage.hpp"

#include <algorithm>
#include <deque>
#include <future>

#include "ccrowd/error.hpp"
#include "kernels/stages.hpp"
#include "sim/sim_state.hpp"

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

/// The barriers' closed states.
std::vector<bool> barrierStates(const Scene& scene) {
    std::vector<bool> closed;
    for (const BarrierSpec& b : scene.barriers) closed.push_back(b.closed);
    return closed;
}

/// Applies @p e to the scene; true when it changed a barrier.
bool apply(const EventSpec& e, Scene& scene) {
    if (e.action == EventAction::SetDiscomfort) {
        for (DiscomfortSpec& d : scene.discomfort)
            if (d.name == e.target) d.value = e.value;
        return false;
    }
    bool changed = false;
    for (BarrierSpec& b : scene.barriers)
        if (b.name == e.target && b.closed != (e.action == EventAction::Close)) { b.closed = !b.closed; changed = true; }
    return changed;
}

/// Starts rasterising, on another thread, the environment after the next
/// time at which events change the walls (when none is pending): the
/// timeline is known, so the event's step only swaps the grid in.
void rasterizeAhead(SimState& s) {
    if (s.pendingEnvironment.grid.valid()) return;
    const std::vector<EventSpec>& events = s.scene.events;
    const bool wallsAhead = std::any_of(events.begin() + static_cast<std::ptrdiff_t>(s.nextEvent), events.end(),
                                        [](const EventSpec& e) { return e.action != EventAction::SetDiscomfort; });
    if (!wallsAhead) return;  // (no copy of the scene per step once the doors are done)
    Scene next = s.scene;
    const std::vector<bool> now = barrierStates(s.scene);
    for (std::size_t k = s.nextEvent; k < events.size(); ++k) {
        // every event up to the end of the time at which the walls first differ
        apply(events[k], next);
        const bool lastAtItsTime = k + 1 == events.size() || events[k + 1].time > events[k].time;
        if (lastAtItsTime && barrierStates(next) != now) {
            s.pendingEnvironment.closed = barrierStates(next);
            s.pendingEnvironment.grid = std::async(std::launch::async, [scene = std::move(next)] { return rasterizeEnvironment(scene); });
            return;
        }
    }
}

/// The walls changed: the environment's layers again (rasterised ahead when
/// the timeline foresaw this state), on the backend's side.
void applyWalls(SimState& s) {
    SceneGrid grid;
    SimState::PendingEnvironment& pending = s.pendingEnvironment;
    if (pending.grid.valid() && pending.closed == barrierStates(s.scene)) grid = pending.grid.get();
    else {
        if (pending.grid.valid()) pending.grid.get();  // a state the timeline did not lead to: drop it
        grid = rasterizeEnvironment(s.scene);
    }
    // the discomfort of now (events at this time may have set it after the walls were foreseen)
    rasterizeDiscomfort(s.scene, grid.discomfort);
    grid.group_count = std::move(s.grid.group_count);  // the initial placement's, kept
    s.grid = std::move(grid);
    s.uploadEnvironment();
    const Exec& ex = s.ex;
    // each field's sources: its goal's open cells now
    for (std::size_t k = 0; k < s.problems.size(); ++k) {
        const int goal = s.fields.routeGoal[static_cast<std::size_t>(s.fields.group[k])][static_cast<std::size_t>(s.fields.step[k])];
        setGoalSources(s.scene, s.grid, goal, s.problems[k]);
    }
    // nobody stays inside a closed barrier
    Field<int> nearest = nearestOpenCells(s.grid);
    nearest.toDevice(ex);
    pushOutOfBlocked(ex, s.agents.views(), s.gi, s.grid.blocked.view(ex), nearest.view(ex));
    s.agents.changed();
}

void runEvents(SimState& s) {
    // every event whose time has come, in order
    bool walls = false, discomfort = false;
    const std::vector<EventSpec>& events = s.scene.events;
    while (s.nextEvent < events.size() && events[s.nextEvent].time <= s.time + 1e-9) {
        const EventSpec& e = events[s.nextEvent++];
        walls = apply(e, s.scene) || walls;
        discomfort = discomfort || e.action == EventAction::SetDiscomfort;
    }
    // the layers they change, and fields from scratch on the whole grid this step
    if (walls) applyWalls(s);
    else if (discomfort) {
        rasterizeDiscomfort(s.scene, s.grid.discomfort);
        s.grid.discomfort.toDevice(s.ex);
    }
    if (walls || discomfort) s.environmentChanged = true;
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
        throw InputError(fieldMessage("event", "'" + e.target + "'", "the scene has no barriers or named discomfort regions",
                                      "a scene with \"barriers\" or named \"discomfort\" regions"));
    if (!(e.time >= s.time - 1e-9))
        throw InputError(fieldMessage("event time", std::to_string(e.time), "before the simulation's time",
                                      ">= " + std::to_string(s.time) + " s"));
    // after everything applied and everything of its time: the file's order rule
    std::vector<EventSpec>& events = s.scene.events;
    auto at = std::upper_bound(events.begin() + static_cast<std::ptrdiff_t>(s.nextEvent), events.end(), e.time,
                               [](double t, const EventSpec& x) { return t < x.time; });
    events.insert(at, e);
}

Stage eventsStage() {
    return {"events", StagePhase::Fields, {"agents.position"}, {"walls", "discomfort", "goals", "agents.position"}, runEvents};
}

}  // namespace ccrowd::sim
