#pragma once
/// @file closed_faces.hpp
/// SceneGrid::closed_faces from the grid's apertures and wall edges
/// (closed_faces.cpp).

#include "ccrowd/scene.hpp"

namespace ccrowd::scene_detail {

/// Fills grid.closed_faces (see SceneGrid) from grid.blocked,
/// grid.aperture_x, grid.aperture_y and grid.walls. Passages narrower than
/// @p minPassage close. [Units: m] [Limit: >= 0; 0: no width rule]
void closeFaces(SceneGrid& grid, float minPassage);

}  // namespace ccrowd::scene_detail
