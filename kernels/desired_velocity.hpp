#pragma once
/// @file desired_velocity.hpp
/// Desired-velocity stage (f): the velocity field v = -f(theta) grad phi /
/// |grad phi| of a potential (Treuille et al. 2006 eq. 5; DESIGN.md §5
/// "Desired velocity"), cell-centred, and its interpolation to the agents
/// (preferred velocity).

#include <math.h>

#include <cstdint>

#include "ccrowd/field.hpp"
#include "eikonal_update.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "splat.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Upwind derivative of phi along one axis at a cell of potential @p p [s]
/// from the + and - neighbours' potentials @p pPlus, @p pMinus (+inf when
/// blocked, outside or unknown): the one-sided difference towards the lower
/// neighbour, 0 when neither is lower (ties go to the + side).
/// @param h Cell size. [Units: m]  @return [Units: s/m]
CC_HD inline float upwindDerivative(float p, float pPlus, float pMinus, float h) {
    if (pPlus <= pMinus) return pPlus < p ? (pPlus - p) / h : 0.f;
    return pMinus < p ? (p - pMinus) / h : 0.f;
}

/// Per-cell desired-velocity functor.
struct DesiredVelocityKernel {
    GridInfo g;
    View2<const float> phi;             ///< Potential. [Units: s] (+inf: unreachable)
    View2<const Face4> speedIn;         ///< Face speeds. [Units: m/s]
    View2<const std::uint8_t> blocked;  ///< 1 = blocked. (null: none)
    View2<Vel2> out;                    ///< [Units: m/s]

    CC_HD bool open(int i, int j) const { return g.inside(i, j) && !(blocked.data && blocked(i, j)); }
    /// Potential of a neighbour: +inf when blocked or outside.
    CC_HD float phiAt(int i, int j) const { return open(i, j) ? phi(i, j) : INFINITY; }

    CC_HD void operator()(int i, int j) const {
        // nothing to follow in blocked or unreachable cells
        const float p = open(i, j) ? phi(i, j) : INFINITY;
        if (!(p < INFINITY)) { out(i, j) = Vel2{}; return; }
        // upwind gradient (DESIGN.md §5: the lower finite neighbour per axis)
        const float dx = upwindDerivative(p, phiAt(i + 1, j), phiAt(i - 1, j), g.h);
        const float dy = upwindDerivative(p, phiAt(i, j + 1), phiAt(i, j - 1), g.h);
        const float len = sqrtf(dx * dx + dy * dy);
        // goal cell or local minimum: no direction
        if (!(len > 0.f)) { out(i, j) = Vel2{}; return; }
        // direction -grad phi / |grad phi| (Treuille et al. 2006 eq. 5)
        const float ux = -dx / len, uy = -dy / len;
        // speed: face speeds blended by the squared direction components
        // (weights sum to 1: exactly f when the faces agree)
        const Face4 f = speedIn(i, j);
        const float fx = ux > 0.f ? f.e : f.w, fy = uy > 0.f ? f.n : f.s;
        const float s = ux * ux * fx + uy * uy * fy;
        out(i, j) = Vel2{s * ux, s * uy};
    }
};

/// Per-agent preferred velocity from one desired-velocity field: agents whose
/// field index is @p fieldIndex take the bilinear interpolation of @p field
/// (splat stencil, weights of blocked cells dropped and the rest
/// renormalised), scaled by vmax / v0 and clamped to vmax. The pass with
/// fieldIndex 0 also zeroes agents whose index is outside [0, fieldCount).
struct PreferredVelocityKernel {
    AgentViews a;
    GridInfo g;
    View2<const std::uint8_t> blocked;  ///< 1 = blocked. (null: none)
    View2<const Vel2> field;            ///< Desired velocity. [Units: m/s]
    int fieldIndex = 0;                 ///< This pass's field.
    int fieldCount = 1;                 ///< Number of fields. [Limit: >= 1]
    float v0 = 1.34f;                   ///< Speed the field is built for. [Units: m/s] [Limit: > 0]

    /// Adds cell (i, j) with weight @p w unless it is blocked or outside.
    CC_HD void add(int i, int j, float w, float& sw, float& vx, float& vy) const {
        if (!g.inside(i, j) || (blocked.data && blocked(i, j)) || !(w > 0.f)) return;
        const Vel2 v = field(i, j);
        sw += w; vx += w * v.x; vy += w * v.y;
    }

    CC_HD void operator()(int k) const {
        const int f = a.field[k];
        if (f != fieldIndex) {
            // agents of no field stop
            if (fieldIndex == 0 && (f < 0 || f >= fieldCount)) { a.px[k] = 0.f; a.py[k] = 0.f; }
            return;
        }
        // bilinear over the open cells of the stencil, renormalised
        const Bilinear b = clampedBilinear(g, a.x[k], a.y[k]);
        float sw = 0.f, vx = 0.f, vy = 0.f;
        add(b.i0, b.j0, b.w00, sw, vx, vy);
        add(b.i0 + 1, b.j0, b.w10, sw, vx, vy);
        add(b.i0, b.j0 + 1, b.w01, sw, vx, vy);
        add(b.i0 + 1, b.j0 + 1, b.w11, sw, vx, vy);
        // scale to the agent's free speed, clamp to it
        if (!(sw > 0.f)) { a.px[k] = 0.f; a.py[k] = 0.f; return; }
        const float vmax = a.vmax[k], scale = vmax / v0;
        vx = vx / sw * scale; vy = vy / sw * scale;
        const float len = sqrtf(vx * vx + vy * vy);
        if (len > vmax) { const float c = vmax / len; vx *= c; vy *= c; }
        a.px[k] = vx; a.py[k] = vy;
    }
};

}  // namespace ccrowd::sim
