/// @file exit_spawn_stage.cpp
#include "sim/exit_spawn_stage.hpp"

#include "sim/sim_state.hpp"
#include "sim/premovement_stage.hpp"
#include "sim/social_stage.hpp"

namespace ccrowd::sim {

namespace {

void runExitSpawn(SimState& s) {
    s.time += s.scene.params.dt;
    ++s.steps;
    // agents inside their route goal: leave at an exit, else walk to the next goal
    leaveAndAdvance(s);
    // sources: new agents at their rate, never overlapping others (only agents near a source are read)
    auto nearby = [&](float x0, float y0, float x1, float y1, std::vector<float>& xs, std::vector<float>& ys) {
        s.agents.positionsIn(x0, y0, x1, y1, s.splatWs.sort, xs, ys);
    };
    addAgents(s, s.spawner.spawn(s.time, s.scene.params.dt, nearby, s.scene.params.d_min));
}

}  // namespace

void leaveAndAdvance(SimState& s) {
    const RegionCells& r = s.region.cells;
    for (const ExitEvent& e : s.agents.advanceRoutes(s.splatWs.sort)) {
        s.exits.push_back({e.id, e.group, s.time, e.x, e.y});
        GroupStats& gs = s.groups[static_cast<std::size_t>(e.group)];
        ++gs.exited;
        --gs.remaining;
        if (gs.first_exit < 0) gs.first_exit = s.time;
        gs.last_exit = s.time;
        // outside the active region (not at a goal)
        int i = 0, j = 0;
        clampedCellOf(s.gi, e.x, e.y, i, j);
        if (i < r.i0 || i >= r.i1 || j < r.j0 || j >= r.j1) ++gs.left_region;
    }
    // social units: who waits at a waypoint, who moved on
    if (s.agents.units() > 0) recordUnitWaits(s);
}

void addAgents(SimState& s, const std::vector<NewAgent>& born) {
    if (born.empty()) return;
    s.agents.append(born);
    s.agents.recordFields(s.splatWs.sort);
    for (const NewAgent& b : born) {
        GroupStats& g = s.groups[static_cast<std::size_t>(b.group)];
        ++g.spawned;
        ++g.remaining;
        // a source's person: its start counts from now
        if (s.scene.groups[static_cast<std::size_t>(b.group)].premovement.enabled()) recordPremovement(g, b.start - s.time);
    }
}

Stage exitSpawnStage() {
    return {"exit_spawn", StagePhase::Move, {"agents.position", "agents.field", "goals"},
            {"agents.table", "agents.field", "exits"}, runExitSpawn};
}

}  // namespace ccrowd::sim
