/// @file scene_checks.cpp
/// Checks that need the grid: goals cover open cells, spawn and source
/// regions have open cells, every route goal is reachable (4-neighbour flood
/// fill over open cells and faces) from every spawn and source cell, and initial
/// counts fit (placement.hpp: spawnCapacity).

#include <algorithm>
#include <cmath>

#include "ccrowd/closed_faces.hpp"
#include "ccrowd/placement.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

namespace {

/// Connected components of open cells (4-neighbour, through faces that are
/// not closed); -1 for blocked cells.
std::vector<int> components(const SceneGrid& grid) {
    const int nx = grid.nx, ny = grid.ny;
    const std::uint8_t* blocked = grid.blocked.host();
    const std::uint8_t* closed = grid.closed_faces.host();
    std::vector<int> label(static_cast<std::size_t>(nx) * ny, -1);
    std::vector<int> stack;
    int next = 0;
    for (int start = 0; start < nx * ny; ++start) {
        if (blocked[start] || label[start] >= 0) continue;
        // Flood fill one component with an explicit stack.
        label[start] = next;
        stack.push_back(start);
        while (!stack.empty()) {
            const int c = stack.back();
            stack.pop_back();
            const int i = c % nx, j = c / nx;
            const int nb[4] = {i > 0 ? c - 1 : -1, i + 1 < nx ? c + 1 : -1, j > 0 ? c - nx : -1, j + 1 < ny ? c + nx : -1};
            const std::uint8_t bit[4] = {kClosedW, kClosedE, kClosedS, kClosedN};
            for (int n = 0; n < 4; ++n) {
                const int d = nb[n];
                if (d >= 0 && !blocked[d] && label[d] < 0 && !(closed[c] & bit[n])) {
                    label[d] = next;
                    stack.push_back(d);
                }
            }
        }
        ++next;
    }
    return label;
}

/// Sorted unique component labels of @p cells.
std::vector<int> componentsOf(const std::vector<int>& cells, const std::vector<int>& label) {
    std::vector<int> out;
    out.reserve(cells.size());
    for (int c : cells) out.push_back(label[c]);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::string cellText(const SceneGrid& grid, int c) {
    const int i = c % grid.nx, j = c / grid.nx;
    return "cell (" + std::to_string(i) + ", " + std::to_string(j) + ") centred at [" +
           formatNumber(grid.origin.x + (i + 0.5) * grid.h) + ", " + formatNumber(grid.origin.y + (j + 0.5) * grid.h) +
           "] m";
}

/// Fails unless every cell of @p from shares a component with route goal.
void checkReach(const Scene& s, const SceneGrid& grid, const std::vector<int>& label,
                const std::vector<std::vector<int>>& goalComps, const std::vector<int>& from,
                const std::vector<std::string>& route, const std::string& routePath, const std::string& fromWhat,
                const std::string& failPath = "") {
    for (std::size_t r = 0; r < route.size(); ++r) {
        const std::size_t goal = static_cast<std::size_t>(
            std::find_if(s.goals.begin(), s.goals.end(), [&](const GoalSpec& g) { return g.name == route[r]; }) -
            s.goals.begin());
        const std::vector<int>& comps = goalComps[goal];
        for (int c : from) {
            if (std::binary_search(comps.begin(), comps.end(), label[c])) continue;
            const bool own = failPath.empty();
            failAt(s.label, own ? routePath + "/" + std::to_string(r) : failPath, own ? describe(json(route[r])) : "",
                   "goal '" + route[r] + "' cannot be reached from " + fromWhat + " " + cellText(grid, c) +
                       ": no path of open cells (4-neighbour flood fill through faces no wall or too-narrow gap closes) connects them",
                   "a goal connected to every open cell of the " + fromWhat);
        }
    }
}

}  // namespace

void checkGrid(const Scene& s, SceneGrid& grid) {
    // Every goal covers an open cell.
    for (std::size_t k = 0; k < s.goals.size(); ++k) {
        if (grid.goal_cells[k].empty() && !s.goals[k].areas.empty()) {
            failAt(s.label, itemPath("goals", k) + "/areas", "",
                   "goal '" + s.goals[k].name + "' covers no open cell (outside the domain, or only on blocked cells)",
                   "areas containing the centre of at least one open cell, or overlapping one when thinner than a cell");
        }
    }
    const std::vector<int> label = components(grid);
    std::vector<std::vector<int>> goalComps;
    for (const auto& cells : grid.goal_cells) goalComps.push_back(componentsOf(cells, label));

    long long total = 0;
    grid.group_count.assign(s.groups.size(), 0);
    for (std::size_t k = 0; k < s.groups.size(); ++k) {
        const GroupSpec& g = s.groups[k];
        const std::string gp = itemPath("groups", k);
        const std::vector<int>& cells = grid.spawn_cells[k];
        // Spawn regions hold at least one open cell.
        if (!g.spawn.empty() && cells.empty()) {
            failAt(s.label, gp + "/spawn", "",
                   "spawn regions of group '" + g.name + "' contain no open cell centre",
                   "regions containing the centre of at least one open (unblocked) cell");
        }
        // The count (or density x area) fits at the UIC limit and the placement distance.
        const int count = resolveGroupCount(s, grid, static_cast<int>(k));
        const std::string countPath = gp + (g.density > 0 ? "/density" : "/count");
        const float d = placementDistance(s, static_cast<int>(k));
        const long long cap = spawnCapacity(s, grid, static_cast<int>(k), d);
        if (count > cap) {
            failAt(s.label, countPath, g.density > 0 ? formatNumber(g.density) : std::to_string(g.count),
                   std::to_string(count) + " agents cannot fit in the open spawn area of " +
                       formatNumber(openSpawnArea(s, grid, static_cast<int>(k))) + " m^2 (" +
                       std::to_string(cells.size()) + " cells) at rho_limit = " + formatNumber(s.params.rho_limit) +
                       " /m^2 and minimum distance " + formatNumber(d) + " m",
                   "at most " + std::to_string(cap) + " agents here");
        }
        total += count;
        if (total > scene_limits::kMaxAgents) {
            failAt(s.label, countPath, std::to_string(count), "too many agents in total (" + std::to_string(total) + ")",
                   "a total of at most " + std::to_string(scene_limits::kMaxAgents) + " agents");
        }
        grid.group_count[k] = count;
        // Every route goal is reachable from every spawn cell (roaming groups have none).
        if (!g.route_choice.enabled())
            checkReach(s, grid, label, goalComps, cells, g.route, gp + "/route", "spawn region of group '" + g.name + "'");
    }

    for (std::size_t k = 0; k < s.sources.size(); ++k) {
        const SourceSpec& src = s.sources[k];
        const std::string sp = itemPath("sources", k);
        if (grid.source_cells[k].empty()) {
            failAt(s.label, sp + "/region", "", "source region contains no open cell centre",
                   "a region containing the centre of at least one open (unblocked) cell");
        }
        const auto group = std::find_if(s.groups.begin(), s.groups.end(),
                                        [&](const GroupSpec& g) { return g.name == src.group; });
        const std::string gp = itemPath("groups", static_cast<std::size_t>(group - s.groups.begin()));
        if (!group->route_choice.enabled())
            checkReach(s, grid, label, goalComps, grid.source_cells[k], group->route, gp + "/route",
                       "region of source " + std::to_string(k), sp + "/region");
    }
}

}  // namespace ccrowd::scene_detail
