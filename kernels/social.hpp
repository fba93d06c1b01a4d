#pragma once
/// @file social.hpp
/// Social units (seed 000's small groups; Moussaïd et al. 2010), host+device:
/// the cohesion stage's per-unit centroids and the pull that keeps members
/// together. A unit's sums are fixed-point integers added atomically, so
/// the centroid does not depend on the order of the additions (the same on
/// every backend and thread count). Launched by social.cu.

#include <math.h>

#include "atomics.hpp"
#include "exit_spawn.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "grid.hpp"
#include "launch.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Fixed-point scale of the unit sums: 1/4096 m. [Units: 1/m]
constexpr double kUnitFix = 4096.0;
/// Values per unit in the sums: x, y, members, distances to the centroid.
constexpr int kUnitSums = 4;

/// @p v [m] as a fixed-point integer, two's complement in 64 bits.
CC_HD inline unsigned long long toFixed(float v) { return static_cast<unsigned long long>(llrint(static_cast<double>(v) * kUnitFix)); }
/// Back to metres.
CC_HD inline double fromFixed(unsigned long long v) { return static_cast<double>(static_cast<long long>(v)) / kUnitFix; }

/// Unit @p u's centroid [m] and members from its sums (n = 0: no member).
CC_HD inline void unitCentroid(View1<const unsigned long long> sums, int u, float& cx, float& cy, int& n) {
    n = static_cast<int>(sums[kUnitSums * u + 2]);
    cx = n > 0 ? static_cast<float>(fromFixed(sums[kUnitSums * u]) / n) : 0.f;
    cy = n > 0 ? static_cast<float>(fromFixed(sums[kUnitSums * u + 1]) / n) : 0.f;
}

/// Pass 1: each member's position and count into its unit's sums
/// (unitOfId by agent id; -1: walks alone).
struct UnitSumKernel {
    View1<const float> x, y;
    View1<const int> id, unitOfId;
    View1<unsigned long long> sums;  ///< [Size: kUnitSums * units]
    CC_HD void operator()(int k) const {
        const int u = unitOfId[id[k]];
        if (u < 0) return;
        atomicAddRelaxed(&sums[kUnitSums * u], toFixed(x[k]));
        atomicAddRelaxed(&sums[kUnitSums * u + 1], toFixed(y[k]));
        atomicAddRelaxed(&sums[kUnitSums * u + 2], 1ull);
    }
};

/// Pass 2: a member farther from its unit's centroid than the allowed
/// spread, spread x max(1, rho / 1 m^-2) with rho the perceived density at its
/// cell (the window of model.perception_radius; the
/// unit stretches in a crowd, seed 000 and Moussaïd 2010), has
/// cohesion x (distance - allowed) toward the centroid added to its
/// preferred velocity, capped at its free speed; its distance goes into
/// the unit's spread sum.
struct CohesionKernel {
    AgentViews a;
    GridInfo g;
    View1<const int> unitOfId;
    View1<const float> unitSpread, unitCohesion;  ///< Per unit. [Units: m, 1/s]
    View2<const float> density;                    ///< [Units: 1/m^2]
    View1<unsigned long long> sums;
    CC_HD void operator()(int k) const {
        const int u = unitOfId[a.id[k]];
        if (u < 0) return;
        float cx, cy;
        int n;
        unitCentroid(View1<const unsigned long long>{sums.data, sums.n}, u, cx, cy, n);
        if (n < 2) return;
        const float dx = cx - a.x[k], dy = cy - a.y[k];
        const float dist = sqrtf(dx * dx + dy * dy);
        atomicAddRelaxed(&sums[kUnitSums * u + 3], toFixed(dist));
        // the allowed spread at this density; beyond it, a pull toward the centroid
        int i = 0, j = 0;
        g.cellOf(a.x[k], a.y[k], i, j);
        const float rho = density(i, j);
        const float allowed = unitSpread[u] * (rho > 1.f ? rho : 1.f);
        if (!(dist > allowed)) return;
        const float pull = unitCohesion[u] * (dist - allowed) / dist;
        float px = a.px[k] + pull * dx, py = a.py[k] + pull * dy;
        const float s = sqrtf(px * px + py * py), vmax = a.vmax[k];
        if (s > vmax) { px *= vmax / s; py *= vmax / s; }
        a.px[k] = px;
        a.py[k] = py;
    }
};

/// The cohesion stage's work on the Exec's side: @p sums cleared, filled
/// (UnitSumKernel), then each member pulled (CohesionKernel, which adds the
/// distances). @p sums [Size: kUnitSums * units].
void cohesion(const Exec& ex, const AgentViews& a, const GridInfo& g, View1<const int> unitOfId,
              View1<const float> unitSpread, View1<const float> unitCohesion, View2<const float> density,
              View1<unsigned long long> sums);

}  // namespace ccrowd::sim
