/// @file walkable_wkt.cpp
/// The walkable region (src/scene/open_region.cpp, Boost.Geometry's
/// overlay) written as OGC WKT: straight-through vertices dropped, rings
/// rotated to start at their smallest (x, y) vertex, polygons and holes in
/// the order of their first vertices, numbers as the shortest decimal.

#include "walkable_wkt.hpp"

#include <algorithm>
#include <charconv>
#include <exception>
#include <string>
#include <vector>

#include "ccrowd/error.hpp"
#include "src/scene/open_region.hpp"

namespace ccrowd::io {

namespace {

using geom::BPoint;

/// A ring without its closing vertex.
using Ring = std::vector<BPoint>;

/// @p r (closed, as Boost gives it) without the closing vertex and the
/// vertices where it goes straight on, rotated to start at its smallest
/// (x, y) vertex. Orientation is kept.
template <class BoostRing>
Ring cleanRing(const BoostRing& in) {
    Ring r(in.begin(), in.end());
    if (r.size() > 1 && r.front().x() == r.back().x() && r.front().y() == r.back().y()) r.pop_back();
    // drop straight-through vertices until none is left
    for (bool changed = true; changed && r.size() > 3;) {
        changed = false;
        for (std::size_t i = 0; i < r.size() && r.size() > 3; ++i) {
            const BPoint& p = r[(i + r.size() - 1) % r.size()];
            const BPoint& q = r[i];
            const BPoint& n = r[(i + 1) % r.size()];
            const double cross = (q.x() - p.x()) * (n.y() - q.y()) - (q.y() - p.y()) * (n.x() - q.x());
            const double dot = (q.x() - p.x()) * (n.x() - q.x()) + (q.y() - p.y()) * (n.y() - q.y());
            if (cross == 0.0 && dot > 0.0) {
                r.erase(r.begin() + static_cast<std::ptrdiff_t>(i));
                changed = true;
            }
        }
    }
    const auto first = std::min_element(r.begin(), r.end(), [](const BPoint& a, const BPoint& b) {
        return a.x() != b.x() ? a.x() < b.x() : a.y() < b.y();
    });
    std::rotate(r.begin(), first, r.end());
    return r;
}

bool ringLess(const Ring& a, const Ring& b) {
    return a[0].x() != b[0].x() ? a[0].x() < b[0].x() : a[0].y() < b[0].y();
}

/// Shortest decimal: of the float when the value is exactly a float (input
/// vertices), else of the double (cut points). Never in exponent form.
void appendNumber(std::string& s, double v) {
    char buf[400];
    const float f = static_cast<float>(v);
    const std::to_chars_result r = static_cast<double>(f) == v
                                       ? std::to_chars(buf, buf + sizeof buf, f, std::chars_format::fixed)
                                       : std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    s.append(buf, r.ptr);
}

/// "(x y, x y, ..., x0 y0)": the ring closed.
void appendRing(std::string& s, const Ring& r) {
    s += '(';
    for (std::size_t i = 0; i <= r.size(); ++i) {
        const BPoint& p = r[i % r.size()];
        if (i) s += ", ";
        appendNumber(s, p.x());
        s += ' ';
        appendNumber(s, p.y());
    }
    s += ')';
}

/// A polygon as rings: its shell, then its holes in order.
struct Rings {
    Ring shell;
    std::vector<Ring> holes;
};

std::string wkt(const geom::BRegion& region) {
    // rings cleaned; holes and polygons in the order of their first vertex
    std::vector<Rings> polys;
    for (const geom::BPolygon& p : region) {
        Rings r{cleanRing(p.outer()), {}};
        if (r.shell.size() < 3) continue;
        for (const auto& hole : p.inners()) {
            Ring h = cleanRing(hole);
            if (h.size() >= 3) r.holes.push_back(std::move(h));
        }
        std::sort(r.holes.begin(), r.holes.end(), ringLess);
        polys.push_back(std::move(r));
    }
    std::sort(polys.begin(), polys.end(), [](const Rings& a, const Rings& b) { return ringLess(a.shell, b.shell); });
    if (polys.empty()) return "POLYGON EMPTY";
    // shells counter-clockwise, holes clockwise (BPolygon's order)
    std::string s = polys.size() == 1 ? "POLYGON (" : "MULTIPOLYGON (";
    for (std::size_t k = 0; k < polys.size(); ++k) {
        if (k) s += ", ";
        if (polys.size() > 1) s += '(';
        appendRing(s, polys[k].shell);
        for (const Ring& h : polys[k].holes) {
            s += ", ";
            appendRing(s, h);
        }
        if (polys.size() > 1) s += ')';
    }
    s += ')';
    return s;
}

/// The region @p make builds, with Boost.Geometry's own exceptions as InputError.
template <class Make>
geom::BRegion guarded(Make make) {
    try {
        return make();
    } catch (const InputError&) {
        throw;
    } catch (const std::exception& e) {
        throw InputError(std::string("walkable area: the polygons could not be combined (") + e.what() +
                         "; allowed: polygons whose edges do not nearly coincide)");
    }
}

}  // namespace

std::string walkableWkt(const std::vector<Polygon>& outer, const std::vector<Polygon>& holes) {
    return wkt(guarded([&] { return geom::regionOf(outer, holes, Polygon{}); }));
}

std::string walkableWkt(const std::vector<Polygon>& outer, const std::vector<Polygon>& holes, const Polygon& clip) {
    return wkt(guarded([&] { return geom::regionOf(outer, holes, clip); }));
}

std::string sceneWalkableWkt(const Scene& scene) {
    return wkt(guarded([&] { return geom::sceneOpenRegion(scene); }));
}

}  // namespace ccrowd::io
