#pragma once
/// @file speed.hpp
/// Speed stage (c): the speed field f(x, theta) on the four faces of every
/// cell (Treuille et al. 2006 §4.2, eq. 10; DESIGN.md §5 "Speed field").
///
/// Two steps:
///   1. perceive: the density and flow a person perceives around each cell,
///      rho~ and v~, averaged over a 2R x 2R window (R = perception radius,
///      ModelParams::perception_radius), not the splat's cell values;
///   2. faces: face theta of cell x reads rho~ and v~ at x + r n_theta, r ~ R
///      ahead (Treuille's x + r n), and takes the free speed fT (Weidmann
///      1993) below rho_min, the flow speed fv above rho_max, linear in
///      between; fv follows the direction of the flow ahead (faceSpeed()).
/// With R = 0 and ahead = 1 this is eq. 10 on the splat's cells.

#include <math.h>

#include <cmath>
#include <cstdint>

#include "ccrowd/closed_faces.hpp"
#include "ccrowd/field.hpp"
#include "eikonal_update.hpp"
#include "grid.hpp"
#include "portable_math.hpp"
#include "ccrowd/hd.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Weidmann 1993 fundamental diagram v(rho) = v0 (1 - exp(-gamma (1/rho -
/// 1/rho_jam))), clamped to [eps, v0]; v0 at rho <= 0 (empty cell).
/// @param rho Density. [Units: persons/m^2]  @return [Units: m/s]
CC_HD inline float weidmannSpeed(const SpeedParams& p, float rho) {
    if (!(rho > 0.f)) return p.v0;
    const float v = p.v0 * (1.f - portableExp(-p.gamma_fd * (1.f / rho - 1.f / p.rho_jam)));
    return minf(maxf(v, p.eps), p.v0);
}

/// Free speed fT of a face towards a neighbour of density @p rhoN
/// [persons/m^2] and terrain factor @p terrainN [Limit: >= 0]: Weidmann speed
/// times terrain, at least eps (DESIGN.md §5). [Units: m/s]
CC_HD inline float freeSpeed(const SpeedParams& p, float rhoN, float terrainN) {
    return maxf(weidmannSpeed(p, rhoN) * terrainN, p.eps);
}

// ---- perceived density ------------------------------------------------------
//
// Why: the splat's cloud-in-cell density of one person on an h = 0.25 m grid
// is up to 1/h^2 = 16 persons/m^2, so a face speed read from raw cell
// densities makes a lone walker slow itself down (Treuille et al. 2006 avoid
// self-influence by reading the density a distance r ahead). People judge
// density over about a metre, not a grid cell: rho~ = (persons in a 2R x 2R
// window) / (open area of the window). One person alone perceives at most
// 1/(2R)^2 (0.25 persons/m^2 for R = 1 m: Weidmann speed 1.339 m/s) on any
// grid, and a uniform crowd of density rho perceives rho, next to walls too
// (each cell adds its open area, exact from the wall polygons: issue 12). The window is a box, separable: pass 1 sums rows,
// pass 2 sums those along columns; weights cover exactly [-R, R].
// Limitation: the box does not stop at walls, so crowds within R behind a
// wall thinner than R are perceived too.

/// Partial sums over a perception window: pass 1 sums along x, pass 2 along
/// y. Weights w are those of windowWeight(); sums are in cell units.
struct alignas(16) WindowSums {
    float mass = 0.f;          ///< sum w rho, every cell (mass splatted into a wall cell belongs to a person next to it). [Units: persons/m^2]
    float mx = 0.f, my = 0.f;  ///< sum w rho v. [Units: persons/m^2 m/s]
    float area = 0.f;          ///< sum w x open fraction (the window's open area in cells). [Limit: >= 0]
};

/// What the faces that read a cell take from it (faceSpeed()), computed
/// once per cell by FaceReadingKernel: four faces read each cell, so the
/// exponential, the flow's length and the divisions are not repeated per
/// face.
struct alignas(16) FaceReading {
    float free = 0.f;   ///< weidmannSpeed() of the density there. [Units: m/s]
    float blend = 0.f;  ///< faceSpeed()'s a: 0 where the face speed is fT (density <= rho_min, or a flow slower than eps). [Limit: 0..1]
    float cx = 0.f, cy = 0.f;  ///< The flow's direction v / |v| (0 where blend is 0): cos(v, n) of the faces along +-x, +-y.
};

/// Reusable buffers of perceive() and speed(): the pass-1 row sums, and
/// the faces' per-cell readings (FaceReadingKernel). [Size: nx*ny]
struct PerceiveWorkspace {
    Field<WindowSums> rows;
    Field<FaceReading> reading;
};

/// Weight of the cell at offset @p d [cells] in a box window of half-width
/// @p reach = R / h [cells]: the fraction of the cell's width inside
/// [-reach, reach] (1 inside, a fraction at the ends), so the window is
/// exactly 2R wide on any grid. [Limit: 0..1]
CC_HD inline float windowWeight(int d, float reach) {
    const float w = reach + 0.5f - fabsf(static_cast<float>(d));
    return w > 1.f ? 1.f : (w > 0.f ? w : 0.f);
}

/// Largest offset with a non-zero windowWeight. [Units: cells] [Limit: >= 0]
CC_HD inline int windowCells(float reach) { return static_cast<int>(ceilf(reach + 0.5f)) - 1; }

/// windowWeight(d, reach) for |d| <= m = windowCells(reach), given the end
/// weight @p end = windowWeight(m, reach): every offset inside the ends
/// weighs exactly 1 (reach + 0.5 - |d| > 1 there, since m < reach + 0.5).
CC_HD inline float windowWeightIn(int d, int m, float end) { return d == m || d == -m ? end : 1.f; }

/// Look-ahead of the faces for a perception radius R (SpeedParams::ahead):
/// round(R / (2h)), at least 1. A face then reads the window centred about
/// R/2 ahead, which covers about [x - R/2, x + 3R/2] along the direction:
/// mostly the people ahead, with one's immediate neighbours, so the front
/// of a queue sees the space beyond a door but also the crowd pressing
/// through it. Measured with `ccrowd validate` (1 m door from a crowded
/// room, specific flow; handbooks about 1.3, experiments up to 1.9
/// persons/(m s)): window R ahead 2.24, 3R/4 ahead 1.88, R/2 ahead 1.57,
/// centred 0.7-0.9. [Units: cells]
/// @param radius R. [Units: m] [Limit: >= 0]  @param h Cell size. [Units: m] [Limit: > 0]
/// @return [Units: cells] [Limit: >= 1]
inline int aheadCells(float radius, float h) {
    const long r = std::lround(radius / (2.f * h));
    return r > 1 ? static_cast<int>(r) : 1;
}

/// Pass 1 of perceive(): window sums of cell (i, j) along x.
struct PerceiveRowsKernel {
    GridInfo g;
    float reach = 0.f;                  ///< R / h. [Limit: >= 0]
    int m = 0;                          ///< windowCells(reach).
    View2<const float> rho;             ///< Splat density. [Units: persons/m^2]
    View2<const Vel2> velocity;         ///< Mean velocity per cell. [Units: m/s]
    View2<const float> openFraction;    ///< Open share of each cell's area (SceneGrid::open_fraction; null: every cell whole). [Limit: 0..1]
    View2<WindowSums> out;

    CC_HD void operator()(int i, int j) const {
        WindowSums s;
        // cells i - m .. i + m of row j inside the grid, in a fixed order
        const int d0 = i - m < 0 ? -i : -m, d1 = i + m >= g.nx ? g.nx - 1 - i : m;
        const float* rr = &rho(i, j);
        const Vel2* vv = &velocity(i, j);
        const float* oo = openFraction.data ? &openFraction(i, j) : nullptr;
        const float end = windowWeight(m, reach);
        for (int d = d0; d <= d1; ++d) {
            const float w = windowWeightIn(d, m, end), r = w * rr[d];
            const Vel2 v = vv[d];
            s.mass += r;
            s.mx += r * v.x;
            s.my += r * v.y;
            s.area += oo ? w * oo[d] : w;
        }
        out(i, j) = s;
    }
};

/// Pass 2 of perceive(): sums of the rows j - m .. j + m, then
/// rho~ = mass / area and v~ = momentum / mass (0 where empty).
struct PerceiveColumnsKernel {
    GridInfo g;
    float reach = 0.f;
    int m = 0;
    View2<const WindowSums> rows;  ///< Pass-1 sums.
    View2<float> rhoOut;           ///< Perceived density. [Units: persons/m^2]
    View2<Vel2> velocityOut;       ///< Perceived velocity. [Units: m/s]

    CC_HD void operator()(int i, int j) const {
        WindowSums s;
        // rows j - m .. j + m inside the grid, in a fixed order
        const int d0 = j - m < 0 ? -j : -m, d1 = j + m >= g.ny ? g.ny - 1 - j : m;
        const float end = windowWeight(m, reach);
        for (int d = d0; d <= d1; ++d) {
            const int k = j + d;
            const float w = windowWeightIn(d, m, end);
            const WindowSums r = rows(i, k);
            s.mass += w * r.mass;
            s.mx += w * r.mx;
            s.my += w * r.my;
            s.area += w * r.area;
        }
        // persons per open m^2 of the window; mass-weighted mean velocity
        rhoOut(i, j) = s.area > 0.f ? s.mass / s.area : 0.f;
        velocityOut(i, j) = s.mass > 0.f ? Vel2{s.mx / s.mass, s.my / s.mass} : Vel2{};
    }
};

// ---- face speed ---------------------------------------------------------------

/// The last step of faceSpeed(): from the free speed fT, the blend a and
/// c = cos(v_n, n), f = fT + a (fv - fT) with fv = max(fT min(1, 1 + c), eps).
/// [Units: m/s]
CC_HD inline float blendedFaceSpeed(const SpeedParams& p, float fT, float a, float c) {
    // flow speed: fT unless walking against the flow (then down to eps)
    const float fv = maxf(fT * minf(1.f, 1.f + c), p.eps);
    // blend by density (Treuille eq. 10)
    return fT + a * (fv - fT);
}

/// Treuille 2006 eq. 10's blend a = (rho - rho_min) / (rho_max - rho_min)
/// of a density @p rho above rho_min [persons/m^2], 1 from rho_max on.
/// [Limit: 0..1]
CC_HD inline float densityBlend(const SpeedParams& p, float rho) {
    return rho >= p.rho_max ? 1.f : (rho - p.rho_min) / (p.rho_max - p.rho_min);
}

/// Speed of one face: Treuille et al. 2006 eq. 10 with the flow speed
/// taken from the direction of the crowd ahead, not from its speed:
///   fT = Weidmann(rho_n) x terrain (at least eps)
///   c  = cos(v_n, n), the crowd ahead's direction against the face's
///        (1 when |v_n| < eps: nobody there walks, nothing to follow)
///   fv = max(fT min(1, 1 + c), eps): fT along or across the flow, down to
///        eps straight against it (a counter-flow)
///   f  = fT + a (fv - fT),  a = (rho_n - rho_min)/(rho_max - rho_min) in [0, 1]
/// so f <= fT always. Why not eq. 10's fv = v_n . n: with fT already
/// Weidmann's speed of the density, the crowd's own speed fed back through
/// fv is a neutral loop above rho_max (f = v = any speed) that amplifies
/// every loss between the face speed and the walking speed, and fv = 0
/// across the flow draws everyone into the fastest lane: in a corridor at
/// 3-4.5 persons/m^2 the crowd walked 45-56% slower than Weidmann's curve
/// (issue 17; `ccrowd validate`, fundamental diagram). Density slows the
/// crowd through fT; the flow term makes walking against it slow.
/// @param weidmannN weidmannSpeed(p, rhoN). [Units: m/s]
/// @param rhoN Density read for the face (perceived ahead). [Units: persons/m^2]
/// @param flowN Mean velocity there. [Units: m/s]
/// @param nx,ny The face's outward unit normal.
/// @param terrainN Neighbour terrain factor. [Limit: >= 0]
/// @return [Units: m/s] [Limit: eps..fT]
CC_HD inline float faceSpeed(const SpeedParams& p, float weidmannN, float rhoN, Vel2 flowN, float nx, float ny,
                             float terrainN) {
    const float fT = maxf(weidmannN * terrainN, p.eps);  // freeSpeed(), its Weidmann speed given
    if (!(rhoN > p.rho_min)) return fT;
    // direction of the flow ahead against the face's
    const float sp = sqrtf(flowN.x * flowN.x + flowN.y * flowN.y);
    const float c = sp >= p.eps ? (flowN.x * nx + flowN.y * ny) / sp : 1.f;
    return blendedFaceSpeed(p, fT, densityBlend(p, rhoN), c);
}

/// The reading of a cell of density @p rho [persons/m^2] and flow @p flow
/// [m/s] (FaceReading). With it, faceSpeedOf() gives faceSpeed()'s bits for
/// the axis normals: for n = (+-1, 0), flow . n / |v| is +-(v.x / |v|) up to
/// the sign of a zero, which 1 + c does not see; where faceSpeed() takes
/// c = 1 (a flow slower than eps), fv = fT and f = fT, as blend 0 gives.
CC_HD inline FaceReading faceReading(const SpeedParams& p, float rho, Vel2 flow) {
    FaceReading r;
    r.free = weidmannSpeed(p, rho);
    if (!(rho > p.rho_min)) return r;
    const float sp = sqrtf(flow.x * flow.x + flow.y * flow.y);
    if (!(sp >= p.eps)) return r;
    r.cx = flow.x / sp;
    r.cy = flow.y / sp;
    r.blend = densityBlend(p, rho);
    return r;
}

/// Face speed from a cell's FaceReading @p r, @p c its cx or cy signed by
/// the face's normal, @p terrainN the neighbour's terrain factor: faceSpeed()'s
/// bits. [Units: m/s]
CC_HD inline float faceSpeedOf(const SpeedParams& p, const FaceReading& r, float c, float terrainN) {
    const float fT = maxf(r.free * terrainN, p.eps);
    // blend 0: fT (sparse, or nobody walks there); a zero blend gives fT + 0
    if (!(r.blend > 0.f)) return fT;
    return blendedFaceSpeed(p, fT, r.blend, c);
}

/// Per-cell FaceReading of the density and flow the faces read.
struct FaceReadingKernel {
    SpeedParams p;
    View2<const float> rho;   ///< [Units: persons/m^2]
    View2<const Vel2> flow;   ///< [Units: m/s]
    View2<FaceReading> out;
    CC_HD void operator()(int i, int j) const { out(i, j) = faceReading(p, rho(i, j), flow(i, j)); }
};

/// Per-cell speed functor: writes the four face speeds of cell (i, j).
/// Faces towards blocked or outside cells, closed faces (a thin wall or a
/// too-narrow gap on them) and all faces of a blocked cell get eps. Null
/// terrain / blocked / closed views mean 1 / none blocked / none closed.
struct SpeedKernel {
    GridInfo g;
    SpeedParams p;
    View2<const float> rho;             ///< Density the faces read (perceived, or the splat's). [Units: persons/m^2]
    View2<const Vel2> meanVelocity;     ///< Flow the faces read (same). [Units: m/s]
    View2<const float> terrain;         ///< Speed factor. [Limit: >= 0] (null: 1)
    View2<const std::uint8_t> blocked;  ///< 1 = blocked. (null: none)
    View2<Face4> out;                   ///< [Units: m/s]
    View2<const std::uint8_t> closed;   ///< Closed faces, ccrowd/closed_faces.hpp bits. (null: none)
    View2<const FaceReading> reading;   ///< faceReading() of rho and meanVelocity per cell (FaceReadingKernel; null: computed per face).

    CC_HD bool open(int i, int j) const { return g.inside(i, j) && !(blocked.data && blocked(i, j)); }

    /// Face towards the neighbour (i + di, j + dj): walls and terrain of the
    /// neighbour; density and flow read p.ahead cells along the direction
    /// (Treuille's x + r n; clamped to the grid, a blocked cell there still
    /// holds its window's perceived values).
    CC_HD float face(int i, int j, int di, int dj) const {
        if (!open(i + di, j + dj) || (closed.data && (closed(i, j) & closedFaceBit(di, dj)))) return p.eps;
        int ai = i + p.ahead * di, aj = j + p.ahead * dj;
        ai = ai < 0 ? 0 : (ai >= g.nx ? g.nx - 1 : ai);
        aj = aj < 0 ? 0 : (aj >= g.ny ? g.ny - 1 : aj);
        const float t = terrain.data ? terrain(i + di, j + dj) : 1.f;
        const FaceReading r = reading.data ? reading(ai, aj) : faceReading(p, rho(ai, aj), meanVelocity(ai, aj));
        // cos(v, n) for n = (di, dj)
        const float c = di > 0 ? r.cx : (di < 0 ? -r.cx : (dj > 0 ? r.cy : -r.cy));
        return faceSpeedOf(p, r, c, t);
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
        f.e = face(i, j, 1, 0);
        f.n = face(i, j, 0, 1);
        f.w = face(i, j, -1, 0);
        f.s = face(i, j, 0, -1);
        out(i, j) = f;
    }
};

}  // namespace ccrowd::sim
