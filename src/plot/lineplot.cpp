/// @file lineplot.cpp
/// Linear axes: the data range (with 4% room, never pushed across zero by
/// that room) rounded out to "nice" ticks, as in Heckbert's "Nice numbers for
/// graph labels" (Graphics Gems, 1990), with 2.5 added to his 1-2-5 steps.
/// Title, labels, series and legend come from plot_frame.hpp.

#include "lineplot.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "plot_frame.hpp"
#include "png.hpp"
#include "text.hpp"

namespace ccrowd::plot {

namespace {

using frame::kFrame;
using frame::kGridMajor;
using frame::kInk;
using frame::kLabelScale;

constexpr int kTargetTicks = 6;  // labelled ticks wanted per axis (5-8 result)
constexpr float kMarkerRoom = 6.f;  // series may reach this far past the frame, so edge markers stay whole [px]

bool usable(double x, double y) { return std::isfinite(x) && std::isfinite(y); }

/// A linear axis mapped to pixels [p0, p1] (p1 < p0 for y).
struct Axis {
    double lo = 0, hi = 1, step = 0.2;  // data range and tick spacing
    float p0 = 0, p1 = 1;
    float map(double v) const { return static_cast<float>(p0 + (v - lo) / (hi - lo) * (p1 - p0)); }
    /// First and last tick index k (ticks at k * step inside [lo, hi]).
    long long firstTick() const { return static_cast<long long>(std::ceil(lo / step - 1e-9)); }
    long long lastTick() const { return static_cast<long long>(std::floor(hi / step + 1e-9)); }
    /// Tick label with as many decimals as the step needs ("0.25", "30").
    std::string label(long long k) const {
        int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
        if (std::fabs(mantissa - 2.5) < 1e-6) ++decimals;
        char text[32];
        std::snprintf(text, sizeof text, "%.*f", decimals, k * step);
        std::string s = text;
        if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);  // no "-0"
        return s;
    }
};

/// 1, 2, 2.5 or 5 x 10^k: the smallest such step giving at most about @p target intervals over @p span.
double niceStep(double span, int target) {
    const double raw = span / target;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double f = raw / mag;
    return (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 2.5 ? 2.5 : f <= 5.0 ? 5.0 : 10.0) * mag;
}

/// Axis over the data range [dmin, dmax] (0..1 when @p have is false, i.e.
/// there is no data), with the fixed ends @p fixedMin / @p fixedMax where finite.
Axis makeAxis(double dmin, double dmax, bool have, double fixedMin, double fixedMax) {
    bool fixLo = std::isfinite(fixedMin), fixHi = std::isfinite(fixedMax);
    if (fixLo && fixHi && !(fixedMin < fixedMax)) fixLo = fixHi = false;  // contradictory: use the data
    if (!have) { dmin = 0.0; dmax = 1.0; }
    Axis a;
    a.lo = fixLo ? fixedMin : dmin;
    a.hi = fixHi ? fixedMax : dmax;
    // a single value or a fixed end beyond the data: widen on the free side
    if (!(a.hi > a.lo)) {
        const double d = a.lo != 0.0 ? 0.1 * std::fabs(a.lo) : 1.0;
        if (!fixHi) a.hi = a.lo + d;
        else a.lo = a.hi - d;
    }
    // 4% room on free ends, not across zero
    const double room = 0.04 * (a.hi - a.lo);
    if (!fixLo) a.lo = (a.lo >= 0.0 && a.lo - room < 0.0) ? 0.0 : a.lo - room;
    if (!fixHi) a.hi = (a.hi <= 0.0 && a.hi + room > 0.0) ? 0.0 : a.hi + room;
    // round free ends out to ticks
    a.step = niceStep(a.hi - a.lo, kTargetTicks);
    if (!fixLo) a.lo = std::floor(a.lo / a.step + 1e-9) * a.step;
    if (!fixHi) a.hi = std::ceil(a.hi / a.step - 1e-9) * a.step;
    return a;
}

}  // namespace

Canvas renderLinearPlot(const LinePlot& plot, const LinearAxes& axes) {
    frame::checkPlotSize(plot);
    Canvas c(plot.width, plot.height);

    // Data range over usable points and valid bands.
    auto [xmin, xmax, ymin, ymax] = frame::dataRange(plot, usable);
    const bool empty = !(xmin <= xmax);
    std::vector<const XBand*> bands;
    for (const XBand& b : axes.x_bands)
        if (std::isfinite(b.x0) && std::isfinite(b.x1) && b.x0 < b.x1) {
            bands.push_back(&b);
            xmin = std::min(xmin, b.x0);
            xmax = std::max(xmax, b.x1);
        }

    // Plot area and axes.
    const frame::Box box = frame::dataBox(plot);
    Axis ax = makeAxis(xmin, xmax, xmin <= xmax, axes.x_min, axes.x_max);
    Axis ay = makeAxis(ymin, ymax, !empty, axes.y_min, axes.y_max);
    ax.p0 = box.x0; ax.p1 = box.x1;
    ay.p0 = box.y1; ay.p1 = box.y0;
    const int il = static_cast<int>(box.x0), ir = static_cast<int>(box.x1), it = static_cast<int>(box.y0),
              ib = static_cast<int>(box.y1);

    // Bands under everything else, clipped to the data area.
    c.setClip(il, it, ir + 1, ib + 1);
    for (const XBand* b : bands) c.fillRectAA(ax.map(b->x0), box.y0, ax.map(b->x1), box.y1, b->color);
    c.resetClip();

    // Grid lines and ticks, then the frame.
    for (long long k = ax.firstTick(); k <= ax.lastTick(); ++k) {
        const int p = static_cast<int>(std::lround(ax.map(k * ax.step)));
        c.fillRect(p, it, p + 1, ib, kGridMajor);
        c.fillRect(p, ib, p + 1, ib + 8, kFrame);
    }
    for (long long k = ay.firstTick(); k <= ay.lastTick(); ++k) {
        const int p = static_cast<int>(std::lround(ay.map(k * ay.step)));
        c.fillRect(il, p, ir, p + 1, kGridMajor);
        c.fillRect(il - 8, p, il, p + 1, kFrame);
    }
    c.strokeRect(il, it, ir + 1, ib + 1, kFrame);

    // Tick labels.
    TextStyle st;
    st.color = kInk;
    st.scale = kLabelScale;
    st.valign = VAlign::Middle;
    st.halign = HAlign::Center;
    for (long long k = ax.firstTick(); k <= ax.lastTick(); ++k) drawText(c, ax.map(k * ax.step), box.y1 + 24.f, ax.label(k), st);
    st.halign = HAlign::Right;
    for (long long k = ay.firstTick(); k <= ay.lastTick(); ++k) drawText(c, box.x0 - 14.f, ay.map(k * ay.step), ay.label(k), st);

    // Band labels along the top of each band.
    TextStyle bl;
    bl.color = Rgb{120, 80, 20};
    bl.scale = frame::kSmallScale;
    bl.halign = HAlign::Center;
    bl.valign = VAlign::Top;
    for (const XBand* b : bands) {
        const float x = 0.5f * (std::max(ax.map(b->x0), box.x0) + std::min(ax.map(b->x1), box.x1));
        drawText(c, x, box.y0 + 8.f, b->label, bl);
    }

    // Title, axis labels, then series (clipped near the axes) and legend.
    frame::drawTitleAndLabels(c, plot, box, empty);
    c.setClip(static_cast<int>(box.x0 - kMarkerRoom), static_cast<int>(box.y0 - kMarkerRoom),
              static_cast<int>(box.x1 + kMarkerRoom) + 1, static_cast<int>(box.y1 + kMarkerRoom) + 1);
    frame::drawSeriesAndLegend(c, plot, box, [&](double x, double y, PointF& p) {
        if (!usable(x, y)) return false;
        p = {ax.map(x), ay.map(y)};
        return true;
    });
    c.resetClip();
    return c;
}

void writeLinearPlot(const std::string& pngPath, const LinePlot& plot, const LinearAxes& axes) {
    writePng(pngPath, renderLinearPlot(plot, axes));
}

}  // namespace ccrowd::plot
