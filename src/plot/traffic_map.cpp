/// @file traffic_map.cpp
#include "traffic_map.hpp"

#include <algorithm>
#include <cmath>

#include "ccrowd/error.hpp"
#include "colormap.hpp"
#include "png.hpp"
#include "text.hpp"

namespace ccrowd::plot {

namespace {
constexpr int kMargin = 16, kTitle = 36, kBar = 18, kBarGap = 12, kLabels = 90;
constexpr Rgb kBuilding{150, 150, 150};
}  // namespace

Canvas renderTrafficMap(const TrafficMap& m) {
    if (!m.traffic) throw InputError("traffic map: no network");
    if (m.map_size < 64 || m.map_size > 8192) throw InputError(fieldMessage("traffic map size", std::to_string(m.map_size), "out of range", "64..8192 px"));
    const StreetTraffic& t = *m.traffic;
    if (m.road_counts.size() != static_cast<std::size_t>(t.roads()) || m.junction_counts.size() != static_cast<std::size_t>(t.junctions()))
        throw InputError("traffic map: counts do not match the network");
    // layout: the grid scaled uniformly, title above, colour bar on the right
    const GridInfo& g = m.grid;
    const double W = g.nx * g.h, H = g.ny * g.h, s = m.map_size / std::max(W, H);
    const int mw = std::max(1, static_cast<int>(std::lround(W * s))), mh = std::max(1, static_cast<int>(std::lround(H * s)));
    Canvas c(kMargin + mw + kBarGap + kBar + kLabels, kTitle + mh + kMargin);
    auto px = [&](float x) { return static_cast<float>(kMargin + (x - g.ox) * s); };
    auto py = [&](float y) { return static_cast<float>(kTitle + mh - (y - g.oy) * s); };
    // buildings: each pixel from the cell under its centre
    if (m.blocked && m.blocked->nx() == g.nx && m.blocked->ny() == g.ny)
        for (int v = 0; v < mh; ++v)
            for (int u = 0; u < mw; ++u) {
                const int i = std::min(g.nx - 1, static_cast<int>((u + 0.5) / s / g.h));
                const int j = std::min(g.ny - 1, static_cast<int>((mh - v - 0.5) / s / g.h));
                if ((*m.blocked)(i, j)) c.set(kMargin + u, kTitle + v, kBuilding);
            }
    // roads coloured by arrivals along them, 0 .. the busiest road (seed 004 Fig. 4)
    long long top = 1;
    for (long long n : m.road_counts) top = std::max(top, n);
    auto colour = [&](long long n) { return viridis(static_cast<float>(static_cast<double>(n) / static_cast<double>(top))); };
    // roads, fewest first so the busiest stay on top
    std::vector<int> order(static_cast<std::size_t>(t.roads()));
    for (int k = 0; k < t.roads(); ++k) order[static_cast<std::size_t>(k)] = k;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return m.road_counts[static_cast<std::size_t>(a)] < m.road_counts[static_cast<std::size_t>(b)]; });
    for (int k : order) {
        std::vector<PointF> pts;
        for (std::size_t p = 0; p < t.road_x[static_cast<std::size_t>(k)].size(); ++p)
            pts.push_back({px(t.road_x[static_cast<std::size_t>(k)][p]), py(t.road_y[static_cast<std::size_t>(k)][p])});
        const float width = std::max(2.f, static_cast<float>(t.road_width[static_cast<std::size_t>(k)] * s * 0.8));
        if (pts.size() >= 2) c.polyline(pts, colour(m.road_counts[static_cast<std::size_t>(k)]), width);
    }
    // junctions: black dots growing with their arrivals (radius 1 to 8 px)
    long long jtop = 1;
    for (long long n : m.junction_counts) jtop = std::max(jtop, n);
    for (int j = 0; j < t.junctions(); ++j) {
        const double share = static_cast<double>(m.junction_counts[static_cast<std::size_t>(j)]) / static_cast<double>(jtop);
        c.fillCircle(px(t.junction_x[static_cast<std::size_t>(j)]), py(t.junction_y[static_cast<std::size_t>(j)]),
                     static_cast<float>(1.0 + 7.0 * std::sqrt(share)), Rgb{0, 0, 0});
    }
    // title and colour bar
    TextStyle title;
    drawText(c, kMargin, 10, m.title, title);
    const int bx = kMargin + mw + kBarGap;
    for (int v = 0; v < mh; ++v) c.fillRect(bx, kTitle + v, bx + kBar, kTitle + v + 1, viridis(1.f - static_cast<float>(v) / std::max(1, mh - 1)));
    TextStyle label;
    label.valign = VAlign::Middle;
    drawText(c, static_cast<float>(bx + kBar + 6), static_cast<float>(kTitle + 6), std::to_string(top), label);
    drawText(c, static_cast<float>(bx + kBar + 6), static_cast<float>(kTitle + mh - 6), "0", label);
    return c;
}

void writeTrafficMap(const std::string& path, const TrafficMap& map) { writePng(path, renderTrafficMap(map)); }

}  // namespace ccrowd::plot
