#pragma once
/// @file viridis.hpp
/// The viridis colour map as host+device code (CC_HD): one copy of the
/// table and its interpolation for plots (colormap.hpp) and the viewer's
/// agent colours, which a kernel writes on the simulation's side.

#include <math.h>

#include <cstdint>

#include "ccrowd/hd.hpp"

namespace ccrowd::plot {

/// Viridis (van der Walt & Smith, SciPy 2015) at @p t: 17 samples of
/// matplotlib's table at t = k/16, linearly interpolated in sRGB, written to
/// @p rgb. [Limit: t in 0..1, clamped; NaN gives the colour at 0]
CC_HD inline void viridisRgb(float t, std::uint8_t rgb[3]) {
    // matplotlib's viridis at t = k/16, k = 0..16, rounded to 8 bits
    const std::uint8_t table[17][3] = {
        {68, 1, 84},    {72, 24, 106},  {71, 45, 123},  {66, 64, 134},  {59, 82, 139},  {51, 99, 141},
        {44, 114, 142}, {38, 130, 142}, {33, 145, 140}, {31, 160, 136}, {40, 174, 128}, {63, 188, 115},
        {94, 201, 98},  {132, 212, 75}, {173, 220, 48}, {216, 226, 25}, {253, 231, 37}};
    // clamp (NaN fails both tests and stays 0), then interpolate between neighbours
    const float x = (t > 0.f ? (t < 1.f ? t : 1.f) : 0.f) * 16.f;
    const int k = x >= 16.f ? 15 : static_cast<int>(x);
    const float f = x - static_cast<float>(k);
    for (int c = 0; c < 3; ++c) {
        const float a = table[k][c], b = table[k + 1][c];
        rgb[c] = static_cast<std::uint8_t>(lroundf(a + f * (b - a)));
    }
}

}  // namespace ccrowd::plot
