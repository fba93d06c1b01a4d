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
/// Sweeps skip what cannot change: a cell whose predicted density at zero
/// pressure is at most the limit (not "hot", PressureCellKernel) keeps p = 0
/// and a zero residual while its own and its four neighbours' pressures are
/// 0, so such a cell is passed over after reading those five values, bit
/// for bit the result of updating it. Where the crowd is thin (most of a
/// large scene) a sweep then reads only the pressure field.
///
/// Units: p is a velocity potential [m^2/s] (grad p is a velocity).

#include <cstdint>

#include "ccrowd/field.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "launch.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// What stays fixed in a cell's predicted density during a solve
/// (Narain 2009 §4, the file comment): rho'(p_c) = a0 + k sum_d rf_d p_nb(d)
/// - b p_c with k = dt/h^2. Computed once per solve by PressureCellKernel,
/// so a sweep reads one cell record and four neighbour pressures.
struct PressureCell {
    float a0 = 0.f;     ///< rho_c - dt/h sum_d rho_f u_f. [Units: 1/m^2]
    float rf[4] = {};   ///< rho_f of faces E, N, W, S; 0 where the face carries no flux. [Units: 1/m^2]
    float b = -1.f;     ///< k sum_d rho_f; < 0 marks a blocked cell (p = 0). [Units: s/m^4]
};

/// Reusable buffers of the pressure solve, and what the last call left
/// behind (the solver keeps p = 0 and corrected = 0 outside the box: cells
/// of the previous box that the new box no longer covers are cleared).
struct PressureWorkspace {
    Array<PressureCell> cells;         ///< Per box cell coefficients of the solve (PressureCellKernel). [Size: box cells]
    Array<std::uint8_t> hot;           ///< Per box cell: 1 where the cell is hot (PressureCellKernel). [Size: box cells]
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

/// The coefficients of open cell (i, j)'s predicted density (Narain 2009
/// §4, discrete continuity; see the file comment); b < 0 for a blocked cell.
struct PressureCellKernel {
    PressureProblem s;
    CellRange box;
    int width = 0;             ///< box.width() (CellRange's accessors are host-only).
    float rhoLimit = 0.f;      ///< UIC density limit. [Units: 1/m^2]
    View1<PressureCell> out;   ///< [Size: box cells]
    View1<std::uint8_t> hot;   ///< 1 where the cell is open and its predicted density at p = 0 is above the limit (or NaN). [Size: box cells]

    CC_HD void operator()(int i, int j) const {
        PressureCell c;
        if (cellOpen(s.blocked, i, j)) {
            const int di[4] = {1, 0, -1, 0}, dj[4] = {0, 1, 0, -1};
            const float rc = s.rho(i, j);
            const Vel2 uc = s.ubar(i, j);
            float flux0 = 0.f, sumRho = 0.f;  // sum rho_f u_f, sum rho_f
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
                sumRho += rf;
                c.rf[d] = rf;
            }
            const float h = s.g.h;
            c.a0 = rc - s.dt / h * flux0;
            c.b = s.dt / (h * h) * sumRho;
        }
        const int q = (i - box.i0) + (j - box.j0) * width;
        out[q] = c;
        hot[q] = !(c.b < 0.f) && !(c.a0 - rhoLimit <= 0.f) ? 1 : 0;
    }
};

/// The pressures of cell (i, j) and of its neighbours E, N, W, S; a
/// neighbour outside the grid reads the cell itself (its face has rf = 0).
struct PressureAround {
    float c = 0.f, e = 0.f, n = 0.f, w = 0.f, s = 0.f;  ///< [Units: m^2/s]
};

CC_HD inline PressureAround pressureAround(View2<const float> p, int i, int j) {
    const int ie = i + 1 < p.nx ? i + 1 : i, iw = i > 0 ? i - 1 : i;
    const int jn = j + 1 < p.ny ? j + 1 : j, js = j > 0 ? j - 1 : j;
    return PressureAround{p(i, j), p(ie, j), p(i, jn), p(iw, j), p(i, js)};
}

/// True when a cell can be passed over: not hot, and its own and its
/// neighbours' pressures are 0 (the file comment).
CC_HD inline bool pressureIdle(std::uint8_t hot, const PressureAround& a) {
    return !hot && a.c == 0.f && a.e == 0.f && a.n == 0.f && a.w == 0.f && a.s == 0.f;
}

/// Predicted density of an open cell at its own pressure @p pc, given its
/// neighbours' pressures: a0 + k sum_d rf_d p_nb - b pc (the file comment).
CC_HD inline float predictedDensity(const PressureCell& c, float k, const PressureAround& a, float pc) {
    // faces E, N, W, S in a fixed order (deterministic sums)
    float coupling = 0.f;
    coupling += c.rf[0] * a.e;
    coupling += c.rf[1] * a.n;
    coupling += c.rf[2] * a.w;
    coupling += c.rf[3] * a.s;
    return c.a0 + k * coupling - c.b * pc;
}

/// One colour of a red-black projected SOR sweep: cells with (i + j) % 2 ==
/// colour solve rho'(p_c) = rho_limit given their neighbours (the other
/// colour, not written in this pass), over-relax by omega, then clamp at 0
/// (omega = 1: projected Gauss-Seidel). Launched
/// over the half-width range: column index ii maps to the ii-th cell of this
/// colour in row j of the box. Blocked cells get p = 0; idle cells
/// (pressureIdle) keep their 0.
struct PressureSweepKernel {
    CellRange box;       ///< Box of the solve.
    int width = 0;       ///< box.width().
    View1<const PressureCell> cells;  ///< PressureCellKernel's output. [Size: box cells]
    View1<const std::uint8_t> hot;    ///< PressureCellKernel's output. [Size: box cells]
    float k = 0.f;       ///< dt / h^2. [Units: s/m^2]
    float rhoLimit = 0.f;  ///< UIC density limit. [Units: 1/m^2]
    int colour = 0;      ///< 0 (red) or 1 (black).
    float omega = 1.f;   ///< Over-relaxation. [Limit: > 0, < 2]
    View2<float> p;      ///< Pressure, updated in place (this colour only). [Units: m^2/s]

    CC_HD void operator()(int ii, int j) const {
        // first cell of this colour in row j, then every second one
        const int i = box.i0 + ((colour - box.i0 - j) & 1) + 2 * ii;
        if (i >= box.i1) return;
        const int q = (i - box.i0) + (j - box.j0) * width;
        const PressureAround around = pressureAround(p, i, j);
        if (pressureIdle(hot[q], around)) return;
        const PressureCell c = cells[q];
        if (c.b < 0.f) { p(i, j) = 0.f; return; }
        // Gauss-Seidel value: rho'(p_c) = rho_limit given the neighbours
        const float a = predictedDensity(c, k, around, 0.f);
        const float gs = c.b > 0.f ? (a - rhoLimit) / c.b : 0.f;
        // over-relax, project onto p_c >= 0 (exactly 0 where rho' < limit at p_c = 0)
        const float old = around.c;
        const float pc = old + omega * (gs - old);
        p(i, j) = pc > 0.f ? pc : 0.f;
    }
};

/// LCP residual of a cell: the violation max(rho' - rho_limit, 0), and for
/// p > 0 the complementarity gap |rho' - rho_limit|. Written per box cell
/// (index (i - i0) + (j - j0) * width); +inf for NaN; 0 for idle cells
/// (pressureIdle). [Units: 1/m^2]
struct PressureResidualKernel {
    CellRange box;
    int width = 0;     ///< box.width() (CellRange's accessors are host-only).
    View1<const PressureCell> cells;  ///< PressureCellKernel's output. [Size: box cells]
    View1<const std::uint8_t> hot;    ///< PressureCellKernel's output. [Size: box cells]
    float k = 0.f;     ///< dt / h^2. [Units: s/m^2]
    float rhoLimit = 0.f;  ///< UIC density limit. [Units: 1/m^2]
    View2<const float> p;
    View1<float> out;  ///< [Size: box cells]

    CC_HD void operator()(int i, int j) const {
        const int q = (i - box.i0) + (j - box.j0) * width;
        const PressureAround around = pressureAround(p, i, j);
        if (pressureIdle(hot[q], around)) { out[q] = 0.f; return; }
        const PressureCell c = cells[q];
        if (c.b < 0.f) { out[q] = 0.f; return; }
        const float pc = around.c;
        const float d = predictedDensity(c, k, around, pc) - rhoLimit;
        const float r = pc > 0.f ? fabsf(d) : (d > 0.f ? d : 0.f);
        out[q] = r <= INFINITY ? r : INFINITY;  // NaN -> inf: the max stays order-independent
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
