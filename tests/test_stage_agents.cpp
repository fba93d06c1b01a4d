/// @file test_stage_agents.cpp
/// Agents stage (DESIGN.md §5), per backend: agentVelocity = preferred -
/// grad p at the agent, clamped to vmax; advect moves by v dt, never into a
/// blocked cell or out of the grid (random agents and velocities next to
/// walls), slides along walls; thread-count determinism.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "backends.hpp"
#include "test_crowd.hpp"
#include "kernels/agents.hpp"
#include "kernels/stages.hpp"
#include "mask_walls.hpp"

namespace ccrowd::test {
namespace {

using sim::AgentViews;
using sim::Face4;

using Agents = TestCrowd;

/// A grid with its blocked mask.
struct World {
    GridInfo g;
    Field<std::uint8_t> blocked;
    Field<float> p;
    World(int nx, int ny, float h) : blocked(nx, ny, 0), p(nx, ny, 0.f) {
        g.nx = nx; g.ny = ny; g.h = h; g.ox = -1.f; g.oy = 2.f;
    }
    bool openAt(float x, float y) const {
        int i, j;
        g.cellOf(x, y, i, j);
        return g.inside(i, j) && !blocked(i, j);
    }
};

void runVelocity(const Exec& ex, Agents& a, World& w) {
    if (ex.backend == Backend::Cuda) { w.p.upload(); w.blocked.upload(); }
    sim::agentVelocity(ex, a.views(ex), w.g, w.p.view(ex), w.blocked.view(ex), {});
    a.fetch(ex);
}

void runAdvect(const Exec& ex, Agents& a, World& w, float dt, float clearance = 0.f) {
    MaskWalls walls(ex, w.g, w.blocked, clearance + w.g.h);
    sim::advect(ex, a.views(ex), walls.view(ex), dt, clearance);
    a.fetch(ex);
}

/// Random walls: a border ring, a few wall segments and scattered cells.
World wallWorld(std::mt19937& rng) {
    World w(30, 20, 0.25f);
    for (int j = 0; j < 20; ++j)
        for (int i = 0; i < 30; ++i)
            if (i == 0 || j == 0 || i == 29 || j == 19) w.blocked(i, j) = 1;
    for (int j = 3; j < 15; ++j) w.blocked(10, j) = 1;
    for (int i = 14; i < 26; ++i) w.blocked(i, 8) = 1;
    std::uniform_int_distribution<int> ci(1, 28), cj(1, 18);
    for (int k = 0; k < 40; ++k) w.blocked(ci(rng), cj(rng)) = 1;
    return w;
}

class AgentsStage : public ::testing::TestWithParam<Exec> {};

TEST_P(AgentsStage, VelocityIsPreferredWithoutPressureAndClampedToVmax) {
    World w(10, 10, 0.5f);
    Agents a(3);
    a.x[0] = 1.1f; a.y[0] = 4.3f; a.px[0] = 0.8f; a.py[0] = -0.3f;
    a.x[1] = 2.0f; a.y[1] = 5.0f; a.px[1] = 3.0f; a.py[1] = 4.0f; a.vmax[1] = 1.5f;  // too fast: clamped
    a.x[2] = 0.0f; a.y[2] = 3.0f; a.px[2] = 0.5f; a.py[2] = 0.f; a.vmax[2] = 0.f;    // vmax 0: stands
    runVelocity(GetParam(), a, w);
    EXPECT_EQ(a.vx[0], 0.8f);
    EXPECT_EQ(a.vy[0], -0.3f);
    EXPECT_NEAR(a.vx[1], 0.9f, 1e-6f);
    EXPECT_NEAR(a.vy[1], 1.2f, 1e-6f);
    EXPECT_EQ(a.vx[2], 0.f);
}

TEST_P(AgentsStage, VelocityAddsMinusPressureGradientFromTheFaces) {
    // p = 0.2 x + 0.1 y: every face between two open cells has the gradient
    // (0.2 across x-faces, 0.1 across y-faces); agents whose interpolation
    // stencil sees only such faces get exactly -(0.2, 0.1)
    World w(12, 12, 0.5f);
    for (int j = 0; j < 12; ++j)
        for (int i = 0; i < 12; ++i) w.p(i, j) = 0.2f * w.g.centreX(i) + 0.1f * w.g.centreY(j) + 3.f;
    Agents a(3);
    const float xs[3] = {0.3f, 2.17f, 1.05f}, ys[3] = {4.4f, 5.2f, 3.7f};
    for (int k = 0; k < 3; ++k) { a.x[k] = xs[k]; a.y[k] = ys[k]; a.px[k] = 0.5f; a.py[k] = 0.25f; }
    runVelocity(GetParam(), a, w);
    for (int k = 0; k < 3; ++k) {
        EXPECT_NEAR(a.vx[k], 0.3f, 1e-5f) << k;
        EXPECT_NEAR(a.vy[k], 0.15f, 1e-5f) << k;
    }
}

TEST_P(AgentsStage, NoPressureCorrectionThroughWallsOrTheGridEdge) {
    // the same linear p; cell (6, 6) blocked: its faces carry no gradient
    World w(12, 12, 0.5f);
    for (int j = 0; j < 12; ++j)
        for (int i = 0; i < 12; ++i) w.p(i, j) = 0.2f * w.g.centreX(i) + 0.1f * w.g.centreY(j) + 3.f;
    w.blocked(6, 6) = 1;  // x in [2, 2.5), y in [5, 5.5)
    Agents a(3);
    // on the blocked cell's west face (x = 2), at its row's centre: x-faces
    // of rows 5 and 6 weigh 0 and 1 there -> the x-correction is 0
    a.x[0] = 2.f; a.y[0] = 5.25f;
    // on the grid's west edge (x = -1), at a cell centre: no x-correction
    a.x[1] = -1.f; a.y[1] = 3.25f;
    // half-way between the edge face and the first inner face: half of it
    a.x[2] = -0.75f; a.y[2] = 3.25f;
    for (int k = 0; k < 3; ++k) { a.px[k] = 0.5f; a.py[k] = 0.25f; }
    runVelocity(GetParam(), a, w);
    EXPECT_NEAR(a.vx[0], 0.5f, 1e-5f);
    EXPECT_NEAR(a.vx[1], 0.5f, 1e-5f);
    EXPECT_NEAR(a.vy[1], 0.15f, 1e-5f);
    EXPECT_NEAR(a.vx[2], 0.4f, 1e-5f);
}

TEST_P(AgentsStage, FaceGradientsOncePerFaceGiveTheBitsOfEightPerAgent) {
    // random walls, pressures and face apertures; agents anywhere, on
    // faces, on the grid's edges and outside it: with the per-face buffer
    // every agent's velocity must have the bits it has without
    const Exec ex = GetParam();
    std::mt19937 rng(11);
    World w = wallWorld(rng);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    // the border ring mostly open: faces at the grid's edges between open cells
    for (int j = 0; j < w.g.ny; ++j)
        for (int i = 0; i < w.g.nx; ++i)
            if ((i == 0 || j == 0 || i == w.g.nx - 1 || j == w.g.ny - 1) && u(rng) < 0.8f) w.blocked(i, j) = 0;
    Field<Face4> aperture(w.g.nx, w.g.ny, Face4{1.f, 1.f, 1.f, 1.f});
    for (int j = 0; j < w.g.ny; ++j)
        for (int i = 0; i < w.g.nx; ++i) {
            w.p(i, j) = u(rng) < 0.2f ? 0.f : 5.f * u(rng);
            if (u(rng) < 0.3f) aperture(i, j) = Face4{u(rng), u(rng) < 0.5f ? 0.f : 1.f, u(rng), u(rng)};
        }
    const float x0 = w.g.ox, y0 = w.g.oy, wx = w.g.nx * w.g.h, wy = w.g.ny * w.g.h;
    auto crowd = [&](std::uint32_t seed) {
        std::mt19937 r(seed);
        std::uniform_real_distribution<float> v(0.f, 1.f);
        Agents a;
        for (int k = 0; k < 4000; ++k) {
            float x = x0 - 0.5f + (wx + 1.f) * v(r), y = y0 - 0.5f + (wy + 1.f) * v(r);
            if (k % 4 == 1) x = x0 + w.g.h * static_cast<float>(r() % (w.g.nx + 1));  // on an x-face or an edge
            if (k % 4 == 2) y = y0 + w.g.h * static_cast<float>(r() % (w.g.ny + 1));  // on a y-face or an edge
            a.add(x, y, 0.f, 0.f, 2.f * v(r) - 1.f, 2.f * v(r) - 1.f, 1.34f + 5.f * v(r));
        }
        return a;
    };
    if (ex.backend == Backend::Cuda) { w.p.upload(); w.blocked.upload(); aperture.upload(); }
    Agents each = crowd(5), once = crowd(5);
    sim::agentVelocity(ex, each.views(ex), w.g, w.p.view(ex), w.blocked.view(ex), aperture.view(ex));
    Field<sim::Vel2> gradient(w.g.nx, w.g.ny);
    if (ex.backend == Backend::Cuda) gradient.upload();
    sim::agentVelocity(ex, once.views(ex), w.g, w.p.view(ex), w.blocked.view(ex), aperture.view(ex), gradient.view(ex));
    each.fetch(ex);
    once.fetch(ex);
    int wrong = 0, corrected = 0;
    for (int k = 0; k < each.size(); ++k) {
        wrong += std::memcmp(&each.vx[k], &once.vx[k], sizeof(float)) != 0 || std::memcmp(&each.vy[k], &once.vy[k], sizeof(float)) != 0;
        corrected += each.vx[k] != each.px[k] || each.vy[k] != each.py[k];
    }
    EXPECT_EQ(wrong, 0);
    // the pressure did correct most agents
    EXPECT_GT(corrected, 2000);
}

TEST_P(AgentsStage, AdvectMovesByVelocityTimesDt) {
    World w(20, 20, 0.5f);
    Agents a(2);
    a.x[0] = 1.f; a.y[0] = 5.f; a.vx[0] = 1.2f; a.vy[0] = -0.4f;
    a.x[1] = 3.f; a.y[1] = 6.f; a.vx[1] = -20.f; a.vy[1] = 10.f;  // several cells in one step
    runAdvect(GetParam(), a, w, 0.1f);
    EXPECT_NEAR(a.x[0], 1.12f, 1e-5f);
    EXPECT_NEAR(a.y[0], 4.96f, 1e-5f);
    EXPECT_EQ(a.vx[0], 1.2f);
    EXPECT_NEAR(a.x[1], 1.f, 1e-5f);
    EXPECT_NEAR(a.y[1], 7.f, 1e-5f);
}

TEST_P(AgentsStage, AdvectSlidesAlongAWall) {
    // wall column i = 6 (x in [2, 2.5)); agent just west of it, moving north-east
    World w(12, 12, 0.5f);
    for (int j = 0; j < 12; ++j) w.blocked(6, j) = 1;
    Agents a(2);
    a.x[0] = 1.9f; a.y[0] = 4.f; a.vx[0] = 1.f; a.vy[0] = 1.f;
    // agent moving straight into the grid's south edge
    a.x[1] = 0.f; a.y[1] = 2.05f; a.vx[1] = 0.3f; a.vy[1] = -1.f;
    runAdvect(GetParam(), a, w, 0.2f);
    EXPECT_TRUE(w.openAt(a.x[0], a.y[0]));
    EXPECT_LT(a.x[0], 2.f);
    EXPECT_GT(a.x[0], 1.99f);  // stopped at the wall
    EXPECT_NEAR(a.y[0], 4.2f, 1e-5f);  // slid along it
    EXPECT_EQ(a.vx[0], 0.f);
    EXPECT_EQ(a.vy[0], 1.f);
    EXPECT_NEAR(a.x[1], 0.06f, 1e-5f);
    EXPECT_GE(a.y[1], 2.f);
    EXPECT_LT(a.y[1], 2.05f);
    EXPECT_EQ(a.vy[1], 0.f);
    EXPECT_EQ(a.vx[1], 0.3f);
}

TEST_P(AgentsStage, AdvectNeverEntersABlockedCell) {
    std::mt19937 rng(7);
    World w = wallWorld(rng);
    const int n = 2000;
    Agents a(n);
    std::uniform_real_distribution<float> ux(w.g.ox, w.g.ox + w.g.nx * w.g.h), uy(w.g.oy, w.g.oy + w.g.ny * w.g.h);
    std::uniform_real_distribution<float> uv(-6.f, 6.f);  // up to 2.4 cells per step at dt 0.1
    for (int k = 0; k < n; ++k) {
        do { a.x[k] = ux(rng); a.y[k] = uy(rng); } while (!w.openAt(a.x[k], a.y[k]));
    }
    for (int step = 0; step < 30; ++step) {
        for (int k = 0; k < n; ++k) { a.vx[k] = uv(rng); a.vy[k] = uv(rng); }
        std::vector<float> px = a.x.vector(), py = a.y.vector(), pvx = a.vx.vector(), pvy = a.vy.vector();
        runAdvect(GetParam(), a, w, 0.1f);
        for (int k = 0; k < n; ++k) ASSERT_TRUE(w.openAt(a.x[k], a.y[k])) << "agent " << k << " step " << step << " from " << px[k] << "," << py[k] << " v " << pvx[k] << "," << pvy[k] << " to " << a.x[k] << "," << a.y[k];
    }
}

/// Distance from (x, y) to the nearest blocked or outside cell square
/// (brute force over every cell and the grid's edge). [Units: m]
double wallDistance(const World& w, double x, double y) {
    const GridInfo& g = w.g;
    double best = std::min(std::min(x - g.ox, g.ox + g.nx * g.h - x), std::min(y - g.oy, g.oy + g.ny * g.h - y));
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) {
            if (!w.blocked(i, j)) continue;
            const double lx = g.ox + i * g.h, ly = g.oy + j * g.h;
            const double qx = std::clamp(x, lx, lx + g.h), qy = std::clamp(y, ly, ly + g.h);
            best = std::min(best, std::hypot(x - qx, y - qy));
        }
    return best;
}

TEST_P(AgentsStage, AdvectKeepsTheBodyClearOfAWallAndOfACorner) {
    // open: x < 0.5 and y < 3.5 (cells i < 6, j < 6 of a grid from (-1, 2), h = 0.25)
    World w(10, 10, 0.25f);
    for (int j = 0; j < 10; ++j)
        for (int i = 0; i < 10; ++i) w.blocked(i, j) = (i >= 6 || j >= 6) ? 1 : 0;
    Agents a;
    a.add(0.2f, 2.6f, 1.f, 0.f);   // walks into the wall x = 0.5: stops 0.2 m before it
    a.add(0.1f, 3.1f, 1.f, 1.f);   // walks into the corner (0.5, 3.5): stops 0.2 m from both walls
    a.add(-0.2f, 2.6f, 0.f, 0.f);  // stands 0.7 m from the wall: stays
    runAdvect(GetParam(), a, w, 0.5f, 0.2f);
    EXPECT_NEAR(a.x[0], 0.3f, 1e-5f);
    EXPECT_NEAR(a.y[0], 2.6f, 1e-5f);
    EXPECT_NEAR(a.x[1], 0.3f, 1e-5f);
    EXPECT_NEAR(a.y[1], 3.3f, 1e-5f);
    EXPECT_EQ(a.x[2], -0.2f);
    EXPECT_EQ(a.y[2], 2.6f);
    // clearance 0: the centre alone stops just short of the wall (1e-3 h)
    Agents b;
    b.add(0.2f, 2.6f, 1.f, 0.f);
    runAdvect(GetParam(), b, w, 0.5f, 0.f);
    EXPECT_NEAR(b.x[0], 0.5f - 2.5e-4f, 1e-5f);
}

TEST_P(AgentsStage, AdvectKeepsEveryBodyClearOfTheWalls) {
    // a walled room with a 1 m x 1 m pillar; random agents and velocities; radius 0.2 m
    World w(30, 20, 0.25f);
    for (int j = 0; j < 20; ++j)
        for (int i = 0; i < 30; ++i)
            w.blocked(i, j) = (i == 0 || j == 0 || i == 29 || j == 19 || (i >= 12 && i < 16 && j >= 8 && j < 12)) ? 1 : 0;
    std::mt19937 rng(11);
    const int n = 1000;
    Agents a(n);
    std::uniform_real_distribution<float> ux(w.g.ox, w.g.ox + w.g.nx * w.g.h), uy(w.g.oy, w.g.oy + w.g.ny * w.g.h);
    std::uniform_real_distribution<float> uv(-3.f, 3.f);
    for (int k = 0; k < n; ++k) {
        do { a.x[k] = ux(rng); a.y[k] = uy(rng); } while (!w.openAt(a.x[k], a.y[k]));
    }
    double worst = INFINITY;
    for (int step = 0; step < 20; ++step) {
        for (int k = 0; k < n; ++k) { a.vx[k] = uv(rng); a.vy[k] = uv(rng); }
        runAdvect(GetParam(), a, w, 0.1f, 0.2f);
        for (int k = 0; k < n; ++k) {
            ASSERT_TRUE(w.openAt(a.x[k], a.y[k])) << "agent " << k << " step " << step;
            worst = std::min(worst, wallDistance(w, a.x[k], a.y[k]));
        }
    }
    EXPECT_GE(worst, 0.2 - 1e-5) << "a body of radius 0.2 m overlapped a wall";
}

INSTANTIATE_TEST_SUITE_P(PerBackend, AgentsStage, ::testing::ValuesIn(testExecs()), ExecParamName());

TEST(AgentsStage, SlideAlongWallsTurnsAVelocityIntoAWallAlongItAtTheSameSpeed) {
    // open: x < 0.5 (cells i < 6 of a grid from (-1, 2), h = 0.25); the
    // block x >= 0.5 ends at y = 3.0 (j < 4): a door corner at (0.5, 3.0)
    World w(10, 10, 0.25f);
    for (int j = 0; j < 10; ++j)
        for (int i = 0; i < 10; ++i) w.blocked(i, j) = (i >= 6 && j < 4) ? 1 : 0;
    MaskWalls mw(Exec{}, w.g, w.blocked, 0.2f + w.g.h);
    const sim::WallView walls = mw.view(Exec{});
    // touching the wall face x = 0.5 (body 0.2), heading into it at 45 degrees: north along it at 1 m/s
    float vx = std::sqrt(0.5f), vy = std::sqrt(0.5f);
    sim::slideAlongWalls(walls, 0.2f, 0.3f, 2.5f, vx, vy);
    EXPECT_NEAR(vx, 0.f, 1e-6f);
    EXPECT_NEAR(vy, 1.f, 1e-6f);
    // round the corner: (0.38, 3.16) is 0.2 m from the corner (0.5, 3.0) along n = (-0.6, 0.8), the
    // nearest wall point; the velocity east turns round it
    vx = 1.f;
    vy = 0.f;
    sim::slideAlongWalls(walls, 0.2f, 0.38f, 3.16f, vx, vy);
    // normal n = (-0.6, 0.8): into = -0.6; tangential (1, 0) + 0.6 n = (0.64, 0.48), scaled to speed 1
    EXPECT_NEAR(vx, 0.8f, 1e-5f);
    EXPECT_NEAR(vy, 0.6f, 1e-5f);
    // heading away from the wall, or 0.5 m from it: unchanged
    vx = -1.f;
    vy = 0.5f;
    sim::slideAlongWalls(walls, 0.2f, 0.3f, 2.5f, vx, vy);
    EXPECT_EQ(vx, -1.f);
    EXPECT_EQ(vy, 0.5f);
    vx = 1.f;
    vy = 1.f;
    sim::slideAlongWalls(walls, 0.2f, 0.f, 2.5f, vx, vy);
    EXPECT_EQ(vx, 1.f);
    EXPECT_EQ(vy, 1.f);
    // straight into the wall: nothing to slide along, unchanged (advect stops it)
    vx = 1.f;
    vy = 0.f;
    sim::slideAlongWalls(walls, 0.2f, 0.3f, 2.5f, vx, vy);
    EXPECT_EQ(vx, 1.f);
    EXPECT_EQ(vy, 0.f);
}

TEST(AgentsStage, BitwiseIdenticalForOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    std::mt19937 rng(11);
    World w = wallWorld(rng);
    std::uniform_real_distribution<float> up(0.f, 2.f);
    for (int j = 0; j < w.g.ny; ++j)
        for (int i = 0; i < w.g.nx; ++i) w.p(i, j) = up(rng);
    const int n = 3001;
    Agents base(n);
    std::uniform_real_distribution<float> ux(w.g.ox, w.g.ox + w.g.nx * w.g.h), uy(w.g.oy, w.g.oy + w.g.ny * w.g.h);
    std::uniform_real_distribution<float> uv(-2.f, 2.f);
    for (int k = 0; k < n; ++k) {
        do { base.x[k] = ux(rng); base.y[k] = uy(rng); } while (!w.openAt(base.x[k], base.y[k]));
        base.px[k] = uv(rng); base.py[k] = uv(rng);
    }
    Agents one = base, two = base;
    for (int step = 0; step < 5; ++step) {
        runVelocity(Exec{Backend::Cpu, 1}, one, w);
        runAdvect(Exec{Backend::Cpu, 1}, one, w, 0.1f);
        runVelocity(Exec{Backend::Cpu, 2}, two, w);
        runAdvect(Exec{Backend::Cpu, 2}, two, w, 0.1f);
    }
    const Array<float>* pairs[4][2] = {{&one.x, &two.x}, {&one.y, &two.y}, {&one.vx, &two.vx}, {&one.vy, &two.vy}};
    for (const auto& pq : pairs) EXPECT_EQ(std::memcmp(pq[0]->host(), pq[1]->host(), sizeof(float) * n), 0);
}

}  // namespace
}  // namespace ccrowd::test
