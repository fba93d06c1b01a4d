#pragma once
/// @file agents.hpp
/// Agents stage (h): per-agent velocity from the preferred velocity and the
/// pressure correction (Narain et al. 2009 §4, DESIGN.md §5), and advection
/// that never enters blocked cells. Host+device; launched by agents.cu. The
/// wall-confined move (moveConfined) is shared with the separate stage.

#include <cstdint>

#include "ccrowd/field.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "pressure.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Longest move moveConfined makes, in half-cell substeps (128 cells).
constexpr int kMaxMoveSubsteps = 256;
/// Gap kept between an agent stopped at a wall and the wall. [Units: cells]
constexpr float kWallGap = 1e-3f;

/// Result of a wall-confined move.
struct ConfinedMove {
    float x = 0.f, y = 0.f;               ///< End position. [Units: m]
    bool blockedX = false, blockedY = false;  ///< The move hit a wall or the grid edge along x / y.
};

/// One axis-aligned substep of moveConfined along x (AXIS 0) or y (AXIS 1):
/// at most half a cell, so it reaches at most the next cell. Into an open
/// cell: taken. Into a blocked or outside cell: the agent stops just short
/// of the shared face (kWallGap) or, when that point is not ahead of it,
/// stays, and the axis is marked blocked.
template <int AXIS>
CC_HD inline void confinedAxisStep(const GridInfo& g, View2<const std::uint8_t> blocked, float step, ConfinedMove& m) {
    if (step == 0.f || (AXIS == 0 ? m.blockedX : m.blockedY)) return;
    int ci, cj;
    g.cellOf(m.x, m.y, ci, cj);
    float& c = AXIS == 0 ? m.x : m.y;
    const float o = AXIS == 0 ? g.ox : g.oy;
    const float t = c + step;
    const int tc = static_cast<int>(floorf((t - o) / g.h));
    const int cur = AXIS == 0 ? ci : cj;
    if (tc == cur || cellOpen(blocked, AXIS == 0 ? tc : ci, AXIS == 0 ? cj : tc)) { c = t; return; }
    // stop at the wall: just inside the current cell, if that is ahead
    const float face = o + (step > 0.f ? cur + 1 : cur) * g.h;
    const float stop = face - (step > 0.f ? kWallGap : -kWallGap) * g.h;
    if (static_cast<int>(floorf((stop - o) / g.h)) == cur && (step > 0.f ? stop > c : stop < c)) c = stop;
    if (AXIS == 0) m.blockedX = true; else m.blockedY = true;
}

/// Moves a point from (x, y) by (dx, dy) [m] without entering a blocked or
/// outside cell: half-cell substeps, each split into its two axis moves (the
/// longer axis first), so every intermediate position lies in an open cell
/// and walls only one cell thick are never tunnelled. A blocked axis stops
/// (slides along the other). Moves longer than kMaxMoveSubsteps half cells
/// are shortened. Non-finite displacements are ignored.
CC_HD inline ConfinedMove moveConfined(const GridInfo& g, View2<const std::uint8_t> blocked, float x, float y, float dx,
                                       float dy) {
    ConfinedMove m;
    m.x = x;
    m.y = y;
    const float reach = fabsf(dx) > fabsf(dy) ? fabsf(dx) : fabsf(dy);
    if (!(reach > 0.f) || !(reach < INFINITY)) return m;
    // substeps of at most half a cell (capped)
    const float sub = reach / (0.5f * g.h);
    const int n = sub < kMaxMoveSubsteps ? static_cast<int>(ceilf(sub)) : kMaxMoveSubsteps;
    const float sx = (sub < kMaxMoveSubsteps ? dx : dx * (kMaxMoveSubsteps / sub)) / n;
    const float sy = (sub < kMaxMoveSubsteps ? dy : dy * (kMaxMoveSubsteps / sub)) / n;
    const bool xFirst = fabsf(sx) >= fabsf(sy);
    for (int s = 0; s < n; ++s) {
        if (xFirst) { confinedAxisStep<0>(g, blocked, sx, m); confinedAxisStep<1>(g, blocked, sy, m); }
        else { confinedAxisStep<1>(g, blocked, sy, m); confinedAxisStep<0>(g, blocked, sx, m); }
    }
    return m;
}

/// Agent velocity (Narain 2009 §4, FLIP-style): v = preferred + correction,
/// correction = -grad p interpolated bilinearly from the open cells of the
/// agent's stencil (weights renormalised over them), clamped to vmax.
struct AgentVelocityKernel {
    AgentViews a;
    GridInfo g;
    View2<const float> p;                ///< Pressure. [Units: m^2/s]
    View2<const std::uint8_t> blocked;

    CC_HD void operator()(int k) const {
        const Bilinear b = bilinearAt(g, a.x[k], a.y[k]);
        const float w[4] = {b.w00, b.w10, b.w01, b.w11};
        // -grad p at the open stencil cells, weighted (fixed order)
        float cx = 0.f, cy = 0.f, wsum = 0.f;
        for (int q = 0; q < 4; ++q) {
            const int i = b.i0 + (q & 1), j = b.j0 + (q >> 1);
            if (!cellOpen(blocked, i, j) || !(w[q] > 0.f)) continue;
            const Vel2 gp = pressureGradient(p, blocked, g.h, i, j);
            cx -= w[q] * gp.x;
            cy -= w[q] * gp.y;
            wsum += w[q];
        }
        float vx = a.px[k], vy = a.py[k];
        if (wsum > 0.f) { vx += cx / wsum; vy += cy / wsum; }
        // clamp the speed to vmax
        const float vmax = a.vmax[k] > 0.f ? a.vmax[k] : 0.f;
        const float sp = sqrtf(vx * vx + vy * vy);
        if (sp > vmax) {
            const float f = vmax / sp;
            vx *= f;
            vy *= f;
        }
        a.vx[k] = vx;
        a.vy[k] = vy;
    }
};

/// Advection x += v dt (explicit Euler) confined to open cells; a velocity
/// component whose axis hit a wall is zeroed.
struct AdvectKernel {
    AgentViews a;
    GridInfo g;
    View2<const std::uint8_t> blocked;
    float dt = 0.f;  ///< [Units: s] [Limit: >= 0]

    CC_HD void operator()(int k) const {
        const float vx = a.vx[k], vy = a.vy[k];
        const ConfinedMove m = moveConfined(g, blocked, a.x[k], a.y[k], vx * dt, vy * dt);
        a.x[k] = m.x;
        a.y[k] = m.y;
        a.vx[k] = m.blockedX ? 0.f : vx;
        a.vy[k] = m.blockedY ? 0.f : vy;
    }
};

}  // namespace ccrowd::sim
