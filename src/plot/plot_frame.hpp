#pragma once
/// @file plot_frame.hpp
/// The parts every line plot shares, whatever its axes (loglog.cpp,
/// lineplot.cpp): size check, the data area, title and axis labels, series
/// drawn as lines and markers, and the legend. The renderers only add their
/// axes: the mapping from data to pixels, grid lines, ticks and tick labels.

#include <functional>
#include <vector>

#include "canvas.hpp"
#include "series.hpp"

namespace ccrowd::plot::frame {

constexpr Rgb kInk{30, 30, 30};           ///< Text.
constexpr Rgb kFrame{70, 70, 70};         ///< Axes frame and ticks.
constexpr Rgb kGridMajor{208, 208, 208};  ///< Grid lines at labelled ticks.
constexpr Rgb kGridMinor{236, 236, 236};  ///< Grid lines between them.
constexpr float kLabelScale = 2.f;        ///< Tick and axis labels: 14 px capitals. [Units: px per font unit]
constexpr float kSmallScale = 1.5f;       ///< Exponents, minor tick labels, notes. [Units: px per font unit]
constexpr float kTitleScale = 3.f;        ///< Title. [Units: px per font unit]
constexpr float kLineWidth = 2.5f;        ///< Series lines. [Units: px]

/// The data area of a plot, in pixels (y down). [Units: px]
struct Box {
    float x0, y0, x1, y1;
    bool contains(const PointF& p) const { return p.first >= x0 && p.first <= x1 && p.second >= y0 && p.second <= y1; }
};

/// Maps a data point to pixels; returns false for a point that cannot be
/// drawn (it is skipped and breaks its line).
using PointMap = std::function<bool(double x, double y, PointF& px)>;

/// Bounds of the data points a plot draws; xmin > xmax when it draws none.
struct DataRange {
    double xmin, xmax, ymin, ymax;
};

/// Bounds of the points of @p plot's series that @p usable accepts.
DataRange dataRange(const LinePlot& plot, bool (*usable)(double x, double y));

/// Throws InputError unless @p plot's size is within LinePlot's limits.
void checkPlotSize(const LinePlot& plot);

/// Data area of @p plot: room for the title, the rotated y label and the tick labels.
Box dataBox(const LinePlot& plot);

/// Draws marker @p m centred at (x, y). [Units: px]
void drawMarker(Canvas& c, Marker m, float x, float y, Rgb col);

/// Title above @p box, x label below it, rotated y label on the left, and a
/// "no data" note in the middle when @p empty.
void drawTitleAndLabels(Canvas& c, const LinePlot& plot, const Box& box, bool empty);

/// Draws every series of @p plot (lines, then markers on top) through
/// @p map, then the legend in the corner of @p box covering the fewest
/// data points.
void drawSeriesAndLegend(Canvas& c, const LinePlot& plot, const Box& box, const PointMap& map);

}  // namespace ccrowd::plot::frame
