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

/// A body touching a wall slides along it: when the nearest blocked or
/// outside cell square lies within @p clearance [m] plus a tenth of a cell
/// of (x, y) [m] and the velocity (vx, vy) [m/s] points into it, the
/// component along the normal is removed and the rest scaled back to the
/// velocity's speed, as a navigation-mesh agent moves along the surface
/// (Recast/Detour's moveAlongSurface). Round a door's corner the normal is
/// diagonal, so the velocity turns round the corner. Unchanged away from
/// walls, moving away from them, or straight into a wall (nothing is left
/// to slide along).
CC_HD inline void slideAlongWalls(const GridInfo& g, View2<const std::uint8_t> blocked, float clearance, float x,
                                  float y, float& vx, float& vy) {
    const float speed = sqrtf(vx * vx + vy * vy);
    if (!(speed > 0.f)) return;
    // nearest wall point within the clearance and the contact tolerance (fixed scan order)
    const float reach = clearance + 0.1f * g.h;
    const int m = static_cast<int>(ceilf(reach / g.h));
    int ci, cj;
    g.cellOf(x, y, ci, cj);
    float best = INFINITY, bx = x, by = y;
    for (int j = cj - m; j <= cj + m; ++j)
        for (int i = ci - m; i <= ci + m; ++i) {
            if (cellOpen(blocked, i, j)) continue;
            float qx, qy;
            const float d = distanceToCell(g, i, j, x, y, qx, qy);
            if (d < best) { best = d; bx = qx; by = qy; }
        }
    if (!(best < reach) || !(best > 0.f)) return;
    // the component into the wall removed (normal from the wall point to the centre)
    const float nx = (x - bx) / best, ny = (y - by) / best;
    const float into = vx * nx + vy * ny;
    if (!(into < 0.f)) return;
    const float tx = vx - into * nx, ty = vy - into * ny;
    const float t = sqrtf(tx * tx + ty * ty);
    if (!(t > 1e-6f * speed)) return;
    // the rest at the velocity's speed
    vx = tx * (speed / t);
    vy = ty * (speed / t);
}

/// Pressure gradient across the face between cell (i - 1, j) and (i, j)
/// (AXIS 0) or (i, j - 1) and (i, j) (AXIS 1), times the face's open
/// fraction: 0 at walls and the grid's edge (no flux crosses them, as in
/// the LCP: pressure.hpp). [Units: m/s]
template <int AXIS>
CC_HD inline float faceGradient(const GridInfo& g, View2<const float> p, View2<const std::uint8_t> blocked,
                                View2<const Face4> aperture, int i, int j) {
    const int im = AXIS == 0 ? i - 1 : i, jm = AXIS == 0 ? j : j - 1;
    if (!cellOpen(blocked, i, j)) return 0.f;
    const float ap = faceAperture(blocked, aperture, i, j, AXIS == 0 ? 2 : 3, im, jm);
    return ap > 0.f ? ap * (p(i, j) - p(im, jm)) / g.h : 0.f;
}

/// Agent velocity (Narain 2009 §4, FLIP-style): v = preferred + correction,
/// correction = -grad p interpolated from the cell faces as a MAC grid does
/// (x from the x-faces, linear across them and between rows; y likewise),
/// the same face gradients the LCP's fluxes use, so the agents move the
/// density the solve predicted; clamped to vmax.
struct AgentVelocityKernel {
    AgentViews a;
    GridInfo g;                          ///< The pressure's grid.
    View2<const float> p;                ///< Pressure. [Units: m^2/s]
    View2<const std::uint8_t> blocked;
    View2<const Face4> aperture;         ///< Open fraction of faces (null: 1 between open cells).

    /// -dp/dx (AXIS 0) or -dp/dy (AXIS 1) at (x, y): bilinear over the
    /// faces normal to the axis (face k at o + k h along it, cell centres
    /// across it; rows outside the grid clamped).
    template <int AXIS>
    CC_HD float correction(float x, float y) const {
        const float fa = ((AXIS == 0 ? x - g.ox : y - g.oy) / g.h);          // along: face coordinate
        const float fc = ((AXIS == 0 ? y - g.oy : x - g.ox) / g.h) - 0.5f;   // across: cell centres
        const int na = AXIS == 0 ? g.nx : g.ny, nc = AXIS == 0 ? g.ny : g.nx;
        const float ca = fa < 0.f ? 0.f : (fa > na ? static_cast<float>(na) : fa);
        const float cc = fc < 0.f ? 0.f : (fc > nc - 1 ? static_cast<float>(nc - 1) : fc);
        int ka = static_cast<int>(floorf(ca)), kc = static_cast<int>(floorf(cc));
        ka = ka >= na ? na - 1 : ka;
        kc = kc >= nc - 1 ? (nc > 1 ? nc - 2 : 0) : kc;
        const float ta = ca - ka, tc = nc > 1 ? cc - kc : 0.f;
        float sum = 0.f;
        for (int q = 0; q < 4; ++q) {
            const int da = q & 1, dc = q >> 1;
            const float w = (da ? ta : 1.f - ta) * (dc ? tc : 1.f - tc);
            if (!(w > 0.f)) continue;
            const int fi = AXIS == 0 ? ka + da : kc + dc, fj = AXIS == 0 ? kc + dc : ka + da;
            sum += w * faceGradient<AXIS>(g, p, blocked, aperture, fi, fj);
        }
        return -sum;
    }

    CC_HD void operator()(int k) const {
        // preferred + (-grad p) from the faces
        float vx = a.px[k] + correction<0>(a.x[k], a.y[k]);
        float vy = a.py[k] + correction<1>(a.x[k], a.y[k]);
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
