/// @file test_stage_speed_cost.cpp
/// Stages (c) speed and (d) unit cost, per backend, on small hand-built
/// grids with hand-computed values (Treuille et al. 2006 §4.2 and eq. 4;
/// Weidmann 1993 with v0 = 1.34, gamma = 1.913, rho_jam = 5.4).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "backends.hpp"
#include "ccrowd/closed_faces.hpp"
#include "ccrowd/eikonal.hpp"
#include "ccrowd/field.hpp"
#include "kernels/cost.hpp"
#include "kernels/speed.hpp"
#include "kernels/stages.hpp"

namespace ccrowd::test {
namespace {

using sim::Face4;
using sim::Vel2;

constexpr float kTol = 1e-5f;

GridInfo makeGrid(int nx, int ny, float h = 1.f) {
    GridInfo g;
    g.nx = nx; g.ny = ny; g.h = h;
    return g;
}

/// Uploads @p f for a CUDA Exec and returns its view on the Exec's side.
template <class T>
View2<T> on(const Exec& ex, Field<T>& f) {
    if (ex.backend == Backend::Cuda) f.upload();
    return f.view(ex);
}
/// Downloads @p f after a CUDA stage.
template <class T>
void back(const Exec& ex, Field<T>& f) {
    if (ex.backend == Backend::Cuda) f.download();
}

/// Inputs and output of the speed stage on an nx-by-ny grid.
struct SpeedCase {
    GridInfo g;
    sim::SpeedParams p;
    Field<float> rho, terrain;
    Field<Vel2> mv;
    Field<std::uint8_t> blocked;
    Field<Face4> out;
    SpeedCase(int nx, int ny)
        : g(makeGrid(nx, ny)), rho(nx, ny, 0.f), terrain(nx, ny, 1.f), mv(nx, ny), blocked(nx, ny, 0),
          out(nx, ny, Face4{-1.f, -1.f, -1.f, -1.f}) {}
    void run(const Exec& ex, CellRange box) {
        sim::speed(ex, g, box, p, on(ex, rho), on(ex, mv), on(ex, terrain), on(ex, blocked), on(ex, out));
        back(ex, out);
    }
    void run(const Exec& ex) { run(ex, CellRange{0, 0, g.nx, g.ny}); }
};

class SpeedStage : public ::testing::TestWithParam<Exec> {};
class CostStage : public ::testing::TestWithParam<Exec> {};

// ---- speed -----------------------------------------------------------------

TEST_P(SpeedStage, EmptyGridIsFreeSpeedAndEpsAtTheBorder) {
    SpeedCase c(3, 3);
    c.run(GetParam());
    const Face4 m = c.out(1, 1);
    EXPECT_FLOAT_EQ(m.e, 1.34f);
    EXPECT_FLOAT_EQ(m.n, 1.34f);
    EXPECT_FLOAT_EQ(m.w, 1.34f);
    EXPECT_FLOAT_EQ(m.s, 1.34f);
    // corner: faces towards outside cells get eps
    const Face4 k = c.out(0, 0);
    EXPECT_FLOAT_EQ(k.e, 1.34f);
    EXPECT_FLOAT_EQ(k.n, 1.34f);
    EXPECT_FLOAT_EQ(k.w, c.p.eps);
    EXPECT_FLOAT_EQ(k.s, c.p.eps);
}

TEST_P(SpeedStage, FreeSpeedAlongTheFlowAndSlowerAgainstIt) {
    SpeedCase c(3, 3);
    // E: rho 2 (between), flow (0.6, 0.3): along the face, cos > 0, so f = fT =
    //    1.34 (1 - exp(-1.913 (1/2 - 1/5.4))) = 0.606238
    c.rho(2, 1) = 2.f; c.mv(2, 1) = Vel2{0.6f, 0.3f};
    // N: rho 3.5 (a = 3/3.5), flow (0.3, -0.4): cos = -0.8, fT = 0.234434,
    //    fv = 0.2 fT, f = fT (1 - 3/3.5 x 0.8) = 0.073679
    c.rho(1, 2) = 3.5f; c.mv(1, 2) = Vel2{0.3f, -0.4f};
    // W: rho 4.5 (above rho_max), flow (-0.8, 0.1) along -x: fT = 0.091656
    c.rho(0, 1) = 4.5f; c.mv(0, 1) = Vel2{-0.8f, 0.1f};
    // S: rho 0.3 (below rho_min): fT = 1.34 (1 - exp(-1.913 (1/0.3 - 1/5.4))) = 1.336752
    c.rho(1, 0) = 0.3f; c.mv(1, 0) = Vel2{0.f, 2.f};
    c.run(GetParam());
    const Face4 f = c.out(1, 1);
    EXPECT_NEAR(f.e, 0.606238f, kTol);
    EXPECT_NEAR(f.n, 0.073679f, kTol);
    EXPECT_NEAR(f.w, 0.091656f, kTol);
    EXPECT_NEAR(f.s, 1.336752f, kTol);
}

// The settings the simulation runs with (src/sim/sim_state.cpp): the flow's
// direction in the blend, and faces reading aheadCells(R, h) cells ahead;
// hand-computed values.

TEST_P(SpeedStage, FlowNeverRaisesAFaceAndCounterFlowSlowsItToEps) {
    SpeedCase c(3, 3);
    // E: rho 4.5, a fast flow 0.8 along +x: Treuille's fv would be 0.8; here fT = 0.091656
    c.rho(2, 1) = 4.5f; c.mv(2, 1) = Vel2{0.8f, 0.f};
    // N: rho 2, flow straight against (0, -1.2): fv = eps,
    //    f = fT + 1.5/3.5 (eps - fT) = 0.606238 + 0.428571 (0.02 - 0.606238) = 0.354993
    c.rho(1, 2) = 2.f; c.mv(1, 2) = Vel2{0.f, -1.2f};
    // W: rho 2, flow slower than eps (0.01 along +x, against -x): no direction, f = fT
    c.rho(0, 1) = 2.f; c.mv(0, 1) = Vel2{0.01f, 0.f};
    // S: rho 5 (a = 1), flow across (1, 0): cos = 0, f = fT = 1.34 (1 - exp(-1.913 (1/5 - 1/5.4)))
    c.rho(1, 0) = 5.f; c.mv(1, 0) = Vel2{1.f, 0.f};
    c.run(GetParam());
    const Face4 f = c.out(1, 1);
    EXPECT_NEAR(f.e, 0.091656f, kTol);
    EXPECT_NEAR(f.n, 0.354993f, kTol);
    EXPECT_NEAR(f.w, 0.606238f, kTol);
    EXPECT_NEAR(f.s, 1.34f * (1.f - std::exp(-1.913f * (1.f / 5.f - 1.f / 5.4f))), kTol);
    // straight against the flow above rho_max: eps
    c.rho(2, 1) = 4.5f; c.mv(2, 1) = Vel2{-0.8f, 0.f};
    c.run(GetParam());
    EXPECT_FLOAT_EQ(c.out(1, 1).e, c.p.eps);
}

TEST_P(SpeedStage, LookAheadOfSeveralCellsClampedAtTheGridEdge) {
    // the simulation's look-ahead: round(R / (2 h)) cells, at least 1
    EXPECT_EQ(sim::aheadCells(1.0f, 0.25f), 2);
    EXPECT_EQ(sim::aheadCells(1.5f, 0.25f), 3);
    EXPECT_EQ(sim::aheadCells(1.0f, 0.1f), 5);
    EXPECT_EQ(sim::aheadCells(0.1f, 0.25f), 1);
    EXPECT_EQ(sim::aheadCells(0.f, 0.25f), 1);
    SpeedCase c(8, 3);
    c.p.ahead = sim::aheadCells(1.5f, 0.25f);  // 3 cells
    // cell (1, 1): E reads (4, 1), not its neighbour (2, 1)
    c.rho(2, 1) = 5.f; c.mv(2, 1) = Vel2{-1.f, 0.f};   // would give eps if read
    c.rho(4, 1) = 2.f; c.mv(4, 1) = Vel2{-0.6f, 0.f};  // against: 0.354993
    // W reads (1 - 3 = -2 -> clamped to 0, 1)
    c.rho(0, 1) = 0.3f; c.mv(0, 1) = Vel2{2.f, 0.f};  // below rho_min: fT 1.336752
    // cell (6, 1): E reads (9 -> clamped to 7, 1)
    c.rho(7, 1) = 4.5f; c.mv(7, 1) = Vel2{0.8f, 0.f};  // fT 0.091656
    c.run(GetParam());
    EXPECT_NEAR(c.out(1, 1).e, 0.354993f, kTol);
    EXPECT_NEAR(c.out(1, 1).w, 1.336752f, kTol);
    EXPECT_NEAR(c.out(6, 1).e, 0.091656f, kTol);
    // N and S of (1, 1) read (1, 4 -> 2) and (1, -2 -> 0): empty, free speed
    EXPECT_FLOAT_EQ(c.out(1, 1).n, 1.34f);
    EXPECT_FLOAT_EQ(c.out(1, 1).s, 1.34f);
}

TEST_P(SpeedStage, FreeSpeedClampedToEpsAtAndAboveJamDensity) {
    SpeedCase c(3, 3);
    c.p.rho_min = 6.f;  // keep fT in charge up to rho 6
    c.p.rho_max = 8.f;
    c.rho(2, 1) = 5.4f;  // Weidmann speed 0
    c.rho(1, 2) = 5.9f;  // Weidmann speed < 0
    c.rho(0, 1) = 1.f;   // 1.34 (1 - exp(-1.913 (1 - 1/5.4))) = 1.058063
    c.run(GetParam());
    EXPECT_FLOAT_EQ(c.out(1, 1).e, c.p.eps);
    EXPECT_FLOAT_EQ(c.out(1, 1).n, c.p.eps);
    EXPECT_NEAR(c.out(1, 1).w, 1.058063f, kTol);
    EXPECT_FLOAT_EQ(c.out(1, 1).s, 1.34f);
}

TEST_P(SpeedStage, TerrainFactorScalesFreeSpeed) {
    SpeedCase c(3, 3);
    c.terrain(2, 1) = 0.5f;   // E: 0.67
    c.terrain(1, 2) = 0.01f;  // N: 0.0134, raised to eps
    // S: rho 3, terrain 0.5, flow along -y: f = fT = 0.5 x 0.330695 = 0.165347
    c.terrain(1, 0) = 0.5f; c.rho(1, 0) = 3.f; c.mv(1, 0) = Vel2{0.f, -1.f};
    c.run(GetParam());
    EXPECT_FLOAT_EQ(c.out(1, 1).e, 0.67f);
    EXPECT_FLOAT_EQ(c.out(1, 1).n, c.p.eps);
    EXPECT_FLOAT_EQ(c.out(1, 1).w, 1.34f);
    EXPECT_NEAR(c.out(1, 1).s, 0.165347f, kTol);
}

TEST_P(SpeedStage, BlockedNeighboursAndCellsGetEps) {
    SpeedCase c(3, 3);
    c.blocked(2, 1) = 1;
    c.blocked(0, 0) = 1;
    c.run(GetParam());
    EXPECT_FLOAT_EQ(c.out(1, 1).e, c.p.eps);
    EXPECT_FLOAT_EQ(c.out(1, 1).w, 1.34f);
    const Face4 b = c.out(0, 0);
    EXPECT_FLOAT_EQ(b.e, c.p.eps);
    EXPECT_FLOAT_EQ(b.n, c.p.eps);
    EXPECT_FLOAT_EQ(b.w, c.p.eps);
    EXPECT_FLOAT_EQ(b.s, c.p.eps);
    EXPECT_FLOAT_EQ(c.out(1, 0).w, c.p.eps);  // towards the blocked corner
}

TEST_P(SpeedStage, OnlyTheBoxIsWritten) {
    SpeedCase c(5, 4);
    c.run(GetParam(), CellRange{1, 1, 3, 3});
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 5; ++i) {
            const bool in = i >= 1 && i < 3 && j >= 1 && j < 3;
            EXPECT_EQ(c.out(i, j).e, in ? 1.34f : -1.f) << i << "," << j;
        }
}

/// Bits of a float (to compare results exactly).
std::uint32_t bitsOf(float v) {
    std::uint32_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

TEST(SpeedStage, FaceReadingsGiveTheBitsOfFaceSpeed) {
    // the face speed as faceSpeed() gives it, straight from the density and
    // flow ahead (the speed stage before per-cell readings)
    auto reference = [](const SpeedCase& c, const Field<std::uint8_t>& closed, int i, int j, int di, int dj) {
        const int ni = i + di, nj = j + dj;
        if (!c.g.inside(i, j) || c.blocked(i, j)) return c.p.eps;
        if (!c.g.inside(ni, nj) || c.blocked(ni, nj) || (closed(i, j) & closedFaceBit(di, dj))) return c.p.eps;
        const int ai = std::clamp(i + c.p.ahead * di, 0, c.g.nx - 1), aj = std::clamp(j + c.p.ahead * dj, 0, c.g.ny - 1);
        const float r = c.rho(ai, aj);
        return sim::faceSpeed(c.p, sim::weidmannSpeed(c.p, r), r, c.mv(ai, aj), static_cast<float>(di),
                              static_cast<float>(dj), c.terrain(ni, nj));
    };
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    const Exec ex{Backend::Cpu, 2};
    for (int ahead = 1; ahead <= 3; ++ahead) {
        SpeedCase c(48, 40);
        c.p.ahead = ahead;
        Field<std::uint8_t> closed(c.g.nx, c.g.ny, 0);
        for (int j = 0; j < c.g.ny; ++j)
            for (int i = 0; i < c.g.nx; ++i) {
                // densities at and around rho_min and rho_max, empty and jammed
                const float kinds[] = {0.f, c.p.rho_min, c.p.rho_max, std::nextafter(c.p.rho_min, 9.f), 6.f * u(rng),
                                       6.f * u(rng), 6.f * u(rng), 9.f};
                c.rho(i, j) = kinds[rng() % 8];
                // flows: at rest, signed zeros, just below and at eps, along an axis, anywhere
                const float s = 2.4f * u(rng) - 1.2f, t = 2.4f * u(rng) - 1.2f;
                const Vel2 flows[] = {Vel2{0.f, 0.f}, Vel2{-0.f, 0.f}, Vel2{0.f, -0.f}, Vel2{0.5f * c.p.eps, 0.f},
                                      Vel2{c.p.eps, 0.f}, Vel2{0.f, -c.p.eps}, Vel2{s, 0.f}, Vel2{0.f, t},
                                      Vel2{s, t}, Vel2{s, t}};
                c.mv(i, j) = flows[rng() % 10];
                c.terrain(i, j) = rng() % 4 ? 1.f : 1.5f * u(rng);
                c.blocked(i, j) = rng() % 13 == 0;
                closed(i, j) = rng() % 5 == 0 ? static_cast<std::uint8_t>(rng() % 16) : 0;
            }
        // with per-cell readings (the simulation's path) and without (a reading per face)
        sim::PerceiveWorkspace ws;
        for (sim::PerceiveWorkspace* w : {&ws, static_cast<sim::PerceiveWorkspace*>(nullptr)}) {
            sim::speed(ex, c.g, CellRange{0, 0, c.g.nx, c.g.ny}, c.p, c.rho.view(ex), c.mv.view(ex), c.terrain.view(ex),
                       c.blocked.view(ex), c.out.view(ex), closed.view(ex), w);
            int wrong = 0;
            for (int j = 0; j < c.g.ny; ++j)
                for (int i = 0; i < c.g.nx; ++i) {
                    const Face4 f = c.out(i, j);
                    wrong += bitsOf(f.e) != bitsOf(reference(c, closed, i, j, 1, 0));
                    wrong += bitsOf(f.n) != bitsOf(reference(c, closed, i, j, 0, 1));
                    wrong += bitsOf(f.w) != bitsOf(reference(c, closed, i, j, -1, 0));
                    wrong += bitsOf(f.s) != bitsOf(reference(c, closed, i, j, 0, -1));
                }
            EXPECT_EQ(wrong, 0) << "ahead " << ahead << (w ? ", per-cell readings" : ", a reading per face");
        }
    }
}

TEST(SpeedStage, WindowWeightsInsideTheEndsAreExactlyOne) {
    // reaches on and next to the half-integers where the window gains a cell, and anywhere
    std::vector<float> reaches;
    for (int k = 0; k <= 400; ++k) {
        const float at = 0.5f * static_cast<float>(k);
        reaches.insert(reaches.end(), {at, std::nextafter(at, 0.f), std::nextafter(at, 1e9f)});
    }
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> u(0.f, 400.f);
    for (int k = 0; k < 2000; ++k) reaches.push_back(u(rng));
    int wrong = 0, cells = 0;
    for (float reach : reaches) {
        const int m = sim::windowCells(reach);
        const float end = sim::windowWeight(m, reach);
        EXPECT_GT(end, 0.f) << "reach " << reach;
        EXPECT_EQ(sim::windowWeight(m + 1, reach), 0.f) << "reach " << reach;
        for (int d = -m; d <= m; ++d, ++cells) wrong += bitsOf(sim::windowWeightIn(d, m, end)) != bitsOf(sim::windowWeight(d, reach));
    }
    EXPECT_EQ(wrong, 0) << "of " << cells << " offsets";
}

// ---- cost ------------------------------------------------------------------

/// Inputs and output of the cost stage.
struct CostCase {
    GridInfo g;
    sim::CostParams c;
    sim::SpeedParams sp;
    Field<Face4> speed;
    Field<float> discomfort, terrain;
    Field<std::uint8_t> blocked;
    Field<FaceCost> out;
    CostCase(int nx, int ny)
        : g(makeGrid(nx, ny)), speed(nx, ny, Face4{1.f, 1.f, 1.f, 1.f}), discomfort(nx, ny, 0.f), terrain(nx, ny, 1.f),
          blocked(nx, ny, 0), out(nx, ny) {}
    void run(const Exec& ex, CellRange box) {
        sim::unitCost(ex, g, box, c, sp, on(ex, speed), on(ex, discomfort), on(ex, terrain), on(ex, blocked), on(ex, out));
        back(ex, out);
    }
};

TEST_P(CostStage, FormulaInsideTheBox) {
    CostCase k(3, 3);
    k.c = sim::CostParams{1.f, 2.f, 3.f};
    k.speed(1, 1) = Face4{1.f, 0.5f, 2.f, 0.05f};
    k.discomfort(2, 1) = 0.2f;  // E
    k.discomfort(0, 1) = 1.f;   // W
    k.discomfort(1, 0) = 0.5f;  // S
    k.discomfort(1, 1) = 9.f;   // the cell's own discomfort is not used
    k.run(GetParam(), CellRange{1, 1, 2, 2});
    const FaceCost c = k.out(1, 1);
    EXPECT_FLOAT_EQ(c.e, 3.6f);   // (1 + 2 + 0.6) / 1
    EXPECT_FLOAT_EQ(c.n, 5.f);    // (0.5 + 2 + 0) / 0.5
    EXPECT_FLOAT_EQ(c.w, 3.5f);   // (2 + 2 + 3) / 2
    EXPECT_NEAR(c.s, 71.f, 1e-4f);  // (0.05 + 2 + 1.5) / 0.05
}

TEST_P(CostStage, FreeFlowOutsideTheBox) {
    CostCase k(3, 3);
    k.speed(0, 0) = Face4{0.1f, 0.1f, 0.1f, 0.1f};  // ignored outside the box
    k.terrain(0, 1) = 0.5f;
    k.run(GetParam(), CellRange{1, 1, 3, 3});
    const FaceCost c = k.out(0, 0);
    EXPECT_NEAR(c.e, 1.746269f, kTol);  // f = 1.34: (1.34 + 1) / 1.34
    EXPECT_NEAR(c.n, 2.492537f, kTol);  // f = 0.67: (0.67 + 1) / 0.67
    EXPECT_NEAR(c.w, 51.f, 1e-3f);      // outside: f = eps, (0.02 + 1) / 0.02
    EXPECT_NEAR(c.s, 51.f, 1e-3f);
    // inside the box the speed field is used: f = 1 -> (1 + 1) / 1
    EXPECT_FLOAT_EQ(k.out(1, 1).e, 2.f);
}

TEST_P(CostStage, DiscomfortOfBlockedNeighbourIgnored) {
    CostCase k(3, 3);
    k.blocked(2, 1) = 1;
    k.discomfort(2, 1) = 5.f;
    k.speed(1, 1) = Face4{0.05f, 1.f, 1.f, 1.f};
    k.run(GetParam(), CellRange{0, 0, 3, 3});
    EXPECT_NEAR(k.out(1, 1).e, 21.f, 1e-4f);  // (0.05 + 1 + 0) / 0.05
}

TEST_P(CostStage, SpeedThenCostIsValidForTheEikonal) {
    // random crowd fields: every open cell's cost must be finite and > 0
    const int nx = 40, ny = 30;
    std::mt19937 rng(5u);
    std::uniform_real_distribution<float> u(0.f, 1.f);
    SpeedCase s(nx, ny);
    CostCase k(nx, ny);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            s.rho(i, j) = 7.f * u(rng);
            s.mv(i, j) = Vel2{4.f * u(rng) - 2.f, 4.f * u(rng) - 2.f};
            s.terrain(i, j) = k.terrain(i, j) = 1.2f * u(rng);
            s.blocked(i, j) = k.blocked(i, j) = u(rng) < 0.2f ? 1 : 0;
            k.discomfort(i, j) = 2.f * u(rng);
        }
    s.blocked(3, 3) = k.blocked(3, 3) = 0;
    const CellRange box{5, 4, 31, 25};
    s.run(GetParam(), box);
    k.speed = s.out;
    k.run(GetParam(), box);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            if (k.blocked(i, j)) continue;
            const FaceCost c = k.out(i, j);
            for (float v : {c.e, c.n, c.w, c.s}) ASSERT_TRUE(std::isfinite(v) && v > 0.f) << i << "," << j;
        }
    EikonalProblem p;
    p.h = 1.f;
    p.blocked = &k.blocked;
    p.cost = &k.out;
    p.sources.push_back({3, 3, 0.f});
    EXPECT_NO_THROW(validateEikonalProblem(p));
}

TEST(CostStage, NullOptionalFieldsMeanNoDiscomfortUnitTerrainNoWalls) {
    const Exec ex{Backend::Cpu, 1};
    const GridInfo g = makeGrid(2, 1);
    Field<Face4> speed(2, 1, Face4{0.5f, 0.5f, 0.5f, 0.5f});
    Field<FaceCost> out(2, 1);
    sim::unitCost(ex, g, CellRange{0, 0, 1, 1}, sim::CostParams{}, sim::SpeedParams{}, speed.hostView(), {}, {}, {},
                  out.hostView());
    EXPECT_FLOAT_EQ(out(0, 0).e, 3.f);          // (0.5 + 1) / 0.5
    EXPECT_NEAR(out(1, 0).w, 1.746269f, kTol);  // free flow, terrain 1
}

INSTANTIATE_TEST_SUITE_P(PerBackend, SpeedStage, ::testing::ValuesIn(testExecs()), ExecParamName());
INSTANTIATE_TEST_SUITE_P(PerBackend, CostStage, ::testing::ValuesIn(testExecs()), ExecParamName());

}  // namespace
}  // namespace ccrowd::test
