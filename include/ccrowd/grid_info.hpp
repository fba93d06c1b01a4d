#pragma once
/// @file grid_info.hpp
/// The geometry of a scene's grid, as the kernels take it by value: cell
/// (i, j) is centred at origin + (i + 0.5, j + 0.5) h, index i + j*nx.

#include <math.h>

#include "ccrowd/hd.hpp"

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

}  // namespace ccrowd
