#pragma once
/// @file wall_segment.hpp
/// A straight piece of wall as the agents meet it: an edge of the boundary
/// of the scene's open region (issue 12: agents against true walls, not
/// against the blocked cells' squares).

namespace ccrowd {

/// Wall edge from a to b with the open side (where people stand) on its
/// left. [Units: m]
struct WallSegment {
    float ax = 0.f, ay = 0.f;  ///< Start. [Units: m]
    float bx = 0.f, by = 0.f;  ///< End. [Units: m] [Limit: != start]
};

}  // namespace ccrowd
