#pragma once
/// @file uic_grid.hpp
/// The UIC's grid (pressure stage g): the unilateral incompressibility
/// constraint of Narain et al. 2009 §4 bounds the density of a grid cell,
/// and the LCP (pressure.hpp) predicts a cell's density from the fluxes
/// through its own faces. So the cell must be the scale the limit is meant
/// at: a metre-sized cell that holds several people, not a 0.25 m cell that
/// one body overfills (a lone person's splat is up to 16 persons/m^2 there).
/// Solving on fine cells against a window-averaged density does not work:
/// the window barely changes when a sharp pressure moves people inside it,
/// and crowds pressed against a wall reached 6.75 persons/m^2 in 2 m x 2 m
/// windows against a limit of 5.4 (12 without the separation stage).
///
/// The UIC grid has cells of c x c fine cells (c = uicFactor(R, h), about
/// the perception radius R): density = persons / open area of the block,
/// mean preferred velocity = momentum / mass, and each face's open fraction
/// (aperture) = the mean open share of the fine faces on it, exact from the
/// scene's polygons (issue 12), so walls and doors keep their true width in
/// the solve, not a whole number of fine cells. Host+device functors, launched by uic_grid.cu.

#include <cmath>
#include <cstdint>

#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "grid.hpp"
#include "launch.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Fine cells per UIC cell side for a perception radius @p radius [m] on
/// cells of @p h [m]: round(R / h), at least 1 (R = 0: the fine grid).
/// [Units: cells] [Limit: >= 1]
inline int uicFactor(float radius, float h) {
    const long c = std::lround(radius / h);
    return c > 1 ? static_cast<int>(c) : 1;
}

/// Where the UIC grid lies on the fine grid: cells of c x c fine cells,
/// shifted by (oi, oj) fine cells, so UIC cell (I, J) covers fine columns
/// I c - oi .. I c - oi + c - 1 and rows J c - oj .. J c - oj + c - 1.
/// With model.pressure_grid_shift the UIC model moves the shift from step
/// to step (uicShift) so that no wall or door sits at one place in the
/// UIC's cells for long; otherwise it stays (0, 0).
struct UicLayout {
    int c = 1;           ///< Fine cells per UIC cell side. [Limit: >= 1]
    int oi = 0, oj = 0;  ///< Shift. [Units: fine cells] [Limit: 0..c-1]
    /// First fine column / row of UIC column @p I / row @p J (may be < 0).
    CC_HD int fineI(int I) const { return I * c - oi; }
    CC_HD int fineJ(int J) const { return J * c - oj; }
};

/// The UIC grid over a fine grid, cells of @p factor fine cells, its origin
/// the fine grid's: enough cells to cover every fine cell (the last row and
/// column may stick out of the fine grid; their outside part counts as
/// wall), and with @p movable one more row and column, so that it covers
/// the fine grid at every shift (uicGridAt) without changing its size.
GridInfo uicGrid(const GridInfo& fine, int factor, bool movable = false);

/// uicGrid(fine, layout.c, movable = true) with its origin moved by the
/// layout's shift.
GridInfo uicGridAt(const GridInfo& fine, const UicLayout& layout);

/// The shift of the UIC grid at step @p step for @p factor fine cells per
/// side: the c x c shifts in turn, every c consecutive steps (from a
/// multiple of c) taking each column shift and each row shift once, so a
/// wall's or a door's place in the UIC cells changes each step and the
/// pressure's dependence on it averages out within c^2 steps (measured:
/// bench/results/uic_grid_shift_2026-12-01_cpu2.md).
UicLayout uicShift(int factor, long long step);

/// Open area below which a UIC cell counts as wall: half a fine cell, the
/// share at which the centre rule opens a fine cell. A sliver of floor
/// behind a slanted wall would otherwise hold a person's splat over almost
/// no area and read an unbounded density. [Units: fine cells]
constexpr float kUicMinOpenCells = 0.5f;

/// Open fraction of fine cell (i, j); 0 outside the grid.
CC_HD inline float fineOpenFraction(View2<const float> open, int i, int j) {
    return i >= 0 && j >= 0 && i < open.nx && j < open.ny ? open(i, j) : 0.f;
}

/// Walls of UIC cell (I, J) from the exact sub-cell geometry (issue 12,
/// SceneGrid::open_fraction and aperture_x / aperture_y): blocked when its
/// open area is below kUicMinOpenCells fine cells; per face, the mean of
/// the c fine faces' open shares on it, so a door keeps its exact width,
/// not a whole number of fine cells (E and W, N and S of neighbours agree
/// by construction).
struct UicWallsKernel {
    UicLayout l;                              ///< The UIC grid on the fine grid.
    View2<const float> fineOpen;              ///< Open fraction. [Size: fine grid] [Limit: 0..1]
    View2<const float> apertureX;             ///< Fine x faces. [Size: (nx+1) x ny] [Limit: 0..1]
    View2<const float> apertureY;             ///< Fine y faces. [Size: nx x (ny+1)] [Limit: 0..1]
    View2<std::uint8_t> blockedOut;           ///< [Size: UIC grid]
    View2<Face4> apertureOut;                 ///< [Size: UIC grid] [Limit: 0..1]

    /// Mean open share of the c fine faces on face line @p a (x faces for
    /// AXIS 0, y faces for AXIS 1) along the block starting at @p b0; faces
    /// past the fine grid are closed.
    template <int AXIS>
    CC_HD float share(int a, int b0) const {
        const int nAlong = AXIS == 0 ? fineOpen.nx : fineOpen.ny, nAcross = AXIS == 0 ? fineOpen.ny : fineOpen.nx;
        if (a < 0 || a > nAlong) return 0.f;
        float sum = 0.f;
        for (int t = b0 > 0 ? b0 : 0; t < b0 + l.c && t < nAcross; ++t)
            sum += AXIS == 0 ? apertureX(a, t) : apertureY(t, a);
        return sum / static_cast<float>(l.c);
    }

    CC_HD void operator()(int I, int J) const {
        const int c = l.c, i0 = l.fineI(I), j0 = l.fineJ(J);
        // blocked when the block's open area is a sliver
        float open = 0.f;
        for (int j = j0; j < j0 + c; ++j)
            for (int i = i0; i < i0 + c; ++i) open += fineOpenFraction(fineOpen, i, j);
        blockedOut(I, J) = open >= kUicMinOpenCells ? 0 : 1;
        // open share of the four faces
        Face4 a;
        a.e = share<0>(i0 + c, j0);
        a.w = share<0>(i0, j0);
        a.n = share<1>(j0 + c, i0);
        a.s = share<1>(j0, i0);
        apertureOut(I, J) = a;
    }
};

/// Density and mean preferred velocity of UIC cell (I, J) from the fine
/// splat: persons in the block / its open area (the fine cells' exact open
/// fractions), momentum / mass. Fine cells outside @p fineBox hold nobody
/// (the splat wrote only the box). Mass in blocked fine cells counts (a
/// splat puts part of a person next to a wall into the wall's cell), as
/// perceive() counts it.
struct UicRestrictKernel {
    UicLayout l;                           ///< The UIC grid on the fine grid.
    CellRange fineBox;
    View2<const float> rho;                ///< Fine density. [Units: 1/m^2]
    View2<const Vel2> velocity;            ///< Fine mean preferred velocity. [Units: m/s]
    View2<const float> fineOpen;           ///< Open fraction of the fine cells. [Limit: 0..1]
    View2<float> rhoOut;                   ///< [Units: 1/m^2]
    View2<Vel2> velocityOut;               ///< [Units: m/s]

    CC_HD void operator()(int I, int J) const {
        float mass = 0.f, mx = 0.f, my = 0.f, open = 0.f;
        // fixed order: deterministic sums
        const int i0 = l.fineI(I), j0 = l.fineJ(J);
        for (int j = j0; j < j0 + l.c; ++j)
            for (int i = i0; i < i0 + l.c; ++i) {
                open += fineOpenFraction(fineOpen, i, j);
                if (i < fineBox.i0 || i >= fineBox.i1 || j < fineBox.j0 || j >= fineBox.j1) continue;
                const float r = rho(i, j);
                const Vel2 v = velocity(i, j);
                mass += r;
                mx += r * v.x;
                my += r * v.y;
            }
        rhoOut(I, J) = open >= kUicMinOpenCells ? mass / open : 0.f;
        velocityOut(I, J) = mass > 0.f ? Vel2{mx / mass, my / mass} : Vel2{};
    }
};

/// Fine pressure for output (snapshots, viewer): the UIC cell's value.
struct UicProlongKernel {
    UicLayout l;                ///< The UIC grid on the fine grid.
    View2<const float> coarse;  ///< [Units: m^2/s]
    View2<float> fine;          ///< [Units: m^2/s]
    CC_HD void operator()(int i, int j) const { fine(i, j) = coarse((i + l.oi) / l.c, (j + l.oj) / l.c); }
};

/// Writes the UIC grid's blocked mask and face apertures from the fine
/// grid's open fractions and face apertures (SceneGrid::open_fraction,
/// aperture_x, aperture_y; both outputs a UIC grid covering the fine one at
/// @p layout, uicGrid), in the UIC cells of @p box.
void uicWalls(const Exec& ex, const UicLayout& layout, const CellRange& box, View2<const float> fineOpen,
              View2<const float> apertureX, View2<const float> apertureY, View2<std::uint8_t> blockedOut,
              View2<Face4> apertureOut);

/// Restricts the fine splat (@p rho, @p velocity, written in @p fineBox) to
/// the UIC cells of @p box.
void uicRestrict(const Exec& ex, const UicLayout& layout, const CellRange& fineBox, const CellRange& box,
                 View2<const float> rho, View2<const Vel2> velocity, View2<const float> fineOpen, View2<float> rhoOut,
                 View2<Vel2> velocityOut);

/// UIC cells covering the fine cells of @p fineBox.
CellRange uicBox(const CellRange& fineBox, const UicLayout& layout);

/// Copies the UIC pressure onto every fine cell.
void uicProlong(const Exec& ex, const UicLayout& layout, View2<const float> coarse, View2<float> fine);


}  // namespace ccrowd::sim
