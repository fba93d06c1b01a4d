/// @file polygon.cpp
#include "polygon.hpp"

#include <algorithm>
#include <cmath>

namespace ccrowd::geom {

namespace {

/// Sign of the cross product (b - a) x (c - a): +1 left turn, -1 right, 0 collinear.
int orient(const Vec2& a, const Vec2& b, const Vec2& c) {
    const double v = (static_cast<double>(b.x) - a.x) * (static_cast<double>(c.y) - a.y) -
                     (static_cast<double>(b.y) - a.y) * (static_cast<double>(c.x) - a.x);
    return (v > 0) - (v < 0);
}

/// For collinear a, b, c: is c within the bounding box of a-b?
bool onSegment(const Vec2& a, const Vec2& b, const Vec2& c) {
    return std::min(a.x, b.x) <= c.x && c.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= c.y &&
           c.y <= std::max(a.y, b.y);
}

bool samePoint(const Vec2& a, const Vec2& b) { return a.x == b.x && a.y == b.y; }

/// Clamps a double estimate of a grid index into [lo, hi] before the cast.
int clampIndex(double v, int lo, int hi) {
    if (!(v > lo)) return lo;  // also NaN
    if (v > hi) return hi;
    return static_cast<int>(v);
}

}  // namespace

Box bounds(const Polygon& p) {
    Box b{p[0].x, p[0].y, p[0].x, p[0].y};
    for (const Vec2& v : p) {
        b.x0 = std::min<double>(b.x0, v.x);
        b.y0 = std::min<double>(b.y0, v.y);
        b.x1 = std::max<double>(b.x1, v.x);
        b.y1 = std::max<double>(b.y1, v.y);
    }
    return b;
}

double signedArea(const Polygon& p) {
    // Shoelace formula relative to the first vertex (less cancellation).
    double s = 0;
    const double x0 = p.empty() ? 0 : p[0].x, y0 = p.empty() ? 0 : p[0].y;
    for (std::size_t k = 0; k < p.size(); ++k) {
        const Vec2& a = p[k];
        const Vec2& b = p[(k + 1) % p.size()];
        s += (a.x - x0) * (b.y - y0) - (b.x - x0) * (a.y - y0);
    }
    return 0.5 * s;
}

double crossingX(const Vec2& a, const Vec2& b, double y) {
    const double xa = a.x, ya = a.y, xb = b.x, yb = b.y;
    return xa + (y - ya) * (xb - xa) / (yb - ya);
}

bool pointInPolygon(const Polygon& p, double x, double y) {
    // Count crossings of the ray to +x (Franklin's pnpoly).
    bool inside = false;
    for (std::size_t k = 0, n = p.size(); k < n; ++k) {
        const Vec2& a = p[k];
        const Vec2& b = p[(k + 1) % n];
        if (edgeCrossesY(a, b, y) && x < crossingX(a, b, y)) inside = !inside;
    }
    return inside;
}

bool segmentsIntersect(const Vec2& p1, const Vec2& p2, const Vec2& q1, const Vec2& q2) {
    const int o1 = orient(p1, p2, q1), o2 = orient(p1, p2, q2);
    const int o3 = orient(q1, q2, p1), o4 = orient(q1, q2, p2);
    // Proper crossing, or an end point on the other segment (not collinear).
    if (o1 != o2 && o3 != o4) return true;
    // Collinear or touching cases.
    if (o1 == 0 && onSegment(p1, p2, q1)) return true;
    if (o2 == 0 && onSegment(p1, p2, q2)) return true;
    if (o3 == 0 && onSegment(q1, q2, p1)) return true;
    if (o4 == 0 && onSegment(q1, q2, p2)) return true;
    return false;
}

std::pair<int, int> findSelfIntersection(const Polygon& p) {
    const int n = static_cast<int>(p.size());
    // Repeated consecutive vertices make a zero-length edge.
    for (int i = 0; i < n; ++i) {
        if (samePoint(p[i], p[(i + 1) % n])) return {i, i};
    }
    for (int i = 0; i < n; ++i) {
        const Vec2& a = p[i];
        const Vec2& b = p[(i + 1) % n];
        for (int j = i + 1; j < n; ++j) {
            const Vec2& c = p[j];
            const Vec2& d = p[(j + 1) % n];
            const bool nextTo = (j == i + 1) || (i == 0 && j == n - 1);
            if (!nextTo) {
                if (segmentsIntersect(a, b, c, d)) return {i, j};
                continue;
            }
            // Neighbours share one vertex; they must not fold back onto each other.
            const Vec2& shared = (j == i + 1) ? b : a;
            const Vec2& u = (j == i + 1) ? a : b;  // far end of edge i
            const Vec2& w = (j == i + 1) ? d : c;  // far end of edge j
            if (orient(shared, u, w) == 0) {
                const double dot = (static_cast<double>(u.x) - shared.x) * (static_cast<double>(w.x) - shared.x) +
                                   (static_cast<double>(u.y) - shared.y) * (static_cast<double>(w.y) - shared.y);
                if (dot > 0) return {i, j};
            }
        }
    }
    return {-1, -1};
}

double clippedArea(const Polygon& p, const Box& b) {
    // Sutherland-Hodgman against the four sides of the box, in double.
    struct P { double x, y; };
    std::vector<P> cur, next;
    cur.reserve(p.size() + 8);
    for (const Vec2& v : p) cur.push_back({v.x, v.y});
    for (int side = 0; side < 4 && !cur.empty(); ++side) {
        auto inside = [&](const P& q) {
            switch (side) {
                case 0: return q.x >= b.x0;
                case 1: return q.x <= b.x1;
                case 2: return q.y >= b.y0;
                default: return q.y <= b.y1;
            }
        };
        auto cut = [&](const P& s, const P& e) {
            const double t = side < 2 ? ((side == 0 ? b.x0 : b.x1) - s.x) / (e.x - s.x)
                                      : ((side == 2 ? b.y0 : b.y1) - s.y) / (e.y - s.y);
            if (side < 2) return P{side == 0 ? b.x0 : b.x1, s.y + t * (e.y - s.y)};
            return P{s.x + t * (e.x - s.x), side == 2 ? b.y0 : b.y1};
        };
        next.clear();
        for (std::size_t k = 0; k < cur.size(); ++k) {
            const P& s = cur[(k + cur.size() - 1) % cur.size()];
            const P& e = cur[k];
            if (inside(e)) {
                if (!inside(s)) next.push_back(cut(s, e));
                next.push_back(e);
            } else if (inside(s)) {
                next.push_back(cut(s, e));
            }
        }
        std::swap(cur, next);
    }
    double a = 0;
    for (std::size_t k = 0; k < cur.size(); ++k) {
        const P& s = cur[k];
        const P& e = cur[(k + 1) % cur.size()];
        a += s.x * e.y - e.x * s.y;
    }
    return std::fabs(0.5 * a);
}

int GridGeom::firstColumnAtOrAfter(double x) const {
    // Estimate, then step to the exact answer using the same centre formula.
    int i = clampIndex(std::ceil((x - ox) / h - 0.5), 0, nx);
    while (i > 0 && cx(i - 1) >= x) --i;
    while (i < nx && cx(i) < x) ++i;
    return i;
}

int GridGeom::firstRowAtOrAfter(double y) const {
    int j = clampIndex(std::ceil((y - oy) / h - 0.5), 0, ny);
    while (j > 0 && cy(j - 1) >= y) --j;
    while (j < ny && cy(j) < y) ++j;
    return j;
}

void polygonRuns(const Polygon& p, const GridGeom& g, std::vector<Run>& out) {
    // Every edge adds its crossing with each row centre line it spans.
    std::vector<std::pair<int, double>> hits;
    const std::size_t n = p.size();
    for (std::size_t k = 0; k < n; ++k) {
        const Vec2& a = p[k];
        const Vec2& b = p[(k + 1) % n];
        if (a.y == b.y) continue;
        const double lo = std::min(a.y, b.y), hi = std::max(a.y, b.y);
        const int j0 = g.firstRowAtOrAfter(lo), j1 = g.firstRowAtOrAfter(hi);
        for (int j = j0; j < j1; ++j) {
            const double y = g.cy(j);
            if (edgeCrossesY(a, b, y)) hits.emplace_back(j, crossingX(a, b, y));
        }
    }
    // Per row, cells between crossing pairs [c0, c1), [c2, c3), ... are inside.
    std::sort(hits.begin(), hits.end());
    for (std::size_t s = 0; s < hits.size();) {
        std::size_t e = s;
        while (e < hits.size() && hits[e].first == hits[s].first) ++e;
        for (std::size_t k = s; k + 1 < e; k += 2) {
            const int i0 = g.firstColumnAtOrAfter(hits[k].second);
            const int i1 = g.firstColumnAtOrAfter(hits[k + 1].second);
            if (i1 > i0) out.push_back({hits[s].first, i0, i1});
        }
        s = e;
    }
}

void rowCrossings(const Polygon& p, double y, std::vector<double>& out) {
    out.clear();
    for (std::size_t k = 0, n = p.size(); k < n; ++k) {
        const Vec2& a = p[k];
        const Vec2& b = p[(k + 1) % n];
        if (edgeCrossesY(a, b, y)) out.push_back(crossingX(a, b, y));
    }
    std::sort(out.begin(), out.end());
}

std::vector<int> overlappedCells(const Polygon& p, const GridGeom& g) {
    // Candidates: cells touched by each edge (column by column), plus the
    // cell of each vertex; then keep those with positive clipped area.
    std::vector<int> cand;
    auto col = [&](double x) { return clampIndex(std::floor((x - g.ox) / g.h), -1, g.nx); };
    auto row = [&](double y) { return clampIndex(std::floor((y - g.oy) / g.h), -1, g.ny); };
    for (std::size_t k = 0, n = p.size(); k < n; ++k) {
        const Vec2& a = p[k];
        const Vec2& b = p[(k + 1) % n];
        const int ia = col(a.x), ib = col(b.x);
        for (int i = std::max(std::min(ia, ib), 0); i <= std::min(std::max(ia, ib), g.nx - 1); ++i) {
            // The edge's y range within column i.
            const double xl = std::max<double>(g.ox + i * g.h, std::min(a.x, b.x));
            const double xr = std::min<double>(g.ox + (i + 1) * g.h, std::max(a.x, b.x));
            double ya = a.y, yb = b.y;
            if (a.x != b.x) {
                const double t0 = (xl - a.x) / (static_cast<double>(b.x) - a.x);
                const double t1 = (xr - a.x) / (static_cast<double>(b.x) - a.x);
                ya = a.y + t0 * (static_cast<double>(b.y) - a.y);
                yb = a.y + t1 * (static_cast<double>(b.y) - a.y);
            }
            const int j0 = std::max(row(std::min(ya, yb)), 0), j1 = std::min(row(std::max(ya, yb)), g.ny - 1);
            for (int j = j0; j <= j1; ++j) cand.push_back(i + j * g.nx);
        }
    }
    std::sort(cand.begin(), cand.end());
    cand.erase(std::unique(cand.begin(), cand.end()), cand.end());
    std::vector<int> out;
    for (int c : cand) {
        const int i = c % g.nx, j = c / g.nx;
        const Box cellBox{g.ox + i * g.h, g.oy + j * g.h, g.ox + (i + 1) * g.h, g.oy + (j + 1) * g.h};
        if (clippedArea(p, cellBox) > 1e-9 * g.h * g.h) out.push_back(c);
    }
    return out;
}

}  // namespace ccrowd::geom
