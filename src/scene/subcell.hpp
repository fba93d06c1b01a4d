#pragma once
/// @file subcell.hpp
/// Sub-cell geometry of a scene's grid (subcell.cpp): open fractions and
/// face apertures, exact from the open region's polygons.

#include <cstdint>
#include <vector>

#include "open_region.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

/// Fills grid.open_fraction, grid.aperture_x and grid.aperture_y (see
/// SceneGrid) from @p region on grid @p g; cells marked in @p planWalls
/// (floor-plan walls, [Size: nx*ny]) close whole with their four faces.
/// Rows go to @p threads CPU threads [Limit: >= 1]; the result is the same for any count.
void rasterizeSubcell(const geom::BRegion& region, const geom::GridGeom& g, const Field<std::uint8_t>& planWalls,
                      SceneGrid& grid, int threads);

/// The wall edges of @p region (its rings: shells counter-clockwise and
/// holes clockwise, so the open side is on every edge's left) and of the
/// floor-plan walls @p planWalls (faces between a wall cell and any other).
std::vector<WallSegment> wallEdges(const geom::BRegion& region, const geom::GridGeom& g,
                                   const Field<std::uint8_t>& planWalls);

}  // namespace ccrowd::scene_detail
