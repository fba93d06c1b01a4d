#pragma once
/// @file agents.hpp
/// Agents stage (h): per-agent velocity from the preferred velocity and the
/// pressure correction (Narain et al. 2009 §4, DESIGN.md §5), and advection
/// that never crosses a wall (walls.hpp: the scene's true wall edges).
/// Host+device; launched by agents.cu.

#include <cstdint>

#include "ccrowd/field.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "pressure.hpp"
#include "stages.hpp"
#include "walls.hpp"

namespace ccrowd::sim {

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

/// Both face gradients of cell (i, j), its W face (x: faceGradient<0>) and
/// its S face (y: faceGradient<1>), per cell of the pressure's grid, so
/// that the agents standing around a face (AgentVelocityKernel: four faces
/// per axis and agent) do not evaluate it again each. [Units: m/s]
struct FaceGradientKernel {
    GridInfo g;
    View2<const float> p;                ///< Pressure. [Units: m^2/s]
    View2<const std::uint8_t> blocked;
    View2<const Face4> aperture;         ///< Open fraction of faces (null: 1 between open cells).
    View2<Vel2> out;                     ///< x: W face, y: S face. [Units: m/s]
    CC_HD void operator()(int i, int j) const {
        out(i, j) = Vel2{faceGradient<0>(g, p, blocked, aperture, i, j), faceGradient<1>(g, p, blocked, aperture, i, j)};
    }
};

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
    View2<const Vel2> gradient;          ///< FaceGradientKernel's faces (null: each face computed where read). [Units: m/s]

    /// faceGradient<AXIS>(fi, fj), from @p gradient when given: the face at
    /// the grid's far edge (fi = nx, fj = ny), outside it, is 0 as
    /// faceGradient gives it. [Units: m/s]
    template <int AXIS>
    CC_HD float face(int fi, int fj) const {
        if (!gradient.data) return faceGradient<AXIS>(g, p, blocked, aperture, fi, fj);
        if (AXIS == 0) return fi < g.nx ? gradient(fi, fj).x : 0.f;
        return fj < g.ny ? gradient(fi, fj).y : 0.f;
    }

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
            sum += w * face<AXIS>(fi, fj);
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

/// Advection x += v dt (explicit Euler) that never crosses a wall edge
/// (moveConfined, walls.hpp: a point inside a wall is first moved out); the
/// velocity's component into a wall met on the way is removed; then the
/// body is kept @p clearance away from the walls (keepClearOfWalls).
struct AdvectKernel {
    AgentViews a;
    WallView walls;
    float dt = 0.f;         ///< [Units: s] [Limit: >= 0]
    float clearance = 0.f;  ///< Body radius kept from walls (0: the centre only). [Units: m] [Limit: >= 0]

    CC_HD void operator()(int k) const {
        float vx = a.vx[k], vy = a.vy[k];
        float x = a.x[k], y = a.y[k];
        const ConfinedMove m = escapeAndMove(walls, x, y, vx * dt, vy * dt);
        x = m.x;
        y = m.y;
        keepClearOfWalls(walls, clearance, x, y);
        // a wall met stops the velocity's part into it
        const float into = vx * m.nx + vy * m.ny;
        if (m.hit && into < 0.f) { vx -= into * m.nx; vy -= into * m.ny; }
        a.x[k] = x;
        a.y[k] = y;
        a.vx[k] = vx;
        a.vy[k] = vy;
    }
};

}  // namespace ccrowd::sim
