#pragma once
/// @file active_box.hpp
/// Active box stage (a): the axis-aligned bounding box of the crowd (seed 003
/// §2.2, fig. 4), so per-cell work of a step stays where agents are. The box
/// is a reduction of per-agent boxes; min and max are exact, so the result
/// does not depend on the reduction order (deterministic on every backend).

#include <math.h>

#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "ccrowd/field.hpp"

namespace ccrowd::sim {

/// Axis-aligned box [xlo, xhi] x [ylo, yhi] [Units: m]; empty when xlo > xhi.
struct Aabb {
    float xlo = INFINITY, ylo = INFINITY;    ///< Lower corner. [Units: m]
    float xhi = -INFINITY, yhi = -INFINITY;  ///< Upper corner. [Units: m]
};

/// Union of two boxes (the reduction operator).
struct AabbUnion {
    CC_HD Aabb operator()(const Aabb& a, const Aabb& b) const {
        Aabb r;
        r.xlo = b.xlo < a.xlo ? b.xlo : a.xlo;
        r.ylo = b.ylo < a.ylo ? b.ylo : a.ylo;
        r.xhi = a.xhi < b.xhi ? b.xhi : a.xhi;
        r.yhi = a.yhi < b.yhi ? b.yhi : a.yhi;
        return r;
    }
};

/// The point box of agent k (the reduction's transform).
struct AgentAabb {
    View1<const float> x, y;  ///< Agent positions. [Units: m] [Size: n]
    CC_HD Aabb operator()(int k) const {
        Aabb r;
        r.xlo = r.xhi = x[k];
        r.ylo = r.yhi = y[k];
        return r;
    }
};

/// Cells along one axis covered by [lo, hi] [m] grown by @p margin [m]:
/// cells whose centre lies within the grown interval, plus the cells of the
/// bilinear splat stencils of points in [lo, hi] (so the box holds every
/// weight the splat puts down), clamped to [0, n). @p c0 / @p c1 are the
/// first / one-past-last cell; c0 >= c1 when nothing is covered.
/// @param gLo, gHi Continuous cell coordinates (GridInfo::gx / gy) of lo, hi.
/// @param m Margin in cells (margin / h). [Limit: >= 0]
CC_HD inline void coveredCells(float gLo, float gHi, float m, int n, int& c0, int& c1) {
    // clamp in float first: no int overflow for far-away points
    const float bound = static_cast<float>(n) + 1.f;
    float lo = gLo - m, hi = gHi + m;
    lo = lo < -bound ? -bound : (lo > bound ? bound : lo);
    hi = hi < -bound ? -bound : (hi > bound ? bound : hi);
    const int first = static_cast<int>(floorf(lo));
    const int last = static_cast<int>(ceilf(hi));
    c0 = first < 0 ? 0 : first;
    c1 = (last > n - 1 ? n - 1 : last) + 1;
}

}  // namespace ccrowd::sim
