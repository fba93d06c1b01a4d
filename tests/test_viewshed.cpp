/// @file test_viewshed.cpp
/// Exact visibility polygons (isovists, Turner & Penn) and their view-frustum
/// shares, the choice weights of Nicosia et al.'s affordance-based route
/// choice (src/route/viewshed.hpp).

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "route/viewshed.hpp"

namespace {

using ccrowd::WallSegment;
using ccrowd::route::SegmentIndex;
using ccrowd::route::Viewshed;

constexpr float kPi = 3.14159265358979f;

/// Axis-aligned block [x0, x1] x [y0, y1] as four walls, clockwise, so the
/// open side (left) faces outward.
void addBlock(std::vector<WallSegment>& w, float x0, float y0, float x1, float y1) {
    w.push_back({x0, y0, x0, y1});
    w.push_back({x0, y1, x1, y1});
    w.push_back({x1, y1, x1, y0});
    w.push_back({x1, y0, x0, y0});
}

/// Quadrilateral block with corners given counter-clockwise, stored clockwise.
void addQuad(std::vector<WallSegment>& w, const float (&x)[4], const float (&y)[4]) {
    for (int k = 0; k < 4; ++k) {
        const int a = (4 - k) % 4, b = (3 - k) % 4;
        w.push_back({x[a], y[a], x[b], y[b]});
    }
}

/// True when segment p-q properly meets wall s (brute force, for sampling).
bool blocks(const WallSegment& s, double px, double py, double qx, double qy) {
    auto cr = [](double ax, double ay, double bx, double by) { return ax * by - ay * bx; };
    const double rx = qx - px, ry = qy - py, ex = s.bx - s.ax, ey = s.by - s.ay;
    const double den = cr(rx, ry, ex, ey);
    if (den == 0) return false;
    const double wx = s.ax - px, wy = s.ay - py;
    const double t = cr(wx, wy, ex, ey) / den, u = cr(wx, wy, rx, ry) / den;
    return t > 0 && t < 1 && u >= 0 && u <= 1;
}

/// Visible area from (cx, cy) by sampling an n x n grid of cell centres
/// over the domain and testing each sight line against every wall.
double sampledArea(const std::vector<WallSegment>& w, double x0, double y0, double x1, double y1, double cx,
                   double cy, int n) {
    const double hx = (x1 - x0) / n, hy = (y1 - y0) / n;
    long long seen = 0;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const double qx = x0 + (i + 0.5) * hx, qy = y0 + (j + 0.5) * hy;
            bool ok = true;
            for (const WallSegment& s : w)
                if (blocks(s, cx, cy, qx, qy)) { ok = false; break; }
            seen += ok;
        }
    return static_cast<double>(seen) * hx * hy;
}

/// Synthetic old town: a jittered grid of quadrilateral blocks (cell side
/// @p cell), streets of 5-8 m between them, plus some overlapping extra
/// blocks; @p jx, @p jy return the inner grid nodes (street junctions).
std::vector<WallSegment> oldTown(int cells, float cell, unsigned seed, int extra, std::vector<float>& jx,
                                 std::vector<float>& jy) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> inset(2.5f, 4.f), jit(-1.f, 1.f);
    std::vector<WallSegment> w;
    for (int j = 0; j < cells; ++j)
        for (int i = 0; i < cells; ++i) {
            const float x0 = i * cell, y0 = j * cell, x1 = x0 + cell, y1 = y0 + cell;
            const float x[4] = {x0 + inset(rng), x1 - inset(rng), x1 - inset(rng), x0 + inset(rng)};
            const float y[4] = {y0 + inset(rng), y0 + inset(rng), y1 - inset(rng), y1 - inset(rng)};
            addQuad(w, x, y);
        }
    // overlapping extra blocks straddling block edges (crossing walls)
    std::uniform_int_distribution<int> pick(0, cells - 1);
    for (int k = 0; k < extra; ++k) {
        const float cx = (pick(rng) + 0.5f) * cell + 0.3f * cell * jit(rng);
        const float cy = (pick(rng) + 0.5f) * cell + 0.3f * cell * jit(rng);
        addBlock(w, cx - 3.f, cy - 3.f, cx + 3.f, cy + 3.f);
    }
    for (int j = 1; j < cells; ++j)
        for (int i = 1; i < cells; ++i) {
            jx.push_back(i * cell);
            jy.push_back(j * cell);
        }
    return w;
}

TEST(Viewshed, EmptyRoomAreaAndWedges) {
    // 20 x 10 room, viewer at its centre
    SegmentIndex idx({}, 0.f, 0.f, 20.f, 10.f);
    const Viewshed v = ccrowd::route::viewshed(idx, 10.f, 5.f);
    ASSERT_GE(v.x.size(), 4u);
    EXPECT_NEAR(v.area(), 200.0, 200.0 * 1e-3);
    EXPECT_NEAR(ccrowd::route::wedgeArea(v, 1.f, 0.f, 2 * kPi), v.area(), 1e-6);
    // four quarter wedges tile the polygon
    const double e = ccrowd::route::wedgeArea(v, 1.f, 0.f, kPi / 2);
    const double n = ccrowd::route::wedgeArea(v, 0.f, 1.f, kPi / 2);
    const double w = ccrowd::route::wedgeArea(v, -1.f, 0.f, kPi / 2);
    const double s = ccrowd::route::wedgeArea(v, 0.f, -1.f, kPi / 2);
    EXPECT_NEAR(e + n + w + s, v.area(), 1e-3);
    EXPECT_NEAR(e, w, 1e-3);
    EXPECT_NEAR(n, s, 1e-3);
    // toward +x, |y| <= x clipped by |y| <= 5 up to x = 10: 2 * (12.5 + 25) = 75
    EXPECT_NEAR(e, 75.0, 75.0 * 1e-4);
    // toward +y, |x| <= y up to y = 5: 25
    EXPECT_NEAR(n, 25.0, 25.0 * 1e-4);
    // a wedge straddling the -x axis (angle wrap at pi) equals the +x one
    EXPECT_NEAR(ccrowd::route::wedgeArea(v, -1.f, 0.f, kPi / 2), 75.0, 75.0 * 1e-4);
    // the ray cast reaches the walls
    EXPECT_NEAR(idx.cast(10.f, 5.f, 1.f, 0.f), 10.f, 1e-4f);
    EXPECT_NEAR(idx.cast(10.f, 5.f, 0.f, -1.f), 5.f, 1e-4f);
}

TEST(Viewshed, CrossJunctionFavoursLongStreet) {
    // streets 4 m wide: along x 200 m (the domain's width), along y 50 m;
    // four 98 m square blocks whose far sides lie outside the domain
    std::vector<WallSegment> w;
    addBlock(w, 2.f, 2.f, 100.f, 100.f);
    addBlock(w, -100.f, 2.f, -2.f, 100.f);
    addBlock(w, -100.f, -100.f, -2.f, -2.f);
    addBlock(w, 2.f, -100.f, 100.f, -2.f);
    SegmentIndex idx(w, -100.f, -25.f, 100.f, 25.f);
    const Viewshed v = ccrowd::route::viewshed(idx, 0.f, 0.f);
    // the cross: 200 x 4 + 4 x 50 - 4 x 4
    EXPECT_NEAR(v.area(), 984.0, 984.0 * 1e-4);
    const float open = kPi / 3;
    const double along = ccrowd::route::wedgeArea(v, 1.f, 0.f, open);
    const double across = ccrowd::route::wedgeArea(v, 0.f, 1.f, open);
    // analytic: |y| <= min(2, x tan 30deg), 0 <= x <= L
    auto street = [](double len) {
        const double xs = 2.0 / std::tan(3.14159265358979 / 6);
        return 2.0 * xs + 4.0 * (len - xs);
    };
    EXPECT_NEAR(along, street(100.0), street(100.0) * 1e-4);
    EXPECT_NEAR(across, street(25.0), street(25.0) * 1e-4);
    EXPECT_GT(along, across);
    EXPECT_NEAR(along / across, 100.0 / 25.0, 0.1 * 4.0);
}

TEST(Viewshed, PillarCastsShadow) {
    // 40 x 20 room, viewer at (10, 10), 2 x 2 pillar centred at (20, 10)
    std::vector<WallSegment> w;
    const SegmentIndex open({}, 0.f, 0.f, 40.f, 20.f);
    addBlock(w, 19.f, 9.f, 21.f, 11.f);
    const SegmentIndex idx(w, 0.f, 0.f, 40.f, 20.f);
    const double without = ccrowd::route::viewshed(open, 10.f, 10.f).area();
    const double with = ccrowd::route::viewshed(idx, 10.f, 10.f).area();
    // shadow between the rays through (19, 9) and (19, 11), from x = 19 to 40:
    // integral of 2 (x - 10) / 9 dx = (30^2 - 9^2) / 9 = 91
    const double shadow = 91.0;
    EXPECT_NEAR(without, 800.0, 800.0 * 1e-4);
    EXPECT_LT(with, without);
    EXPECT_NEAR(without - with, shadow, 0.01 * shadow);
    // the pillar's face is 9 m away, its back hides the far wall
    EXPECT_NEAR(idx.cast(10.f, 10.f, 1.f, 0.f), 9.f, 1e-4f);
}

TEST(Viewshed, BlockedAndOutsideViewpoints) {
    std::vector<WallSegment> w;
    addBlock(w, 19.f, 9.f, 21.f, 11.f);
    addBlock(w, 20.f, 10.f, 25.f, 15.f);  // overlaps the first
    const SegmentIndex idx(w, 0.f, 0.f, 40.f, 20.f);
    // inside one block, inside the overlap, inside the second only, on a wall, outside
    const float px[] = {19.5f, 20.5f, 24.f, 19.f, -5.f, 50.f};
    const float py[] = {9.5f, 10.5f, 14.f, 10.f, 10.f, 10.f};
    for (int k = 0; k < 6; ++k) {
        const Viewshed v = ccrowd::route::viewshed(idx, px[k], py[k]);
        EXPECT_LE(v.area(), 1e-6) << "viewpoint " << k;
        EXPECT_EQ(ccrowd::route::wedgeArea(v, 1.f, 0.f, kPi / 2), ccrowd::route::wedgeArea(v, 1.f, 0.f, kPi / 2));
    }
    EXPECT_EQ(idx.cast(-5.f, 10.f, 1.f, 0.f), 0.f);
}

TEST(Viewshed, OverlappingAndCrossingWallsMatchSampling) {
    // overlapping blocks, a block crossing another's corner, and two crossing walls
    std::vector<WallSegment> w;
    addBlock(w, 10.f, 10.f, 20.f, 20.f);
    addBlock(w, 15.f, 15.f, 25.f, 25.f);
    addBlock(w, 8.f, 28.f, 14.f, 34.f);
    addBlock(w, 12.f, 32.f, 18.f, 38.f);
    w.push_back({28.f, 8.f, 34.f, 14.f});
    w.push_back({28.f, 14.f, 34.f, 8.f});
    w.push_back({28.f, 14.f, 34.f, 8.f});  // a duplicate
    const SegmentIndex idx(w, 0.f, 0.f, 40.f, 40.f, 3.f);
    const double cx[] = {5.0, 30.0, 35.0, 22.0};
    const double cy[] = {5.0, 30.0, 20.0, 5.0};
    for (int k = 0; k < 4; ++k) {
        const Viewshed v = ccrowd::route::viewshed(idx, float(cx[k]), float(cy[k]));
        const double a = v.area();
        ASSERT_TRUE(std::isfinite(a));
        ASSERT_GT(a, 0.0);
        ASSERT_LE(a, 1600.0 + 1e-3);
        const double ref = sampledArea(w, 0, 0, 40, 40, cx[k], cy[k], 800);
        EXPECT_NEAR(a, ref, 0.005 * ref) << "viewpoint " << k;
    }
}

TEST(Viewshed, OldTownMatchesSampling) {
    // a small jittered old town with overlapping extra blocks
    std::vector<float> jx, jy;
    const std::vector<WallSegment> w = oldTown(5, 20.f, 7u, 6, jx, jy);
    const SegmentIndex idx(w, 0.f, 0.f, 100.f, 100.f);
    for (size_t k = 0; k < jx.size(); k += 3) {
        const Viewshed v = ccrowd::route::viewshed(idx, jx[k], jy[k]);
        const double ref = sampledArea(w, 0, 0, 100, 100, jx[k], jy[k], 600);
        if (ref == 0) {
            EXPECT_LE(v.area(), 1e-6);
            continue;
        }
        EXPECT_NEAR(v.area(), ref, 0.01 * ref) << "junction " << k;
        // quarter wedges tile it
        double sum = 0;
        for (int q = 0; q < 4; ++q)
            sum += ccrowd::route::wedgeArea(v, std::cos(q * kPi / 2 + 0.3f), std::sin(q * kPi / 2 + 0.3f), kPi / 2);
        EXPECT_NEAR(sum, v.area(), 1e-6 * v.area() + 1e-3);
    }
}

TEST(Viewshed, DeterministicAcrossThreadsAndTiming) {
    // ~600 m x 600 m old town with ~3000 walls, 300 junctions
    std::vector<float> jx, jy;
    const std::vector<WallSegment> w = oldTown(27, 22.f, 11u, 30, jx, jy);
    const float side = 27 * 22.f;
    const auto t0 = std::chrono::steady_clock::now();
    const SegmentIndex idx(w, 0.f, 0.f, side, side);
    const auto t1 = std::chrono::steady_clock::now();
    std::vector<float> px, py;
    std::mt19937 rng(3u);
    std::uniform_int_distribution<size_t> pick(0, jx.size() - 1);
    for (int k = 0; k < 300; ++k) {
        const size_t i = pick(rng);
        px.push_back(jx[i]);
        py.push_back(jy[i]);
    }
    const auto one = ccrowd::route::viewsheds(idx, px, py, 1);
    const auto t2 = std::chrono::steady_clock::now();
    const auto two = ccrowd::route::viewsheds(idx, px, py, 2);
    const auto t3 = std::chrono::steady_clock::now();
    ASSERT_EQ(one.size(), 300u);
    ASSERT_EQ(two.size(), 300u);
    double total = 0;
    size_t verts = 0;
    for (size_t k = 0; k < one.size(); ++k) {
        EXPECT_EQ(one[k].x, two[k].x);
        EXPECT_EQ(one[k].y, two[k].y);
        EXPECT_GT(one[k].area(), 0.0);
        total += one[k].area();
        verts += one[k].x.size();
    }
    auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
    std::printf("[ timing ] %zu walls, 300 viewsheds: index %.1f ms, 1 thread %.1f ms, 2 threads %.1f ms "
                "(mean area %.0f m^2, mean %.0f vertices)\n",
                w.size(), ms(t0, t1), ms(t1, t2), ms(t2, t3), total / 300, double(verts) / 300);
}

}  // namespace
