/// @file parse_shapes.cpp
#include "parse_shapes.hpp"

#include <cmath>

#include "polygon.hpp"

namespace ccrowd::scene_detail {

const char* const kPolygonAllowed =
    "a polygon: [[x, y], [x, y], [x, y], ...] with 3..4096 points, simple (no self-intersection), area > 1e-6 m^2, "
    "or {\"rect\": {\"min\": [x, y], \"max\": [x, y]}}";

namespace {

std::string pointText(const Vec2& v) { return "[" + formatNumber(v.x) + ", " + formatNumber(v.y) + "]"; }

Polygon parseRect(const Node& n) {
    // {"rect": {"min": [x, y], "max": [x, y]}} -> counter-clockwise box.
    n.object({"rect"});
    const Node r = n.get("rect", "{\"min\": [x, y], \"max\": [x, y]}");
    r.object({"min", "max"});
    const Vec2 lo = parsePoint(r.get("min", "a point [x, y] [m]"));
    const Node maxNode = r.get("max", "a point [x, y] [m]");
    const Vec2 hi = parsePoint(maxNode);
    if (!(hi.x > lo.x) || !(hi.y > lo.y)) {
        maxNode.fail("rect max must exceed min in both x and y (min is " + pointText(lo) + ")",
                     "max.x > min.x and max.y > min.y");
    }
    if ((static_cast<double>(hi.x) - lo.x) * (static_cast<double>(hi.y) - lo.y) <= scene_limits::kMinPolygonArea) {
        n.fail("zero area", kPolygonAllowed);
    }
    return {{lo.x, lo.y}, {hi.x, lo.y}, {hi.x, hi.y}, {lo.x, hi.y}};
}

/// True when every vertex lies on the line through the first two distinct ones.
bool allOnOneLine(const Polygon& p) {
    std::size_t q = 1;
    while (q < p.size() && p[q].x == p[0].x && p[q].y == p[0].y) ++q;
    if (q == p.size()) return true;
    const double dx = static_cast<double>(p[q].x) - p[0].x, dy = static_cast<double>(p[q].y) - p[0].y;
    for (const Vec2& v : p) {
        if (dx * (static_cast<double>(v.y) - p[0].y) - dy * (static_cast<double>(v.x) - p[0].x) != 0) return false;
    }
    return true;
}

}  // namespace

Vec2 parsePoint(const Node& n) {
    const double lim = scene_limits::kMaxCoordinate;
    if (!n.value().is_array() || n.value().size() != 2) {
        n.fail(n.value().is_array() ? "a point needs exactly 2 numbers" : "expected a point [x, y]",
               "a point [x, y] of 2 numbers with |x|, |y| <= 1e6 [m]");
    }
    const Range r = closed(-lim, lim, "m");
    return {n.at(0).numberF(r), n.at(1).numberF(r)};
}

Polygon parsePolygon(const Node& n) {
    if (n.value().is_object()) return parseRect(n);
    if (!n.value().is_array()) n.fail("expected a polygon", kPolygonAllowed);
    const std::size_t count = n.value().size();
    if (count < 3) n.fail("a polygon needs at least 3 points, got " + std::to_string(count), kPolygonAllowed);
    if (count > static_cast<std::size_t>(scene_limits::kMaxPolygonVertices)) {
        n.fail("too many points (" + std::to_string(count) + ")", kPolygonAllowed);
    }
    // Points, then shape checks on the whole polygon.
    Polygon p;
    p.reserve(count);
    for (std::size_t k = 0; k < count; ++k) p.push_back(parsePoint(n.at(k)));
    if (allOnOneLine(p)) n.fail("zero area (all points on one line)", kPolygonAllowed);
    const auto [a, b] = geom::findSelfIntersection(p);
    if (a >= 0) {
        const int m = static_cast<int>(p.size());
        if (a == b) {
            n.at(static_cast<std::size_t>((a + 1) % m))
                .fail("repeated vertex: point " + std::to_string((a + 1) % m) + " equals point " + std::to_string(a),
                      kPolygonAllowed);
        }
        n.fail("self-intersecting polygon: edge " + std::to_string(a) + " (" + pointText(p[a]) + " to " +
                   pointText(p[(a + 1) % m]) + ") meets edge " + std::to_string(b) + " (" + pointText(p[b]) +
                   " to " + pointText(p[(b + 1) % m]) + ")",
               kPolygonAllowed);
    }
    const double area = std::fabs(geom::signedArea(p));
    if (!(area > scene_limits::kMinPolygonArea)) {
        n.fail("zero area (|area| = " + formatNumber(area) + " m^2)", kPolygonAllowed);
    }
    return p;
}

std::vector<Polygon> parsePolygonList(const Node& n, std::size_t minCount, std::size_t maxCount) {
    const std::size_t count = n.array(minCount, maxCount, "polygons");
    std::vector<Polygon> out;
    out.reserve(count);
    for (std::size_t k = 0; k < count; ++k) out.push_back(parsePolygon(n.at(k)));
    return out;
}

}  // namespace ccrowd::scene_detail
