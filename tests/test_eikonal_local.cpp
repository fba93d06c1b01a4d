/// @file test_eikonal_local.cpp
/// The shared Godunov local solver eikonalUpdate (kernels/eikonal_update.hpp),
/// checked against its definition in DESIGN.md §5 / seed 003 eq. (7)-(8).
///
/// Isotropic cost (all faces of the cell equal): the upwind neighbour per
/// axis is the lower one and the result is the smallest r with
///   sum over axes with a finite neighbour of max(0, (r - phi_m) / (C h))^2 = 1,
/// solved below by bisection in double precision (an independent reference).
/// Anisotropic costs: rule-independent properties (never NaN, never worse than
/// any one-sided value, two-sided results solve the quadratic for a pair of
/// neighbours at or below the result) and monotonicity.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "eikonal_test_util.hpp"
#include "kernels/eikonal_update.hpp"

namespace ccrowd::test {
namespace {

struct Neigh {
    float e, w, n, s;
};

float update(const Neigh& p, const FaceCost& c, float h) { return eikonalUpdate(p.e, p.w, p.n, p.s, c, h); }

/// Reference solution of the definition above (bisection in double), for
/// isotropic costs (where "argmin of phi_m + C_m h" is the lower neighbour).
double reference(const Neigh& p, const FaceCost& c, float h) {
    // upwind choice per axis: argmin of phi_m + C_m h (DESIGN.md §5)
    const bool east = p.e + c.e * h <= p.w + c.w * h;
    const bool north = p.n + c.n * h <= p.s + c.s * h;
    double v[2], w[2];
    int n = 0;
    const float a = east ? p.e : p.w, A = (east ? c.e : c.w) * h;
    const float b = north ? p.n : p.s, B = (north ? c.n : c.s) * h;
    if (std::isfinite(a)) { v[n] = a; w[n] = A; ++n; }
    if (std::isfinite(b)) { v[n] = b; w[n] = B; ++n; }
    if (n == 0) return std::numeric_limits<double>::infinity();
    double lo = v[0], hi = v[0] + w[0];
    for (int k = 1; k < n; ++k) { lo = std::min(lo, v[k]); hi = std::min(hi, v[k] + w[k]); }
    auto g = [&](double r) {
        double sum = 0;
        for (int k = 0; k < n; ++k) { const double q = std::max(0.0, (r - v[k]) / w[k]); sum += q * q; }
        return sum;
    };
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        (g(mid) < 1.0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

/// Float rounding scale of one update: the magnitudes that enter it.
double roundingScale(const Neigh& p, const FaceCost& c, float h) {
    double s = 0;
    for (float x : {p.e, p.w, p.n, p.s})
        if (std::isfinite(x)) s += std::fabs(x);
    return s + (c.e + c.w + c.n + c.s) * static_cast<double>(h);
}

/// Random inputs: log-uniform costs and h, neighbour values clustered around
/// a random base (so both two-sided and one-sided branches occur), some +inf.
struct Sampler {
    std::mt19937 rng;
    bool isotropic;
    explicit Sampler(std::uint32_t seed, bool iso) : rng(seed), isotropic(iso) {}

    float logUniform(float lo, float hi) {
        return std::exp(std::uniform_real_distribution<float>(std::log(lo), std::log(hi))(rng));
    }
    float h = 1.f;
    FaceCost c;
    Neigh p{};

    void next() {
        h = logUniform(1e-2f, 10.f);
        if (isotropic) {
            c = isoCost(logUniform(1e-2f, 1e2f));
        } else {
            c.e = logUniform(1e-2f, 1e2f); c.n = logUniform(1e-2f, 1e2f);
            c.w = logUniform(1e-2f, 1e2f); c.s = logUniform(1e-2f, 1e2f);
        }
        const float base = std::uniform_real_distribution<float>(0.f, 100.f)(rng);
        const float spread = 2.f * std::max({c.e, c.n, c.w, c.s}) * h;
        std::uniform_real_distribution<float> u(0.f, 1.f);
        auto value = [&]() { return u(rng) < 0.3f ? kInf : base + spread * u(rng); };
        p = Neigh{value(), value(), value(), value()};
    }
};

// ---- never NaN, matches the definition ---------------------------------------

TEST(EikonalLocal, RandomInputsNeverNaN) {
    for (bool iso : {true, false}) {
        Sampler smp(iso ? 11u : 12u, iso);
        for (int k = 0; k < 200000; ++k) {
            smp.next();
            const Neigh& p = smp.p;
            const float r = update(p, smp.c, smp.h);
            ASSERT_FALSE(std::isnan(r)) << "NaN from E " << p.e << " W " << p.w << " N " << p.n << " S " << p.s << " h "
                                        << smp.h;
            const bool anyFinite = std::isfinite(p.e) || std::isfinite(p.w) || std::isfinite(p.n) || std::isfinite(p.s);
            ASSERT_EQ(std::isfinite(r), anyFinite) << "r " << r;
        }
    }
}

// ---- the isotropic shortcut ----------------------------------------------------

/// Bits of a float (so +0 and -0, and NaNs, count as different).
std::uint32_t bitsOf(float x) {
    std::uint32_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

TEST(EikonalLocal, IsotropicShortcutGivesTheBitsOfTheGeneralUpdate) {
    // eikonalUpdate decides "four open faces of one cost" by integer
    // compares of the costs' bits and skips eikonalUpdateFaces' float tests;
    // over every kind of cell the two must give the same bits: isotropic,
    // one face different, axis-wise isotropic, closed faces, NaN costs,
    // +0 / -0 mixed, costs at the largest finite float
    std::mt19937 rng(17u);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    const float big = std::numeric_limits<float>::max();
    int shortcut = 0;
    for (int k = 0; k < 400000; ++k) {
        const float cost = std::exp(std::uniform_real_distribution<float>(std::log(1e-3f), std::log(1e3f))(rng));
        FaceCost c = isoCost(cost);
        switch (k % 8) {
            case 0: case 1: break;                                    // isotropic
            case 2: c.s = std::nextafter(cost, kInf); break;          // one face a rounding step off
            case 3: c.w = c.e = 2.f * cost; break;                    // each axis isotropic
            case 4: c.n = kInf; break;                                // a closed face
            case 5: c = isoCost(u(rng) < 0.5f ? kInf : std::nanf("")); break;  // every face closed, or NaN
            case 6: c = u(rng) < 0.5f ? isoCost(0.f) : FaceCost{0.f, -0.f, 0.f, -0.f}; break;  // zeros
            default: c = isoCost(u(rng) < 0.5f ? big : cost); c.e = u(rng) < 0.5f ? c.e : -c.e; break;
        }
        const float h = std::exp(std::uniform_real_distribution<float>(std::log(1e-2f), std::log(10.f))(rng));
        const float base = 100.f * u(rng), spread = 3.f * cost * h;
        auto value = [&]() { return u(rng) < 0.25f ? kInf : base + spread * u(rng); };
        const Neigh p{value(), value(), value(), value()};
        const float fast = eikonalUpdate(p.e, p.w, p.n, p.s, c, h), general = eikonalUpdateFaces(p.e, p.w, p.n, p.s, c, h);
        if (bitsOf(c.e) == bitsOf(c.w) && bitsOf(c.n) == bitsOf(c.s) && bitsOf(c.e) == bitsOf(c.n) && c.e > 0.f &&
            c.e < kInf)
            ++shortcut;
        ASSERT_EQ(bitsOf(fast), bitsOf(general)) << "case " << k % 8 << ": costs " << c.e << " " << c.n << " " << c.w
                                                 << " " << c.s << ", h " << h << ", E " << p.e << " W " << p.w << " N "
                                                 << p.n << " S " << p.s;
    }
    // the shortcut was taken: the isotropic cases and the largest finite cost
    EXPECT_GT(shortcut, 100000);
}

TEST(EikonalLocal, SkippedTwoSidedRootsGiveTheBitsOfTheFullMinimum) {
    // eikonalWithTwoSided leaves the root out when the running minimum m is
    // at or below max(a, b); over one-sided minima of every size, +inf
    // neighbours and anisotropic costs it must give min(m, root) bit for bit
    std::mt19937 rng(23u);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    auto logUniform = [&](float lo, float hi) {
        return std::exp(std::uniform_real_distribution<float>(std::log(lo), std::log(hi))(rng));
    };
    int skipped = 0, computed = 0;
    for (int k = 0; k < 400000; ++k) {
        const float A = logUniform(1e-3f, 1e2f), B = logUniform(1e-3f, 1e2f);
        const float base = 100.f * u(rng), spread = 2.f * std::max(A, B);
        const float a = u(rng) < 0.1f ? kInf : base + spread * u(rng);
        const float b = u(rng) < 0.1f ? kInf : base + spread * u(rng);
        // the caller's minimum holds a + A and b + B, and sometimes less
        float m = std::min(a + A, b + B);
        if (k % 3 == 1) m = std::min(m, base + spread * u(rng));
        if (k % 7 == 3) m = kInf;
        const float full = std::min(m, eikonalTwoSided(a, A, b, B)), skip = eikonalWithTwoSided(m, a, A, b, B);
        (m > std::max(a, b) ? computed : skipped) += 1;
        ASSERT_EQ(bitsOf(skip), bitsOf(full)) << "m " << m << ", a " << a << " A " << A << ", b " << b << " B " << B;
    }
    // both branches were exercised
    EXPECT_GT(skipped, 50000);
    EXPECT_GT(computed, 50000);
}

TEST(EikonalLocal, RootsAtOnceGiveTheBitsOfTheSkippingChain) {
    // a GPU computes every two-sided root of a cell, a CPU skips those
    // that cannot win (kEikonalRootsAtOnce); over cells whose faces
    // differ (four roots, or one when each axis is isotropic), with +inf
    // neighbours, closed faces, equal values, zero, NaN and huge costs,
    // both must give the same bits
    std::mt19937 rng(29u);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    auto logUniform = [&](float lo, float hi) {
        return std::exp(std::uniform_real_distribution<float>(std::log(lo), std::log(hi))(rng));
    };
    const float big = std::numeric_limits<float>::max();
    int rootWon = 0, secondPairs = 0;
    for (int k = 0; k < 400000; ++k) {
        const float cost = logUniform(1e-3f, 1e3f);
        // four faces within a factor 2.5 of each other, as a crowd's flow makes them
        FaceCost c{cost * logUniform(0.4f, 1.f), cost * logUniform(0.4f, 1.f), cost * logUniform(0.4f, 1.f),
                   cost * logUniform(0.4f, 1.f)};
        switch (k % 10) {
            case 0: c.n = kInf; break;                                        // a closed face
            case 1: c.s = c.n; break;                                         // y isotropic, x not
            case 2: c = FaceCost{0.f, cost, -0.f, cost}; break;               // zero costs
            case 3: c.w = std::nanf(""); break;                               // a NaN cost
            case 4: c.e = big; c.n = big; break;                              // the largest finite cost
            case 5: c.w = c.e; c.s = c.n; break;                              // each axis isotropic, A != B
            default: break;
        }
        const float h = logUniform(1e-2f, 10.f);
        const float base = 100.f * u(rng), spread = 3.f * cost * h;
        auto value = [&]() { return u(rng) < 0.15f ? kInf : base + spread * u(rng); };
        Neigh p{value(), value(), value(), value()};
        if (k % 13 == 5) p.s = p.n;  // equal y neighbours
        if (k % 17 == 7) p.w = p.e;  // equal x neighbours
        const float once = eikonalUpdateFaces<true>(p.e, p.w, p.n, p.s, c, h);
        const float chain = eikonalUpdateFaces<false>(p.e, p.w, p.n, p.s, c, h);
        ASSERT_EQ(bitsOf(once), bitsOf(chain)) << "case " << k % 10 << ": costs " << c.e << " " << c.n << " " << c.w
                                               << " " << c.s << ", h " << h << ", E " << p.e << " W " << p.w << " N "
                                               << p.n << " S " << p.s;
        // a two-sided root set the value (below every one-sided one)
        const float oneSided = std::min(std::min(p.e + c.e * h, p.w + c.w * h), std::min(p.n + c.n * h, p.s + c.s * h));
        if (chain < oneSided) ++rootWon;
        // the value lies above both y neighbours: the test between their lines decides
        if (chain < kInf && chain > std::max(p.n, p.s)) ++secondPairs;
    }
    // both the roots and the second y neighbour's pairs were exercised
    EXPECT_GT(rootWon, 100000);
    EXPECT_GT(secondPairs, 20000);
}

TEST(EikonalLocal, IsotropicMatchesDefinition) {
    Sampler smp(13u, true);
    for (int k = 0; k < 200000; ++k) {
        smp.next();
        const float r = update(smp.p, smp.c, smp.h);
        const double ref = reference(smp.p, smp.c, smp.h);
        if (std::isinf(ref)) {
            ASSERT_EQ(r, kInf);
            continue;
        }
        const double tol = 1e-5 * roundingScale(smp.p, smp.c, smp.h);
        ASSERT_NEAR(r, ref, tol) << "sample " << k << ": neighbours E " << smp.p.e << " W " << smp.p.w << " N " << smp.p.n
                                 << " S " << smp.p.s << ", cost " << smp.c.e << ", h " << smp.h;
    }
}

TEST(EikonalLocal, NegativeDiscriminantFallsBackToOneSided) {
    // |phi_x - phi_y| > sqrt(A^2 + B^2): the quadratic has no real root
    const FaceCost c = isoCost(1.f);
    for (float big : {2.f, 10.f, 1e6f}) {
        EXPECT_EQ(eikonalUpdate(0.f, kInf, big, kInf, c, 1.f), 1.f);
        EXPECT_EQ(eikonalUpdate(kInf, big, kInf, 0.f, c, 1.f), 1.f);
    }
    // anisotropic: A = 0.5, B = 0.25, |d| = 1 > sqrt(A^2 + B^2)
    const FaceCost a{0.5f, 0.25f, 0.5f, 0.25f};
    EXPECT_EQ(eikonalUpdate(3.f, kInf, 4.f, kInf, a, 1.f), 3.5f);
    EXPECT_EQ(eikonalUpdate(kInf, 4.f, kInf, 3.f, a, 1.f), 3.25f);
}

TEST(EikonalLocal, AllNeighboursInfiniteGiveInfinity) {
    for (float c : {1e-3f, 1.f, 7.f, 1e3f})
        for (float h : {1e-3f, 0.25f, 1.f, 10.f}) {
            EXPECT_EQ(eikonalUpdate(kInf, kInf, kInf, kInf, isoCost(c), h), kInf);
            EXPECT_EQ(eikonalUpdate(kInf, kInf, kInf, kInf, FaceCost{c, 2 * c, 3 * c, 4 * c}, h), kInf);
        }
}

// ---- exact cases ------------------------------------------------------------------

TEST(EikonalLocal, OneSidedUsesTheFaceTowardsTheNeighbour) {
    const FaceCost c{1.5f, 2.5f, 3.5f, 4.5f};  // e, n, w, s
    const float h = 0.3f, v = 2.f;
    EXPECT_FLOAT_EQ(eikonalUpdate(v, kInf, kInf, kInf, c, h), v + c.e * h);
    EXPECT_FLOAT_EQ(eikonalUpdate(kInf, v, kInf, kInf, c, h), v + c.w * h);
    EXPECT_FLOAT_EQ(eikonalUpdate(kInf, kInf, v, kInf, c, h), v + c.n * h);
    EXPECT_FLOAT_EQ(eikonalUpdate(kInf, kInf, kInf, v, c, h), v + c.s * h);
}

TEST(EikonalLocal, OneSidedAxisPicksCheaperNeighbourNotLowerOne) {
    const FaceCost c{1.5f, 1.f, 3.5f, 1.f};
    const float h = 0.3f;
    // W is lower (1.8 < 2) but more expensive: 1.8 + 1.05 > 2 + 0.45
    EXPECT_FLOAT_EQ(eikonalUpdate(2.f, 1.8f, kInf, kInf, c, h), 2.f + 1.5f * h);
    // W cheap enough now: 1.0 + 1.05 < 2 + 0.45
    EXPECT_FLOAT_EQ(eikonalUpdate(2.f, 1.f, kInf, kInf, c, h), 1.f + 3.5f * h);
    // same on the y axis
    const FaceCost d{1.f, 1.5f, 1.f, 3.5f};
    EXPECT_FLOAT_EQ(eikonalUpdate(kInf, kInf, 2.f, 1.8f, d, h), 2.f + 1.5f * h);
    EXPECT_FLOAT_EQ(eikonalUpdate(kInf, kInf, 2.f, 1.f, d, h), 1.f + 3.5f * h);
}

TEST(EikonalLocal, IsotropicFarNeighbourIsNotUpwind) {
    // isotropic Godunov: |a - b| >= C h  =>  r = min(a, b) + C h exactly
    for (float h : {0.1f, 1.f, 3.f})
        for (float a : {0.f, 0.7f, 42.f})
            for (float m : {1.f, 1.3f, 5.f}) {
                const float A = 2.f * h, b = a + m * A;
                EXPECT_FLOAT_EQ(eikonalUpdate(a, kInf, b, kInf, isoCost(2.f), h), a + A) << a << " " << b << " " << h;
                EXPECT_FLOAT_EQ(eikonalUpdate(kInf, b, kInf, a, isoCost(2.f), h), a + A) << a << " " << b << " " << h;
            }
}

TEST(EikonalLocal, SymmetricTwoSidedCase) {
    // a = b, A = B: ((r - a)/A)^2 * 2 = 1  =>  r = a + A / sqrt(2)
    for (float a : {0.f, 1.f, 123.4f})
        for (float c : {0.5f, 1.f, 3.f})
            for (float h : {0.1f, 1.f}) {
                const double want = a + c * h / std::sqrt(2.0);
                const double tol = 2e-7 * (a + c * h) + 1e-9;
                const FaceCost fc = isoCost(c);
                EXPECT_NEAR(eikonalUpdate(a, kInf, a, kInf, fc, h), want, tol);
                EXPECT_NEAR(eikonalUpdate(kInf, a, a, kInf, fc, h), want, tol);
                EXPECT_NEAR(eikonalUpdate(a, kInf, kInf, a, fc, h), want, tol);
                EXPECT_NEAR(eikonalUpdate(kInf, a, kInf, a, fc, h), want, tol);
                // all four equal: same answer
                EXPECT_NEAR(eikonalUpdate(a, a, a, a, fc, h), want, tol);
                // anisotropic costs with equal upwind faces only (E and N)
                EXPECT_NEAR(eikonalUpdate(a, kInf, a, kInf, FaceCost{c, c, 9.f * c, 7.f * c}, h), want, tol);
            }
}

TEST(EikonalLocal, TwoSidedSolvesTheQuadratic) {
    // residual check, independent of the closed form: the result satisfies
    // ((r - a)/A)^2 + ((r - b)/B)^2 = 1 whenever both are upwind
    std::mt19937 rng(21);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    int twoSided = 0;
    for (int k = 0; k < 20000; ++k) {
        const float h = 0.05f + u(rng), ce = 0.2f + 4.f * u(rng), cn = 0.2f + 4.f * u(rng);
        const float A = ce * h, B = cn * h;
        const float a = 10.f * u(rng);
        // |a - b| < 0.8 min(A, B): both upwind, the root clearly below both one-sided values
        const float b = a + 0.8f * (2.f * u(rng) - 1.f) * std::min(A, B);
        const float r = eikonalUpdate(a, kInf, b, kInf, FaceCost{ce, cn, 50.f, 50.f}, h);
        // two-sided: strictly below both one-sided values (the update took the root)
        if (!(r < std::min(a + A, b + B))) continue;
        ++twoSided;
        const double qa = (r - a) / A, qb = (r - b) / B;
        EXPECT_GE(r, std::max(a, b));
        EXPECT_NEAR(qa * qa + qb * qb, 1.0, 1e-4 * (1 + (a + b) / std::min(A, B))) << a << " " << b << " " << A << " " << B;
    }
    // every case must have taken the two-sided root
    EXPECT_EQ(twoSided, 20000);
}

// ---- order properties -------------------------------------------------------------

TEST(EikonalLocal, ResultNotBelowTheUpwindNeighboursUsed) {
    for (bool iso : {true, false}) {
        Sampler smp(iso ? 31u : 32u, iso);
        for (int k = 0; k < 100000; ++k) {
            smp.next();
            const Neigh& p = smp.p;
            const FaceCost& c = smp.c;
            const float h = smp.h;
            const float r = update(p, c, h);
            const float xs[2] = {p.e, p.w}, Xs[2] = {c.e * h, c.w * h};
            const float ys[2] = {p.n, p.s}, Ys[2] = {c.n * h, c.s * h};
            const float one = std::min({xs[0] + Xs[0], xs[1] + Xs[1], ys[0] + Ys[0], ys[1] + Ys[1]});
            if (std::isinf(one)) { ASSERT_EQ(r, kInf); continue; }
            // never worse than the best one-sided value, never below the lowest neighbour
            ASSERT_LE(r, one);
            ASSERT_GT(r, std::min({p.e, p.w, p.n, p.s}));
            if (r >= one) continue;
            // two-sided: some x neighbour a and y neighbour b, both at or below
            // r (causality: r >= max of the upwind neighbours used), with
            // ((r - a)/A)^2 + ((r - b)/B)^2 = 1
            bool found = false;
            for (int x = 0; x < 2 && !found; ++x)
                for (int y = 0; y < 2 && !found; ++y) {
                    if (!(xs[x] <= r && ys[y] <= r)) continue;
                    const double qa = (r - xs[x]) / Xs[x], qb = (r - ys[y]) / Ys[y];
                    const double tol = 1e-4 * (1 + roundingScale(p, c, h) / std::min(Xs[x], Ys[y]));
                    found = std::fabs(qa * qa + qb * qb - 1.0) <= tol;
                }
            ASSERT_TRUE(found) << (iso ? "isotropic" : "anisotropic") << " r " << r << " below one-sided " << one
                               << " but no upwind pair at or below r solves the quadratic: E " << p.e << " W " << p.w
                               << " N " << p.n << " S " << p.s;
        }
    }
}

/// Root of the Godunov definition with a cost per face (DESIGN.md §5, seed
/// 003 eq. (7)-(8)), any costs: the smallest r with
///   max((r - E)/(C_E h), (r - W)/(C_W h), 0)^2 + max((r - N)/(C_N h), (r - S)/(C_S h), 0)^2 = 1,
/// by bisection in double (the left side rises with r), +inf when no
/// neighbour is known.
double godunovRoot(const Neigh& p, const FaceCost& c, float h) {
    const double v[4] = {p.e, p.w, p.n, p.s}, w[4] = {c.e * h, c.w * h, c.n * h, c.s * h};
    double lo = std::numeric_limits<double>::infinity(), hi = lo;
    for (int k = 0; k < 4; ++k)
        if (std::isfinite(v[k])) { lo = std::min(lo, v[k]); hi = std::min(hi, v[k] + w[k]); }
    if (!std::isfinite(lo)) return lo;
    auto g = [&](double r) {
        double sum = 0;
        for (int axis = 0; axis < 2; ++axis) {
            double q = 0;
            for (int k = 2 * axis; k < 2 * axis + 2; ++k)
                if (std::isfinite(v[k])) q = std::max(q, (r - v[k]) / w[k]);
            sum += q * q;
        }
        return sum;
    };
    for (int it = 0; it < 200; ++it) {
        const double mid = 0.5 * (lo + hi);
        (g(mid) < 1.0 ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

TEST(EikonalLocal, AnisotropicMatchesTheGodunovDefinition) {
    // every face its own cost: the update is the definition's root, whichever
    // neighbour of each axis turns out upwind at it
    Sampler smp(33u, false);
    int far = 0;
    std::ostringstream first;
    for (int k = 0; k < 200000; ++k) {
        smp.next();
        const double want = godunovRoot(smp.p, smp.c, smp.h);
        const float got = update(smp.p, smp.c, smp.h);
        if (!std::isfinite(want)) { ASSERT_EQ(got, kInf); continue; }
        const double tol = 1e-6 * roundingScale(smp.p, smp.c, smp.h);
        if (std::fabs(got - want) > tol && far++ == 0)
            first << "E " << smp.p.e << " W " << smp.p.w << " N " << smp.p.n << " S " << smp.p.s << ", costs e "
                  << smp.c.e << " w " << smp.c.w << " n " << smp.c.n << " s " << smp.c.s << ", h " << smp.h << ": got "
                  << got << ", the definition's root " << want;
    }
    EXPECT_EQ(far, 0) << "of 200000 samples; first: " << first.str();
}

/// Lowering any neighbour (or making an unknown one known) never raises the result.
void checkMonotone(bool iso, std::uint32_t seed, int samples) {
    Sampler smp(seed, iso);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    std::uniform_int_distribution<int> which(0, 3);
    int violations = 0;
    std::ostringstream first;
    for (int k = 0; k < samples; ++k) {
        smp.next();
        const float r1 = update(smp.p, smp.c, smp.h);
        Neigh q = smp.p;
        float* slots[4] = {&q.e, &q.w, &q.n, &q.s};
        float& x = *slots[which(smp.rng)];
        const float scale = 2.f * std::max({smp.c.e, smp.c.n, smp.c.w, smp.c.s}) * smp.h;
        const float before = x;
        if (std::isinf(x)) {
            const float lo = std::min({q.e, q.w, q.n, q.s, 100.f});
            x = lo + scale * u(smp.rng);
        } else {
            x = std::max(0.f, x - scale * u(smp.rng));
        }
        const float r2 = update(q, smp.c, smp.h);
        const float slack = 1e-6f * (std::isfinite(r1) ? std::fabs(r1) : 0.f) + 1e-6f * smp.h;
        if (r2 > r1 + slack) {
            if (violations++ == 0)
                first << "neighbours E " << smp.p.e << " W " << smp.p.w << " N " << smp.p.n << " S " << smp.p.s
                      << ", costs e " << smp.c.e << " n " << smp.c.n << " w " << smp.c.w << " s " << smp.c.s << ", h "
                      << smp.h << ": lowering " << before << " to " << x << " raised the result " << r1 << " -> " << r2;
        }
    }
    EXPECT_EQ(violations, 0) << "of " << samples << " samples; first: " << first.str();
}

TEST(EikonalLocal, MonotoneIsotropic) { checkMonotone(true, 41u, 200000); }

TEST(EikonalLocal, MonotoneAnisotropic) {
    // a small worked case: E and N known at 0 (faces e = n = 1, h = 1) give
    // the symmetric two-sided value 1/sqrt(2). Learning W = 0.4 through a
    // cheap face (w = 0.5) adds information, so the result cannot rise.
    const FaceCost c{1.f, 1.f, 0.5f, 1.f};
    const float unknownW = eikonalUpdate(0.f, kInf, 0.f, kInf, c, 1.f);
    const float knownW = eikonalUpdate(0.f, 0.4f, 0.f, kInf, c, 1.f);
    EXPECT_NEAR(unknownW, 1.0 / std::sqrt(2.0), 1e-6);
    EXPECT_LE(knownW, unknownW) << "lowering W from +inf to 0.4 raised the result";
    // random cases
    checkMonotone(false, 42u, 200000);
}

}  // namespace
}  // namespace ccrowd::test
