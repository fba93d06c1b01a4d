#pragma once
/// @file loglog.hpp
/// Log-log line plots (e.g. solve time against grid size) rendered to a
/// Canvas and saved as PNG: log10 axes with a tick and label per decade
/// (10^k), minor ticks at 2..9 x 10^k (some labelled when the axis spans one
/// or two decades), light grid lines, a legend box.

#include <string>
#include <utility>
#include <vector>

#include "canvas.hpp"

namespace ccrowd::plot {

/// Shape drawn at every point of a series.
enum class Marker { None, Circle, Square, Triangle, Diamond, Cross };

/// One named line of (x, y) points, drawn in the given order.
struct Series {
    std::string name;                              ///< Legend text (empty: not in the legend). ASCII.
    Rgb color{31, 119, 180};                       ///< Line and marker colour.
    Marker marker = Marker::Circle;                ///< Point marker.
    bool line = true;                              ///< Connect consecutive points.
    std::vector<std::pair<double, double>> points; ///< (x, y) in data units. Points with x <= 0, y <= 0 or a non-finite coordinate are skipped (and break the line).
};

/// A whole plot.
struct LinePlot {
    std::string title;             ///< Drawn centred above the plot. ASCII.
    std::string x_label;           ///< Below the x axis, e.g. "cells".
    std::string y_label;           ///< Left of the y axis, rotated, e.g. "time [ms]".
    std::vector<Series> series;    ///< Lines, drawn in order (later on top).
    int width = 1000;              ///< Image width. [Units: px] [Limit: 400..Canvas::kMaxSide]
    int height = 700;              ///< Image height. [Units: px] [Limit: 300..Canvas::kMaxSide]
};

/// Colour @p k of a 10-colour palette (matplotlib's "tab10"), cycling. [Limit: k >= 0]
Rgb paletteColor(int k);

/// Renders @p plot. Axis ranges span whole decades around the plotted points
/// (1..10 when there are none, with a "no data" note). Throws InputError for
/// a size outside the limits.
Canvas renderLogLogPlot(const LinePlot& plot);

/// Renders @p plot and writes it to @p pngPath (atomically, see writePng).
/// Throws InputError / Error naming the path when it cannot be written.
void writeLogLogPlot(const std::string& pngPath, const LinePlot& plot);

}  // namespace ccrowd::plot
