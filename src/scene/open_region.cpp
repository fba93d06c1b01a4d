/// @file open_region.cpp
/// The scene's open region with Boost.Geometry's overlay (union,
/// intersection, difference): exact on the scene's float vertices, which
/// widen to double without rounding; only crossing points are rounded.

#include "open_region.hpp"

#include <cmath>
#include <utility>

#include <boost/geometry/algorithms/area.hpp>
#include <boost/geometry/algorithms/correct.hpp>
#include <boost/geometry/algorithms/difference.hpp>
#include <boost/geometry/algorithms/intersection.hpp>
#include <boost/geometry/algorithms/union.hpp>

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
    // minus the obstacles
    const BRegion blocked = unionOf(holes);
    if (blocked.empty() || region.empty()) return region;
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
