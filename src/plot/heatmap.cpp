/// @file heatmap.cpp
/// Layout, top to bottom: title; map with the colour bar and its min/max
/// labels on the right; a legend row for walls and missing values. Each
/// map pixel shows the cell under its centre (nearest sampling), so large
/// grids shrink to map_size and small ones grow by a whole number of pixels
/// per cell.

#include "heatmap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "ccrowd/error.hpp"
#include "colormap.hpp"
#include "png.hpp"
#include "text.hpp"

namespace ccrowd::plot {

namespace {

const Rgb kInk{30, 30, 30};
const Rgb kFrame{70, 70, 70};
const Rgb kWhite{255, 255, 255};

constexpr int kMargin = 16;       // outer margin [px]
constexpr int kTitleBand = 44;    // title row above the map [px]
constexpr int kBarGap = 20;       // map to colour bar [px]
constexpr int kBarWidth = 18;     // [px]
constexpr int kBarMinHeight = 120;
constexpr int kLabelGap = 6;      // colour bar to its labels [px]
constexpr int kLegendBand = 34;   // legend row below the map [px]
constexpr float kTextScale = 2.f; // 14 px capitals
const char* const kWallText = "wall";
const char* const kNoValueText = "no value (inf/NaN)";

bool open(const HeatMap& m, std::size_t k) { return !m.blocked || m.blocked[k] == 0; }

std::string label(float v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", static_cast<double>(v));
    return buf;
}

/// The colour bar's top and bottom labels.
std::pair<std::string, std::string> barLabels(const HeatMapRange& r) {
    if (!r.any) return {"no data", "no data"};
    return {label(r.max), label(r.min)};
}

void check(const HeatMap& m) {
    const std::string grid = std::to_string(m.nx) + "x" + std::to_string(m.ny);
    if (m.nx < 1 || m.ny < 1) throw InputError(fieldMessage("heat map grid", grid, "empty grid", "nx, ny >= 1"));
    if (!m.values) throw InputError(fieldMessage("heat map values", "null", "no values for a " + grid + " grid", "nx*ny values"));
    if (m.map_size < 16 || m.map_size > 4096) {
        throw InputError(fieldMessage("heat map size", std::to_string(m.map_size) + " px", "out of range", "16..4096 px"));
    }
}

/// Map colour of cell k.
Rgb cellColor(const HeatMap& m, std::size_t k, const HeatMapRange& r) {
    if (!open(m, k)) return kHeatMapWall;
    const float v = m.values[k];
    if (!std::isfinite(v)) return kHeatMapNoValue;
    const float span = r.max - r.min;
    return viridis(span > 0.f ? (v - r.min) / span : 0.5f);
}

/// A legend swatch with its text; returns the x after it.
int swatch(Canvas& c, int x, int y, Rgb col, const std::string& text) {
    c.fillRect(x, y, x + 14, y + 14, col);
    c.strokeRect(x, y, x + 14, y + 14, kFrame);
    TextStyle st;
    st.color = kInk;
    st.valign = VAlign::Middle;
    drawText(c, static_cast<float>(x + 20), static_cast<float>(y) + 7.f, text, st);
    return x + 20 + static_cast<int>(std::ceil(textWidth(text, kTextScale))) + 24;
}

}  // namespace

HeatMapRange heatMapRange(const HeatMap& m) {
    HeatMapRange r;
    if (!m.values || m.nx < 1 || m.ny < 1) return r;
    const std::size_t n = static_cast<std::size_t>(m.nx) * static_cast<std::size_t>(m.ny);
    for (std::size_t k = 0; k < n; ++k) {
        const float v = m.values[k];
        if (!open(m, k) || !std::isfinite(v)) continue;
        if (!r.any) { r.min = r.max = v; r.any = true; }
        r.min = std::min(r.min, v);
        r.max = std::max(r.max, v);
    }
    return r;
}

HeatMapLayout heatMapLayout(const HeatMap& m) {
    check(m);
    HeatMapLayout L;
    L.nx = m.nx;
    L.ny = m.ny;
    // Map: whole pixels per cell when the grid fits, else shrunk to map_size.
    const int longer = std::max(m.nx, m.ny);
    if (longer <= m.map_size) {
        const int s = m.map_size / longer;
        L.map_w = m.nx * s;
        L.map_h = m.ny * s;
    } else {
        const double s = static_cast<double>(m.map_size) / longer;
        L.map_w = std::max(1, static_cast<int>(std::lround(m.nx * s)));
        L.map_h = std::max(1, static_cast<int>(std::lround(m.ny * s)));
    }
    L.map_x = kMargin;
    L.map_y = kTitleBand;
    // Colour bar beside the map, at least kBarMinHeight tall.
    L.bar_x = L.map_x + L.map_w + kBarGap;
    L.bar_y = L.map_y;
    L.bar_w = kBarWidth;
    L.bar_h = std::max(L.map_h, kBarMinHeight);
    // Image: room for the widest label, the title and the legend row.
    const auto [top, bottom] = barLabels(heatMapRange(m));
    const float label_w = std::max(textWidth(top, kTextScale), textWidth(bottom, kTextScale));
    const int right = L.bar_x + L.bar_w + kLabelGap + static_cast<int>(std::ceil(label_w)) + kMargin;
    const int title_w = static_cast<int>(std::ceil(textWidth(m.title, kTextScale))) + 2 * kMargin;
    const int legend_w = kMargin + 20 + static_cast<int>(std::ceil(textWidth(kWallText, kTextScale))) + 24 + 20 +
                         static_cast<int>(std::ceil(textWidth(kNoValueText, kTextScale))) + kMargin;
    L.width = std::max({right, title_w, legend_w});
    L.height = L.map_y + std::max(L.map_h, L.bar_h) + kLegendBand;
    return L;
}

Canvas renderHeatMap(const HeatMap& m) {
    const HeatMapLayout L = heatMapLayout(m);
    const HeatMapRange r = heatMapRange(m);
    Canvas c(L.width, L.height, kWhite);

    // Map: each pixel shows the cell under its centre; image rows run top down, grid rows bottom up.
    bool any_wall = false, any_missing = false;
    for (int py = 0; py < L.map_h; ++py) {
        const int jr = static_cast<int>((py + 0.5) * m.ny / L.map_h);
        const int j = m.ny - 1 - std::min(jr, m.ny - 1);
        for (int px = 0; px < L.map_w; ++px) {
            const int i = std::min(static_cast<int>((px + 0.5) * m.nx / L.map_w), m.nx - 1);
            const std::size_t k = static_cast<std::size_t>(j) * static_cast<std::size_t>(m.nx) + static_cast<std::size_t>(i);
            const Rgb col = cellColor(m, k, r);
            any_wall = any_wall || col == kHeatMapWall;
            any_missing = any_missing || (open(m, k) && !std::isfinite(m.values[k]));
            c.set(L.map_x + px, L.map_y + py, col);
        }
    }
    // Frame just outside the map so no cell pixel is covered.
    c.strokeRect(L.map_x - 1, L.map_y - 1, L.map_x + L.map_w + 1, L.map_y + L.map_h + 1, kFrame);

    // Colour bar: max at the top, min at the bottom.
    for (int y = 0; y < L.bar_h; ++y) {
        const Rgb col = r.any ? viridis(1.f - (y + 0.5f) / L.bar_h) : kHeatMapNoValue;
        c.fillRect(L.bar_x, L.bar_y + y, L.bar_x + L.bar_w, L.bar_y + y + 1, col);
    }
    c.strokeRect(L.bar_x - 1, L.bar_y - 1, L.bar_x + L.bar_w + 1, L.bar_y + L.bar_h + 1, kFrame);
    const auto [top, bottom] = barLabels(r);
    TextStyle st;
    st.color = kInk;
    st.scale = kTextScale;
    const float lx = static_cast<float>(L.bar_x + L.bar_w + kLabelGap);
    st.valign = VAlign::Top;
    drawText(c, lx, static_cast<float>(L.bar_y), top, st);
    st.valign = VAlign::Baseline;
    drawText(c, lx, static_cast<float>(L.bar_y + L.bar_h), bottom, st);

    // Title, left-aligned over the map.
    st.valign = VAlign::Middle;
    drawText(c, static_cast<float>(kMargin), 0.5f * kTitleBand - 2.f, m.title, st);

    // Legend for the greys that appear.
    const int ly = L.map_y + std::max(L.map_h, L.bar_h) + 12;
    int lx2 = kMargin;
    if (any_wall) lx2 = swatch(c, lx2, ly, kHeatMapWall, kWallText);
    if (any_missing) swatch(c, lx2, ly, kHeatMapNoValue, kNoValueText);
    return c;
}

void writeHeatMap(const std::string& path, const HeatMap& map) { writePng(path, renderHeatMap(map)); }

}  // namespace ccrowd::plot
