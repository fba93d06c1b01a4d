#pragma once
/// @file closed_faces.hpp
/// The bits of SceneGrid::closed_faces: which faces of a cell the speed
/// field, the unit cost, the eikonal solve and the desired velocity treat as
/// walls (issue 12: a wall thinner than a cell, or a gap narrower than a
/// body, closes the faces it lies on, not the cells beside it).

#include <cstdint>

#include "ccrowd/hd.hpp"

namespace ccrowd {

/// Face bits of one cell: towards +x, +y, -x, -y (the order of Face4 and
/// FaceCost).
enum ClosedFace : std::uint8_t { kClosedE = 1, kClosedN = 2, kClosedW = 4, kClosedS = 8 };

/// Bit of the face of a cell towards its 4-neighbour (i + di, j + dj)
/// (exactly one of di, dj is +-1).
CC_HD inline std::uint8_t closedFaceBit(int di, int dj) {
    return di > 0 ? kClosedE : (di < 0 ? kClosedW : (dj > 0 ? kClosedN : kClosedS));
}

}  // namespace ccrowd
