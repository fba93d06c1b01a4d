/// @file test_walking_speed.cpp
/// The speed in a walking direction (kernels/walking_speed.hpp): Treuille
/// 2006's f(x, theta) read r ahead along the direction itself on open floor,
/// the face speeds blended next to walls (issue 12: the turned room).

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <gtest/gtest.h>

#include "ccrowd/closed_faces.hpp"
#include "ccrowd/field.hpp"
#include "kernels/speed.hpp"
#include "kernels/walking_speed.hpp"

namespace ccrowd::test {
namespace {

using sim::Face4;
using sim::Vel2;

/// A 24 x 24 grid of 0.25 m cells, reading 2 cells (0.5 m) ahead, with a
/// perceived density set by a function of position and no flow. The face
/// speeds are those of the speed stage for that density.
struct Floor {
    GridInfo g;
    sim::SpeedParams p;
    Field<float> rho;
    Field<Vel2> flow;
    Field<Face4> faces;
    Field<float> terrain;
    Field<std::uint8_t> blocked;
    Floor() : rho(24, 24, 0.f), flow(24, 24), faces(24, 24), terrain(24, 24, 1.f), blocked(24, 24, 0) {
        g.nx = g.ny = 24;
        g.h = 0.25f;
        p.ahead = 2;
    }
    template <class F>
    void density(F f) {
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i) rho(i, j) = f(g.centreX(i), g.centreY(j));
    }
    /// Face speeds from the speed stage's kernel, then the walking speed.
    sim::WalkingSpeed walk(bool perceived = true) {
        const Exec ex{Backend::Cpu, 1};
        sim::SpeedKernel k{g, p, rho.view(ex), flow.view(ex), terrain.view(ex), blocked.view(ex), faces.view(ex), {}, {}};
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i) k(i, j);
        sim::WalkingSpeed w{};
        w.g = g;
        w.p = p;
        w.faces = faces.view(ex);
        if (perceived) { w.rho = rho.view(ex); w.flow = flow.view(ex); }
        w.terrain = terrain.view(ex);
        w.blocked = blocked.view(ex);
        return w;
    }
    /// Treuille's eq. 10 (faceSpeed) for density @p r at rest, direction (ux, uy).
    float expected(float r, float ux, float uy, float t = 1.f) const {
        return sim::faceSpeed(p, sim::weidmannSpeed(p, r), r, Vel2{}, ux, uy, t);
    }
};

constexpr float kPi = 3.14159265f;

TEST(WalkingSpeed, ReadsTheCrowdAheadAlongTheDirection) {
    // density falling towards the north-east: 3 - 0.4 x - 0.3 y persons/m^2 (linear, so the reading is exact)
    Floor f;
    f.density([](float x, float y) { return 3.f - 0.4f * (x - 3.f) - 0.3f * (y - 3.f); });
    const sim::WalkingSpeed w = f.walk();
    const int i = 12, j = 12;
    const float r = f.p.ahead * f.g.h;
    for (float deg : {0.f, 20.f, 45.f, 70.f, 135.f, 200.f, 300.f}) {
        const float ux = std::cos(deg * kPi / 180.f), uy = std::sin(deg * kPi / 180.f);
        const float x = f.g.centreX(i) + r * ux, y = f.g.centreY(j) + r * uy;
        const float at = 3.f - 0.4f * (x - 3.f) - 0.3f * (y - 3.f);
        EXPECT_NEAR(w(i, j, ux, uy), f.expected(at, ux, uy), 2e-5f) << deg << " degrees";
    }
}

TEST(WalkingSpeed, AlongAnAxisItIsThatFacesSpeed) {
    Floor f;
    f.density([](float x, float y) { return 1.f + 0.3f * x + 0.1f * y * y; });
    const sim::WalkingSpeed w = f.walk();
    const Face4 s = f.faces(10, 11);
    EXPECT_FLOAT_EQ(w(10, 11, 1.f, 0.f), s.e);
    EXPECT_FLOAT_EQ(w(10, 11, 0.f, 1.f), s.n);
    EXPECT_FLOAT_EQ(w(10, 11, -1.f, 0.f), s.w);
    EXPECT_FLOAT_EQ(w(10, 11, 0.f, -1.f), s.s);
}

TEST(WalkingSpeed, TheSameAtEveryAngleInACrowdThinningAhead) {
    // each direction in its own crowd thinning along it (rho = 3 - 0.5 s, s the distance along u):
    // a walker reads the same density at every angle; the face blend reads it r/sqrt(2) ahead at 45 degrees
    float lo = 1e9f, hi = -1e9f, blendLo = 1e9f, blendHi = -1e9f;
    for (float deg : {0.f, 15.f, 22.5f, 30.f, 45.f, 60.f, 90.f}) {
        const float ux = std::cos(deg * kPi / 180.f), uy = std::sin(deg * kPi / 180.f);
        Floor f;
        const float cx = f.g.centreX(12), cy = f.g.centreY(12);
        f.density([&](float x, float y) { return 3.f - 0.5f * ((x - cx) * ux + (y - cy) * uy); });
        const float s = f.walk()(12, 12, ux, uy), b = f.walk(false)(12, 12, ux, uy);
        lo = std::min(lo, s); hi = std::max(hi, s);
        blendLo = std::min(blendLo, b); blendHi = std::max(blendHi, b);
    }
    EXPECT_LT(hi - lo, 1e-4f) << "walking speeds " << lo << " to " << hi << " m/s";
    EXPECT_GT(blendHi - blendLo, 0.01f) << "the face blend differs by angle (why the walking speed exists)";
}

TEST(WalkingSpeed, NextToAWallTheFaceSpeedsAreBlended) {
    Floor f;
    f.density([](float x, float) { return 2.f + 0.2f * x; });
    f.blocked(13, 13) = 1;  // inside the north-east reading box of cell (12, 12)
    const sim::WalkingSpeed w = f.walk();
    const float ux = std::cos(kPi / 4.f), uy = std::sin(kPi / 4.f);
    EXPECT_FLOAT_EQ(w(12, 12, ux, uy), w.blend(12, 12, ux, uy));
    // the other way the box is clear: read along the direction
    const float x = f.g.centreX(12) - 0.5f * ux, at = 2.f + 0.2f * x;
    EXPECT_NEAR(w(12, 12, -ux, -uy), f.expected(at, -ux, -uy), 2e-5f);
    // at the grid's edge the box would leave the grid: blended
    EXPECT_FLOAT_EQ(w(23, 5, ux, uy), w.blend(23, 5, ux, uy));
    // a closed face on the walker's own cell (a thin wall there): blended
    Field<std::uint8_t> closed(f.g.nx, f.g.ny, 0);
    closed(6, 6) = kClosedN;
    sim::WalkingSpeed shut = w;
    shut.closed = closed.view(Exec{Backend::Cpu, 1});
    EXPECT_FLOAT_EQ(shut(6, 6, -ux, -uy), w.blend(6, 6, -ux, -uy));
    EXPECT_FLOAT_EQ(shut(7, 7, -ux, -uy), w(7, 7, -ux, -uy));
}

TEST(WalkingSpeed, TerrainScalesTheFreeSpeed) {
    Floor f;
    f.density([](float, float) { return 0.3f; });  // below rho_min: the free speed
    for (int j = 0; j < f.g.ny; ++j)
        for (int i = 0; i < f.g.nx; ++i) f.terrain(i, j) = 0.5f;
    const float ux = std::cos(kPi / 6.f), uy = std::sin(kPi / 6.f);
    EXPECT_NEAR(f.walk()(12, 12, ux, uy), 0.5f * sim::weidmannSpeed(f.p, 0.3f), 1e-5f);
}

}  // namespace
}  // namespace ccrowd::test
