/// @file plot_frame.cpp
/// Legend placement: of the four corners of the data area, the one whose box
/// covers the fewest data samples (points count 3, lines a sample per 4 px).

#include "plot_frame.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "text.hpp"

namespace ccrowd::plot {

Rgb paletteColor(int k) {
    static const Rgb tab10[10] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},  {148, 103, 189},
                                  {140, 86, 75},  {227, 119, 194}, {127, 127, 127}, {188, 189, 34}, {23, 190, 207}};
    return tab10[((k % 10) + 10) % 10];
}

namespace frame {

namespace {

constexpr Rgb kWhite{255, 255, 255};
constexpr float kMarkerSize = 5.f;  // marker half-size [px]

using Runs = std::vector<std::vector<std::vector<PointF>>>;  // per series, per unbroken run, pixel points

/// Pixel positions of a series' drawable points, split into runs at skipped points.
std::vector<std::vector<PointF>> runs(const Series& s, const PointMap& map) {
    std::vector<std::vector<PointF>> out(1);
    for (const auto& [x, y] : s.points) {
        PointF p;
        if (map(x, y, p)) out.back().push_back(p);
        else if (!out.back().empty()) out.emplace_back();
    }
    if (out.back().empty()) out.pop_back();
    return out;
}

/// Number of data samples (points, and points every 4 px along lines) inside @p b.
int crowding(const Box& b, const Runs& all) {
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

void drawLegend(Canvas& c, const LinePlot& plot, const Box& area, const Runs& all) {
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

DataRange dataRange(const LinePlot& plot, bool (*usable)(double x, double y)) {
    DataRange r{INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (const Series& s : plot.series)
        for (const auto& [x, y] : s.points)
            if (usable(x, y)) {
                r.xmin = std::min(r.xmin, x), r.xmax = std::max(r.xmax, x);
                r.ymin = std::min(r.ymin, y), r.ymax = std::max(r.ymax, y);
            }
    return r;
}

void checkPlotSize(const LinePlot& plot) {
    if (plot.width < 400 || plot.height < 300 || plot.width > Canvas::kMaxSide || plot.height > Canvas::kMaxSide) {
        throw InputError(fieldMessage("plot size", std::to_string(plot.width) + "x" + std::to_string(plot.height),
                                      "invalid plot size", "width 400.." + std::to_string(Canvas::kMaxSide) +
                                                               ", height 300.." + std::to_string(Canvas::kMaxSide) + " px"));
    }
}

Box dataBox(const LinePlot& plot) {
    const float top = plot.title.empty() ? 30.f : 64.f;
    const float bottom = static_cast<float>(plot.height) - 78.f;
    return Box{112.f, top, static_cast<float>(plot.width) - 36.f, bottom};
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

void drawTitleAndLabels(Canvas& c, const LinePlot& plot, const Box& box, bool empty) {
    TextStyle st;
    st.color = kInk;
    st.halign = HAlign::Center;
    st.valign = VAlign::Middle;
    st.scale = kTitleScale;
    drawText(c, 0.5f * (box.x0 + box.x1), 0.5f * box.y0, plot.title, st);
    st.scale = kLabelScale;
    drawText(c, 0.5f * (box.x0 + box.x1), static_cast<float>(plot.height) - 24.f, plot.x_label, st);
    st.vertical = true;
    drawText(c, 26.f, 0.5f * (box.y0 + box.y1), plot.y_label, st);
    st.vertical = false;
    if (empty) drawText(c, 0.5f * (box.x0 + box.x1), 0.5f * (box.y0 + box.y1), "no data", st);
}

void drawSeriesAndLegend(Canvas& c, const LinePlot& plot, const Box& box, const PointMap& map) {
    // lines first, then markers on top
    Runs all;
    for (const Series& s : plot.series) all.push_back(runs(s, map));
    for (std::size_t k = 0; k < plot.series.size(); ++k) {
        for (const auto& run : all[k]) {
            if (plot.series[k].line) c.polyline(run, plot.series[k].color, kLineWidth);
            for (const PointF& p : run) drawMarker(c, plot.series[k].marker, p.first, p.second, plot.series[k].color);
        }
    }
    drawLegend(c, plot, box, all);
}

}  // namespace frame
}  // namespace ccrowd::plot
