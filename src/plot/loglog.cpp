/// @file loglog.cpp
/// Log10 axes: decade labels 10^k on both axes, minor ticks and grid lines at
/// 2..9 x 10^k. Title, labels, series and legend come from plot_frame.hpp.

#include "loglog.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "plot_frame.hpp"
#include "png.hpp"
#include "text.hpp"

namespace ccrowd::plot {

namespace {

using frame::kFrame;
using frame::kGridMajor;
using frame::kGridMinor;
using frame::kInk;
using frame::kLabelScale;
constexpr float kExponentScale = frame::kSmallScale;  // the k of 10^k

bool usable(double x, double y) { return std::isfinite(x) && std::isfinite(y) && x > 0 && y > 0; }

/// A log10 axis mapped to pixels [p0, p1] (p1 may be < p0 for y).
struct Axis {
    double lo = 0, hi = 1;  // log10 range, whole decades
    float p0 = 0, p1 = 1;
    float map(double v) const { return static_cast<float>(p0 + (std::log10(v) - lo) / (hi - lo) * (p1 - p0)); }
    float mapLog(double lg) const { return static_cast<float>(p0 + (lg - lo) / (hi - lo) * (p1 - p0)); }
    /// Every step-th decade is labelled, so at most about 12 labels appear.
    int labelStep() const { return std::max(1, static_cast<int>(std::ceil((hi - lo) / 12.0))); }
    bool minorTicks() const { return hi - lo <= 8; }
    /// Mantissas of the labelled minor ticks: some when the axis spans only
    /// one or two decades, so values stay readable.
    std::vector<int> minorLabels() const {
        if (hi - lo <= 1) return {2, 3, 5};
        if (hi - lo <= 2) return {2, 5};
        return {};
    }
};

/// Decade range [floor(min), ceil(max)], widened to at least one decade.
void decadeRange(double mn, double mx, double& lo, double& hi) {
    lo = std::floor(std::log10(mn));
    hi = std::ceil(std::log10(mx));
    if (hi <= lo) { lo -= 1; hi += 1; }
}

/// "10" with a raised exponent, anchored at (x, y) like the given alignment
/// of the whole label (horizontal) and centred vertically on y.
void drawDecadeLabel(Canvas& c, float x, float y, int k, HAlign align) {
    const std::string base = "10", expo = std::to_string(k);
    const float wb = textWidth(base, kLabelScale), we = textWidth(expo, kExponentScale), gap = 2.f;
    const float total = wb + gap + we;
    const float left = align == HAlign::Left ? x : align == HAlign::Center ? x - 0.5f * total : x - total;
    TextStyle st;
    st.color = kInk;
    st.scale = kLabelScale;
    st.valign = VAlign::Middle;
    drawText(c, left, y + 3.f, base, st);
    st.scale = kExponentScale;
    st.valign = VAlign::Baseline;
    drawText(c, left + wb + gap, y - 1.f, expo, st);
}

}  // namespace

Canvas renderLogLogPlot(const LinePlot& plot) {
    frame::checkPlotSize(plot);
    Canvas c(plot.width, plot.height);

    // Data range over usable points.
    auto [xmin, xmax, ymin, ymax] = frame::dataRange(plot, usable);
    const bool empty = !(xmin <= xmax);
    if (empty) xmin = xmax = ymin = ymax = 3.0;  // shows 10^0..10^1

    // Plot area and decade axes.
    const frame::Box box = frame::dataBox(plot);
    const float left = box.x0, right = box.x1, top = box.y0, bottom = box.y1;
    Axis ax, ay;
    decadeRange(xmin, xmax, ax.lo, ax.hi);
    decadeRange(ymin, ymax, ay.lo, ay.hi);
    if (empty) ax.lo = ay.lo = 0, ax.hi = ay.hi = 1;
    ax.p0 = left; ax.p1 = right;
    ay.p0 = bottom; ay.p1 = top;
    const int il = static_cast<int>(left), ir = static_cast<int>(right), it = static_cast<int>(top), ib = static_cast<int>(bottom);

    // Grid: minor lines first, then decade lines.
    for (const Axis* a : {&ax, &ay}) {
        const bool is_x = a == &ax;
        for (int k = static_cast<int>(a->lo); k < static_cast<int>(a->hi); ++k)
            for (int m = 1; m <= 9; ++m) {
                if (m > 1 && !a->minorTicks()) continue;
                const int p = static_cast<int>(std::lround(a->mapLog(k + std::log10(m))));
                const Rgb g = m == 1 ? kGridMajor : kGridMinor;
                const int tick = m == 1 ? 8 : 4;
                if (is_x) { c.fillRect(p, it, p + 1, ib, g); c.fillRect(p, ib, p + 1, ib + tick, kFrame); }
                else { c.fillRect(il, p, ir, p + 1, g); c.fillRect(il - tick, p, il, p + 1, kFrame); }
            }
    }
    c.strokeRect(il, it, ir + 1, ib + 1, kFrame);
    // The last decade line sits on the frame; give it its major tick too.
    c.fillRect(ir, ib, ir + 1, ib + 8, kFrame);
    c.fillRect(il - 8, it, il, it + 1, kFrame);

    // Decade labels.
    const int sx = ax.labelStep(), sy = ay.labelStep();
    for (int k = static_cast<int>(ax.lo); k <= static_cast<int>(ax.hi); ++k)
        if (k % sx == 0) drawDecadeLabel(c, ax.mapLog(k), bottom + 24.f, k, HAlign::Center);
    for (int k = static_cast<int>(ay.lo); k <= static_cast<int>(ay.hi); ++k)
        if (k % sy == 0) drawDecadeLabel(c, left - 14.f, ay.mapLog(k), k, HAlign::Right);
    // Minor labels as plain numbers (m x 10^k for -3 <= k <= 3: "0.02", "300").
    TextStyle minor;
    minor.color = Rgb{90, 90, 90};
    minor.scale = kExponentScale;
    minor.valign = VAlign::Middle;
    for (const Axis* a : {&ax, &ay})
        for (int k = static_cast<int>(a->lo); k < static_cast<int>(a->hi); ++k)
            for (int m : a->minorLabels()) {
                if (k < -3 || k > 3) continue;
                char text[16];
                std::snprintf(text, sizeof text, "%g", m * std::pow(10.0, k));
                const float p = a->mapLog(k + std::log10(m));
                minor.halign = a == &ax ? HAlign::Center : HAlign::Right;
                if (a == &ax) drawText(c, p, bottom + 24.f, text, minor);
                else drawText(c, left - 14.f, p, text, minor);
            }

    // Title, axis labels, series and legend.
    frame::drawTitleAndLabels(c, plot, box, empty);
    frame::drawSeriesAndLegend(c, plot, box, [&](double x, double y, PointF& p) {
        if (!usable(x, y)) return false;
        p = {ax.map(x), ay.map(y)};
        return true;
    });
    return c;
}

void writeLogLogPlot(const std::string& pngPath, const LinePlot& plot) { writePng(pngPath, renderLogLogPlot(plot)); }

}  // namespace ccrowd::plot
