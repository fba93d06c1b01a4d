/// @file viewshed.cpp
/// Exact visibility polygons (isovists, Turner & Penn 2001) by angular ray
/// casting toward segment endpoints, for the affordance-based route choice of
/// Nicosia et al., "Automatic High Level Avatar Guidance Based on Affordance
/// of Movement". See viewshed.hpp.

#include "route/viewshed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace ccrowd::route {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();
/// Angle of the side rays beside an endpoint. [Units: rad]
constexpr double kSideAngle = 1e-6;
/// Slack on a segment's parameter so that rays through its ends hit it.
constexpr double kParamTol = 1e-9;
/// An endpoint counts as visible when the ray toward it hits nothing before
/// this fraction of its distance.
constexpr double kVisibleFrac = 1.0 - 1e-7;
/// Recursion limit of the crossing/gap repair between two rays.
constexpr int kMaxRepairDepth = 12;
/// Seed rays cast in every viewshed (so no gap between rays exceeds pi/2
/// even when no endpoint is visible).
constexpr int kSeedRays = 8;

double cross(double ax, double ay, double bx, double by) { return ax * by - ay * bx; }

/// Parameter t of the hit of ray p + t d with segment s, or +inf.
double hitSegment(const SegmentIndex::Segment& s, double px, double py, double dx, double dy) {
    const double ex = s.bx - s.ax, ey = s.by - s.ay;
    const double den = cross(dx, dy, ex, ey);
    if (den == 0) return kInf;  // parallel: grazing walls are caught by their endpoints
    const double wx = s.ax - px, wy = s.ay - py;
    const double t = cross(wx, wy, ex, ey) / den;
    const double u = cross(wx, wy, dx, dy) / den;
    if (t < 0 || u < -kParamTol || u > 1 + kParamTol) return kInf;
    return t;
}

/// True when segment s meets the box [bx0, bx1] x [by0, by1].
bool segmentMeetsBox(const SegmentIndex::Segment& s, double bx0, double by0, double bx1, double by1) {
    // bounding boxes first
    if (std::max(s.ax, s.bx) < bx0 || std::min(s.ax, s.bx) > bx1) return false;
    if (std::max(s.ay, s.by) < by0 || std::min(s.ay, s.by) > by1) return false;
    // then the box corners must not all lie on one side of the line
    const double ex = s.bx - s.ax, ey = s.by - s.ay;
    const double c[4] = {cross(ex, ey, bx0 - s.ax, by0 - s.ay), cross(ex, ey, bx1 - s.ax, by0 - s.ay),
                         cross(ex, ey, bx1 - s.ax, by1 - s.ay), cross(ex, ey, bx0 - s.ax, by1 - s.ay)};
    const bool allPos = c[0] > 0 && c[1] > 0 && c[2] > 0 && c[3] > 0;
    const bool allNeg = c[0] < 0 && c[1] < 0 && c[2] < 0 && c[3] < 0;
    return !allPos && !allNeg;
}

/// A polygon vertex relative to the centre, with its sort key.
struct Vert {
    double key = 0;  ///< Angle of the endpoint whose rays made it. [Units: rad]
    int side = 0;    ///< -1, 0, +1: before, at, after that angle.
    double d = 0;    ///< Distance from the centre. [Units: m]
    double x = 0, y = 0;  ///< Position relative to the centre. [Units: m]
    int seg = -1;    ///< Segment it lies on (-1: a corner of two or unknown).
};

/// Counter-clockwise angle from a to b in [0, pi]; 0 when b lies
/// clockwise of a (rays of one angle, moved apart by rounding). Consecutive
/// vertices are never more than a seed-ray spacing (pi/4) apart. [Units: rad]
double ccwGap(const Vert& a, const Vert& b) {
    return std::max(0.0, std::atan2(cross(a.x, a.y, b.x, b.y), a.x * b.x + a.y * b.y));
}

/// Builds one viewshed; scratch vectors are reused by the caller's thread.
class Builder {
public:
    Builder(const SegmentIndex& idx, double cx, double cy) : idx_(idx), cx_(cx), cy_(cy) {}

    Viewshed run() {
        Viewshed v;
        v.cx = static_cast<float>(cx_);
        v.cy = static_cast<float>(cy_);
        if (!idx_.inside(cx_, cy_)) return v;
        verts_.clear();
        // 1. rays toward every visible endpoint (and the domain corners)
        const auto& ex = idx_.endpointsX();
        const auto& ey = idx_.endpointsY();
        for (size_t i = 0; i < ex.size(); ++i) addEndpoint(ex[i] - cx_, ey[i] - cy_);
        // 2. a few seed rays so the polygon always closes around the centre
        for (int k = 0; k < kSeedRays; ++k) {
            const double a = 2 * kPi * (k + 0.5) / kSeedRays;
            const Vert s = castVert(std::cos(a), std::sin(a));
            if (s.seg < 0) continue;
            verts_.push_back(Vert{std::atan2(s.y, s.x), 0, s.d, s.x, s.y, s.seg});
        }
        if (verts_.empty()) return v;
        // 3. sort by angle; rays at one angle run from the near to the far side
        std::sort(verts_.begin(), verts_.end(), [](const Vert& a, const Vert& b) {
            if (a.key != b.key) return a.key < b.key;
            if (a.side != b.side) return a.side < b.side;
            return a.d < b.d;
        });
        orderRuns();
        // 4. add the corners where crossing walls meet between two rays
        out_.clear();
        const size_t n = verts_.size();
        for (size_t i = 0; i < n; ++i) {
            out_.push_back(verts_[i]);
            repair(verts_[i], verts_[(i + 1) % n], 0);
        }
        // 5. blocked viewpoint: most of the view ends on walls' closed sides
        if (backShare() > 0.5 * kPi) return v;
        v.x.reserve(out_.size());
        v.y.reserve(out_.size());
        for (const Vert& p : out_) {
            v.x.push_back(static_cast<float>(cx_ + p.x));
            v.y.push_back(static_cast<float>(cy_ + p.y));
        }
        return v;
    }

private:
    /// Vertex where the unit ray (ux, uy) first hits something.
    Vert castVert(double ux, double uy) const {
        const SegmentIndex::Hit h = idx_.castRay(cx_, cy_, ux, uy, kInf);
        Vert r;
        r.d = h.t;
        r.x = ux * h.t;
        r.y = uy * h.t;
        r.seg = h.seg;
        return r;
    }

    /// Endpoint at (dx, dy) from the centre: if visible, it and its two side rays.
    void addEndpoint(double dx, double dy) {
        const double r = std::hypot(dx, dy);
        if (!(r > 1e-9)) return;
        // culling: the ray toward the endpoint must reach it (walk stops at the first hit)
        const SegmentIndex::Hit h = idx_.castRay(cx_, cy_, dx, dy, 1.0);
        if (h.t < kVisibleFrac) return;
        const double key = std::atan2(dy, dx);
        verts_.push_back(Vert{key, 0, r, dx, dy, -1});
        // side rays a tiny angle either way, each moved back onto the endpoint's exact ray
        const double ux = dx / r, uy = dy / r;
        const double c = std::cos(kSideAngle), s = std::sin(kSideAngle);
        for (int side = -1; side <= 1; side += 2) {
            Vert q = castVert(ux * c - side * uy * s, uy * c + side * ux * s);
            if (q.seg < 0) continue;
            onExactRay(q, dx, dy);
            q.key = key;
            q.side = side;
            verts_.push_back(q);
        }
    }

    /// Moves side-ray hit q along its segment's line onto the ray (dx, dy),
    /// unless that moves it far (a nearly radial segment).
    void onExactRay(Vert& q, double dx, double dy) const {
        const SegmentIndex::Segment& s = idx_.segments()[static_cast<size_t>(q.seg)];
        const double t = hitLine(s, dx, dy);
        if (!(t > 0) || !std::isfinite(t)) return;
        const double nx = dx * t, ny = dy * t;
        if (std::hypot(nx - q.x, ny - q.y) > 1e-3 * std::max(q.d, 1.0)) return;
        q.x = nx;
        q.y = ny;
        q.d = std::hypot(nx, ny);
    }

    /// Parameter t where the ray centre + t (dx, dy) meets the line of s, or NaN.
    double hitLine(const SegmentIndex::Segment& s, double dx, double dy) const {
        const double ex = s.bx - s.ax, ey = s.by - s.ay;
        const double den = cross(dx, dy, ex, ey);
        if (den == 0) return std::numeric_limits<double>::quiet_NaN();
        return cross(s.ax - cx_, s.ay - cy_, ex, ey) / den;
    }

    /// Within each run of equal angle, orders the endpoint vertices so the
    /// boundary goes from the side before the angle to the side after it.
    void orderRuns() {
        const size_t n = verts_.size();
        for (size_t i = 0; i < n;) {
            size_t j = i;
            while (j < n && verts_[j].key == verts_[i].key) ++j;
            // run [i, j): sides -1, then 0, then +1
            size_t m0 = i;
            while (m0 < j && verts_[m0].side < 0) ++m0;
            size_t m1 = m0;
            while (m1 < j && verts_[m1].side == 0) ++m1;
            if (m0 > i && m1 < j && verts_[i].d > verts_[j - 1].d)
                std::reverse(verts_.begin() + static_cast<long>(m0), verts_.begin() + static_cast<long>(m1));
            i = j;
        }
    }

    /// Adds to out_ the boundary corners between consecutive vertices a and b
    /// that the endpoint rays missed: where two crossing walls meet (or a
    /// domain border cuts a wall), and a probe in any gap wider than pi/2.
    void repair(const Vert& a, const Vert& b, int depth) {
        if (depth > kMaxRepairDepth) return;
        const double gap = ccwGap(a, b);
        if (gap <= 1e-12) return;
        const bool differ = a.seg >= 0 && b.seg >= 0 && a.seg != b.seg;
        if (!differ && gap <= 0.5 * kPi) return;
        // probe toward the two walls' crossing if it lies inside the wedge, else mid-angle
        double px = 0, py = 0;
        bool atCrossing = false;
        if (differ) atCrossing = crossing(a.seg, b.seg, a, b, px, py);
        if (!atCrossing) {
            const double h = std::atan2(a.y, a.x) + 0.5 * gap;
            px = std::cos(h);
            py = std::sin(h);
        }
        const double pr = std::hypot(px, py);
        Vert h = castVert(px / pr, py / pr);
        if (h.seg < 0) return;
        if (atCrossing && std::hypot(h.x - px, h.y - py) <= 1e-6 * (pr + 1)) {
            // the crossing is visible: it is a corner of the boundary
            h.x = px;
            h.y = py;
            h.d = pr;
            h.seg = -1;
        } else if (gap < kPi) {
            // the probe lands on the chord a-b: the boundary there is straight
            const double lx = b.x - a.x, ly = b.y - a.y;
            const double off = std::fabs(cross(lx, ly, h.x - a.x, h.y - a.y));
            if (off <= 1e-7 * std::hypot(lx, ly) * (h.d + 1)) return;
        }
        repair(a, h, depth + 1);
        out_.push_back(h);
        repair(h, b, depth + 1);
    }

    /// Crossing point (relative to the centre) of segments i and j strictly
    /// inside the wedge from a to b, if any.
    bool crossing(int i, int j, const Vert& a, const Vert& b, double& x, double& y) const {
        const auto& s = idx_.segments()[static_cast<size_t>(i)];
        const auto& t = idx_.segments()[static_cast<size_t>(j)];
        const double ex = s.bx - s.ax, ey = s.by - s.ay, fx = t.bx - t.ax, fy = t.by - t.ay;
        const double den = cross(ex, ey, fx, fy);
        if (den == 0) return false;
        const double wx = t.ax - s.ax, wy = t.ay - s.ay;
        const double u = cross(wx, wy, fx, fy) / den, w = cross(wx, wy, ex, ey) / den;
        if (u < -kParamTol || u > 1 + kParamTol || w < -kParamTol || w > 1 + kParamTol) return false;
        x = s.ax + u * ex - cx_;
        y = s.ay + u * ey - cy_;
        return cross(a.x, a.y, x, y) > 0 && cross(x, y, b.x, b.y) > 0;
    }

    /// Angle [rad] of the view that ends on a wall seen from its closed side.
    double backShare() const {
        double back = 0;
        const size_t n = out_.size();
        for (size_t i = 0; i < n; ++i) {
            const Vert& a = out_[i];
            const Vert& b = out_[(i + 1) % n];
            const int seg = a.seg >= 0 ? a.seg : b.seg;
            if (seg < 0 || seg >= idx_.wallCount()) continue;
            const auto& s = idx_.segments()[static_cast<size_t>(seg)];
            if (cross(s.bx - s.ax, s.by - s.ay, cx_ - s.ax, cy_ - s.ay) < 0) back += ccwGap(a, b);
        }
        return back;
    }

    const SegmentIndex& idx_;
    double cx_, cy_;
    std::vector<Vert> verts_, out_;
};

/// Area of the part of fan triangle (0, p, q) (q counter-clockwise of p by
/// span < pi) between the angles s0 and s1 past p's angle. [Units: m^2]
double fanPiece(double px, double py, double qx, double qy, double ap, double span, double s0, double s1) {
    // point of edge p-q on the ray at angle ap + s
    auto onEdge = [&](double s, double& x, double& y) {
        if (s <= 0) { x = px; y = py; return; }
        if (s >= span) { x = qx; y = qy; return; }
        const double ux = std::cos(ap + s), uy = std::sin(ap + s);
        const double den = cross(ux, uy, qx - px, qy - py);
        const double lam = den != 0 ? -cross(ux, uy, px, py) / den : 0;
        x = px + lam * (qx - px);
        y = py + lam * (qy - py);
    };
    double x0, y0, x1, y1;
    onEdge(s0, x0, y0);
    onEdge(s1, x1, y1);
    return 0.5 * cross(x0, y0, x1, y1);
}

}  // namespace

SegmentIndex::SegmentIndex(const std::vector<WallSegment>& walls, float x0, float y0, float x1, float y1,
                           float bucket)
    : x0_(std::min(x0, x1)), y0_(std::min(y0, y1)), x1_(std::max(x0, x1)), y1_(std::max(y0, y1)),
      b_(bucket > 0 && std::isfinite(bucket) ? bucket : 4.0) {
    // a degenerate domain still gets one bucket
    nx_ = std::max(1, static_cast<int>(std::ceil((x1_ - x0_) / b_)));
    ny_ = std::max(1, static_cast<int>(std::ceil((y1_ - y0_) / b_)));
    // keep finite, non-degenerate walls
    for (const WallSegment& w : walls) {
        const Segment s{w.ax, w.ay, w.bx, w.by};
        if (!std::isfinite(s.ax) || !std::isfinite(s.ay) || !std::isfinite(s.bx) || !std::isfinite(s.by)) continue;
        if (s.ax == s.bx && s.ay == s.by) continue;
        segs_.push_back(s);
    }
    nWalls_ = static_cast<int>(segs_.size());
    // the border, counter-clockwise (domain on the left)
    segs_.push_back(Segment{x0_, y0_, x1_, y0_});
    segs_.push_back(Segment{x1_, y0_, x1_, y1_});
    segs_.push_back(Segment{x1_, y1_, x0_, y1_});
    segs_.push_back(Segment{x0_, y1_, x0_, y0_});
    // buckets: each wall goes to every bucket its segment meets (slightly padded)
    const double pad = 1e-6 * b_;
    std::vector<std::vector<int>> cells(static_cast<size_t>(nx_) * static_cast<size_t>(ny_));
    for (int k = 0; k < nWalls_; ++k) {
        const Segment& s = segs_[static_cast<size_t>(k)];
        const int i0 = std::max(0, static_cast<int>(std::floor((std::min(s.ax, s.bx) - x0_) / b_)));
        const int i1 = std::min(nx_ - 1, static_cast<int>(std::floor((std::max(s.ax, s.bx) - x0_) / b_)));
        const int j0 = std::max(0, static_cast<int>(std::floor((std::min(s.ay, s.by) - y0_) / b_)));
        const int j1 = std::min(ny_ - 1, static_cast<int>(std::floor((std::max(s.ay, s.by) - y0_) / b_)));
        for (int j = j0; j <= j1; ++j)
            for (int i = i0; i <= i1; ++i) {
                const double bx0 = x0_ + i * b_, by0 = y0_ + j * b_;
                if (segmentMeetsBox(s, bx0 - pad, by0 - pad, bx0 + b_ + pad, by0 + b_ + pad))
                    cells[static_cast<size_t>(j) * static_cast<size_t>(nx_) + static_cast<size_t>(i)].push_back(k);
            }
    }
    // flatten to CSR
    cellStart_.assign(cells.size() + 1, 0);
    for (size_t c = 0; c < cells.size(); ++c) cellStart_[c + 1] = cellStart_[c] + static_cast<int>(cells[c].size());
    cellSegs_.reserve(static_cast<size_t>(cellStart_.back()));
    for (const auto& c : cells) cellSegs_.insert(cellSegs_.end(), c.begin(), c.end());
    // candidate vertices: distinct wall endpoints inside the domain, and its corners
    std::vector<std::pair<double, double>> pts;
    for (int k = 0; k < nWalls_; ++k) {
        const Segment& s = segs_[static_cast<size_t>(k)];
        if (inside(s.ax, s.ay)) pts.emplace_back(s.ax, s.ay);
        if (inside(s.bx, s.by)) pts.emplace_back(s.bx, s.by);
    }
    pts.emplace_back(x0_, y0_);
    pts.emplace_back(x1_, y0_);
    pts.emplace_back(x1_, y1_);
    pts.emplace_back(x0_, y1_);
    std::sort(pts.begin(), pts.end());
    pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
    for (const auto& p : pts) {
        ex_.push_back(p.first);
        ey_.push_back(p.second);
    }
}

SegmentIndex::Hit SegmentIndex::castRay(double px, double py, double dx, double dy, double maxT) const {
    // outside the domain, or no direction: nothing visible
    if (!inside(px, py) || !std::isfinite(dx) || !std::isfinite(dy) || (dx == 0 && dy == 0)) return Hit{0, -1};
    // where the ray leaves the domain, and through which border piece
    double tExit = kInf;
    int side = -1;
    auto exitAt = [&](double t, int s) {
        if (t < tExit) { tExit = t; side = s; }
    };
    if (dx > 0) exitAt((x1_ - px) / dx, 1);
    if (dx < 0) exitAt((x0_ - px) / dx, 3);
    if (dy > 0) exitAt((y1_ - py) / dy, 2);
    if (dy < 0) exitAt((y0_ - py) / dy, 0);
    const double tEnd = std::min(tExit, maxT);
    // DDA set-up (Amanatides & Woo): current bucket, next bucket boundaries
    int ix = std::clamp(static_cast<int>(std::floor((px - x0_) / b_)), 0, nx_ - 1);
    int iy = std::clamp(static_cast<int>(std::floor((py - y0_) / b_)), 0, ny_ - 1);
    const int sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    double tMaxX = dx > 0 ? (x0_ + (ix + 1) * b_ - px) / dx : dx < 0 ? (x0_ + ix * b_ - px) / dx : kInf;
    double tMaxY = dy > 0 ? (y0_ + (iy + 1) * b_ - py) / dy : dy < 0 ? (y0_ + iy * b_ - py) / dy : kInf;
    const double tdx = dx != 0 ? b_ / std::fabs(dx) : kInf, tdy = dy != 0 ? b_ / std::fabs(dy) : kInf;
    double best = kInf;
    int bestSeg = -1;
    for (;;) {
        // test this bucket's segments
        const size_t c = static_cast<size_t>(iy) * static_cast<size_t>(nx_) + static_cast<size_t>(ix);
        for (int k = cellStart_[c]; k < cellStart_[c + 1]; ++k) {
            const int s = cellSegs_[static_cast<size_t>(k)];
            const double t = hitSegment(segs_[static_cast<size_t>(s)], px, py, dx, dy);
            if (t < best) { best = t; bestSeg = s; }
        }
        // stop at a hit inside this bucket, or past the end of the ray
        const double tCell = std::min(tMaxX, tMaxY);
        if (best <= tCell || tCell >= tEnd) break;
        // step to the next bucket
        if (tMaxX < tMaxY) {
            ix += sx;
            if (ix < 0 || ix >= nx_) break;
            tMaxX += tdx;
        } else {
            iy += sy;
            if (iy < 0 || iy >= ny_) break;
            tMaxY += tdy;
        }
    }
    if (best <= tEnd) return Hit{best, bestSeg};
    if (tExit <= maxT) return Hit{tExit, nWalls_ + side};
    return Hit{maxT, -1};
}

float SegmentIndex::cast(float px, float py, float dx, float dy) const {
    return static_cast<float>(castRay(px, py, dx, dy, kInf).t);
}

double Viewshed::area() const {
    // fan of triangles (c, p_i, p_i+1)
    double a = 0;
    const size_t n = x.size();
    for (size_t i = 0; i < n; ++i) {
        const size_t j = (i + 1) % n;
        a += cross(double(x[i]) - cx, double(y[i]) - cy, double(x[j]) - cx, double(y[j]) - cy);
    }
    return 0.5 * a;
}

Viewshed viewshed(const SegmentIndex& idx, float cx, float cy) { return Builder(idx, cx, cy).run(); }

double wedgeArea(const Viewshed& v, float dx, float dy, float opening) {
    const size_t n = v.x.size();
    if (n < 3 || !(opening > 0) || (dx == 0 && dy == 0)) return 0;
    if (opening >= 2 * kPi) return v.area();
    // wedge as the angle interval [lo, lo + w]
    const double w = opening;
    const double lo = std::atan2(double(dy), double(dx)) - 0.5 * w;
    double total = 0;
    for (size_t i = 0; i < n; ++i) {
        const size_t j = (i + 1) % n;
        double px = double(v.x[i]) - v.cx, py = double(v.y[i]) - v.cy;
        double qx = double(v.x[j]) - v.cx, qy = double(v.y[j]) - v.cy;
        // fan triangle (c, p, q); a reversed one (rounding) counts negative
        double span = std::atan2(cross(px, py, qx, qy), px * qx + py * qy);
        double sign = 1;
        if (span < 0) {
            std::swap(px, qx);
            std::swap(py, qy);
            span = -span;
            sign = -1;
        }
        if (!(span > 0)) continue;
        // its angle interval relative to the wedge's start, in [0, 2 pi)
        const double ap = std::atan2(py, px);
        double a = std::fmod(ap - lo, 2 * kPi);
        if (a < 0) a += 2 * kPi;
        // clip by the wedge, and by its copy one turn later
        for (double base : {0.0, 2 * kPi}) {
            const double s0 = std::max(a, base), s1 = std::min(a + span, base + w);
            if (s1 > s0) total += sign * fanPiece(px, py, qx, qy, ap, span, s0 - a, s1 - a);
        }
    }
    return total;
}

std::vector<Viewshed> viewsheds(const SegmentIndex& idx, const std::vector<float>& px, const std::vector<float>& py,
                                int threads) {
    const long long n = static_cast<long long>(std::min(px.size(), py.size()));
    std::vector<Viewshed> out(static_cast<size_t>(n));
#ifdef _OPENMP
    const int nt = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for schedule(dynamic, 4) num_threads(nt)
#else
    (void)threads;
#endif
    // each point's polygon depends only on the point
    for (long long i = 0; i < n; ++i)
        out[static_cast<size_t>(i)] = viewshed(idx, px[static_cast<size_t>(i)], py[static_cast<size_t>(i)]);
    return out;
}

}  // namespace ccrowd::route
