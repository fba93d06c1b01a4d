#pragma once
/// @file loglog.hpp
/// Log-log line plots (e.g. solve time against grid size) rendered to a
/// Canvas and saved as PNG: log10 axes with a tick and label per decade
/// (10^k), minor ticks at 2..9 x 10^k (some labelled when the axis spans one
/// or two decades), light grid lines, a legend box. The plot description
/// (series.hpp) and the frame, series and legend drawing (plot_frame.hpp)
/// are shared with the linear plots of lineplot.hpp.

#include <string>

#include "canvas.hpp"
#include "series.hpp"

namespace ccrowd::plot {

/// Renders @p plot. Axis ranges span whole decades around the plotted points
/// (1..10 when there are none, with a "no data" note). Throws InputError for
/// a size outside the limits.
Canvas renderLogLogPlot(const LinePlot& plot);

/// Renders @p plot and writes it to @p pngPath (atomically, see writePng).
/// Throws InputError / Error naming the path when it cannot be written.
void writeLogLogPlot(const std::string& pngPath, const LinePlot& plot);

}  // namespace ccrowd::plot
