#pragma once
/// @file portable_math.hpp
/// The transcendental functions of the kernels, written once in float
/// additions, multiplications and exact scalings, so that the CPU (g++) and
/// a GPU (nvcc) compute the same bits. The C library's expf / sinf / cosf
/// and CUDA's are different approximations (and glibc picks one of two
/// expf builds by the CPU it runs on), so a simulation that called them
/// drifted apart between backends and machines. With every kernel compiled
/// without fused multiply-adds (CMakeLists.txt) and IEEE division and
/// square root on both sides, these are the only functions whose results
/// the backends could disagree on; tests/check_portable_math.cmake fails
/// when a kernel calls the library's instead.

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "ccrowd/hd.hpp"

namespace ccrowd {

/// 2^m as a float, for m in [-126, 127] (built from its bits: exact).
CC_HD CC_FORCEINLINE float portablePow2(int m) {
    const uint32_t bits = static_cast<uint32_t>(m + 127) << 23;
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/// e^x, within 1.001 ulps of the exact value for normal results (measured
/// against double precision in tests/test_portable_math.cpp; the C
/// library's is within 0.502 computing in double), +inf above 88.73, 0
/// below -103.98 (the smallest float is e^-103.3), NaN for NaN. Range
/// reduction x = k ln 2 + r, |r| <= ln 2 / 2, with ln 2 split in a head of 9
/// significant bits (k ln2_hi is exact for |k| < 2^15) and a tail; e^r by
/// its Taylor series to r^7 (truncation below 1e-8 of the value, a fifth
/// of an ulp) in Estrin's order (three short chains, not one of six
/// dependent steps); the result scaled by 2^k in two exact halves, so that
/// results in the subnormal range round once. No branch: the argument is
/// clamped to [-104, 89], where the scaling rounds to 0 and overflows to
/// +inf, and a NaN is passed through at the end. Inlined everywhere: for
/// a kernel's innermost loop (the social force's pair forces); elsewhere
/// call portableExp, the same bits out of line.
CC_HD CC_FORCEINLINE float portableExpInline(float x) {
    // clamp (a NaN to -104: no float-to-int conversion of a NaN, whose result differs between backends)
    float xc = x > -104.f ? x : -104.f;
    xc = xc < 89.f ? xc : 89.f;
    // k = nearest integer to x / ln 2 (adding and taking away 1.5 2^23 rounds to an integer, ties to even:
    // no floorf, whose conversion to int GCC would turn into a library call)
    const float kf = (xc * 1.44269504f + 12582912.f) - 12582912.f;
    const int k = static_cast<int>(kf);
    // r = x - k ln 2, ln 2 = 0.693359375 - 2.12194440054690583e-4
    const float r = (xc - kf * 0.693359375f) + kf * 2.12194440e-4f;
    // e^r = 1 + r + r^2 (1/2 + r/6 + r^2/24 + r^3/120 + r^4/720 + r^5/5040)
    const float r2 = r * r;
    const float a = 0.5f + r * 1.66666667e-1f, b = 4.16666667e-2f + r * 8.33333333e-3f,
                c = 1.38888889e-3f + r * 1.98412698e-4f;
    const float q = a + r2 * (b + r2 * c);
    const float y = 1.f + (r + r2 * q);
    // times 2^k, k in [-150, 129]: two factors each in the normal range ([-75, 65])
    const int k1 = k >> 1, k2 = k - k1;  // floor(k / 2) (arithmetic shift: no idiv in code GCC deems cold)
    const float e = (y * portablePow2(k1)) * portablePow2(k2);
    return x == x ? e : x;
}

/// e^x: portableExpInline's bits, out of line on the host (a rare or
/// outer-loop call keeps its caller's values in registers).
CC_HD CC_HOST_NOINLINE float portableExp(float x) { return portableExpInline(x); }

/// Unit vector (cos, sin) of the angle 2 pi @p turns, for @p turns in
/// [0, 1) (a fraction of a full turn, as hashed headings are drawn):
/// exact octant reduction (8 turns splits into octant and fraction without
/// rounding), sine and cosine of at most pi/4 by their Taylor series to
/// the 11th and 10th power (truncation below 2e-9), and the octant's
/// reflections and quarter turns (sign changes and swaps). Length 1 within
/// 3e-7. [Limit: 0 <= turns < 1]
CC_HD inline void portableUnitVector(float turns, float& ux, float& uy) {
    const float u = turns * 8.f;
    const float of = floorf(u);
    const int o = static_cast<int>(of) & 7;
    const float f = u - of;
    // angle within the octant, from the nearer axis of the pair it lies between
    const float a = ((o & 1) ? 1.f - f : f) * 0.785398163f;
    const float a2 = a * a;
    float s = -2.50521084e-8f;
    s = s * a2 + 2.75573192e-6f;
    s = s * a2 - 1.98412698e-4f;
    s = s * a2 + 8.33333333e-3f;
    s = s * a2 - 1.66666667e-1f;
    s = a + a * (a2 * s);
    float c = 2.75573192e-7f;
    c = c * a2 - 2.48015873e-5f;
    c = c * a2 + 1.38888889e-3f;
    c = c * a2 - 4.16666667e-2f;
    c = c * a2 + 0.5f;
    c = 1.f - a2 * c;
    // the octant's direction: even octants (cos a, sin a), odd ones (sin a, cos a), then o / 2 quarter turns
    const float x = (o & 1) ? s : c, y = (o & 1) ? c : s;
    switch (o >> 1) {
        case 0: ux = x; uy = y; break;
        case 1: ux = -y; uy = x; break;
        case 2: ux = -x; uy = -y; break;
        default: ux = y; uy = -x; break;
    }
}

}  // namespace ccrowd
