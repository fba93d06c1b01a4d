#pragma once
/// @file body_checks.hpp
/// Measurements of the crowd's bodies and positions that the validation
/// criteria (cases.hpp) and the whole-run tests (tests/test_simulation.cpp)
/// share: how far a body's centre is from the walls, and the density of the
/// agents' positions over a window (issue 17, Deliver 2 and 4).

#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"

namespace ccrowd::validate {

/// Distance from (x, y) [m] to the nearest wall: the square of a blocked
/// cell or the outside of the grid (wall polygons are rasterised to blocked
/// cells, a cell being blocked when its centre is not walkable), searched
/// within @p reach [m]; @p reach when none is that close; 0 inside a
/// blocked cell. A body of radius r is clear of the walls when this is >= r.
/// [Units: m]
double wallDistance(const SceneGrid& g, double x, double y, double reach);

/// Smallest wallDistance(centre) - radius over the agents of @p a (+inf
/// with no agent): negative when a body overlaps a wall by that much.
/// @p agent receives the index of that agent (-1 with none). [Units: m]
double smallestWallClearance(const SceneGrid& g, const AgentSnapshot& a, int* agent = nullptr);

/// Window density of the agents' positions (persons per open m^2): the
/// largest, over square windows of side @p side [m] whose corners lie on the
/// grid's cell corners and that are at least half open (open = not blocked
/// cells), of the agents whose centres lie in the window divided by the
/// window's open area. 0 with no such window. [Units: persons/m^2]
double largestWindowDensity(const SceneGrid& g, const AgentSnapshot& a, double side);

}  // namespace ccrowd::validate
