#pragma once
/// @file eikonal_update.hpp
/// The one Godunov upwind local solver of the eikonal equation |grad phi| = C,
/// shared by FIM (CPU and CUDA) and FMM, so benchmarks compare algorithms,
/// not two copies of the maths.

#include <math.h>

#include "hd.hpp"

namespace ccrowd {

/// Unit cost of leaving a cell through each face (Treuille et al. 2006,
/// C(x, theta) on the four directions). Isotropic cost: e = n = w = s.
/// [Units: 1/(m/s), i.e. s per m of path] [Limit: > 0, finite on open cells]
struct alignas(16) FaceCost {
    float e = 1.f;  ///< Towards +x.
    float n = 1.f;  ///< Towards +y.
    float w = 1.f;  ///< Towards -x.
    float s = 1.f;  ///< Towards -y.
};

/// min/max without the NaN handling of fminf/fmaxf (which compilers turn into
/// library calls); the solver never sees NaN.
CC_HD inline float minf(float a, float b) { return b < a ? b : a; }
CC_HD inline float maxf(float a, float b) { return a < b ? b : a; }

/// Potential of cell M from its four neighbours' potentials (+inf when
/// unknown, blocked or outside) and M's face costs, cell size h [m].
///
/// DESIGN.md §5 / seed 003 eq. (7)-(8): per axis take the neighbour m that
/// minimises phi_m + C_{M->m} h; solve
///   ((phi - phi_mx) / (C_mx h))^2 + ((phi - phi_my) / (C_my h))^2 = 1
/// for the larger root. When an axis has no finite neighbour, the
/// discriminant is negative, or the root is not upwind of both neighbours
/// (root < max(phi_mx, phi_my)), the one-sided update min(phi_m + C_m h) is
/// used. Never NaN for finite positive costs; +inf when all neighbours are +inf.
CC_HD inline float eikonalUpdate(float pE, float pW, float pN, float pS, const FaceCost& c, float h) {
    // x axis: the upwind neighbour is the one with the cheaper one-sided value
    const float hx_e = c.e * h, hx_w = c.w * h;
    const bool east = pE + hx_e <= pW + hx_w;
    const float a = east ? pE : pW, A = east ? hx_e : hx_w;
    // y axis: same choice
    const float hy_n = c.n * h, hy_s = c.s * h;
    const bool north = pN + hy_n <= pS + hy_s;
    const float b = north ? pN : pS, B = north ? hy_n : hy_s;
    // one-sided candidate, also the answer when an axis is unknown
    const float one = minf(a + A, b + B);
    if (!(a < INFINITY) || !(b < INFINITY)) return one;
    // two-sided: with d = b - a, phi = a + (A^2 d + A B sqrt(A^2 + B^2 - d^2)) / (A^2 + B^2)
    const float d = b - a, A2 = A * A, B2 = B * B, s = A2 + B2;
    const float disc = s - d * d;
    if (disc < 0.f) return one;
    const float p = a + (A2 * d + A * B * sqrtf(disc)) / s;
    // causality: the root must not be below either upwind neighbour
    if (p < maxf(a, b)) return one;
    return minf(p, one);
}

/// Tolerance for "this potential changed": tol * (|p| + h).
CC_HD inline float eikonalTolerance(float p, float tol, float h) { return tol * (fabsf(p) + h); }

}  // namespace ccrowd
