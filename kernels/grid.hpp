#pragma once
/// @file grid.hpp
/// Grid geometry shared by every stage (host+device): cell (i, j) is centred
/// at origin + (i + 0.5, j + 0.5) h, index i + j*nx.

#include <math.h>

#include "hd.hpp"

namespace ccrowd {

/// Grid geometry passed by value into kernels.
struct GridInfo {
    int nx = 0, ny = 0;      ///< Cells. [Limit: >= 1]
    float h = 0.25f;         ///< Cell size. [Units: m] [Limit: > 0]
    float ox = 0.f, oy = 0.f;  ///< Corner of cell (0, 0). [Units: m]

    CC_HD int index(int i, int j) const { return i + j * nx; }
    CC_HD bool inside(int i, int j) const { return i >= 0 && j >= 0 && i < nx && j < ny; }
    /// Cell containing (x, y) (may be outside the grid).
    CC_HD void cellOf(float x, float y, int& i, int& j) const {
        i = static_cast<int>(floorf((x - ox) / h));
        j = static_cast<int>(floorf((y - oy) / h));
    }
    /// Continuous cell coordinates: (x - ox)/h - 0.5, so cell centres are integers.
    CC_HD float gx(float x) const { return (x - ox) / h - 0.5f; }
    CC_HD float gy(float y) const { return (y - oy) / h - 0.5f; }
    CC_HD float centreX(int i) const { return ox + (i + 0.5f) * h; }
    CC_HD float centreY(int j) const { return oy + (j + 0.5f) * h; }
};

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
