#pragma once
/// @file colormap.hpp
/// Perceptual colour maps for heat maps.

#include "canvas.hpp"

namespace ccrowd::plot {

/// Viridis, matplotlib's perceptually uniform, colour-blind-friendly map
/// (van der Walt & Smith, "A better default colormap for Matplotlib",
/// SciPy 2015): dark purple at 0 through blue and green to yellow at 1.
/// 17 samples of matplotlib's table, linearly interpolated in sRGB.
/// @param t Position. [Limit: 0..1, clamped; NaN gives the colour at 0]
Rgb viridis(float t);

}  // namespace ccrowd::plot
