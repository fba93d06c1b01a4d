#pragma once
/// @file speed.hpp
/// Speed stage (c): the speed field f(x, theta) on the four faces of every
/// cell (Treuille et al. 2006 §4.2, eq. 10; DESIGN.md §5 "Speed field").
/// Face theta of cell x looks at the neighbour x + h n_theta: free speed
/// (fundamental diagram) below rho_min, flow speed above rho_max, linear in
/// between.

#include <math.h>

#include <cstdint>

#include "ccrowd/field.hpp"
#include "eikonal_update.hpp"
#include "grid.hpp"
#include "hd.hpp"
#include "../src/sim/stages.hpp"

namespace ccrowd::sim {

/// Weidmann 1993 fundamental diagram v(rho) = v0 (1 - exp(-gamma (1/rho -
/// 1/rho_jam))), clamped to [eps, v0]; v0 at rho <= 0 (empty cell).
/// @param rho Density. [Units: persons/m^2]  @return [Units: m/s]
CC_HD inline float weidmannSpeed(const SpeedParams& p, float rho) {
    if (!(rho > 0.f)) return p.v0;
    const float v = p.v0 * (1.f - expf(-p.gamma_fd * (1.f / rho - 1.f / p.rho_jam)));
    return minf(maxf(v, p.eps), p.v0);
}

/// Free speed fT of a face towards a neighbour of density @p rhoN
/// [persons/m^2] and terrain factor @p terrainN [Limit: >= 0]: Weidmann speed
/// times terrain, at least eps (DESIGN.md §5). [Units: m/s]
CC_HD inline float freeSpeed(const SpeedParams& p, float rhoN, float terrainN) {
    return maxf(weidmannSpeed(p, rhoN) * terrainN, p.eps);
}

/// Speed of one face (Treuille et al. 2006 eq. 10):
///   f = fT                                          rho_n <= rho_min
///   f = fT + (rho_n - rho_min)/(rho_max - rho_min) (fv - fT)   between
///   f = fv = max(v_n . n, eps)                      rho_n >= rho_max
/// @param rhoN Neighbour density. [Units: persons/m^2]
/// @param flowN Neighbour mean velocity along the face normal, v_n . n. [Units: m/s]
/// @param terrainN Neighbour terrain factor. [Limit: >= 0]
/// @return [Units: m/s] [Limit: >= eps]
CC_HD inline float faceSpeed(const SpeedParams& p, float rhoN, float flowN, float terrainN) {
    const float fT = freeSpeed(p, rhoN, terrainN);
    if (!(rhoN > p.rho_min)) return fT;
    const float fv = maxf(flowN, p.eps);
    if (rhoN >= p.rho_max) return fv;
    return fT + (rhoN - p.rho_min) / (p.rho_max - p.rho_min) * (fv - fT);
}

/// Per-cell speed functor: writes the four face speeds of cell (i, j).
/// Faces towards blocked or outside cells, and all faces of a blocked cell,
/// get eps. Null terrain / blocked views mean 1 / none blocked.
struct SpeedKernel {
    GridInfo g;
    SpeedParams p;
    View2<const float> rho;             ///< [Units: persons/m^2]
    View2<const Vel2> meanVelocity;     ///< [Units: m/s]
    View2<const float> terrain;         ///< Speed factor. [Limit: >= 0] (null: 1)
    View2<const std::uint8_t> blocked;  ///< 1 = blocked. (null: none)
    View2<Face4> out;                   ///< [Units: m/s]

    CC_HD bool open(int i, int j) const { return g.inside(i, j) && !(blocked.data && blocked(i, j)); }

    /// Face towards neighbour (ni, nj) with unit normal (nx, ny).
    CC_HD float face(int ni, int nj, float nx, float ny) const {
        if (!open(ni, nj)) return p.eps;
        const Vel2 v = meanVelocity(ni, nj);
        const float t = terrain.data ? terrain(ni, nj) : 1.f;
        return faceSpeed(p, rho(ni, nj), v.x * nx + v.y * ny, t);
    }

    CC_HD void operator()(int i, int j) const {
        Face4 f;
        // blocked cell: never crossed, any positive value
        if (!open(i, j)) {
            f.e = f.n = f.w = f.s = p.eps;
            out(i, j) = f;
            return;
        }
        // one neighbour per direction: E = +x, N = +y, W, S
        f.e = face(i + 1, j, 1.f, 0.f);
        f.n = face(i, j + 1, 0.f, 1.f);
        f.w = face(i - 1, j, -1.f, 0.f);
        f.s = face(i, j - 1, 0.f, -1.f);
        out(i, j) = f;
    }
};

}  // namespace ccrowd::sim
