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

/// Passes of keepClearOfWalls: a concave corner needs two (one per wall).
constexpr int kClearancePasses = 4;

/// Distance from (x, y) to the square of cell (i, j). [Units: m]
CC_HD inline float distanceToCell(const GridInfo& g, int i, int j, float x, float y, float& qx, float& qy) {
    const float lx = g.ox + i * g.h, hx = lx + g.h, ly = g.oy + j * g.h, hy = ly + g.h;
    qx = x < lx ? lx : (x > hx ? hx : x);
    qy = y < ly ? ly : (y > hy ? hy : y);
    return sqrtf((x - qx) * (x - qx) + (y - qy) * (y - qy));
}

/// Keeps an agent's body out of the walls (issue 17, Deliver 4): moves the
/// centre (x, y) [m] until its distance to every blocked or outside cell
/// square is >= @p clearance [m] (the body radius). Each of
/// kClearancePasses passes finds the nearest such square among the cells
/// within the clearance (fixed scan order: deterministic) and, when it is
/// closer than the clearance, pushes the centre straight away from it to
/// the clearance (confined to open cells: moveConfined). Two walls closer
/// than 2 clearance cannot both be cleared; the centre then ends between
/// them. Blocked cells are the walls' raster (a cell is blocked when its
/// centre is outside the walkable area), so the centre also clears every
/// wall polygon's part that fills a blocked cell. No-op for clearance <= 0
/// or a centre inside a blocked cell (escapeBlocked's case).
CC_HD inline void keepClearOfWalls(const GridInfo& g, View2<const std::uint8_t> blocked, float clearance, float& x,
                                   float& y) {
    if (!(clearance > 0.f)) return;
    const int m = static_cast<int>(ceilf(clearance / g.h));
    for (int pass = 0; pass < kClearancePasses; ++pass) {
        int ci, cj;
        g.cellOf(x, y, ci, cj);
        if (!cellOpen(blocked, ci, cj)) return;
        float best = INFINITY, bx = x, by = y;
        for (int j = cj - m; j <= cj + m; ++j)
            for (int i = ci - m; i <= ci + m; ++i) {
                if (cellOpen(blocked, i, j)) continue;
                float qx, qy;
                const float d = distanceToCell(g, i, j, x, y, qx, qy);
                if (d < best) { best = d; bx = qx; by = qy; }
            }
        if (!(best < clearance) || !(best > 0.f)) return;
        // straight away from the nearest wall point, to the clearance
        const float s = (clearance - best) / best;
        const ConfinedMove mv = moveConfined(g, blocked, x, y, (x - bx) * s, (y - by) * s);
        if (mv.x == x && mv.y == y) return;
        x = mv.x;
        y = mv.y;
    }
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
/// component whose axis hit a wall is zeroed; then the body is kept
/// @p clearance away from the walls (keepClearOfWalls).
struct AdvectKernel {
    AgentViews a;
    GridInfo g;
    View2<const std::uint8_t> blocked;
    float dt = 0.f;         ///< [Units: s] [Limit: >= 0]
    float clearance = 0.f;  ///< Body radius kept from walls (0: the centre only). [Units: m] [Limit: >= 0]

    CC_HD void operator()(int k) const {
        const float vx = a.vx[k], vy = a.vy[k];
        const ConfinedMove m = moveConfined(g, blocked, a.x[k], a.y[k], vx * dt, vy * dt);
        float x = m.x, y = m.y;
        keepClearOfWalls(g, blocked, clearance, x, y);
        a.x[k] = x;
        a.y[k] = y;
        a.vx[k] = m.blockedX ? 0.f : vx;
        a.vy[k] = m.blockedY ? 0.f : vy;
    }
};

}  // namespace ccrowd::sim
