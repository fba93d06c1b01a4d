/// @file test_stage_pressure.cpp
/// Pressure stage (UIC, Narain 2009 §4; DESIGN.md §5), per backend: p = 0
/// exactly where the predicted density stays below the limit; a converging
/// flow into a dense blob gets p > 0 there and a corrected predicted density
/// <= limit (checked against an independent host evaluation of the flux
/// formula); complementarity; p >= 0; walls; statistics and the budget;
/// warm start; the box; thread-count determinism.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "backends.hpp"
#include "kernels/pressure.hpp"
#include "kernels/stages.hpp"

namespace ccrowd::test {
namespace {

using sim::PressureParams;
using sim::PressureStats;
using sim::PressureWorkspace;
using sim::Vel2;

/// Host fields of one pressure problem.
struct Problem {
    GridInfo g;
    Field<float> rho, p;
    Field<Vel2> ubar, corrected;
    Field<std::uint8_t> blocked;
    Field<sim::Face4> aperture;  ///< Empty: 1 between open cells.

    Problem(int nx, int ny, float h)
        : rho(nx, ny, 0.f), p(nx, ny, 0.f), ubar(nx, ny), corrected(nx, ny), blocked(nx, ny, 0) {
        g.nx = nx;
        g.ny = ny;
        g.h = h;
    }
    CellRange all() const { return CellRange{0, 0, g.nx, g.ny}; }
    bool open(int i, int j) const { return i >= 0 && j >= 0 && i < g.nx && j < g.ny && !blocked(i, j); }
};

/// Runs the stage on @p ex (uploading / downloading for CUDA).
PressureStats run(const Exec& ex, Problem& pr, const CellRange& box, const PressureParams& prm, PressureWorkspace& ws) {
    if (ex.backend == Backend::Cuda) {
        pr.rho.upload(); pr.ubar.upload(); pr.blocked.upload(); pr.p.upload(); pr.corrected.upload();
        if (pr.aperture.size() > 0) pr.aperture.upload();
    }
    const View2<const sim::Face4> ap = pr.aperture.size() > 0 ? View2<const sim::Face4>(pr.aperture.view(ex))
                                                             : View2<const sim::Face4>{};
    const PressureStats st = sim::pressure(ex, pr.g, box, prm, pr.rho.view(ex), pr.ubar.view(ex), pr.blocked.view(ex),
                                           ap, ws, pr.p.view(ex), pr.corrected.view(ex));
    if (ex.backend == Backend::Cuda) { pr.p.download(); pr.corrected.download(); }
    return st;
}

/// Independent evaluation of the predicted density (DESIGN.md §5): rho' =
/// rho - dt/h sum of outward face fluxes rho_f (u_f - (p_nb - p)/h), in double.
double predicted(const Problem& pr, const PressureParams& prm, int i, int j) {
    const double h = pr.g.h;
    const int di[4] = {1, 0, -1, 0}, dj[4] = {0, 1, 0, -1};
    double out = 0.0;
    for (int d = 0; d < 4; ++d) {
        const int in = i + di[d], jn = j + dj[d];
        if (!pr.open(in, jn)) continue;
        double ap = 1.0;
        if (pr.aperture.size() > 0) {
            const sim::Face4 a = pr.aperture(i, j);
            ap = d == 0 ? a.e : (d == 1 ? a.n : (d == 2 ? a.w : a.s));
        }
        const double rf = ap * 0.5 * (pr.rho(i, j) + pr.rho(in, jn));
        const double uf = 0.5 * ((pr.ubar(i, j).x + pr.ubar(in, jn).x) * di[d] + (pr.ubar(i, j).y + pr.ubar(in, jn).y) * dj[d]);
        out += rf * (uf - (static_cast<double>(pr.p(in, jn)) - pr.p(i, j)) / h);
    }
    return pr.rho(i, j) - prm.dt / h * out;
}

/// A disk of density @p rho0 (radius r [m], centred) with the preferred
/// velocity pointing at the centre at @p speed [m/s] inside the disk.
Problem convergingBlob(int n, float h, float rho0, float r, float speed) {
    Problem pr(n, n, h);
    const float c = 0.5f * n * h;
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
            const float x = pr.g.centreX(i) - c, y = pr.g.centreY(j) - c, d = std::hypot(x, y);
            if (d > r) continue;
            pr.rho(i, j) = rho0;
            if (d > 0.f) pr.ubar(i, j) = Vel2{-speed * x / d, -speed * y / d};
        }
    return pr;
}

PressureParams hardParams() {
    PressureParams prm;
    prm.rho_limit = 5.4f;
    prm.dt = 0.1f;
    prm.iterations = 20000;
    prm.tolerance = 1e-3f;
    return prm;
}

class PressureStage : public ::testing::TestWithParam<Exec> {};

TEST_P(PressureStage, ZeroExactlyWherePredictedDensityStaysBelowLimit) {
    // sparse crowd converging gently: rho' stays far below the limit
    Problem pr = convergingBlob(24, 0.5f, 1.0f, 4.f, 1.3f);
    pr.p.fill(3.f);  // a stale warm start must be wiped, not kept
    PressureParams prm = hardParams();
    PressureWorkspace ws;
    const PressureStats st = run(GetParam(), pr, pr.all(), prm, ws);
    EXPECT_TRUE(st.converged);
    EXPECT_EQ(st.residual, 0.f);
    for (int j = 0; j < pr.g.ny; ++j)
        for (int i = 0; i < pr.g.nx; ++i) {
            ASSERT_LT(predicted(pr, prm, i, j), prm.rho_limit);
            ASSERT_EQ(pr.p(i, j), 0.f) << i << "," << j;
            // no pressure: the corrected velocity is the preferred one, bit for bit
            ASSERT_EQ(pr.corrected(i, j).x, pr.ubar(i, j).x);
            ASSERT_EQ(pr.corrected(i, j).y, pr.ubar(i, j).y);
        }
}

TEST_P(PressureStage, ConvergingFlowIntoDenseBlobIsHeldAtTheLimit) {
    Problem pr = convergingBlob(32, 0.5f, 5.3f, 4.f, 1.3f);
    const PressureParams prm = hardParams();
    // without pressure the centre would exceed the limit
    ASSERT_GT(predicted(pr, prm, 16, 16), prm.rho_limit);
    PressureWorkspace ws;
    const PressureStats st = run(GetParam(), pr, pr.all(), prm, ws);
    ASSERT_TRUE(st.converged) << "residual " << st.residual << " after " << st.iterations;
    EXPECT_GE(st.iterations, 1);
    EXPECT_LE(st.iterations, prm.iterations);
    EXPECT_LE(st.residual, prm.tolerance);
    // the residual is read after the first sweep and every check_every sweeps, not after each
    ASSERT_GT(st.iterations, 2 * prm.check_every);
    EXPECT_EQ(st.iterations % prm.check_every, 0);
    EXPECT_EQ(st.checks, 1 + st.iterations / prm.check_every);
    EXPECT_GT(pr.p(16, 16), 0.f);
    EXPECT_GT(pr.p(15, 15), 0.f);
    int positive = 0;
    double worst = 0.0;
    for (int j = 0; j < pr.g.ny; ++j)
        for (int i = 0; i < pr.g.nx; ++i) {
            const double rp = predicted(pr, prm, i, j);
            // p >= 0; corrected rho' <= limit; complementarity
            ASSERT_GE(pr.p(i, j), 0.f);
            ASSERT_LE(rp, prm.rho_limit * (1.0 + 1e-3)) << i << "," << j;
            if (pr.p(i, j) > 0.f) {
                ++positive;
                worst = std::max(worst, std::abs(rp - prm.rho_limit));
                ASSERT_NEAR(rp, prm.rho_limit, 2.0 * prm.tolerance) << i << "," << j;
            }
        }
    EXPECT_GT(positive, 4);
    // the reported residual is the one of the returned pressure
    EXPECT_NEAR(st.residual, worst, 1e-4 + 1e-3 * worst);
    // corrected velocity: ubar - grad p (central difference in the interior)
    const float gx = (pr.p(17, 15) - pr.p(15, 15)) / (2.f * pr.g.h), gy = (pr.p(16, 16) - pr.p(16, 14)) / (2.f * pr.g.h);
    EXPECT_NEAR(pr.corrected(16, 15).x, pr.ubar(16, 15).x - gx, 1e-5f);
    EXPECT_NEAR(pr.corrected(16, 15).y, pr.ubar(16, 15).y - gy, 1e-5f);
    // the pressure pushes outwards: the inward flow slows down at the centre
    EXPECT_LT(std::abs(pr.corrected(14, 16).x), std::abs(pr.ubar(14, 16).x));
}

TEST_P(PressureStage, BudgetOfOneOnAHardCaseIsReportedNotConverged) {
    Problem pr = convergingBlob(32, 0.5f, 5.3f, 4.f, 1.3f);
    PressureParams prm = hardParams();
    prm.iterations = 1;
    PressureWorkspace ws;
    const PressureStats st = run(GetParam(), pr, pr.all(), prm, ws);
    EXPECT_EQ(st.iterations, 1);
    EXPECT_FALSE(st.converged);
    EXPECT_GT(st.residual, prm.tolerance);
    for (int j = 0; j < pr.g.ny; ++j)
        for (int i = 0; i < pr.g.nx; ++i) ASSERT_GE(pr.p(i, j), 0.f);
}

TEST_P(PressureStage, WarmStartFromTheSolutionConvergesAtOnce) {
    Problem pr = convergingBlob(32, 0.5f, 5.3f, 4.f, 1.3f);
    const PressureParams prm = hardParams();
    PressureWorkspace ws;
    const PressureStats first = run(GetParam(), pr, pr.all(), prm, ws);
    ASSERT_TRUE(first.converged);
    const PressureStats again = run(GetParam(), pr, pr.all(), prm, ws);
    EXPECT_TRUE(again.converged);
    EXPECT_EQ(again.iterations, 1);
    EXPECT_EQ(again.checks, 1);
    EXPECT_LT(again.iterations, first.iterations);
}

TEST_P(PressureStage, WallsCarryNoFluxAndHoldNoPressure) {
    // a dense crowd walking east into a wall column at i = 12
    Problem pr(16, 12, 0.5f);
    for (int j = 0; j < 12; ++j) {
        pr.blocked(12, j) = 1;
        for (int i = 6; i < 12; ++i) { pr.rho(i, j) = 5.2f; pr.ubar(i, j) = Vel2{1.2f, 0.f}; }
    }
    pr.rho(12, 5) = 9.f;  // density in a wall cell is ignored
    const PressureParams prm = hardParams();
    ASSERT_GT(predicted(pr, prm, 11, 5), prm.rho_limit);
    PressureWorkspace ws;
    const PressureStats st = run(GetParam(), pr, pr.all(), prm, ws);
    ASSERT_TRUE(st.converged) << st.residual;
    for (int j = 0; j < 12; ++j) {
        EXPECT_EQ(pr.p(12, j), 0.f);
        EXPECT_EQ(pr.corrected(12, j).x, 0.f);
        EXPECT_GT(pr.p(11, j), 0.f);
        for (int i = 0; i < 16; ++i)
            if (pr.open(i, j)) { ASSERT_LE(predicted(pr, prm, i, j), prm.rho_limit * (1.0 + 1e-3)); }
        // the wall cell's neighbour: one-sided gradient, pointing into the crowd
        EXPECT_LT(pr.corrected(11, j).x, pr.ubar(11, j).x);
    }
}

TEST_P(PressureStage, AHalfOpenFaceCarriesHalfTheFlux) {
    // a crowd walking east towards a face between columns 7 and 8 that is
    // half open (a door in the UIC grid's wall): the LCP holds the limit
    // with the flux through the open half only (independent evaluation)
    Problem pr(12, 4, 1.f);
    pr.aperture.assign(12, 4, sim::Face4{1.f, 1.f, 1.f, 1.f});
    for (int j = 0; j < 4; ++j) {
        pr.aperture(7, j).e = 0.5f;
        pr.aperture(8, j).w = 0.5f;
        for (int i = 2; i < 8; ++i) { pr.rho(i, j) = 5.2f; pr.ubar(i, j) = Vel2{1.2f, 0.f}; }
    }
    const PressureParams prm = hardParams();
    // without pressure: column 7 passes only half its outflow through the half-open face
    ASSERT_GT(predicted(pr, prm, 7, 1), prm.rho_limit);
    PressureWorkspace ws;
    const PressureStats st = run(GetParam(), pr, pr.all(), prm, ws);
    ASSERT_TRUE(st.converged) << st.residual;
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 12; ++i) {
            ASSERT_LE(predicted(pr, prm, i, j), prm.rho_limit * (1.0 + 1e-3)) << i << "," << j;
            if (pr.p(i, j) > 0.f) { ASSERT_NEAR(predicted(pr, prm, i, j), prm.rho_limit, 2.0 * prm.tolerance); }
        }
    EXPECT_GT(pr.p(7, 1), 0.f);
    // with the face fully open the same crowd needs less pressure behind it
    Problem open = pr;
    open.aperture = Field<sim::Face4>();
    open.p.assign(12, 4, 0.f);
    PressureWorkspace ws2;
    ASSERT_TRUE(run(GetParam(), open, open.all(), prm, ws2).converged);
    EXPECT_LT(open.p(7, 1), pr.p(7, 1));
}

TEST_P(PressureStage, OutsideTheBoxPressureAndVelocityAreZero) {
    Problem pr = convergingBlob(32, 0.5f, 5.3f, 3.f, 1.3f);
    pr.p.fill(7.f);
    pr.corrected.fill(Vel2{9.f, 9.f});
    const PressureParams prm = hardParams();
    PressureWorkspace ws;
    const CellRange big{6, 6, 26, 26}, small{8, 8, 24, 24};
    auto outsideZero = [&](const CellRange& b) {
        for (int j = 0; j < 32; ++j)
            for (int i = 0; i < 32; ++i) {
                if (i >= b.i0 && i < b.i1 && j >= b.j0 && j < b.j1) continue;
                if (pr.p(i, j) != 0.f || pr.corrected(i, j).x != 0.f || pr.corrected(i, j).y != 0.f) return false;
            }
        return true;
    };
    const PressureStats a = run(GetParam(), pr, big, prm, ws);
    EXPECT_TRUE(a.converged);
    EXPECT_TRUE(outsideZero(big));
    EXPECT_GT(pr.p(16, 16), 0.f);
    // a smaller box next step: what the old box covered is cleared
    for (int i = 6; i < 26; ++i) pr.p(i, 6) = 5.f;  // stale values the solver must not leave behind
    const PressureStats b = run(GetParam(), pr, small, prm, ws);
    EXPECT_TRUE(b.converged);
    EXPECT_TRUE(outsideZero(small));
    // an empty box clears everything
    const PressureStats c = run(GetParam(), pr, CellRange{}, prm, ws);
    EXPECT_TRUE(c.converged);
    EXPECT_EQ(c.iterations, 0);
    EXPECT_TRUE(outsideZero(CellRange{}));
}

TEST_P(PressureStage, PassingOverIdleCellsGivesTheSweepOfEveryCell) {
    // a blob with a wall through its edge, a stale warm start far from any
    // crowd, and an open cell walled in on all sides above the limit (no
    // face to relieve it: its residual stays)
    Problem pr = convergingBlob(48, 0.5f, 5.3f, 4.f, 1.3f);
    for (int j = 5; j < 30; ++j) pr.blocked(30, j) = 1;
    for (int j = 40; j < 44; ++j)
        for (int i = 4; i < 8; ++i) pr.p(i, j) = 2.f;
    for (int d = -1; d <= 1; ++d) {
        pr.blocked(40 + d, 39) = pr.blocked(40 + d, 41) = 1;
        pr.blocked(39, 40 + d) = pr.blocked(41, 40 + d) = 1;
    }
    pr.rho(40, 40) = 7.f;
    PressureParams prm = hardParams();
    prm.tolerance = 0.f;  // every iteration of the budget runs
    for (const int iterations : {1, 2, 5, 30}) {
        Problem solved = pr, ref = pr;
        prm.iterations = iterations;
        PressureWorkspace ws;
        const PressureStats st = run(GetParam(), solved, pr.all(), prm, ws);
        ASSERT_EQ(st.iterations, iterations);
        // the reference: red-black projected SOR updating every cell, in double (the file comment of pressure.hpp)
        for (int it = 0; it < iterations; ++it)
            for (int colour = 0; colour < 2; ++colour)
                for (int j = 0; j < 48; ++j)
                    for (int i = 0; i < 48; ++i) {
                        if ((i + j) % 2 != colour) continue;
                        if (!ref.open(i, j)) { ref.p(i, j) = 0.f; continue; }
                        const float old = ref.p(i, j);
                        ref.p(i, j) = 0.f;
                        const double a = predicted(ref, prm, i, j);
                        ref.p(i, j) = 1.f;
                        const double b = a - predicted(ref, prm, i, j);
                        const double gs = b > 0.0 ? (a - prm.rho_limit) / b : 0.0;
                        ref.p(i, j) = static_cast<float>(std::max(0.0, old + prm.omega * (gs - old)));
                    }
        double refResidual = 0.0;
        for (int j = 0; j < 48; ++j)
            for (int i = 0; i < 48; ++i) {
                ASSERT_NEAR(solved.p(i, j), ref.p(i, j), 1e-4 * (1.0 + ref.p(i, j))) << i << "," << j << " after " << iterations;
                if (!ref.open(i, j)) continue;
                const double d = predicted(ref, prm, i, j) - prm.rho_limit;
                refResidual = std::max(refResidual, ref.p(i, j) > 0.f ? std::abs(d) : std::max(d, 0.0));
            }
        // the walled-in cell keeps its excess: the residual is never 0
        EXPECT_GT(refResidual, 1.0);
        EXPECT_NEAR(st.residual, refResidual, 1e-3 * refResidual) << "after " << iterations;
    }
}

INSTANTIATE_TEST_SUITE_P(PerBackend, PressureStage, ::testing::ValuesIn(testExecs()), ExecParamName());

TEST(PressureStage, BitwiseIdenticalForOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    Problem base = convergingBlob(37, 0.5f, 5.3f, 5.f, 1.3f);
    for (int j = 3; j < 30; ++j) base.blocked(20, j) = 1;  // a wall through the blob
    PressureParams prm = hardParams();
    prm.iterations = 40;  // not converged: intermediate iterates must match too
    Problem one = base, two = base;
    PressureWorkspace w1, w2;
    const PressureStats s1 = run(Exec{Backend::Cpu, 1}, one, CellRange{2, 1, 35, 36}, prm, w1);
    const PressureStats s2 = run(Exec{Backend::Cpu, 2}, two, CellRange{2, 1, 35, 36}, prm, w2);
    EXPECT_EQ(s1.iterations, s2.iterations);
    EXPECT_EQ(s1.residual, s2.residual);
    EXPECT_EQ(std::memcmp(one.p.host(), two.p.host(), one.p.size() * sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(one.corrected.host(), two.corrected.host(), one.corrected.size() * sizeof(Vel2)), 0);
}

TEST(PressureStage, InvalidParametersNameTheField) {
    Problem pr(4, 4, 0.5f);
    PressureWorkspace ws;
    PressureParams prm;
    prm.iterations = 0;
    try {
        run(Exec{Backend::Cpu, 1}, pr, pr.all(), prm, ws);
        FAIL() << "expected InputError";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("pressure.iterations"), std::string::npos) << e.what();
    }
    prm = PressureParams{};
    prm.rho_limit = 0.f;
    EXPECT_THROW(run(Exec{Backend::Cpu, 1}, pr, pr.all(), prm, ws), InputError);
}

}  // namespace
}  // namespace ccrowd::test
