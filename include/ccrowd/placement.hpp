#pragma once
/// @file placement.hpp
/// Initial agent placement for a scene's groups: deterministic for a seed,
/// inside the group's spawn polygons, on open cells, at least a minimum
/// distance apart (jittered hexagonal lattice, dart-throwing fill-in when the
/// lattice is too coarse). About 0.01 s for 50,000 agents (Release).

#include <cstdint>
#include <vector>

#include "ccrowd/scene.hpp"

namespace ccrowd {

/// Densest fraction of hexagonal packing placeAgents is guaranteed to reach
/// in a region (boundary losses): capacity uses 0.8 * 2/(sqrt(3) d^2).
constexpr double kPlacementPackingEfficiency = 0.8;

/// Minimum centre distance used to place group @p group:
/// max(params.d_min, 2 * radius). [Units: m]
float placementDistance(const Scene& scene, int group);

/// Open spawn area of group @p group: open cells whose centre is inside a
/// spawn polygon, times h^2. [Units: m^2]
double openSpawnArea(const Scene& scene, const SceneGrid& grid, int group);

/// Most agents group @p group may start with:
/// floor(openSpawnArea * min(rho_limit, 0.8 * 2 / (sqrt(3) minDistance^2))).
/// rasterizeScene rejects counts above spawnCapacity(.., placementDistance).
long long spawnCapacity(const Scene& scene, const SceneGrid& grid, int group, float minDistance);

/// Agents group @p group starts with: its count, or round(density * openSpawnArea).
int resolveGroupCount(const Scene& scene, const SceneGrid& grid, int group);

/// Places grid.group_count[group] agents of group @p group (0 <= group <
/// groups.size()). Each position is inside one of the group's spawn polygons,
/// in an open cell, and at least @p minDistance [m] from every other position
/// of this call. The same (scene, seed, minDistance) gives the same positions.
/// Throws InputError naming /groups/<group>/count (or /density) when they
/// cannot fit, and std::out_of_range for a bad group index.
/// @param minDistance [Units: m] [Limit: >= 0, finite]
std::vector<Vec2> placeAgents(const Scene& scene, const SceneGrid& grid, int group, std::uint64_t seed,
                              float minDistance);

}  // namespace ccrowd
