/// @file active_region_stage.cpp
#include "sim/active_region_stage.hpp"

#include <algorithm>
#include <cmath>

#include "sim/exit_spawn_stage.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

/// How far in [m] a newcomer walks before the ring cell it was born on may leave the region.
constexpr float kSpawnLead = 2.f;

/// The region's goals and ring cells where it is now: the goals' areas in
/// the scene (so that events rasterising the environment again agree), their
/// open cells, and each side's open ring cells.
void moveGoals(SimState& s) {
    RegionState& R = s.region;
    const RegionCells& c = R.cells;
    const int nx = s.gi.nx;
    // each side's ring: a column or a row of the region, its open cells
    for (auto& side : R.sideCells) side.clear();
    for (int j = c.j0; j < c.j1; ++j) {
        if (!R.envBlocked(c.i0, j)) R.sideCells[0].push_back(c.i0 + j * nx);
        if (!R.envBlocked(c.i1 - 1, j)) R.sideCells[1].push_back(c.i1 - 1 + j * nx);
    }
    for (int i = c.i0; i < c.i1; ++i) {
        if (!R.envBlocked(i, c.j0)) R.sideCells[2].push_back(i + c.j0 * nx);
        if (!R.envBlocked(i, c.j1 - 1)) R.sideCells[3].push_back(i + (c.j1 - 1) * nx);
    }
    for (auto& side : R.sideCells) std::sort(side.begin(), side.end());
    // the goals: all four sides, then one per side
    std::vector<int> moved;
    for (int g = 0; g < 5; ++g) {
        const int k = R.goals[g];
        s.scene.goals[static_cast<std::size_t>(k)].areas = regionGoalAreas(s.scene, c, g);
        std::vector<int>& cells = s.grid.goal_cells[static_cast<std::size_t>(k)];
        cells.clear();
        for (int side = 0; side < 4; ++side)
            if (g == 0 || g == side + 1) cells.insert(cells.end(), R.sideCells[side].begin(), R.sideCells[side].end());
        std::sort(cells.begin(), cells.end());
        cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
        moved.push_back(k);
    }
    // the fields ending at them take their new cells as sources; agents leave there
    for (std::size_t f = 0; f < s.problems.size(); ++f)
        if (std::find(moved.begin(), moved.end(), s.fields.goal[f]) != moved.end())
            setGoalSources(s.scene, s.grid, s.fields.goal[f], s.problems[f]);
    s.agents.setGoalCells(s.scene, s.grid, moved);
}

/// Active grid (seed 002 §4.2.3): the region at this step's time; when it
/// moved or the walls changed, its mask, goals and leavers.
void runActiveRegion(SimState& s) {
    RegionState& R = s.region;
    const RegionCells c = activeRegionCells(s.scene, s.time);
    const bool walls = R.wallsVersion != s.wallsVersion;
    if (R.placed && c == R.cells && !walls) return;
    // the environment's blocked layer (events replaced it, or the first time)
    if (walls) {
        R.envBlocked = s.grid.blocked;
        R.wallsVersion = s.wallsVersion;
    }
    R.cells = c;
    R.placed = true;
    ++R.version;
    // closed outside: speeds, costs and potentials stop at the region's edge
    double open = 0.0;
    for (int j = 0; j < s.gi.ny; ++j)
        for (int i = 0; i < s.gi.nx; ++i) {
            const bool inside = i >= c.i0 && i < c.i1 && j >= c.j0 && j < c.j1;
            s.grid.blocked(i, j) = static_cast<std::uint8_t>(R.envBlocked(i, j) || !inside);
            if (inside) open += s.grid.open_fraction(i, j);
        }
    R.openArea = open * s.gi.h * s.gi.h;
    s.grid.blocked.toDevice(s.ex);
    moveGoals(s);
    // agents now outside leave; this step's fields afresh on the region's cells
    s.agents.setActiveCells(CellRange{c.i0, c.j0, c.i1, c.j1});
    leaveAndAdvance(s);
    s.environmentChanged = true;
}

/// Border spawning (seed 002 §4.2.4): each spawn tops its group up toward
/// density x open area, entering at the ring's open cells on its sides.
void runRegionSpawn(SimState& s) {
    RegionState& R = s.region;
    const ActiveRegionSpec& spec = s.scene.active_region;
    const float h = s.gi.h, dMin = s.scene.params.d_min;
    const double dt = s.scene.params.dt;
    std::vector<NewAgent> born;
    std::uniform_real_distribution<float> unit(0.f, 1.f);
    for (std::size_t q = 0; q < spec.spawn.size(); ++q) {
        const RegionSpawnSpec& sp = spec.spawn[q];
        if (!(s.time > sp.start && s.time - dt < sp.end)) continue;
        const int g = static_cast<int>(std::find_if(s.scene.groups.begin(), s.scene.groups.end(),
                                                    [&](const GroupSpec& x) { return x.name == sp.group; }) - s.scene.groups.begin());
        // how many are missing, and how many the rate allows by now
        const long long target = std::llround(sp.density * R.openArea);
        const long long missing = target - s.groups[static_cast<std::size_t>(g)].remaining;
        double& owed = R.owed[q];
        if (missing <= 0) { owed = 0.0; continue; }
        owed = std::isfinite(sp.rate) ? std::min(owed + sp.rate * dt, static_cast<double>(missing)) : static_cast<double>(missing);
        if (owed < 1.0) continue;
        // candidate cells: the ring's open cells on its sides, off the group's first goal (they would leave at once),
        // and still inside the region when a newcomer has walked kSpawnLead in (a region moving away from a side
        // would leave those born there behind)
        const RegionCells ahead = activeRegionCells(s.scene, s.time + kSpawnLead / s.scene.groups[static_cast<std::size_t>(g)].speed.mean);
        auto kept = [&](int cell) {
            const int i = cell % s.gi.nx, j = cell / s.gi.nx;
            return i >= ahead.i0 && i < ahead.i1 && j >= ahead.j0 && j < ahead.j1;
        };
        const std::vector<int>& goal = s.grid.goal_cells[static_cast<std::size_t>(s.fields.goal[static_cast<std::size_t>(s.fields.fieldOf[static_cast<std::size_t>(g)][0])])];
        std::vector<int> cells;
        std::vector<float> ax, ay;
        for (int side = 0; side < 4; ++side) {
            if (!(sp.sides & (1 << side))) continue;
            for (int cell : R.sideCells[side])
                if (kept(cell) && !std::binary_search(goal.begin(), goal.end(), cell)) cells.push_back(cell);
            if (R.sideCells[side].empty()) continue;
            // the agents near this side (a strip, grown by d_min)
            const int a = R.sideCells[side].front(), b = R.sideCells[side].back();
            const float sx0 = s.gi.ox + (a % s.gi.nx) * h - dMin, sy0 = s.gi.oy + (a / s.gi.nx) * h - dMin;
            const float sx1 = s.gi.ox + (b % s.gi.nx + 1) * h + dMin, sy1 = s.gi.oy + (b / s.gi.nx + 1) * h + dMin;
            std::vector<float> xs, ys;
            s.agents.positionsIn(sx0, sy0, sx1, sy1, s.splatWs.sort, xs, ys);
            ax.insert(ax.end(), xs.begin(), xs.end());
            ay.insert(ay.end(), ys.begin(), ys.end());
        }
        if (cells.empty()) continue;
        auto freeAt = [&](float x, float y) {
            for (std::size_t k = 0; k < ax.size(); ++k)
                if ((ax[k] - x) * (ax[k] - x) + (ay[k] - y) * (ay[k] - y) < dMin * dMin) return false;
            for (const NewAgent& e : born)
                if ((e.x - x) * (e.x - x) + (e.y - y) * (e.y - y) < dMin * dMin) return false;
            return true;
        };
        // up to 20 random places per birth; the rest wait for the next step when the ring is full
        std::uniform_int_distribution<std::size_t> pick(0, cells.size() - 1);
        while (owed >= 1.0) {
            bool placed = false;
            for (int attempt = 0; attempt < 20 && !placed; ++attempt) {
                const int c = cells[pick(R.rng)];
                const float x = s.gi.ox + (c % s.gi.nx + unit(R.rng)) * h, y = s.gi.oy + (c / s.gi.nx + unit(R.rng)) * h;
                if (!freeAt(x, y)) continue;
                born.push_back({x, y, drawSpeed(s.scene.groups[static_cast<std::size_t>(g)].speed, R.rng), g});
                placed = true;
            }
            if (!placed) break;
            owed -= 1.0;
        }
    }
    addAgents(s, born);
}

}  // namespace

bool regionSpawnPending(const Scene& scene, double t) {
    for (const RegionSpawnSpec& sp : scene.active_region.spawn)
        if (t < sp.end) return true;
    return false;
}

Stage activeRegionStage() {
    return {"active_region", StagePhase::Fields, {"agents.position", "walls"},
            {"walls", "goals", "agents.table", "exits"}, runActiveRegion};
}

Stage regionSpawnStage() {
    return {"region_spawn", StagePhase::Move, {"agents.position", "agents.field", "goals"}, {"agents.table", "agents.field"},
            runRegionSpawn};
}

}  // namespace ccrowd::sim
