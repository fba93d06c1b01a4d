#pragma once
/// @file desired_velocity.hpp
/// Desired-velocity stage (f): the velocity field v = -f(theta) grad phi /
/// |grad phi| of a potential (Treuille et al. 2006 eq. 5; DESIGN.md §5
/// "Desired velocity"), cell-centred, and its interpolation to the agents
/// (preferred velocity).

#include <math.h>

#include <cstdint>

#include "atomics.hpp"
#include "ccrowd/closed_faces.hpp"
#include "ccrowd/field.hpp"
#include "eikonal_update.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "splat.hpp"
#include "walking_speed.hpp"
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

/// Bit of field @p f in a cell's fields-read mask (FieldsReadKernel):
/// fields 31 and above share bit 31. [Limit: f >= 0]
CC_HD inline std::uint32_t fieldReadBit(int f) { return 1u << (f < 31 ? f : 31); }

/// Per-agent marks of the fields agents read: agent k following field f
/// (>= 0) sets bit fieldReadBit(f) in the four cells of its bilinear stencil
/// (clampedBilinear: the cells the preferred velocity reads, also for an
/// agent outside the grid). An OR is order-independent, so the mask is the
/// same for any thread count; a cell already carrying the bit is not
/// written again. The preferred velocity reads a field nowhere else, so the
/// desired velocity is computed only where its bit is set.
struct FieldsReadKernel {
    GridInfo g;
    View1<const float> x, y;   ///< Agent positions. [Units: m]
    View1<const int> field;    ///< Agent's field index (< 0: none).
    View2<std::uint32_t> out;  ///< Fields-read mask (cleared before).

    CC_HD void operator()(int k) const {
        const int f = field[k];
        if (f < 0) return;
        const std::uint32_t bit = fieldReadBit(f);
        const Bilinear b = clampedBilinear(g, x[k], y[k]);
        for (int q = 0; q < 4; ++q) {
            // a 1 x n or n x 1 grid clamps the stencil's far cells onto the grid's last
            const int i = b.i0 + (q & 1) < g.nx ? b.i0 + (q & 1) : g.nx - 1;
            const int j = b.j0 + (q >> 1) < g.ny ? b.j0 + (q >> 1) : g.ny - 1;
            std::uint32_t* c = &out(i, j);
            if (!(atomicLoadRelaxed(c) & bit)) atomicOrRelaxed(c, bit);
        }
    }
};

/// Clears the fields-read mask of a cell.
struct ClearFieldsReadKernel {
    View2<std::uint32_t> out;
    CC_HD void operator()(int i, int j) const { out(i, j) = 0u; }
};

/// Per-cell desired-velocity functor.
struct DesiredVelocityKernel {
    GridInfo g;
    View2<const float> phi;  ///< Potential. [Units: s] (+inf: unreachable)
    WalkingSpeed walk;       ///< Speed in the walking direction; its blocked and closed views are the walls here too.
    View2<Vel2> out;         ///< [Units: m/s]
    View2<const std::uint32_t> read;  ///< Fields-read mask (FieldsReadKernel); cells without @p bit are not written. (null: every cell)
    std::uint32_t bit = 0u;           ///< This field's bit in @p read.

    CC_HD bool open(int i, int j) const { return g.inside(i, j) && !(walk.blocked.data && walk.blocked(i, j)); }
    /// Potential of the neighbour (i + di, j + dj): +inf when blocked,
    /// outside or across a face closed in @p shut (the cell's closed bits).
    CC_HD float phiAt(int i, int j, int di, int dj, std::uint8_t shut) const {
        if (shut & closedFaceBit(di, dj)) return INFINITY;
        return open(i + di, j + dj) ? phi(i + di, j + dj) : INFINITY;
    }

    CC_HD void operator()(int i, int j) const {
        // no agent of this field reads the cell
        if (read.data && !(read(i, j) & bit)) return;
        // nothing to follow in blocked or unreachable cells
        const float p = open(i, j) ? phi(i, j) : INFINITY;
        if (!(p < INFINITY)) { out(i, j) = Vel2{}; return; }
        // upwind gradient (DESIGN.md §5: the lower finite neighbour per axis)
        const std::uint8_t shut = walk.closed.data ? walk.closed(i, j) : 0;
        const float dx = upwindDerivative(p, phiAt(i, j, 1, 0, shut), phiAt(i, j, -1, 0, shut), g.h);
        const float dy = upwindDerivative(p, phiAt(i, j, 0, 1, shut), phiAt(i, j, 0, -1, shut), g.h);
        const float len = sqrtf(dx * dx + dy * dy);
        // goal cell or local minimum: no direction
        if (!(len > 0.f)) { out(i, j) = Vel2{}; return; }
        // direction -grad phi / |grad phi| (Treuille et al. 2006 eq. 5)
        const float ux = -dx / len, uy = -dy / len;
        // speed f(x, theta) in that direction (walking_speed.hpp)
        const float s = walk(i, j, ux, uy);
        out(i, j) = Vel2{s * ux, s * uy};
    }
};

/// Per-agent preferred velocity from up to kFields desired-velocity fields
/// per pass: agents whose field index f is in [fieldBase, fieldBase +
/// passFields) take the bilinear interpolation of field f (splat stencil,
/// weights of blocked cells and of cells the agent's own cell does not
/// reach within the stencil dropped, the rest renormalised), scaled by
/// vmax / v0 and clamped to vmax. The pass with fieldBase 0 also zeroes
/// agents whose index is outside [0, fieldCount).
struct PreferredVelocityKernel {
    static constexpr int kFields = 8;   ///< Fields per pass (the views travel by value: no array on the device).
    AgentViews a;
    GridInfo g;
    View2<const std::uint8_t> blocked;  ///< 1 = blocked. (null: none)
    View2<const Vel2> fields[kFields];  ///< Desired velocities of fields fieldBase .. fieldBase + passFields - 1. [Units: m/s]
    int fieldBase = 0;                  ///< This pass's first field.
    int passFields = 1;                 ///< This pass's fields. [Limit: 1..kFields]
    int fieldCount = 1;                 ///< Number of fields. [Limit: >= 1]
    float v0 = 1.34f;                   ///< Speed the field is built for. [Units: m/s] [Limit: > 0]
    View2<const std::uint8_t> closed;   ///< Closed faces, ccrowd/closed_faces.hpp bits. (null: none)

    CC_HD bool open(int i, int j) const { return g.inside(i, j) && !(blocked.data && blocked(i, j)); }

    /// Which stencil cells (order 00, 10, 01, 11; weights @p w) count: the
    /// open ones the agent's own cell (the largest weight) reaches through
    /// the stencil's four inner faces, so a thin wall between them keeps the
    /// other side's velocities out; every open one when the own cell is
    /// blocked (a sliver of floor in a wall cell) or no inner face between
    /// two open cells is closed (almost everywhere).
    CC_HD void reach(const Bilinear& b, const float* w, bool* r) const {
        const int ci[4] = {b.i0, b.i0 + 1, b.i0, b.i0 + 1}, cj[4] = {b.j0, b.j0, b.j0 + 1, b.j0 + 1};
        for (int q = 0; q < 4; ++q) r[q] = open(ci[q], cj[q]);
        int o = 0;
        for (int q = 1; q < 4; ++q) o = w[q] > w[o] ? q : o;
        if (!closed.data || !r[o]) return;
        // inner faces: 00-10 (E of 00), 01-11 (E of 01), 00-01 (N of 00), 10-11 (N of 10)
        const int u[4] = {0, 2, 0, 1}, v[4] = {1, 3, 2, 3};
        const std::uint8_t bit[4] = {kClosedE, kClosedE, kClosedN, kClosedN};
        bool link[4], cut = false;
        for (int l = 0; l < 4; ++l) {
            const bool both = r[u[l]] && r[v[l]];
            link[l] = both && !(closed(ci[u[l]], cj[u[l]]) & bit[l]);
            cut = cut || (both && !link[l]);
        }
        if (!cut) return;
        // spread from the own cell: three passes reach any cell of the 2x2 ring
        bool got[4] = {false, false, false, false};
        got[o] = true;
        for (int pass = 0; pass < 3; ++pass)
            for (int l = 0; l < 4; ++l)
                if (link[l] && (got[u[l]] || got[v[l]])) got[u[l]] = got[v[l]] = true;
        for (int q = 0; q < 4; ++q) r[q] = got[q];
    }

    CC_HD void operator()(int k) const {
        const int f = a.field[k];
        if (f < fieldBase || f >= fieldBase + passFields) {
            // agents of no field stop
            if (fieldBase == 0 && (f < 0 || f >= fieldCount)) { a.px[k] = 0.f; a.py[k] = 0.f; }
            return;
        }
        const View2<const Vel2> field = fields[f - fieldBase];
        // bilinear over the stencil's cells the agent reaches, renormalised
        const Bilinear b = clampedBilinear(g, a.x[k], a.y[k]);
        const float w[4] = {b.w00, b.w10, b.w01, b.w11};
        bool use[4];
        reach(b, w, use);
        float sw = 0.f, vx = 0.f, vy = 0.f;
        for (int q = 0; q < 4; ++q) {
            if (!use[q] || !(w[q] > 0.f)) continue;
            const Vel2 v = field(b.i0 + (q & 1), b.j0 + (q >> 1));
            sw += w[q]; vx += w[q] * v.x; vy += w[q] * v.y;
        }
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
