#pragma once
/// @file series.hpp
/// What a line plot shows, shared by the log-log (loglog.hpp) and linear
/// (lineplot.hpp) renderers: named series of (x, y) points with a colour and
/// a marker, a title and axis labels.

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
    std::vector<std::pair<double, double>> points; ///< (x, y) in data units. Points with a non-finite coordinate are skipped (and break the line); log-log plots also skip x <= 0 or y <= 0.
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

}  // namespace ccrowd::plot
