#pragma once
/// @file open_region.hpp
/// The scene's open region as exact polygons (Boost.Geometry): where people
/// may stand, before any grid. Shared by the sub-cell raster (open fraction
/// and face apertures, subcell.cpp) and the walkable area's WKT
/// (src/io/walkable_wkt.cpp), so both see the same region. Internal to the
/// core library: no public header includes Boost.

#include <vector>

#include <boost/geometry/geometries/box.hpp>
#include <boost/geometry/geometries/linestring.hpp>
#include <boost/geometry/geometries/multi_polygon.hpp>
#include <boost/geometry/geometries/point_xy.hpp>
#include <boost/geometry/geometries/polygon.hpp>

#include "ccrowd/scene.hpp"

namespace ccrowd::geom {

/// A point in double precision (scene floats widen exactly). [Units: m]
using BPoint = boost::geometry::model::d2::point_xy<double>;
/// Shells counter-clockwise, holes clockwise, rings closed (OGC order).
using BPolygon = boost::geometry::model::polygon<BPoint, /*ClockWise=*/false, /*Closed=*/true>;
/// A region: polygons with holes that overlap nowhere.
using BRegion = boost::geometry::model::multi_polygon<BPolygon>;
using BBox = boost::geometry::model::box<BPoint>;
using BLine = boost::geometry::model::linestring<BPoint>;

/// @p p as a Boost polygon, oriented and closed; empty when it has fewer
/// than 3 distinct vertices or zero area. Throws InputError when a vertex
/// is not finite.
BPolygon toBoost(const Polygon& p);

/// union(@p outer) [intersected with @p clip when it has >= 3 vertices]
/// minus union(@p holes). Polygons may overlap, touch along edges or stick
/// out of each other. Degenerate polygons are ignored. [Units: m]
BRegion regionOf(const std::vector<Polygon>& outer, const std::vector<Polygon>& holes, const Polygon& clip);

/// The scene's open region: its domain rectangle, intersected with the
/// union of the walkable polygons when there are any, minus the union of
/// the obstacles. Floor plans are rasters and are not included (their
/// cells are whole: subcell.cpp closes them on the grid).
BRegion sceneOpenRegion(const Scene& s);

}  // namespace ccrowd::geom
