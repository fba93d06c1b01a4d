/// @file test_fim_early_stop.cpp
/// FimSolver's early stop (EikonalOptions::needed, EikonalNeeded): a
/// problem is held once the lowest potential still propagating lies above
/// every cell its caller reads. Those cells, and every cell of lower
/// potential, must hold exactly the complete solve's values; finish() must
/// then give exactly the complete solve; an unreachable needed cell keeps
/// the solve going; the work done does not depend on the thread count; and
/// a simulation step stops its potentials early while every reader of a
/// whole field gets it complete. Per backend (the early stop is the one of
/// kernels/fim_early_stop.hpp on both); on a GPU the CUDA solve holds each
/// field after the same phase as the CPU, with the same counts.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "backends.hpp"
#include "eikonal_test_util.hpp"
#include "kernels/fim_schedule.hpp"

namespace ccrowd::test {
namespace {

const Exec kCpu2{Backend::Cpu, 2};

/// A mask marking the cells of [i0, i1) x [j0, j1) with @p bits.
Field<std::uint32_t> patch(int nx, int ny, int i0, int j0, int i1, int j1, std::uint32_t bits) {
    Field<std::uint32_t> m(nx, ny, 0u);
    for (int j = j0; j < j1; ++j)
        for (int i = i0; i < i1; ++i) m(i, j) = bits;
    return m;
}

/// A second problem on @p s's grid and walls: one source in the far corner.
EikonalProblem farCorner(const Scene& s) {
    EikonalProblem p = s.problem();
    p.sources.clear();
    for (int d = 0;; ++d) {  // the open cell nearest the far corner along the diagonal
        const int i = s.nx() - 1 - d, j = s.ny() - 1 - d;
        if (i >= 0 && j >= 0 && s.open(i, j)) { p.sources.push_back(EikonalSource{i, j, 0.f}); return p; }
    }
}

/// Highest value of @p phi over the cells of @p mask carrying @p bit (open ones).
float highestMarked(const Field<float>& phi, const Field<std::uint32_t>& mask, std::uint32_t bit, const Scene& s) {
    float hi = -kInf;
    for (int j = 0; j < s.ny(); ++j)
        for (int i = 0; i < s.nx(); ++i)
            if ((mask(i, j) & bit) && s.open(i, j)) hi = std::max(hi, phi(i, j));
    return hi;
}

std::vector<Scene> scenes() {
    std::vector<Scene> v;
    v.push_back(randomAnisotropic(160, 120, 0.25f, 11, 1));
    v.push_back(obstacles(150, 140, 0.25f, 12, 14, 1));
    v.push_back(maze(97, 65, 0.5f, 13, 1));
    return v;
}

class FimEarlyStopOn : public ::testing::TestWithParam<Exec> {};

TEST_P(FimEarlyStopOn, NeededCellsAndEverythingBelowThemHoldTheCompleteSolveBitwise) {
    for (const Scene& s : scenes()) {
        const EikonalProblem pa = s.problem(), pb = farCorner(s);
        // the complete solves, on the same backend (its own band: CUDA's
        // default is wider than the CPU's, so the two differ within the tolerance)
        FimSolver full(GetParam());
        Field<float> fa, fb;
        const std::vector<EikonalStats> fst = full.solveMany({&pa, &pb}, {&fa, &fb});
        // problem 0 reads a patch around its source, problem 1 every cell (bits 0)
        const EikonalSource src = s.sources.front();
        const int r = 12;
        const Field<std::uint32_t> mask =
            patch(s.nx(), s.ny(), std::max(0, src.i - r), std::max(0, src.j - r), std::min(s.nx(), src.i + r),
                  std::min(s.ny(), src.j + r), 1u);
        EikonalOptions opt;
        opt.needed.mask = &mask;
        opt.needed.bits = {1u, 0u};
        {
            FimSolver solver(GetParam());
            Field<float> ea, eb;
            const std::vector<EikonalStats> est = solver.solveMany({&pa, &pb}, {&ea, &eb}, opt);
            EXPECT_FALSE(est[0].complete) << s.nx() << "x" << s.ny();
            EXPECT_TRUE(est[0].converged);
            EXPECT_LT(est[0].updates, fst[0].updates);
            EXPECT_TRUE(est[1].complete);
            EXPECT_TRUE(fieldsIdentical(eb, fb));
            // exact at and below the highest needed cell; upper bounds elsewhere
            const float hi = highestMarked(fa, mask, 1u, s);
            ASSERT_TRUE(std::isfinite(hi));
            long long exact = 0, above = 0, open = 0;
            for (int j = 0; j < s.ny(); ++j)
                for (int i = 0; i < s.nx(); ++i) {
                    if (!s.open(i, j)) continue;
                    ++open;
                    if (fa(i, j) <= hi) {
                        EXPECT_EQ(ea(i, j), fa(i, j)) << "(" << i << ", " << j << ")";
                        ++exact;
                    } else {
                        EXPECT_GE(ea(i, j), fa(i, j)) << "(" << i << ", " << j << ")";
                        above += ea(i, j) > fa(i, j);
                    }
                }
            EXPECT_GT(exact, 4 * r * r);
            EXPECT_GT(above, 0) << "nothing was left unsolved";
            // the rest on demand, once: the complete solve within the solver's
            // tolerance (its phases ran in another order), the cells at and
            // below the needed ones untouched
            const Field<float> before = ea;
            EXPECT_TRUE(solver.finish());
            EXPECT_TRUE(fieldsClose(ea, fa, s.h, 1e-5));
            EXPECT_TRUE(fieldsIdentical(eb, fb));
            for (int j = 0; j < s.ny(); ++j)
                for (int i = 0; i < s.nx(); ++i)
                    if (s.open(i, j) && fa(i, j) <= hi) {
                        EXPECT_EQ(ea(i, j), before(i, j)) << "(" << i << ", " << j << ")";
                    }
            EXPECT_FALSE(solver.finish());
            // solved again, the last solve's highest needed value is the first
            // ceiling: the work stays near the needed share of the cells
            Field<float> ra, rb;
            const EikonalStats again = solver.solveMany({&pa, &pb}, {&ra, &rb}, opt)[0];
            EXPECT_LE(again.updates, est[0].updates);
            EXPECT_LT(static_cast<double>(again.updates), fst[0].updates * (0.3 + static_cast<double>(exact) / open));
            for (int j = 0; j < s.ny(); ++j)
                for (int i = 0; i < s.nx(); ++i)
                    if (s.open(i, j) && fa(i, j) <= hi) {
                        EXPECT_EQ(ra(i, j), fa(i, j)) << "(" << i << ", " << j << ")";
                    }
        }
    }
}

TEST(FimEarlyStop, OneAndTwoThreadsDoTheSameWork) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    const Scene s = obstacles(200, 130, 0.25f, 21, 20, 2);
    const Field<std::uint32_t> mask = patch(s.nx(), s.ny(), 10, 10, 60, 50, 1u);
    EikonalOptions opt;
    opt.needed.mask = &mask;
    opt.needed.bits = {1u};
    const EikonalProblem p = s.problem();
    FimSolver one(Exec{Backend::Cpu, 1}), two(kCpu2);
    Field<float> a, b;
    const EikonalStats sa = one.solveMany({&p}, {&a}, opt).front(), sb = two.solveMany({&p}, {&b}, opt).front();
    EXPECT_TRUE(fieldsIdentical(a, b));
    EXPECT_EQ(sa.updates, sb.updates);
    EXPECT_EQ(sa.iterations, sb.iterations);
    EXPECT_EQ(sa.complete, sb.complete);
}

TEST_P(FimEarlyStopOn, AnUnreachableNeededCellKeepsTheSolveGoing) {
    Scene s = randomIsotropic(90, 70, 0.25f, 31, 0);
    // a closed ring; its inside is never reached
    for (int i = 50; i <= 60; ++i) { s.blocked(i, 40) = 1; s.blocked(i, 50) = 1; }
    for (int j = 40; j <= 50; ++j) { s.blocked(50, j) = 1; s.blocked(60, j) = 1; }
    s.addSource(3, 3);
    Field<std::uint32_t> mask = patch(s.nx(), s.ny(), 0, 0, 10, 10, 1u);
    mask(55, 45) = 1u;
    EikonalOptions opt;
    opt.needed.mask = &mask;
    opt.needed.bits = {1u};
    FimSolver solver(GetParam());
    Field<float> phi;
    const EikonalStats st = solver.solve(s.problem(), phi, opt);
    EXPECT_TRUE(st.complete);
    EXPECT_TRUE(fieldsIdentical(phi, runFim(GetParam(), s).phi));
    EXPECT_FALSE(solver.finish());
}

/// A box with no cells (inverted, as an empty active region may give):
/// nothing is needed, so the field is held at its first look, and finish()
/// gives the complete solve.
TEST_P(FimEarlyStopOn, AnInvertedBoxNeedsNothingAndFinishCompletesIt) {
    const Scene s = obstacles(120, 90, 0.25f, 51, 8, 1);
    const Field<std::uint32_t> mask(s.nx(), s.ny(), 1u);
    EikonalOptions opt;
    opt.needed.mask = &mask;
    opt.needed.bits = {1u};
    opt.needed.i0 = 80;
    opt.needed.i1 = 20;
    opt.needed.j0 = 70;
    opt.needed.j1 = 10;
    FimSolver solver(GetParam());
    Field<float> phi;
    const EikonalStats st = solver.solve(s.problem(), phi, opt);
    const Solution full = runFim(GetParam(), s);
    EXPECT_FALSE(st.complete);
    EXPECT_LT(st.updates, full.stats.updates);
    EXPECT_TRUE(solver.finish());
    EXPECT_TRUE(fieldsClose(phi, full.phi, s.h, 1e-5));
}

TEST_P(FimEarlyStopOn, MismatchedMaskOrBitsAreRefused) {
    const Scene s = randomIsotropic(40, 30, 0.25f, 41, 1);
    const EikonalProblem p = s.problem();
    Field<float> phi;
    const Field<std::uint32_t> small(10, 10, 1u), right(40, 30, 1u);
    EikonalOptions opt;
    opt.needed.mask = &small;
    opt.needed.bits = {1u};
    EXPECT_THROW(FimSolver(GetParam()).solveMany({&p}, {&phi}, opt), InputError);
    opt.needed.mask = &right;
    opt.needed.bits = {1u, 2u};
    EXPECT_THROW(FimSolver(GetParam()).solveMany({&p}, {&phi}, opt), InputError);
}

/// A 40 m x 20 m hall, exit on the west wall, a small crowd beside it: the
/// potential stage stops once the crowd's cells are final, and readers of
/// the field get all of it.
TEST_P(FimEarlyStopOn, ASimulationStepSolvesWhereItsAgentsStandAndReadersGetTheWholeField) {
    const ccrowd::Scene scene = parseScene(R"({
      "format": "ccrowd-scene", "version": 1, "name": "hall",
      "domain": {"origin": [0, 0], "width": 40, "height": 20, "cell": 0.25},
      "goals": [{"name": "exit", "areas": [{"rect": {"min": [0, 9], "max": [0.5, 11]}}], "exit": true}],
      "groups": [{"name": "a", "spawn": [{"rect": {"min": [2, 8], "max": [5, 12]}}], "count": 30, "route": ["exit"]}]
    })", "hall scene");
    Simulation sim(scene, GetParam());
    sim.step();
    EXPECT_LT(sim.lastReport().potential_updates_per_cell, 0.5) << "the whole hall was solved";
    EXPECT_TRUE(sim.lastReport().potentials_converged);
    // the whole field, on demand: finite in every cell, growing towards the east wall
    const Field<float>& phi = sim.potential(0);
    for (int j = 0; j < phi.ny(); ++j)
        for (int i = 0; i < phi.nx(); ++i) ASSERT_TRUE(std::isfinite(phi(i, j))) << "(" << i << ", " << j << ")";
    const int j = phi.ny() / 2;
    for (int i = 40; i + 1 < phi.nx(); ++i) EXPECT_LT(phi(i, j), phi(i + 1, j)) << i;
}

INSTANTIATE_TEST_SUITE_P(PerBackend, FimEarlyStopOn, ::testing::ValuesIn(testExecs()), ExecParamName());

/// On a machine with a GPU: the CUDA solve holds each field after the same
/// phase as the CPU one (the same looks, fim_early_stop.hpp, on the same
/// values), so potentials, counts and completeness agree bitwise, before
/// and after finish(); and a second solve starts from the same ceilings.
TEST(FimEarlyStopCudaVsCpu, SameLooksSameHoldsSameCounts) {
    std::string why;
    if (!cudaUsable(&why)) GTEST_SKIP() << "no usable CUDA GPU: " << why;
    for (const Scene& s : scenes()) {
        const EikonalProblem pa = s.problem(), pb = farCorner(s);
        const EikonalSource src = s.sources.front();
        const Field<std::uint32_t> mask = patch(s.nx(), s.ny(), std::max(0, src.i - 9), std::max(0, src.j - 9),
                                                std::min(s.nx(), src.i + 9), std::min(s.ny(), src.j + 9), 1u);
        Field<std::uint32_t> both = mask;
        both(s.nx() - 2, s.ny() - 2) |= 2u;  // the far corner's field reads one cell near its source
        EikonalOptions opt;
        opt.needed.mask = &both;
        opt.needed.bits = {1u, 2u};
        opt.band_tiles = kFimBandTilesGpu;  // the GPU's defaults on both
        opt.inner_iterations = kFimSweepsGpu;
        opt.front_budget = kFimFrontBudgetGpu;
        FimSolver cpu(kCpu2), gpu(Exec{Backend::Cuda, 0});
        for (int round = 0; round < 2; ++round) {
            Field<float> ca, cb, ga, gb;
            const std::vector<EikonalStats> c = cpu.solveMany({&pa, &pb}, {&ca, &cb}, opt);
            const std::vector<EikonalStats> g = gpu.solveMany({&pa, &pb}, {&ga, &gb}, opt);
            for (std::size_t f = 0; f < 2; ++f) {
                const std::string name = std::to_string(s.nx()) + "x" + std::to_string(s.ny()) + " round " +
                                         std::to_string(round) + " field " + std::to_string(f);
                EXPECT_EQ(g[f].complete, c[f].complete) << name;
                EXPECT_EQ(g[f].converged, c[f].converged) << name;
                EXPECT_EQ(g[f].updates, c[f].updates) << name;
                EXPECT_EQ(g[f].iterations, c[f].iterations) << name;
                EXPECT_EQ(g[f].tile_activations, c[f].tile_activations) << name;
                EXPECT_EQ(g[f].critical_sweeps, c[f].critical_sweeps) << name;
                EXPECT_DOUBLE_EQ(g[f].updates_per_cell, c[f].updates_per_cell) << name;
            }
            EXPECT_FALSE(c[0].complete) << "the patch's field was not held";
            EXPECT_TRUE(fieldsIdentical(ga, ca));
            EXPECT_TRUE(fieldsIdentical(gb, cb));
            EXPECT_TRUE(cpu.finish());
            EXPECT_TRUE(gpu.finish());
            EXPECT_TRUE(fieldsIdentical(ga, ca));
            EXPECT_TRUE(fieldsIdentical(gb, cb));
        }
    }
}

}  // namespace
}  // namespace ccrowd::test
