/// @file loglog.cpp
/// Layout: title on top, y label rotated on the left, decade labels 10^k on
/// both axes, legend in the plot corner covering the fewest data points.

#include "loglog.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ccrowd/error.hpp"
#include "png.hpp"
#include "text.hpp"

namespace ccrowd::plot {

namespace {

const Rgb kInk{30, 30, 30};
const Rgb kFrame{70, 70, 70};
const Rgb kGridMajor{208, 208, 208};
const Rgb kGridMinor{236, 236, 236};
const Rgb kWhite{255, 255, 255};

constexpr float kLabelScale = 2.f;     // tick and axis labels: 14 px capitals
constexpr float kExponentScale = 1.5f; // the k of 10^k
constexpr float kTitleScale = 3.f;
constexpr float kMarkerSize = 5.f;     // marker half-size [px]
constexpr float kLineWidth = 2.5f;

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

void drawMarker(Canvas& c, Marker m, float x, float y, Rgb col) {
    const float s = kMarkerSize;
    switch (m) {
        case Marker::None: break;
        case Marker::Circle: c.fillCircle(x, y, s - 0.5f, col); break;
        case Marker::Square: c.fillRectAA(x - s + 1, y - s + 1, x + s - 1, y + s - 1, col); break;
        case Marker::Triangle: c.fillPolygon({{x, y - s - 1}, {x + s + 0.5f, y + s - 1}, {x - s - 0.5f, y + s - 1}}, col); break;
        case Marker::Diamond: c.fillPolygon({{x, y - s - 1}, {x + s + 1, y}, {x, y + s + 1}, {x - s - 1, y}}, col); break;
        case Marker::Cross:
            c.line(x - s + 1, y - s + 1, x + s - 1, y + s - 1, col, kLineWidth);
            c.line(x - s + 1, y + s - 1, x + s - 1, y - s + 1, col, kLineWidth);
            break;
    }
}

/// Pixel positions of a series' usable points, split into runs at skipped points.
std::vector<std::vector<PointF>> runs(const Series& s, const Axis& ax, const Axis& ay) {
    std::vector<std::vector<PointF>> out(1);
    for (const auto& [x, y] : s.points) {
        if (usable(x, y)) out.back().push_back({ax.map(x), ay.map(y)});
        else if (!out.back().empty()) out.emplace_back();
    }
    if (out.back().empty()) out.pop_back();
    return out;
}

struct Box { float x0, y0, x1, y1; bool contains(const PointF& p) const { return p.first >= x0 && p.first <= x1 && p.second >= y0 && p.second <= y1; } };

/// Number of data samples (points, and points every 4 px along lines) inside @p b.
int crowding(const Box& b, const std::vector<std::vector<std::vector<PointF>>>& all) {
    int n = 0;
    for (const auto& series : all)
        for (const auto& run : series)
            for (std::size_t k = 0; k < run.size(); ++k) {
                n += 3 * b.contains(run[k]);
                if (k == 0) continue;
                const float dx = run[k].first - run[k - 1].first, dy = run[k].second - run[k - 1].second;
                const int steps = static_cast<int>(std::hypot(dx, dy) / 4.f);
                for (int s = 1; s < steps; ++s) {
                    const float t = static_cast<float>(s) / steps;
                    n += b.contains({run[k - 1].first + t * dx, run[k - 1].second + t * dy});
                }
            }
    return n;
}

void drawLegend(Canvas& c, const LinePlot& plot, const Box& area, const std::vector<std::vector<std::vector<PointF>>>& all) {
    std::vector<const Series*> named;
    float text_w = 0;
    for (const Series& s : plot.series)
        if (!s.name.empty()) { named.push_back(&s); text_w = std::max(text_w, textWidth(s.name, kLabelScale)); }
    if (named.empty()) return;
    const float pad = 10, row = 24, sample = 40;
    const float w = pad + sample + 10 + text_w + pad, h = pad + row * named.size() + pad - 8;
    const float inset = 12;
    const Box corners[4] = {
        {area.x0 + inset, area.y0 + inset, area.x0 + inset + w, area.y0 + inset + h},  // top left
        {area.x1 - inset - w, area.y0 + inset, area.x1 - inset, area.y0 + inset + h},  // top right
        {area.x1 - inset - w, area.y1 - inset - h, area.x1 - inset, area.y1 - inset},  // bottom right
        {area.x0 + inset, area.y1 - inset - h, area.x0 + inset + w, area.y1 - inset},  // bottom left
    };
    Box best = corners[0];
    int best_n = crowding(best, all);
    for (int k = 1; k < 4 && best_n > 0; ++k) {
        const int n = crowding(corners[k], all);
        if (n < best_n) { best = corners[k]; best_n = n; }
    }
    const int bx0 = static_cast<int>(std::round(best.x0)), by0 = static_cast<int>(std::round(best.y0));
    const int bx1 = bx0 + static_cast<int>(std::round(w)), by1 = by0 + static_cast<int>(std::round(h));
    c.fillRect(bx0, by0, bx1, by1, kWhite);
    c.strokeRect(bx0, by0, bx1, by1, Rgb{150, 150, 150});
    TextStyle st;
    st.color = kInk;
    st.valign = VAlign::Middle;
    for (std::size_t k = 0; k < named.size(); ++k) {
        const float yc = by0 + pad + row * (k + 0.5f) - 4;
        const float x0 = bx0 + pad, x1 = x0 + sample;
        if (named[k]->line) c.line(x0, yc, x1, yc, named[k]->color, kLineWidth);
        drawMarker(c, named[k]->marker, 0.5f * (x0 + x1), yc, named[k]->color);
        drawText(c, x1 + 10, yc, named[k]->name, st);
    }
}

}  // namespace

Rgb paletteColor(int k) {
    static const Rgb tab10[10] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},  {148, 103, 189},
                                  {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    return tab10[((k % 10) + 10) % 10];
}

Canvas renderLogLogPlot(const LinePlot& plot) {
    if (plot.width < 400 || plot.height < 300 || plot.width > Canvas::kMaxSide || plot.height > Canvas::kMaxSide) {
        throw InputError(fieldMessage("plot size", std::to_string(plot.width) + "x" + std::to_string(plot.height),
                                      "invalid plot size", "width 400.." + std::to_string(Canvas::kMaxSide) +
                                                               ", height 300.." + std::to_string(Canvas::kMaxSide) + " px"));
    }
    Canvas c(plot.width, plot.height);

    // Data range over usable points.
    double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
    for (const Series& s : plot.series)
        for (const auto& [x, y] : s.points)
            if (usable(x, y)) {
                xmin = std::min(xmin, x); xmax = std::max(xmax, x);
                ymin = std::min(ymin, y); ymax = std::max(ymax, y);
            }
    const bool empty = !(xmin <= xmax);
    if (empty) xmin = xmax = ymin = ymax = 3.0;  // shows 10^0..10^1

    // Plot area: room for the title, the rotated y label and the tick labels.
    const float top = plot.title.empty() ? 30.f : 64.f;
    const float bottom = static_cast<float>(plot.height) - 78.f;
    const float left = 112.f, right = static_cast<float>(plot.width) - 36.f;
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

    // Title and axis labels.
    TextStyle st;
    st.color = kInk;
    st.halign = HAlign::Center;
    st.valign = VAlign::Middle;
    st.scale = kTitleScale;
    drawText(c, 0.5f * (left + right), 0.5f * top, plot.title, st);
    st.scale = kLabelScale;
    drawText(c, 0.5f * (left + right), static_cast<float>(plot.height) - 24.f, plot.x_label, st);
    st.vertical = true;
    drawText(c, 26.f, 0.5f * (top + bottom), plot.y_label, st);
    st.vertical = false;
    if (empty) drawText(c, 0.5f * (left + right), 0.5f * (top + bottom), "no data", st);

    // Series: lines, then markers on top.
    std::vector<std::vector<std::vector<PointF>>> all;
    for (const Series& s : plot.series) all.push_back(runs(s, ax, ay));
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
        for (const auto& run : all[k]) {
            if (plot.series[k].line) c.polyline(run, plot.series[k].color, kLineWidth);
            for (const PointF& p : run) drawMarker(c, plot.series[k].marker, p.first, p.second, plot.series[k].color);
        }
    }
    drawLegend(c, plot, Box{left, top, right, bottom}, all);
    return c;
}

void writeLogLogPlot(const std::string& pngPath, const LinePlot& plot) { writePng(pngPath, renderLogLogPlot(plot)); }

}  // namespace ccrowd::plot
