#pragma once
/// @file pressure.hpp
/// Pressure stage (g): Narain et al. 2009 unilateral incompressibility
/// constraint (UIC), DESIGN.md §5. Host+device per-cell maths of the
/// red-black projected SOR solve and the corrected grid velocity,
/// launched by pressure.cu.
///
/// Discretisation (per open cell c, faces d = E, N, W, S with outward unit
/// normal n and open neighbour nb; faces to blocked or outside cells carry no
/// flux):
///   rho_f = a_f (rho_c + rho_nb) / 2,  u_f = (ubar_c . n + ubar_nb . n) / 2
///   (a_f: the face's open fraction, PressureProblem::aperture)
///   F_d   = rho_f (u_f - (p_nb - p_c) / h)            outward flux [1/(m s)]
///   rho'  = rho_c - dt/h sum_d F_d                     predicted density
/// which is linear in p_c: rho' = a - b p_c with
///   a = rho_c - dt/h sum rho_f u_f + dt/h^2 sum rho_f p_nb,  b = dt/h^2 sum rho_f.
/// The LCP  p >= 0, rho_limit - rho' >= 0, p (rho_limit - rho') = 0  has a
/// symmetric M-matrix (b on the diagonal, -dt/h^2 rho_f off it), so projected
/// Gauss-Seidel converges; its cell update is p_GS = (a - rho_limit) / b.
/// Projected SOR (Cryer 1971) over-relaxes it, p_c <- max(0, p_c + omega
/// (p_GS - p_c)), and converges for 0 < omega < 2 on such matrices. On a
/// dense blob n cells wide (the hard case of tests/test_stage_pressure.cpp,
/// from p = 0) Gauss-Seidel needs 161 / 524 / 1218 sweeps for n = 16 / 32 /
/// 64, omega = 1.8 needs 35 / 54 / 171 (1.9: 78 / 80 / 74). Warm-started
/// simulation steps need far fewer; on small active sets over-relaxation can
/// cost a few sweeps more (a 10 m room emptying through a door: mean 3 -> 7,
/// max 10 -> 19), on large ones it saves the budget (a 20 m room at 4.7
/// persons/m^2: max 60, 11 of 1500 steps unconverged -> max 21, none).
/// Where the predicted density stays below the limit p_GS < 0, so p stays
/// exactly 0.
///
/// Units: p is a velocity potential [m^2/s] (grad p is a velocity).

#include <cstdint>

#include "ccrowd/field.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "launch.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Reusable buffers of the pressure solve, and what the last call left
/// behind (the solver keeps p = 0 and corrected = 0 outside the box: cells
/// of the previous box that the new box no longer covers are cleared).
struct PressureWorkspace {
    Array<float> residual;             ///< Per box cell residual of the last sweep. [Size: box cells] [Units: 1/m^2]
    const float* lastPressure = nullptr;  ///< Pressure buffer of the last call (null: none yet).
    const Vel2* lastCorrected = nullptr;  ///< Corrected-velocity buffer of the last call.
    int lastNx = 0, lastNy = 0;        ///< Grid size of the last call.
    CellRange lastBox;                 ///< Box of the last call: the only cells that may be non-zero.
};

/// Everything a pressure cell update reads.
struct PressureProblem {
    GridInfo g;                       ///< Grid geometry.
    float dt = 0.f;                   ///< Time step. [Units: s] [Limit: > 0]
    float rhoLimit = 0.f;             ///< UIC density limit. [Units: 1/m^2] [Limit: > 0]
    View2<const float> rho;           ///< Density. [Units: 1/m^2]
    View2<const Vel2> ubar;           ///< Mean preferred velocity. [Units: m/s]
    View2<const std::uint8_t> blocked;  ///< 1 = blocked cell.
    /// Open fraction of each face of each cell (coarseWalls(): the fine
    /// faces on it that join two open cells). Null: 1 between open cells.
    /// [Limit: 0..1]
    View2<const Face4> aperture;
};

/// True when (i, j) is inside the grid and not blocked.
CC_HD inline bool cellOpen(View2<const std::uint8_t> blocked, int i, int j) {
    return blocked.inside(i, j) && blocked(i, j) == 0;
}

/// Open fraction of face @p d (0 E, 1 N, 2 W, 3 S) of open cell (i, j)
/// towards its neighbour (in, jn): 0 when the neighbour is blocked or
/// outside, else the aperture (1 when there is none). [Limit: 0..1]
CC_HD inline float faceAperture(View2<const std::uint8_t> blocked, View2<const Face4> aperture, int i, int j, int d,
                                int in, int jn) {
    if (!cellOpen(blocked, in, jn)) return 0.f;
    if (!aperture.data) return 1.f;
    const Face4 a = aperture(i, j);
    return d == 0 ? a.e : (d == 1 ? a.n : (d == 2 ? a.w : a.s));
}

/// Predicted density of open cell (i, j) as a function of its own pressure:
/// rho'(p_c) = a - b p_c (Narain 2009 §4, discrete continuity; see the file
/// comment). Neighbour pressures are read from @p p.
struct PredictedDensity {
    float a = 0.f;  ///< rho' at p_c = 0. [Units: 1/m^2]
    float b = 0.f;  ///< -d rho' / d p_c. [Units: s/m^4] [Limit: >= 0]
    CC_HD float at(float pc) const { return a - b * pc; }
};

CC_HD inline PredictedDensity predictedDensity(const PressureProblem& s, View2<const float> p, int i, int j) {
    const int di[4] = {1, 0, -1, 0}, dj[4] = {0, 1, 0, -1};
    const float rc = s.rho(i, j);
    const Vel2 uc = s.ubar(i, j);
    float flux0 = 0.f, coupling = 0.f, sumRho = 0.f;  // sum rho_f u_f, sum rho_f p_nb, sum rho_f
    // faces E, N, W, S in a fixed order (deterministic sums)
    for (int d = 0; d < 4; ++d) {
        const int in = i + di[d], jn = j + dj[d];
        // walls and the grid edge carry no flux; a partly open face its open part
        const float ap = faceAperture(s.blocked, s.aperture, i, j, d, in, jn);
        if (!(ap > 0.f)) continue;
        const Vel2 un = s.ubar(in, jn);
        const float rf = ap * 0.5f * (rc + s.rho(in, jn));
        const float uf = 0.5f * ((uc.x + un.x) * di[d] + (uc.y + un.y) * dj[d]);
        flux0 += rf * uf;
        coupling += rf * p(in, jn);
        sumRho += rf;
    }
    const float h = s.g.h, k = s.dt / (h * h);
    PredictedDensity r;
    r.a = rc - s.dt / h * flux0 + k * coupling;
    r.b = k * sumRho;
    return r;
}

/// One colour of a red-black projected SOR sweep: cells with (i + j) % 2 ==
/// colour solve rho'(p_c) = rho_limit given their neighbours (the other
/// colour, not written in this pass), over-relax by omega, then clamp at 0
/// (omega = 1: projected Gauss-Seidel). Launched
/// over the half-width range: column index ii maps to the ii-th cell of this
/// colour in row j of the box. Blocked cells get p = 0.
struct PressureSweepKernel {
    PressureProblem s;
    CellRange box;       ///< Box of the solve.
    int colour = 0;      ///< 0 (red) or 1 (black).
    float omega = 1.f;   ///< Over-relaxation. [Limit: > 0, < 2]
    View2<float> p;      ///< Pressure, updated in place (this colour only). [Units: m^2/s]

    CC_HD void operator()(int ii, int j) const {
        // first cell of this colour in row j, then every second one
        const int i = box.i0 + ((colour - box.i0 - j) & 1) + 2 * ii;
        if (i >= box.i1) return;
        if (!cellOpen(s.blocked, i, j)) { p(i, j) = 0.f; return; }
        const PredictedDensity pd = predictedDensity(s, p, i, j);
        // Gauss-Seidel value: rho'(p_c) = rho_limit given the neighbours
        const float gs = pd.b > 0.f ? (pd.a - s.rhoLimit) / pd.b : 0.f;
        // over-relax, project onto p_c >= 0 (exactly 0 where rho' < limit at p_c = 0)
        const float old = p(i, j);
        const float pc = old + omega * (gs - old);
        p(i, j) = pc > 0.f ? pc : 0.f;
    }
};

/// LCP residual of a cell: the violation max(rho' - rho_limit, 0), and for
/// p > 0 the complementarity gap |rho' - rho_limit|. Written per box cell
/// (index (i - i0) + (j - j0) * width); +inf for NaN. [Units: 1/m^2]
struct PressureResidualKernel {
    PressureProblem s;
    CellRange box;
    int width = 0;     ///< box.width() (CellRange's accessors are host-only).
    View2<const float> p;
    View1<float> out;  ///< [Size: box cells]

    CC_HD void operator()(int i, int j) const {
        const int k = (i - box.i0) + (j - box.j0) * width;
        if (!cellOpen(s.blocked, i, j)) { out[k] = 0.f; return; }
        const float pc = p(i, j);
        const float d = predictedDensity(s, p, i, j).at(pc) - s.rhoLimit;
        const float r = pc > 0.f ? fabsf(d) : (d > 0.f ? d : 0.f);
        out[k] = r <= INFINITY ? r : INFINITY;  // NaN -> inf: the max stays order-independent
    }
};

/// grad p at cell (i, j): central difference over open neighbours, one-sided
/// next to a wall or the grid edge, 0 along an axis with no open neighbour
/// (DESIGN.md §5). [Units: m/s]
CC_HD inline Vel2 pressureGradient(View2<const float> p, View2<const std::uint8_t> blocked, float h, int i, int j) {
    Vel2 gp;
    const float pc = p(i, j);
    const bool e = cellOpen(blocked, i + 1, j), w = cellOpen(blocked, i - 1, j);
    const bool n = cellOpen(blocked, i, j + 1), s = cellOpen(blocked, i, j - 1);
    if (e && w) gp.x = (p(i + 1, j) - p(i - 1, j)) / (2.f * h);
    else if (e) gp.x = (p(i + 1, j) - pc) / h;
    else if (w) gp.x = (pc - p(i - 1, j)) / h;
    if (n && s) gp.y = (p(i, j + 1) - p(i, j - 1)) / (2.f * h);
    else if (n) gp.y = (p(i, j + 1) - pc) / h;
    else if (s) gp.y = (pc - p(i, j - 1)) / h;
    return gp;
}

/// Corrected grid velocity v = ubar - grad p (Narain 2009 §4); 0 in blocked cells.
struct CorrectedVelocityKernel {
    PressureProblem s;
    View2<const float> p;
    View2<Vel2> out;  ///< [Units: m/s]

    CC_HD void operator()(int i, int j) const {
        if (!cellOpen(s.blocked, i, j)) { out(i, j) = Vel2{}; return; }
        const Vel2 gp = pressureGradient(p, s.blocked, s.g.h, i, j);
        const Vel2 u = s.ubar(i, j);
        out(i, j) = Vel2{u.x - gp.x, u.y - gp.y};
    }
};

/// Zeroes pressure and corrected velocity in the cells it runs on that lie
/// outside @p keep (the current box).
struct ClearOutsideKernel {
    CellRange keep;
    View2<float> p;
    View2<Vel2> v;

    CC_HD void operator()(int i, int j) const {
        if (i >= keep.i0 && i < keep.i1 && j >= keep.j0 && j < keep.j1) return;
        p(i, j) = 0.f;
        v(i, j) = Vel2{};
    }
};

}  // namespace ccrowd::sim
