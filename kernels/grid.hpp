#pragma once
/// @file grid.hpp
/// Grid geometry shared by every stage (host+device): GridInfo
/// (ccrowd/grid_info.hpp) and the bilinear stencil of a point.

#include <math.h>

#include "ccrowd/grid_info.hpp"
#include "ccrowd/hd.hpp"

namespace ccrowd {

/// Bilinear (cloud-in-cell) stencil of a point: the lower-left of the four
/// nearest cell centres and the weights of the four (DESIGN.md §5, splat).
struct Bilinear {
    int i0 = 0, j0 = 0;       ///< Lower-left cell (may be -1 or nx-1: callers skip cells outside).
    float w00 = 0, w10 = 0, w01 = 0, w11 = 0;  ///< Weights of (i0,j0), (i0+1,j0), (i0,j0+1), (i0+1,j0+1); sum 1.
};

CC_HD inline Bilinear bilinearAt(const GridInfo& g, float x, float y) {
    const float fx = g.gx(x), fy = g.gy(y);
    Bilinear b;
    b.i0 = static_cast<int>(floorf(fx));
    b.j0 = static_cast<int>(floorf(fy));
    const float tx = fx - b.i0, ty = fy - b.j0;
    b.w00 = (1.f - tx) * (1.f - ty);
    b.w10 = tx * (1.f - ty);
    b.w01 = (1.f - tx) * ty;
    b.w11 = tx * ty;
    return b;
}

}  // namespace ccrowd
