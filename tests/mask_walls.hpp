#pragma once
/// @file mask_walls.hpp
/// Test helper: the wall index (kernels/walls.hpp) of a blocked mask, as
/// the stage tests build their walls from blocked cells.

#include <cmath>
#include <cstdint>

#include "ccrowd/backend.hpp"
#include "ccrowd/field.hpp"
#include "kernels/walls.hpp"

namespace ccrowd::test {

/// Wall edges of @p blocked (maskWallSegments) indexed for a reach of
/// @p reach [m], on @p ex's side.
struct MaskWalls {
    GridInfo g;
    sim::WallIndex index;
    MaskWalls(const Exec& ex, const GridInfo& grid, const Field<std::uint8_t>& blocked, float reach) : g(grid) {
        sim::buildWallIndex(ex, sim::maskWallSegments(grid, blocked.hostView()), grid, reach, index);
    }
    sim::WallView view(const Exec& ex) { return sim::wallView(ex, g, index); }
};

/// Distance from (x, y) to the square of cell (i, j) of @p g. [Units: m]
inline float distanceToCell(const GridInfo& g, int i, int j, float x, float y) {
    const float lx = g.ox + i * g.h, hx = lx + g.h, ly = g.oy + j * g.h, hy = ly + g.h;
    const float qx = x < lx ? lx : (x > hx ? hx : x), qy = y < ly ? ly : (y > hy ? hy : y);
    return std::sqrt((x - qx) * (x - qx) + (y - qy) * (y - qy));
}

}  // namespace ccrowd::test
