/// @file colormap.cpp
#include "colormap.hpp"

#include <cmath>

namespace ccrowd::plot {

Rgb viridis(float t) {
    // matplotlib's viridis at t = k/16, k = 0..16, rounded to 8 bits.
    static const Rgb kTable[17] = {
        {68, 1, 84},    {72, 24, 106},  {71, 45, 123},  {66, 64, 134},  {59, 82, 139},  {51, 99, 141},
        {44, 114, 142}, {38, 130, 142}, {33, 145, 140}, {31, 160, 136}, {40, 174, 128}, {63, 188, 115},
        {94, 201, 98},  {132, 212, 75}, {173, 220, 48}, {216, 226, 25}, {253, 231, 37}};
    // Clamp (NaN fails both tests and stays 0), then interpolate between neighbours.
    const float x = (t > 0.f ? (t < 1.f ? t : 1.f) : 0.f) * 16.f;
    const int k = x >= 16.f ? 15 : static_cast<int>(x);
    const float f = x - static_cast<float>(k);
    const Rgb a = kTable[k], b = kTable[k + 1];
    auto mix = [f](std::uint8_t u, std::uint8_t v) { return static_cast<std::uint8_t>(std::lround(u + f * (v - u))); };
    return {mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b)};
}

}  // namespace ccrowd::plot
