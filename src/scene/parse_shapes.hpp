#pragma once
/// @file parse_shapes.hpp
/// Points and polygons in scene JSON. A point is [x, y]; a polygon is a list
/// of >= 3 points or {"rect": {"min": [x, y], "max": [x, y]}}. Polygons are
/// checked here: vertex count, coordinate range, no repeated consecutive
/// vertices, no self-intersection, area > scene_limits::kMinPolygonArea.

#include <string>
#include <vector>

#include "ccrowd/scene.hpp"
#include "json_reader.hpp"

namespace ccrowd::scene_detail {

/// Text of what a polygon may be, for messages.
extern const char* const kPolygonAllowed;

/// [x, y], each within +-scene_limits::kMaxCoordinate. [Units: m]
Vec2 parsePoint(const Node& n);

/// A checked polygon (list of points or rect shorthand).
Polygon parsePolygon(const Node& n);

/// A list of minCount..maxCount polygons.
std::vector<Polygon> parsePolygonList(const Node& n, std::size_t minCount, std::size_t maxCount);

}  // namespace ccrowd::scene_detail
