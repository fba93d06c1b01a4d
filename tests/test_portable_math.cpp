/// @file test_portable_math.cpp
/// The kernels' own transcendentals (kernels/portable_math.hpp), against
/// double precision: e^x within 1.01 ulps and monotone, unit vectors of unit
/// length pointing at their angle, and the special values.

#include <cmath>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "kernels/portable_math.hpp"

namespace ccrowd::test {
namespace {

/// Distance in ulps of float @p got from the exact value @p want (a
/// double), in units of the float spacing at @p want.
double ulpsFrom(float got, double want) {
    const float w = static_cast<float>(want);
    const double spacing = std::nextafter(std::fabs(w), std::numeric_limits<float>::infinity()) - std::fabs(w);
    return std::fabs(static_cast<double>(got) - want) / spacing;
}

TEST(PortableMath, ExpIsWithinAnUlpOverTheWholeRangeOfNormalResults) {
    // random arguments over every result between the smallest normal float
    // and the largest, and a dense sweep about 0 (the Weidmann speed's and
    // the social force's arguments lie within -10..10)
    std::mt19937 rng(5u);
    std::uniform_real_distribution<float> wide(-87.3f, 88.72f), narrow(-10.f, 10.f);
    double worst = 0;
    float worstAt = 0;
    for (int k = 0; k < 2000000; ++k) {
        const float x = k % 2 ? wide(rng) : narrow(rng);
        const double e = ulpsFrom(portableExp(x), std::exp(static_cast<double>(x)));
        if (e > worst) { worst = e; worstAt = x; }
    }
    EXPECT_LE(worst, 1.01) << "worst at x = " << worstAt;
    // the exact cases
    EXPECT_EQ(portableExp(0.f), 1.f);
    EXPECT_EQ(portableExp(-0.f), 1.f);
}

TEST(PortableMath, ExpRisesWithItsArgumentAndMeetsTheLimits) {
    // monotone over consecutive floats (the Weidmann speed falls with density only if it is)
    float x = -20.f, last = portableExp(x);
    int steps = 0;
    while (x < 20.f) {
        x = std::nextafter(x, 100.f);
        const float v = portableExp(x);
        ASSERT_GE(v, last) << "at x = " << x;
        last = v;
        x += 1e-3f * std::max(std::fabs(x), 1e-3f);  // strided: about 2,300 points per decade, 2,000 within 1e-3 of 0
        ++steps;
    }
    EXPECT_GT(steps, 10000);
    // overflow, underflow and the subnormal results
    EXPECT_EQ(portableExp(88.8f), std::numeric_limits<float>::infinity());
    EXPECT_EQ(portableExp(std::numeric_limits<float>::infinity()), std::numeric_limits<float>::infinity());
    EXPECT_EQ(portableExp(-std::numeric_limits<float>::infinity()), 0.f);
    EXPECT_EQ(portableExp(-110.f), 0.f);
    EXPECT_GT(portableExp(88.7f), 1e38f);
    const float sub = portableExp(-95.f);
    EXPECT_GT(sub, 0.f);
    EXPECT_LT(sub, std::numeric_limits<float>::min());
    EXPECT_NEAR(sub, std::exp(-95.0), 2.0 * std::numeric_limits<float>::denorm_min());
    EXPECT_TRUE(std::isnan(portableExp(std::nanf(""))));
}

TEST(PortableMath, UnitVectorOfATurnHasUnitLengthAndPointsAtItsAngle) {
    // every 2^-20 of a turn, the octants' ends included
    double worstLength = 0, worstAngle = 0;
    float prevX = 1.f, prevY = 0.f;
    double worstJump = 0;
    for (int k = 0; k < (1 << 20); ++k) {
        const float t = static_cast<float>(k) / static_cast<float>(1 << 20);
        float ux, uy;
        portableUnitVector(t, ux, uy);
        const double len = std::hypot(static_cast<double>(ux), static_cast<double>(uy));
        worstLength = std::max(worstLength, std::fabs(len - 1.0));
        const double a = 2.0 * M_PI * static_cast<double>(t);
        worstAngle = std::max(worstAngle, std::hypot(ux - std::cos(a), uy - std::sin(a)));
        worstJump = std::max(worstJump, std::hypot(static_cast<double>(ux - prevX), static_cast<double>(uy - prevY)));
        prevX = ux;
        prevY = uy;
    }
    EXPECT_LT(worstLength, 3e-7);
    EXPECT_LT(worstAngle, 3e-7);
    // no jump at an octant's edge: neighbours 2 pi 2^-20 apart (a chord of
    // 5.99e-6), within the rounding of the four coordinates
    EXPECT_LT(worstJump, 6.3e-6);
    // the axes exactly
    float ux, uy;
    portableUnitVector(0.f, ux, uy);
    EXPECT_EQ(ux, 1.f);
    EXPECT_EQ(uy, 0.f);
    portableUnitVector(0.25f, ux, uy);
    EXPECT_EQ(ux, 0.f);
    EXPECT_EQ(uy, 1.f);
    portableUnitVector(0.5f, ux, uy);
    EXPECT_EQ(ux, -1.f);
    EXPECT_EQ(uy, 0.f);
}

}  // namespace
}  // namespace ccrowd::test
