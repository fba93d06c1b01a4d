/// @file open_region.cpp
/// The scene's open region with Boost.Geometry's overlay (union,
/// intersection, difference): exact on the scene's float vertices, which
/// widen to double without rounding; only crossing points are rounded.
/// Obstacles less than 1 cm apart are joined (closeGaps), their corners kept.

#include "open_region.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <utility>
#include <vector>

#include <boost/geometry/algorithms/area.hpp>
#include <boost/geometry/algorithms/buffer.hpp>
#include <boost/geometry/algorithms/envelope.hpp>
#include <boost/geometry/algorithms/correct.hpp>
#include <boost/geometry/algorithms/difference.hpp>
#include <boost/geometry/algorithms/intersection.hpp>
#include <boost/geometry/algorithms/unique.hpp>
#include <boost/geometry/algorithms/union.hpp>
#include <boost/geometry/strategies/buffer.hpp>
#include <boost/geometry/strategies/strategies.hpp>

#include "ccrowd/error.hpp"

namespace ccrowd::geom {

namespace bg = boost::geometry;

BPolygon toBoost(const Polygon& p) {
    BPolygon out;
    auto& ring = out.outer();
    for (const Vec2& q : p) {
        if (!std::isfinite(q.x) || !std::isfinite(q.y))
            throw InputError("walkable area: a polygon vertex is not finite (allowed: finite coordinates in metres)");
        // distinct consecutive vertices only
        const BPoint b(q.x, q.y);
        if (!ring.empty() && ring.back().x() == b.x() && ring.back().y() == b.y()) continue;
        ring.push_back(b);
    }
    while (ring.size() > 1 && ring.front().x() == ring.back().x() && ring.front().y() == ring.back().y()) ring.pop_back();
    if (ring.size() < 3) return BPolygon{};
    // closed, counter-clockwise
    bg::correct(out);
    if (!(std::fabs(bg::area(out)) > 0.0)) return BPolygon{};
    return out;
}

namespace {

/// Union of @p parts[lo, hi), halving: O(n log n) overlays of growing size
/// instead of n overlays against one ever larger result.
BRegion unionRange(const std::vector<BPolygon>& parts, std::size_t lo, std::size_t hi) {
    if (hi - lo == 1) return BRegion{parts[lo]};
    const std::size_t mid = lo + (hi - lo) / 2;
    const BRegion a = unionRange(parts, lo, mid), b = unionRange(parts, mid, hi);
    BRegion out;
    bg::union_(a, b, out);
    return out;
}

BRegion unionOf(const std::vector<Polygon>& polys) {
    std::vector<BPolygon> parts;
    for (const Polygon& p : polys) {
        BPolygon b = toBoost(p);
        if (!b.outer().empty()) parts.push_back(std::move(b));
    }
    return parts.empty() ? BRegion{} : unionRange(parts, 0, parts.size());
}

/// Moves every vertex of @p r within @p tol [m] of a vertex of @p original
/// onto it (the nearest), so the closing's rounding (8 - 1e-15 for 8) does
/// not reach the corners the scene gave.
void snapToVertices(BRegion& r, const BRegion& original, double tol) {
    // the original vertices in buckets of tol
    std::unordered_map<long long, std::vector<BPoint>> buckets;
    auto key = [](double cx, double cy) { return static_cast<long long>(cx) * 73856093LL ^ static_cast<long long>(cy); };
    auto eachRing = [](auto& region, auto&& f) {
        for (auto& poly : region) {
            f(poly.outer());
            for (auto& inner : poly.inners()) f(inner);
        }
    };
    eachRing(original, [&](const auto& ring) {
        for (const BPoint& p : ring) buckets[key(std::floor(p.x() / tol), std::floor(p.y() / tol))].push_back(p);
    });
    eachRing(r, [&](auto& ring) {
        for (BPoint& p : ring) {
            double best = tol;
            const BPoint* to = nullptr;
            const double fx = std::floor(p.x() / tol), fy = std::floor(p.y() / tol);
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const auto it = buckets.find(key(fx + dx, fy + dy));
                    if (it == buckets.end()) continue;
                    for (const BPoint& q : it->second) {
                        const double d = std::hypot(q.x() - p.x(), q.y() - p.y());
                        if (d <= best) { best = d; to = &q; }
                    }
                }
            if (to) p = *to;
        }
    });
}

/// Morphological closing of @p r by @p eps [m] (grown, then shrunk, with
/// mitred corners): gaps narrower than 2 eps between its polygons close.
/// Obstacles that touch in exact arithmetic (a wall ending on another) do
/// not touch once turned and rounded to float: a sliver of ~1e-7 m stays
/// open between them, and its edges make the wall side of a point near it
/// ambiguous (a body read as 0.4 m inside a wall, the H100's turned room).
BRegion closeGaps(const BRegion& r, double eps) {
    namespace bs = bg::strategy::buffer;
    const bs::join_miter join;
    const bs::side_straight side;
    const bs::end_flat end;
    const bs::point_square point;
    BRegion grown, out;
    bg::buffer(r, grown, bs::distance_symmetric<double>(eps), side, join, end, point);
    bg::buffer(grown, out, bs::distance_symmetric<double>(-eps), side, join, end, point);
    // the corners the scene gave, exactly; the closed gaps' ends leave
    // vertices within about eps of them, which become duplicates and go
    snapToVertices(out, r, 4.0 * eps);
    bg::unique(out);
    return out;
}

/// Half the gap below which obstacles count as touching: 5 mm, or 1e-6 of
/// the region's largest coordinate (some float steps) when that is more.
/// Float rounding leaves ~1e-7 m slivers between turned walls that touch;
/// generated scenes leave millimetres between blocks rounded to 1 mm. No
/// body walks through such a gap, and no one sees through it. [Units: m]
double touchTolerance(const BRegion& r) {
    const BBox box = bg::return_envelope<BBox>(r);
    const double extent = std::max({std::fabs(box.min_corner().x()), std::fabs(box.min_corner().y()),
                                    std::fabs(box.max_corner().x()), std::fabs(box.max_corner().y())});
    return std::max(5e-3, 1e-6 * extent);
}

}  // namespace

BRegion regionOf(const std::vector<Polygon>& outer, const std::vector<Polygon>& holes, const Polygon& clip) {
    BRegion region = unionOf(outer);
    // clipped to the domain
    if (clip.size() >= 3) {
        const BPolygon c = toBoost(clip);
        BRegion clipped;
        if (!c.outer().empty()) bg::intersection(region, c, clipped);
        region = std::move(clipped);
    }
    // minus the obstacles, touching ones joined
    BRegion blocked = unionOf(holes);
    if (blocked.empty() || region.empty()) return region;
    blocked = closeGaps(blocked, touchTolerance(blocked));
    BRegion out;
    bg::difference(region, blocked, out);
    return out;
}

BRegion sceneOpenRegion(const Scene& s) {
    const float x0 = s.origin.x, y0 = s.origin.y;
    const float x1 = x0 + s.width, y1 = y0 + s.height;
    const Polygon domain{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    return regionOf(s.walkable.empty() ? std::vector<Polygon>{domain} : s.walkable, s.obstacles, domain);
}

}  // namespace ccrowd::geom
