#pragma once
/// @file walkable_wkt.hpp
/// The walkable area of a scene as OGC Well-Known Text, for the trajectory
/// database's geometry table (read by PedPy as a shapely geometry).
///
/// The result is the exact region (union of the outer polygons, intersected
/// with the clip polygon when one is given, minus the union of the holes),
/// computed by Boost.Geometry's overlay (src/scene/open_region.hpp: the
/// same region the sub-cell raster clips cells against). So obstacles may
/// overlap each other, touch along edges (walls drawn as abutting
/// rectangles) or stick out of the walkable area, and the output is still a
/// valid geometry:
/// - "POLYGON ((shell), (hole), ...)" for one connected piece, or
///   "MULTIPOLYGON (((shell), (hole)), ((shell)))" for several;
///   "POLYGON EMPTY" when nothing is walkable;
/// - every ring closed (first vertex repeated last), shells
///   counter-clockwise and holes clockwise (OGC; shapely's orient(sign=1));
///   rings touch only at single points;
/// - rings and polygons in a deterministic order; vertices that are exactly
///   input floats are printed as the shortest decimal of that float.
/// Only polygons are handled: floor-plan (PNG) walls are not included.

#include <string>
#include <vector>

#include "ccrowd/scene.hpp"

namespace ccrowd::io {

/// Walkable region = union(@p outer) minus union(@p holes). [Units: m]
/// Polygons with < 3 distinct vertices or zero area are ignored. Throws
/// InputError when a vertex is not finite.
/// Cost: Boost's overlay, O((E + K) log E) for E edges and K intersections
/// per union of two halves.
std::string walkableWkt(const std::vector<Polygon>& outer, const std::vector<Polygon>& holes);

/// Same, intersected with @p clip (e.g. the domain rectangle) when @p clip
/// has >= 3 vertices (a degenerate clip leaves nothing).
std::string walkableWkt(const std::vector<Polygon>& outer, const std::vector<Polygon>& holes,
                        const Polygon& clip);

/// The scene's walkable area: scene.walkable (the domain rectangle when it
/// is empty) minus scene.obstacles, clipped to the domain rectangle.
std::string sceneWalkableWkt(const Scene& scene);

}  // namespace ccrowd::io
