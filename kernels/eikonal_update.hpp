#pragma once
/// @file eikonal_update.hpp
/// The one Godunov upwind local solver of the eikonal equation |grad phi| = C,
/// shared by FIM (CPU and CUDA) and FMM, so benchmarks compare algorithms,
/// not two copies of the maths.

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ccrowd/face_cost.hpp"
#include "ccrowd/hd.hpp"

namespace ccrowd {

/// min/max without the NaN handling of fminf/fmaxf (which compilers turn into
/// library calls); the solver never sees NaN.
CC_HD inline float minf(float a, float b) { return b < a ? b : a; }
CC_HD inline float maxf(float a, float b) { return a < b ? b : a; }

/// Two-sided candidate: the root phi >= max(a, b) of
/// ((phi - a) / A)^2 + ((phi - b) / B)^2 = 1, or +inf when there is none
/// (an unknown neighbour, a negative discriminant, or a root below a or b).
/// With d = b - a: phi = a + (A^2 d + A B sqrt(A^2 + B^2 - d^2)) / (A^2 + B^2).
CC_HD inline float eikonalTwoSided(float a, float A, float b, float B) {
    if (!(a < INFINITY) || !(b < INFINITY)) return INFINITY;
    const float d = b - a, A2 = A * A, B2 = B * B, s = A2 + B2;
    const float disc = s - d * d;
    if (disc < 0.f) return INFINITY;
    const float p = a + (A2 * d + A * B * sqrtf(disc)) / s;
    return p < maxf(a, b) ? INFINITY : p;
}

/// Whether eikonalWithTwoSided computes every root (true) or skips those
/// that cannot win (false). Skipping takes the fewest instructions (every
/// root takes 9% more in eikonalUpdateFaces on `bench eikonal`'s crowd
/// case at 256^2, callgrind), and a CPU core runs past the skips' branches
/// out of order. A GPU warp issues in order: with skips, each root of a
/// cell waits for the one before (its skip test reads the running
/// minimum) and the lanes diverge on the tests; without, a cell's roots do
/// not depend on each other and overlap, and a sweep on a GPU is bound by
/// that chain, not by issue (bench/results/gpu_h200_2026-11-30.md: the
/// schedulers issue in 2.1% of cycles). The same bits either way (tested:
/// EikonalLocal.RootsAtOnceGiveTheBitsOfTheSkippingChain); the same 134
/// registers per thread in the solve kernel (ptxas, sm_90). Not yet timed
/// on a GPU (bench/results/fim_roots_at_once_2026-12-02_cpu2.md).
#if defined(__CUDA_ARCH__)
constexpr bool kEikonalRootsAtOnce = true;
#else
constexpr bool kEikonalRootsAtOnce = false;
#endif

/// min(@p m, eikonalTwoSided(a, A, b, B)) for a running minimum @p m of
/// one-sided values: the root is never below max(a, b) (eikonalTwoSided
/// returns +inf then), so when m <= max(a, b) it cannot win and, unless
/// AT_ONCE (kEikonalRootsAtOnce), its square root and division are skipped.
/// The same bits as the minimum itself (a NaN root, 0/0 at zero costs, is
/// minf's dropped second operand, as a skip keeps m); in a crowd's
/// potential most pairs have a neighbour a face cost or more above the
/// other, and on the CPU their root is never computed.
template <bool AT_ONCE = kEikonalRootsAtOnce>
CC_HD inline float eikonalWithTwoSided(float m, float a, float A, float b, float B) {
    if (!AT_ONCE && !(m > maxf(a, b))) return m;
    return minf(m, eikonalTwoSided(a, A, b, B));
}

/// Isotropic two-sided update (all four faces cost A): with d = a - b,
/// |d| >= A gives the one-sided min(a, b) + A, else the root of
/// (phi - a)^2 + (phi - b)^2 = A^2, phi = (a + b + sqrt(2 A^2 - d^2)) / 2,
/// which lies in [max(a, b), min(a, b) + A]. No division.
CC_HD inline float eikonalIsotropic(float a, float b, float A) {
    const float lo = minf(a, b);
    if (!(lo < INFINITY)) return INFINITY;
    const float d = a - b;  // +-inf when one side is unknown: one-sided
    const float one = lo + A;
    if (fabsf(d) >= A) return one;
    return minf(one, 0.5f * (a + b + sqrtf(2.f * A * A - d * d)));  // min: rounding never exceeds one-sided
}

/// eikonalUpdate (below) for any faces, with float compares: closed faces,
/// anisotropic costs, and the rest. AT_ONCE: kEikonalRootsAtOnce.
template <bool AT_ONCE = kEikonalRootsAtOnce>
CC_HD CC_HOST_NOINLINE float eikonalUpdateFaces(float pE, float pW, float pN, float pS, const FaceCost& c, float h) {
    // closed faces: their neighbours are never upwind
    if (!(c.e < INFINITY)) pE = INFINITY;
    if (!(c.w < INFINITY)) pW = INFINITY;
    if (!(c.n < INFINITY)) pN = INFINITY;
    if (!(c.s < INFINITY)) pS = INFINITY;
    // each axis isotropic: its smaller neighbour is upwind; one pair decides
    if (c.e == c.w && c.n == c.s) {
        const float a = minf(pE, pW), b = minf(pN, pS), A = c.e * h, B = c.n * h;
        if (A == B) return eikonalIsotropic(a, b, A);
        return eikonalWithTwoSided<AT_ONCE>(minf(a + A, b + B), a, A, b, B);
    }
    // anisotropic: in y the neighbour with the lower one-sided value, in x
    // both: the lower of the two pairs' roots is the root of the x term's
    // max (so no x neighbour is chosen, and a sweep along x, whose cells
    // each wait for the one before, need not wait for that choice)
    const float hE = c.e * h, hW = c.w * h, hN = c.n * h, hS = c.s * h;
    const bool north = pN + hN <= pS + hS;
    const float b = north ? pN : pS, B = north ? hN : hS, b2 = north ? pS : pN, B2 = north ? hS : hN;
    const float r = eikonalWithTwoSided<AT_ONCE>(
        eikonalWithTwoSided<AT_ONCE>(minf(minf(pE + hE, pW + hW), b + B), pE, hE, b, B), pW, hW, b, B);
    // r is the root when the chosen y line dominates at r (then the Godunov
    // sum equals the pairs', one of which is 1 at r); else every pair: r
    // holds those of y, the other y neighbour's are added
    if ((r - b2) * B <= (r - b) * B2) return r;
    return eikonalWithTwoSided<AT_ONCE>(eikonalWithTwoSided<AT_ONCE>(minf(r, b2 + B2), pE, hE, b2, B2), pW, hW, b2,
                                        B2);
}

/// Potential of cell M from its four neighbours' potentials (+inf when
/// unknown, blocked or outside) and M's face costs, cell size h [m].
///
/// Godunov upwind discretisation of |grad phi| = C with a cost per face
/// (DESIGN.md §5, seed 003 eq. (7)-(8), Treuille et al. 2006 §4.3):
///   max((phi - phi_E)/(C_E h), (phi - phi_W)/(C_W h), 0)^2
/// + max((phi - phi_N)/(C_N h), (phi - phi_S)/(C_S h), 0)^2 = 1.
/// Its root is the smallest of the one-sided values phi_m + C_m h and the
/// two-sided roots of the x/y neighbour pairs (eikonalTwoSided). When both
/// faces of an axis cost the same, the pair is the smaller neighbour of each
/// axis (the usual "argmin per axis" rule) and one root suffices (and when
/// all four faces cost the same, eikonalIsotropic needs no division).
/// Otherwise the lower of the roots of the pairs (E, y) and (W, y), y the
/// y neighbour of lower one-sided value, is kept when y's term dominates
/// the other y neighbour's at that value (so it is the Godunov root), and
/// all four pairs count when it does not: the update stays monotone in
/// the neighbours (needed for FIM and FMM to reach the same, unique solution).
/// A face of cost +inf is closed (SceneGrid::closed_faces: a thin wall or a
/// gap narrower than a body): its neighbour counts as unknown.
/// Never NaN for positive costs; +inf when all neighbours are +inf.
///
/// Four open faces of one cost are told by two integer compares of the
/// costs' bits and updated inline (eikonalIsotropic); every other cell goes
/// out of line to eikonalUpdateFaces, which takes the same decisions with
/// float compares, so both give the same bits. On the `bench eikonal` cases
/// (isotropic) this is a quarter of the FIM's instructions
/// (bench/results/fim_update_2026-11-29_cpu2.md).
CC_HD inline float eikonalUpdate(float pE, float pW, float pN, float pS, const FaceCost& c, float h) {
    // (e, n) == (w, s) and e == n as bits, positive and finite (below the
    // bits of +inf): the isotropic update, as eikonalUpdateFaces decides it
    uint64_t en, ws;
    memcpy(&en, &c.e, sizeof en);
    memcpy(&ws, &c.w, sizeof ws);
    if (en == ws) {
        const uint32_t lo = static_cast<uint32_t>(en), hi = static_cast<uint32_t>(en >> 32);
        if (lo == hi && lo < 0x7F800000u) return eikonalIsotropic(minf(pE, pW), minf(pN, pS), c.e * h);
    }
    return eikonalUpdateFaces(pE, pW, pN, pS, c, h);
}

/// Candidate of one triangle of the 8-neighbour stencil: cell M's axis
/// neighbour A (potential @p a, a cell size away) and the diagonal neighbour
/// D beside it (potential @p d, sqrt(2) cell sizes away), with @p F the
/// cost of a cell size [s]. The front is linear along the edge A-D; the
/// value is the lowest over the edge's points P(t) = A + t (D - A) of
/// (1 - t) a + t d + F sqrt(1 + t^2), t in [0, 1] (the simplex update of
/// Tsitsiklis 1995, IEEE TAC 40(9), and of the ordered upwind methods of
/// Sethian & Vladimirsky 2003, SINUM 41(1), §3 on the 8-neighbour grid).
/// With delta = a - d: a + F when delta <= 0 (t = 0), d + sqrt(2) F when
/// delta^2 >= F^2 / 2 (t = 1), else a + sqrt(F^2 - delta^2). Monotone
/// non-decreasing in a and d, continuous, +inf when both are +inf.
CC_HD CC_FORCEINLINE float eikonalTriangle(float a, float d, float F) {
    const float delta = a - d;  // +inf when only d is known: t = 1
    if (!(delta > 0.f)) return a + F;
    if (delta * delta >= 0.5f * F * F) return d + 1.41421356f * F;
    return a + sqrtf(F * F - delta * delta);
}

/// Triangles of the 8-neighbour stencil, as bits of EikonalStencil::tri:
/// the triangle of axis neighbour A and diagonal neighbour D (kTriENE: A
/// east, D north-east).
enum EikonalTriangle : unsigned {
    kTriENE = 1u, kTriNNE = 2u, kTriWNW = 4u, kTriNNW = 8u,
    kTriWSW = 16u, kTriSSW = 32u, kTriESE = 64u, kTriSSE = 128u
};

/// Cell M's eight neighbours as the 8-neighbour update reads them:
/// potentials (+inf when unknown, blocked or outside) and which triangles
/// may carry the front: a triangle's axis neighbour A is an open grid cell
/// (not blocked, not outside) and the face between A and the diagonal
/// neighbour D is open (not a closed face, SceneGrid::closed_faces), so the
/// front never passes between two blocked cells that touch at a corner nor
/// round the corner of a thin wall.
struct EikonalStencil {
    float e, w, n, s;      ///< Axis neighbours (i+1, j), (i-1, j), (i, j+1), (i, j-1). [Units: s]
    float ne, nw, sw, se;  ///< Diagonal neighbours (i+1, j+1), (i-1, j+1), (i-1, j-1), (i+1, j-1). [Units: s]
    unsigned tri;          ///< EikonalTriangle bits of the triangles that may carry the front.
};

/// EikonalStencil::tri from the axis neighbours that are open grid cells
/// (@p oe, @p ow, @p on, @p os) and the faces between each axis neighbour
/// and the diagonal neighbours beside it that are open (@p eN: between the
/// east and the north-east neighbour, and so on). The one mapping of the
/// triangle rule, whatever a solver keeps its walls in.
CC_HD inline unsigned eikonalTriangles(bool oe, bool ow, bool on, bool os, bool eN, bool eS, bool wN, bool wS, bool nE,
                                       bool nW, bool sE, bool sW) {
    return (oe && eN ? kTriENE : 0u) | (oe && eS ? kTriESE : 0u) | (ow && wN ? kTriWNW : 0u) | (ow && wS ? kTriWSW : 0u) |
           (on && nE ? kTriNNE : 0u) | (on && nW ? kTriNNW : 0u) | (os && sE ? kTriSSE : 0u) | (os && sW ? kTriSSW : 0u);
}

/// The two triangles of the diagonal D (potential @p d) between M's faces
/// of costs @p ca (towards axis neighbour @p a) and @p cb (towards @p b),
/// usable as @p useA / @p useB say, against the best value so far @p r. A
/// diagonal is used only when both of M's faces beside it are open. Both
/// triangles cost max(ca, cb) h per cell size (never less than a face they
/// lie between; the same on every face when the costs are isotropic). Each
/// triangle is at least d + F: none can beat r when d + F >= r, and none is
/// evaluated then.
CC_HD CC_FORCEINLINE float eikonalDiagonal(float r, float a, float ca, bool useA, float b, float cb, bool useB, float d, float h) {
    if (!(ca < INFINITY) || !(cb < INFINITY)) return r;
    const float F = maxf(ca, cb) * h;
    if (!(d + F < r)) return r;
    // both triangles cost F and eikonalTriangle never falls as its axis
    // value rises: the lower usable axis neighbour's triangle is the lower
    const float lo = minf(useA ? a : INFINITY, useB ? b : INFINITY);
    if (!(useA || useB)) return r;
    return minf(r, eikonalTriangle(lo, d, F));
}

/// Potential of cell M from its eight neighbours: the 4-neighbour Godunov
/// update (eikonalUpdate) and the triangles of the four diagonals
/// (eikonalDiagonal), the lowest. On open ground the 4-neighbour update
/// alone is exact along the axes and 1.2% high along the diagonals 126
/// cells from a point source; with the diagonals the largest deviation is
/// about 0.3%, at 22.5 degrees (tests/test_eikonal_accuracy.cpp). Monotone
/// in every neighbour, so FIM and FMM reach the same unique solution.
CC_HD CC_FORCEINLINE float eikonalUpdate8(const EikonalStencil& p, const FaceCost& c, float h) {
    float r = eikonalUpdate(p.e, p.w, p.n, p.s, c, h);
    r = eikonalDiagonal(r, p.e, c.e, p.tri & kTriENE, p.n, c.n, p.tri & kTriNNE, p.ne, h);
    r = eikonalDiagonal(r, p.w, c.w, p.tri & kTriWNW, p.n, c.n, p.tri & kTriNNW, p.nw, h);
    r = eikonalDiagonal(r, p.w, c.w, p.tri & kTriWSW, p.s, c.s, p.tri & kTriSSW, p.sw, h);
    r = eikonalDiagonal(r, p.e, c.e, p.tri & kTriESE, p.s, c.s, p.tri & kTriSSE, p.se, h);
    return r;
}

/// Potential of cell M with the 4-neighbour stencil (@p diagonals false:
/// eikonalUpdate, the diagonals of @p p unread) or the 8-neighbour one
/// (eikonalUpdate8): EikonalOptions::stencil, one choice for FIM and FMM.
CC_HD CC_FORCEINLINE float eikonalUpdateStencil(const EikonalStencil& p, const FaceCost& c, float h, bool diagonals) {
    return diagonals ? eikonalUpdate8(p, c, h) : eikonalUpdate(p.e, p.w, p.n, p.s, c, h);
}

/// True when all four face costs are positive, finite or +inf (a closed
/// face): the inputs the local solver is defined for (not NaN, not <= 0).
CC_HD inline bool eikonalCostOk(const FaceCost& c) { return (c.e > 0.f) & (c.n > 0.f) & (c.w > 0.f) & (c.s > 0.f); }  // & : branch-free, vectorises

/// Tolerance for "this potential changed": tol * (|p| + h).
CC_HD inline float eikonalTolerance(float p, float tol, float h) { return tol * (fabsf(p) + h); }

}  // namespace ccrowd
