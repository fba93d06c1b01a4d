/// @file walkable_wkt.cpp
/// Region boolean by edge arrangement:
///  1. every polygon edge is cut where another polygon's edge crosses or
///     touches it (a sweep over edges sorted by x);
///  2. cut points closer than a tolerance (1e-9 of the coordinate scale)
///     become one vertex, so coincident pieces of abutting edges are equal;
///  3. each distinct piece is kept when the region differs on its two sides
///     (sides from the owning polygons' orientation, else a crossing-number
///     test of its midpoint), directed with the region on its left;
///  4. pieces are joined into face boundaries (at a vertex, the next piece
///     clockwise from the reversed incoming one), split where they touch
///     themselves, and sorted into shells (area > 0) and holes (area < 0).
/// Orientation tests run on the input coordinates (floats widened to double,
/// so they are exact); only cut positions are rounded.

#include "walkable_wkt.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <functional>
#include <unordered_map>
#include <utility>

#include "ccrowd/error.hpp"

namespace ccrowd::io {

namespace {

constexpr double kTwoPi = 6.283185307179586;

struct P2 {
    double x = 0, y = 0;
};

enum class Role { Outer, Hole, Clip };

/// An input polygon: distinct vertices, orientation, bounding box.
struct Poly {
    std::vector<P2> v;
    Role role = Role::Outer;
    bool ccw = true;
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

/// An input edge and the points where it must be cut.
struct Edge {
    P2 a, b;
    int poly = 0;
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    std::vector<P2> cuts;
};

/// A piece of an input edge between vertex ids u < v; @c forward when the
/// polygon's edge runs u -> v.
struct Piece {
    int u = 0, v = 0, poly = 0;
    bool forward = true;
};

/// A boundary piece, directed with the region on its left.
struct DEdge {
    int from = 0, to = 0;
};

double orient(const P2& a, const P2& b, const P2& c) {
    return (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
}
int sgn(double v) { return (v > 0) - (v < 0); }

double signedArea(const std::vector<P2>& v) {
    double s = 0;
    for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) s += v[j].x * v[i].y - v[i].x * v[j].y;
    return 0.5 * s;
}

/// Crossing-number point in polygon (as geom::pointInPolygon, in double).
bool inside(const std::vector<P2>& v, const P2& p) {
    bool c = false;
    for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
        if ((v[i].y > p.y) != (v[j].y > p.y)) {
            const double x = v[j].x + (p.y - v[j].y) * (v[i].x - v[j].x) / (v[i].y - v[j].y);
            if (p.x < x) c = !c;
        }
    }
    return c;
}

bool inBox(const Edge& e, const P2& p) { return p.x >= e.x0 && p.x <= e.x1 && p.y >= e.y0 && p.y <= e.y1; }

/// Adds the cut points of edges @p e and @p f (different polygons).
void cutPair(Edge& e, Edge& f) {
    const int o1 = sgn(orient(e.a, e.b, f.a)), o2 = sgn(orient(e.a, e.b, f.b));
    const int o3 = sgn(orient(f.a, f.b, e.a)), o4 = sgn(orient(f.a, f.b, e.b));
    // Proper crossing: one shared cut point, computed once for both edges.
    if (o1 * o2 < 0 && o3 * o4 < 0) {
        const double dx = e.b.x - e.a.x, dy = e.b.y - e.a.y;
        const double gx = f.b.x - f.a.x, gy = f.b.y - f.a.y;
        const double t = std::clamp(((f.a.x - e.a.x) * gy - (f.a.y - e.a.y) * gx) / (dx * gy - dy * gx), 0.0, 1.0);
        const P2 p{e.a.x + t * dx, e.a.y + t * dy};
        e.cuts.push_back(p);
        f.cuts.push_back(p);
        return;
    }
    // Touching or collinear overlap: end points lying on the other edge.
    if (o1 == 0 && inBox(e, f.a)) e.cuts.push_back(f.a);
    if (o2 == 0 && inBox(e, f.b)) e.cuts.push_back(f.b);
    if (o3 == 0 && inBox(f, e.a)) f.cuts.push_back(e.a);
    if (o4 == 0 && inBox(f, e.b)) f.cuts.push_back(e.b);
}

/// Vertex ids with snapping: points within @c tol (per axis) share an id.
class Vertices {
public:
    explicit Vertices(double tol) : tol_(tol) {}

    int id(const P2& p) {
        const long long cx = cell(p.x), cy = cell(p.y);
        // Look in the 3x3 neighbouring cells, in a fixed order.
        for (long long i = cx - 1; i <= cx + 1; ++i) {
            for (long long j = cy - 1; j <= cy + 1; ++j) {
                const auto it = grid_.find(key(i, j));
                if (it == grid_.end()) continue;
                for (int k : it->second)
                    if (std::fabs(pts[k].x - p.x) <= tol_ && std::fabs(pts[k].y - p.y) <= tol_) return k;
            }
        }
        const int k = static_cast<int>(pts.size());
        pts.push_back(p);
        grid_[key(cx, cy)].push_back(k);
        return k;
    }

    std::vector<P2> pts;

private:
    long long cell(double v) const { return static_cast<long long>(std::floor(v / tol_)); }
    static unsigned long long key(long long i, long long j) {
        return static_cast<unsigned long long>(i) * 0x9E3779B97F4A7C15ull ^ static_cast<unsigned long long>(j);
    }
    double tol_;
    std::unordered_map<unsigned long long, std::vector<int>> grid_;
};

/// Input polygons in double, without repeated vertices; degenerate ones dropped.
void addPolys(std::vector<Poly>& out, const std::vector<Polygon>& in, Role role) {
    for (const Polygon& src : in) {
        Poly p;
        p.role = role;
        for (const Vec2& q : src) {
            if (!std::isfinite(q.x) || !std::isfinite(q.y))
                throw InputError("walkable area: a polygon vertex is not finite (allowed: finite coordinates in metres)");
            const P2 d{q.x, q.y};
            if (p.v.empty() || p.v.back().x != d.x || p.v.back().y != d.y) p.v.push_back(d);
        }
        while (p.v.size() > 1 && p.v.front().x == p.v.back().x && p.v.front().y == p.v.back().y) p.v.pop_back();
        if (p.v.size() < 3) continue;
        const double a = signedArea(p.v);
        if (a == 0) continue;
        p.ccw = a > 0;
        p.x0 = p.x1 = p.v[0].x;
        p.y0 = p.y1 = p.v[0].y;
        for (const P2& q : p.v) {
            p.x0 = std::min(p.x0, q.x), p.x1 = std::max(p.x1, q.x);
            p.y0 = std::min(p.y0, q.y), p.y1 = std::max(p.y1, q.y);
        }
        out.push_back(std::move(p));
    }
}

/// Every polygon edge, cut at the other polygons' edges.
std::vector<Edge> cutEdges(const std::vector<Poly>& polys) {
    std::vector<Edge> edges;
    for (int pi = 0; pi < static_cast<int>(polys.size()); ++pi) {
        const auto& v = polys[pi].v;
        for (std::size_t k = 0; k < v.size(); ++k) {
            Edge e;
            e.a = v[k];
            e.b = v[(k + 1) % v.size()];
            e.poly = pi;
            e.x0 = std::min(e.a.x, e.b.x), e.x1 = std::max(e.a.x, e.b.x);
            e.y0 = std::min(e.a.y, e.b.y), e.y1 = std::max(e.a.y, e.b.y);
            edges.push_back(e);
        }
    }
    // Sweep in x: only edges whose x ranges overlap are compared.
    std::vector<int> order(edges.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return edges[a].x0 != edges[b].x0 ? edges[a].x0 < edges[b].x0 : a < b;
    });
    for (std::size_t i = 0; i < order.size(); ++i) {
        Edge& e = edges[order[i]];
        for (std::size_t j = i + 1; j < order.size() && edges[order[j]].x0 <= e.x1; ++j) {
            Edge& f = edges[order[j]];
            if (f.poly == e.poly || f.y0 > e.y1 || f.y1 < e.y0) continue;
            cutPair(e, f);
        }
    }
    return edges;
}

/// Splits each edge at its cuts into pieces between snapped vertex ids.
std::vector<Piece> makePieces(std::vector<Edge>& edges, Vertices& verts) {
    std::vector<Piece> pieces;
    std::vector<std::pair<double, P2>> pts;
    std::vector<int> ids;
    for (Edge& e : edges) {
        // Order the end points and cuts along the edge.
        const double dx = e.b.x - e.a.x, dy = e.b.y - e.a.y;
        pts.clear();
        pts.push_back({0.0, e.a});
        for (const P2& c : e.cuts) pts.push_back({(c.x - e.a.x) * dx + (c.y - e.a.y) * dy, c});
        pts.push_back({dx * dx + dy * dy, e.b});
        std::stable_sort(pts.begin(), pts.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
        ids.clear();
        for (const auto& p : pts) {
            const int id = verts.id(p.second);
            if (ids.empty() || ids.back() != id) ids.push_back(id);
        }
        for (std::size_t k = 0; k + 1 < ids.size(); ++k) {
            const int a = ids[k], b = ids[k + 1];
            pieces.push_back(Piece{std::min(a, b), std::max(a, b), e.poly, a < b});
        }
        e.cuts.clear();
        e.cuts.shrink_to_fit();
    }
    // Equal pieces next to each other.
    std::sort(pieces.begin(), pieces.end(), [](const Piece& p, const Piece& q) {
        if (p.u != q.u) return p.u < q.u;
        if (p.v != q.v) return p.v < q.v;
        if (p.poly != q.poly) return p.poly < q.poly;
        return p.forward < q.forward;
    });
    return pieces;
}

/// Region membership on the left and right of the piece group [g0, g1).
void sides(const std::vector<Poly>& polys, const std::vector<Piece>& pieces, std::size_t g0, std::size_t g1,
           const P2& m, bool hasClip, bool& left, bool& right) {
    bool outerL = false, outerR = false, holeL = false, holeR = false, clipL = true, clipR = true;
    for (int pi = 0; pi < static_cast<int>(polys.size()); ++pi) {
        const Poly& p = polys[pi];
        // A polygon owning the piece has its interior on one side only.
        int own = 0;
        bool ownLeft = false;
        for (std::size_t k = g0; k < g1; ++k) {
            if (pieces[k].poly == pi) {
                ++own;
                ownLeft = pieces[k].forward == p.ccw;
            }
        }
        bool l = false, r = false;
        if (own == 1) {
            l = ownLeft;
            r = !ownLeft;
        } else if (own == 0 && m.x >= p.x0 && m.x <= p.x1 && m.y >= p.y0 && m.y <= p.y1) {
            l = r = inside(p.v, m);
        }
        switch (p.role) {
            case Role::Outer: outerL |= l, outerR |= r; break;
            case Role::Hole: holeL |= l, holeR |= r; break;
            case Role::Clip: clipL &= l, clipR &= r; break;
        }
    }
    left = outerL && !holeL && (!hasClip || clipL);
    right = outerR && !holeR && (!hasClip || clipR);
}

/// Clockwise angle from direction @p r to direction @p d, in (0, 2 pi].
double cwAngle(const P2& r, const P2& d) {
    double a = -std::atan2(r.x * d.y - r.y * d.x, r.x * d.x + r.y * d.y);
    if (a <= 0) a += kTwoPi;
    return a;
}

/// Closed walks around each face (vertex ids), region on the left.
std::vector<std::vector<int>> traceFaces(const std::vector<DEdge>& edges, const std::vector<P2>& pts) {
    std::vector<std::vector<int>> out(pts.size());
    for (int e = 0; e < static_cast<int>(edges.size()); ++e) out[edges[e].from].push_back(e);
    std::vector<char> used(edges.size(), 0);
    std::vector<std::vector<int>> walks;
    for (int s = 0; s < static_cast<int>(edges.size()); ++s) {
        if (used[s]) continue;
        used[s] = 1;
        std::vector<int> walk;
        int e = s;
        bool closed = false;
        for (std::size_t guard = 0; guard <= edges.size(); ++guard) {
            walk.push_back(edges[e].from);
            // Next piece: first clockwise from the reversed incoming one.
            const P2& a = pts[edges[e].from];
            const P2& v = pts[edges[e].to];
            const P2 back{a.x - v.x, a.y - v.y};
            int best = -1;
            double bestAngle = 0;
            for (int c : out[edges[e].to]) {
                if (used[c] && c != s) continue;
                const P2& w = pts[edges[c].to];
                const double ang = cwAngle(back, P2{w.x - v.x, w.y - v.y});
                if (best < 0 || ang < bestAngle) best = c, bestAngle = ang;
            }
            if (best < 0) break;  // numerically broken arrangement: drop this walk
            if (best == s) {
                closed = true;
                break;
            }
            used[best] = 1;
            e = best;
        }
        if (closed) walks.push_back(std::move(walk));
    }
    return walks;
}

/// Splits a closed walk where it passes a vertex twice, into simple rings.
void splitWalk(const std::vector<int>& walk, std::vector<std::vector<int>>& rings) {
    std::vector<int> stack;
    std::unordered_map<int, std::size_t> at;
    for (int v : walk) {
        const auto it = at.find(v);
        if (it == at.end()) {
            at[v] = stack.size();
            stack.push_back(v);
            continue;
        }
        // The loop since v's first visit is a ring of its own.
        const std::size_t k = it->second;
        if (stack.size() - k >= 3) rings.emplace_back(stack.begin() + static_cast<std::ptrdiff_t>(k), stack.end());
        for (std::size_t q = k + 1; q < stack.size(); ++q) at.erase(stack[q]);
        stack.resize(k + 1);
    }
    if (stack.size() >= 3) rings.push_back(std::move(stack));
}

/// Ring in coordinates, without vertices where it goes straight on, rotated
/// to start at its smallest (x, y) vertex.
std::vector<P2> cleanRing(const std::vector<int>& ids, const std::vector<P2>& pts) {
    std::vector<P2> r;
    for (int id : ids) r.push_back(pts[id]);
    // Drop straight-through vertices until none is left.
    for (bool changed = true; changed && r.size() > 3;) {
        changed = false;
        for (std::size_t i = 0; i < r.size() && r.size() > 3; ++i) {
            const P2& p = r[(i + r.size() - 1) % r.size()];
            const P2& q = r[i];
            const P2& n = r[(i + 1) % r.size()];
            if (orient(p, q, n) == 0 && (q.x - p.x) * (n.x - q.x) + (q.y - p.y) * (n.y - q.y) > 0) {
                r.erase(r.begin() + static_cast<std::ptrdiff_t>(i));
                changed = true;
            }
        }
    }
    const auto first = std::min_element(r.begin(), r.end(), [](const P2& a, const P2& b) {
        return a.x != b.x ? a.x < b.x : a.y < b.y;
    });
    std::rotate(r.begin(), first, r.end());
    return r;
}

bool ringLess(const std::vector<P2>& a, const std::vector<P2>& b) {
    return a[0].x != b[0].x ? a[0].x < b[0].x : a[0].y < b[0].y;
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
void appendRing(std::string& s, const std::vector<P2>& r) {
    s += '(';
    for (std::size_t i = 0; i <= r.size(); ++i) {
        const P2& p = r[i % r.size()];
        if (i) s += ", ";
        appendNumber(s, p.x);
        s += ' ';
        appendNumber(s, p.y);
    }
    s += ')';
}

std::string build(const std::vector<Polygon>& outer, const std::vector<Polygon>& holes, const Polygon* clip) {
    // Input polygons by role.
    std::vector<Poly> polys;
    addPolys(polys, outer, Role::Outer);
    addPolys(polys, holes, Role::Hole);
    bool hasClip = false;
    if (clip && clip->size() >= 3) {
        const std::size_t before = polys.size();
        addPolys(polys, std::vector<Polygon>{*clip}, Role::Clip);
        hasClip = true;
        if (polys.size() == before) return "POLYGON EMPTY";  // degenerate clip: nothing inside
    }
    // Snapping tolerance: far below float resolution, far above rounding of cuts.
    double scale = 1.0;
    for (const Poly& p : polys)
        scale = std::max({scale, std::fabs(p.x0), std::fabs(p.x1), std::fabs(p.y0), std::fabs(p.y1)});
    Vertices verts(1e-9 * scale);

    // Arrangement pieces, grouped by vertex pair.
    std::vector<Edge> edges = cutEdges(polys);
    const std::vector<Piece> pieces = makePieces(edges, verts);

    // Boundary pieces, directed with the region on their left.
    std::vector<DEdge> boundary;
    for (std::size_t g0 = 0; g0 < pieces.size();) {
        std::size_t g1 = g0 + 1;
        while (g1 < pieces.size() && pieces[g1].u == pieces[g0].u && pieces[g1].v == pieces[g0].v) ++g1;
        const P2& a = verts.pts[pieces[g0].u];
        const P2& b = verts.pts[pieces[g0].v];
        bool left = false, right = false;
        sides(polys, pieces, g0, g1, P2{0.5 * (a.x + b.x), 0.5 * (a.y + b.y)}, hasClip, left, right);
        if (left != right) {
            boundary.push_back(left ? DEdge{pieces[g0].u, pieces[g0].v} : DEdge{pieces[g0].v, pieces[g0].u});
        }
        g0 = g1;
    }

    // Simple rings, sorted into shells and holes.
    std::vector<std::vector<int>> ringIds;
    for (const auto& walk : traceFaces(boundary, verts.pts)) splitWalk(walk, ringIds);
    std::vector<std::vector<P2>> shells, holeRings;
    std::vector<double> shellArea;
    for (const auto& ids : ringIds) {
        std::vector<P2> r = cleanRing(ids, verts.pts);
        const double a = signedArea(r);
        if (a > 0) shells.push_back(std::move(r));
        else if (a < 0) holeRings.push_back(std::move(r));
    }
    std::sort(shells.begin(), shells.end(), ringLess);
    std::sort(holeRings.begin(), holeRings.end(), ringLess);
    for (const auto& s : shells) shellArea.push_back(signedArea(s));

    // Each hole goes to the smallest shell around the midpoint of its first edge.
    std::vector<std::vector<int>> holesOf(shells.size());
    for (std::size_t h = 0; h < holeRings.size(); ++h) {
        const P2 m{0.5 * (holeRings[h][0].x + holeRings[h][1].x), 0.5 * (holeRings[h][0].y + holeRings[h][1].y)};
        int best = -1;
        for (std::size_t s = 0; s < shells.size(); ++s) {
            if (inside(shells[s], m) && (best < 0 || shellArea[s] < shellArea[best])) best = static_cast<int>(s);
        }
        if (best >= 0) holesOf[best].push_back(static_cast<int>(h));
    }

    // WKT: shells counter-clockwise (as traced), holes clockwise (as traced).
    if (shells.empty()) return "POLYGON EMPTY";
    std::string s = shells.size() == 1 ? "POLYGON (" : "MULTIPOLYGON (";
    for (std::size_t k = 0; k < shells.size(); ++k) {
        if (k) s += ", ";
        if (shells.size() > 1) s += '(';
        appendRing(s, shells[k]);
        for (int h : holesOf[k]) {
            s += ", ";
            appendRing(s, holeRings[h]);
        }
        if (shells.size() > 1) s += ')';
    }
    s += ')';
    return s;
}

}  // namespace

std::string walkableWkt(const std::vector<Polygon>& outer, const std::vector<Polygon>& holes) {
    return build(outer, holes, nullptr);
}

std::string walkableWkt(const std::vector<Polygon>& outer, const std::vector<Polygon>& holes, const Polygon& clip) {
    return build(outer, holes, &clip);
}

std::string sceneWalkableWkt(const Scene& scene) {
    const float x0 = scene.origin.x, y0 = scene.origin.y;
    const float x1 = x0 + scene.width, y1 = y0 + scene.height;
    const Polygon domain{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
    return walkableWkt(scene.walkable.empty() ? std::vector<Polygon>{domain} : scene.walkable, scene.obstacles, domain);
}

}  // namespace ccrowd::io
