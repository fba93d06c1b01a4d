#pragma once
/// @file lineplot.hpp
/// Line plots on linear axes (e.g. speed against density, position against
/// time) rendered to a Canvas and saved as PNG: ticks at 1, 2, 2.5 or 5 x
/// 10^k chosen for about 5-8 labels per axis, light grid lines, optional
/// shaded bands marking x ranges (an allowed window), a legend box. Same
/// plot description (series.hpp) and frame, series and legend drawing
/// (plot_frame.hpp) as the log-log plots of loglog.hpp.

#include <cmath>
#include <string>
#include <vector>

#include "canvas.hpp"
#include "series.hpp"

namespace ccrowd::plot {

/// A shaded vertical band over x in [x0, x1], drawn under the grid and the
/// series, with an optional label along its top edge.
struct XBand {
    double x0 = 0.0, x1 = 0.0;      ///< Band ends in data units. [Limit: finite, x0 < x1; other bands are skipped]
    std::string label;              ///< Written inside the band's top, e.g. "allowed: 26-34 s". ASCII.
    Rgb color{255, 230, 190};       ///< Fill colour (light, so the grid and series stay visible).
};

/// Axis ends and bands of a linear plot.
struct LinearAxes {
    /// Fixed axis ends in data units; NaN: the end is taken from the data
    /// (points and bands) with 4% room and rounded out to the next tick.
    /// [Limit: finite ends must satisfy min < max, else both come from the data]
    double x_min = NAN, x_max = NAN, y_min = NAN, y_max = NAN;
    std::vector<XBand> x_bands;     ///< Shaded x ranges.
};

/// Renders @p plot on linear axes. Points with a non-finite coordinate are
/// skipped; series are clipped to the axes. With no points and no fixed
/// ends the axes show 0..1 and a "no data" note. Throws InputError for a
/// size outside LinePlot's limits.
Canvas renderLinearPlot(const LinePlot& plot, const LinearAxes& axes = {});

/// Renders @p plot and writes it to @p pngPath (atomically, see writePng).
/// Throws InputError / Error naming the path when it cannot be written.
void writeLinearPlot(const std::string& pngPath, const LinePlot& plot, const LinearAxes& axes = {});

}  // namespace ccrowd::plot
