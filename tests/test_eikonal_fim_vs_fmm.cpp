/// @file test_eikonal_fim_vs_fmm.cpp
/// Differential test (DESIGN.md §7): the block FIM on every backend (CPU with
/// 1 and 2 threads, CUDA when usable; default and plain scheduling) against
/// the CPU FMM, which share one local solver and so must agree to solver
/// tolerance:
///   |fim - fmm| <= 1e-5 max(|fmm|, h) on every cell, +inf in the same cells.
/// Also: unreachable pockets, thread-count determinism, workspace reuse,
/// statistics and the iteration cap.

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "eikonal_test_util.hpp"

namespace ccrowd::test {
namespace {

constexpr double kRel = 1e-5;

/// A boustrophedon: 1-cell corridors (rows, or columns when @p vertical)
/// joined at alternating ends. One long winding path from the source at (0, 0).
Scene serpentine(int nx, int ny, float h, bool vertical) {
    Scene s(nx, ny, h);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const int a = vertical ? i : j, b = vertical ? j : i, len = vertical ? ny : nx;
            if (a % 2 == 1) {
                const int gap = (a / 2) % 2 == 0 ? len - 1 : 0;
                if (b != gap) s.blocked(i, j) = 1;
            }
        }
    s.addSource(0, 0);
    return s;
}

struct CompareCase {
    std::string name;
    std::function<Scene()> make;
};

void PrintTo(const CompareCase& c, std::ostream* os) { *os << c.name; }

std::string sizeName(int nx, int ny) { return std::to_string(nx) + "x" + std::to_string(ny); }

std::vector<CompareCase> compareCases() {
    std::vector<CompareCase> out;
    // sizes: square, non-square, 1xN, Nx1, smaller than a 16x16 tile, exactly
    // a tile, not multiples of 16
    const std::vector<std::pair<int, int>> sizes{{64, 64}, {37, 113}, {200, 50}, {1, 300}, {300, 1}, {5, 7},
                                                 {15, 17}, {16, 16}, {17, 33}, {1, 1}, {2, 2}, {48, 33}};
    std::uint32_t seed = 1000;
    for (auto [nx, ny] : sizes) {
        const int ns = nx * ny >= 4 ? 3 : 1;
        const std::uint32_t s1 = ++seed, s2 = ++seed;
        out.push_back({"iso_" + sizeName(nx, ny), [=] { return randomIsotropic(nx, ny, 0.1f, s1, ns); }});
        out.push_back({"aniso_" + sizeName(nx, ny), [=] { return randomAnisotropic(nx, ny, 0.1f, s2, ns); }});
    }
    const std::vector<std::pair<int, int>> mazeSizes{{65, 65}, {37, 113}, {200, 50}, {15, 17}, {1, 40}, {40, 1}};
    for (auto [nx, ny] : mazeSizes) {
        const std::uint32_t s1 = ++seed;
        out.push_back({"maze_" + sizeName(nx, ny), [=] { return maze(nx, ny, 0.5f, s1, 2); }});
    }
    const std::vector<std::pair<int, int>> obstacleSizes{{128, 96}, {37, 113}, {200, 50}, {31, 31}, {9, 70}};
    for (auto [nx, ny] : obstacleSizes) {
        const std::uint32_t s1 = ++seed;
        out.push_back({"obstacles_" + sizeName(nx, ny), [=] { return obstacles(nx, ny, 0.25f, s1, 12, 4); }});
    }
    out.push_back({"serpentine_rows_128x128", [] { return serpentine(128, 128, 1.f, false); }});
    out.push_back({"serpentine_cols_100x77", [] { return serpentine(100, 77, 1.f, true); }});
    // a long winding path (8 tile entries per tile) plus one cheap open cell
    // (cost 0.01) far from the path's start: the automatic phase cap must
    // still suffice ("large enough for any converging problem")
    out.push_back({"serpentine_rows_256x256_one_cheap_cell", [] {
                       Scene s = serpentine(256, 256, 1.f, false);
                       s.cost(200, 254) = isoCost(0.01f);  // on the last corridor row
                       EXPECT_FALSE(s.blocked(200, 254));
                       return s;
                   }});
    // a single source with a large value next to sources with small ones
    out.push_back({"iso_sources_spread_values_90x70", [] {
                       Scene s = randomIsotropic(90, 70, 0.2f, 77, 0);
                       s.addSource(3, 4, 0.f);
                       s.addSource(80, 60, 5.f);
                       s.addSource(45, 10, 1.5f);
                       s.addSource(46, 10, 1.7f);  // neighbour of the previous one
                       s.addSource(10, 65, 100.f);  // higher than the front reaching it
                       return s;
                   }});
    return out;
}

/// FIM scheduling variants: the defaults (value-ordered tiles, band_tiles 4)
/// and plain FIM (band_tiles 0, every active tile each phase). The FIM's
/// work has no bound on these cases (random anisotropic face costs take it
/// to 7-12 updates per cell); test_fim_schedule.cpp bounds it on the
/// benchmark's cases.
struct FimVariant {
    std::string name;
    EikonalOptions opt;
};

std::vector<FimVariant> fimVariants() {
    EikonalOptions plain;
    plain.band_tiles = 0.f;
    // the 8-neighbour stencil (EikonalOptions::stencil), both schedules
    EikonalOptions eight;
    eight.stencil = 8;
    EikonalOptions eightPlain = plain;
    eightPlain.stencil = 8;
    return {{"default", EikonalOptions{}}, {"plain", plain}, {"stencil8", eight}, {"stencil8plain", eightPlain}};
}

using CompareParam = std::tuple<Exec, FimVariant, CompareCase>;

class FimVsFmm : public ::testing::TestWithParam<CompareParam> {};

TEST_P(FimVsFmm, Agree) {
    const Exec ex = std::get<0>(GetParam());
    const EikonalOptions opt = std::get<1>(GetParam()).opt;
    const Scene s = std::get<2>(GetParam()).make();
    ASSERT_FALSE(s.sources.empty());
    const Solution fim = runFim(ex, s, opt), fmm = runFmm(s, opt);  // the same stencil

    EXPECT_TRUE(fieldsClose(fim.phi, fmm.phi, s.h, kRel)) << "FIM vs FMM";
    // sources keep their values; blocked cells are +inf; reachable cells finite
    for (const EikonalSource& src : s.sources) {
        EXPECT_EQ(fim.phi(src.i, src.j), src.value);
        EXPECT_EQ(fmm.phi(src.i, src.j), src.value);
    }
    const std::vector<std::uint8_t> reach = reachable(s);
    long long open = 0, wrongInf = 0;
    for (int j = 0; j < s.ny(); ++j)
        for (int i = 0; i < s.nx(); ++i) {
            const std::size_t k = s.blocked.index(i, j);
            if (s.blocked(i, j)) {
                wrongInf += fim.phi(i, j) != kInf;
                continue;
            }
            ++open;
            wrongInf += std::isfinite(fim.phi(i, j)) != static_cast<bool>(reach[k]);
        }
    EXPECT_EQ(wrongInf, 0) << "cells whose +inf does not match blocked / unreachable";
    // statistics
    EXPECT_TRUE(fim.stats.converged);
    EXPECT_TRUE(fmm.stats.converged);
    // open cells the fronts reach, sources excluded (sources are distinct cells here)
    const long long reachedFree =
        static_cast<long long>(std::count(reach.begin(), reach.end(), 1)) - static_cast<long long>(s.sources.size());
    EXPECT_GT(open, 0);
    if (reachedFree > 0) {
        EXPECT_GT(fim.stats.updates_per_cell, 0.0);
        EXPECT_GT(fmm.stats.updates_per_cell, 0.0);
        EXPECT_GT(fim.stats.iterations, 0);
        EXPECT_GT(fmm.stats.iterations, 0);
        EXPECT_GT(fim.stats.tile_activations, 0);
        EXPECT_GE(fim.stats.updates, reachedFree) << "every reachable open cell is updated at least once";
        EXPECT_GE(fmm.stats.updates, reachedFree) << "every reachable open cell is updated at least once";
        // FMM relaxes a cell once per neighbour that freezes: at most 4 each
        EXPECT_LE(fmm.stats.updates, 4 * reachedFree);
    }
}

std::vector<CompareParam> compareParams() {
    std::vector<CompareParam> out;
    for (const Exec& ex : testExecs())
        for (const FimVariant& v : fimVariants())
            for (const CompareCase& c : compareCases()) out.emplace_back(ex, v, c);
    return out;
}

void PrintTo(const FimVariant& v, std::ostream* os) { *os << v.name; }

INSTANTIATE_TEST_SUITE_P(PerBackend, FimVsFmm, ::testing::ValuesIn(compareParams()),
                         [](const ::testing::TestParamInfo<CompareParam>& info) {
                             return execName(std::get<0>(info.param)) + "_" + std::get<1>(info.param).name + "_" +
                                    std::get<2>(info.param).name;
                         });

// ---- per backend, single scenes ---------------------------------------------------

class FimBackend : public ::testing::TestWithParam<Exec> {};

/// A closed ring of blocked cells around open cells, crossing tile edges:
/// the inside is unreachable and stays +inf in both solvers.
TEST_P(FimBackend, UnreachablePocketStaysInfinite) {
    Scene s = randomIsotropic(70, 50, 0.5f, 5, 0);
    const int i0 = 10, i1 = 40, j0 = 8, j1 = 35;  // ring rows/columns (spans tiles 0..2)
    for (int i = i0; i <= i1; ++i) { s.blocked(i, j0) = 1; s.blocked(i, j1) = 1; }
    for (int j = j0; j <= j1; ++j) { s.blocked(i0, j) = 1; s.blocked(i1, j) = 1; }
    // a second, one-cell pocket in a corner
    s.blocked(68, 49) = 1; s.blocked(69, 48) = 1;
    s.addSource(2, 2);
    s.addSource(60, 45, 1.f);
    const Solution fim = runFim(GetParam(), s), fmm = runFmm(s);
    long long inside = 0;
    for (int j = 0; j < s.ny(); ++j)
        for (int i = 0; i < s.nx(); ++i) {
            const bool pocket = (i > i0 && i < i1 && j > j0 && j < j1) || (i == 69 && j == 49);
            if (pocket) {
                ++inside;
                EXPECT_EQ(fim.phi(i, j), kInf) << "FIM (" << i << ", " << j << ")";
                EXPECT_EQ(fmm.phi(i, j), kInf) << "FMM (" << i << ", " << j << ")";
            } else if (!s.blocked(i, j)) {
                EXPECT_TRUE(std::isfinite(fim.phi(i, j))) << "FIM (" << i << ", " << j << ")";
            }
        }
    EXPECT_EQ(inside, 29 * 26 + 1);
    EXPECT_TRUE(fieldsClose(fim.phi, fmm.phi, s.h, kRel));
    EXPECT_TRUE(fim.stats.converged);
}

/// max_iterations caps the FIM phases, and the cap is reported.
TEST_P(FimBackend, IterationCapIsReported) {
    Scene s(256, 256, 1.f / 256);
    s.addSource(0, 0);
    const Solution full = runFim(GetParam(), s);
    ASSERT_TRUE(full.stats.converged);
    for (int cap : {1, 2, 5}) {
        EikonalOptions opt;
        opt.max_iterations = cap;
        const Solution part = runFim(GetParam(), s, opt);
        EXPECT_FALSE(part.stats.converged) << "max_iterations " << cap;
        EXPECT_LE(part.stats.iterations, cap);
        EXPECT_GT(part.stats.iterations, 0);
        // values only decrease from +inf: a partial solve is an upper bound
        long long below = 0, finite = 0;
        for (std::size_t k = 0; k < part.phi.size(); ++k) {
            below += part.phi.host()[k] < full.phi.host()[k] * (1 - kRel);
            finite += std::isfinite(part.phi.host()[k]);
        }
        EXPECT_EQ(below, 0);
        EXPECT_GT(finite, 1);                                    // it did some work
        EXPECT_LT(finite, static_cast<long long>(part.phi.size()));  // but not all
        EXPECT_EQ(part.phi(0, 0), 0.f);
    }
    // a cap large enough is not reported
    EikonalOptions opt;
    opt.max_iterations = full.stats.iterations;
    EXPECT_TRUE(runFim(GetParam(), s, opt).stats.converged);
}

/// The output field is resized and fully overwritten, whatever it held.
TEST_P(FimBackend, OutputFieldIsOverwritten) {
    Scene s = obstacles(50, 40, 0.3f, 17, 6, 2);
    const Solution ref = runFim(GetParam(), s);
    FimSolver solver(GetParam());
    Field<float> same(50, 40, -7.f), wrong(3, 90, 123.f);
    solver.solve(s.problem(), same);
    solver.solve(s.problem(), wrong);
    EXPECT_TRUE(fieldsIdentical(same, ref.phi));
    EXPECT_TRUE(fieldsIdentical(wrong, ref.phi));
}

/// One solver reused on different grids (its workspace kept between solves)
/// gives the same result as a fresh solver each time.
TEST_P(FimBackend, WorkspaceReuseAcrossSizes) {
    FimSolver solver(GetParam());
    const std::vector<Scene> scenes = [] {
        std::vector<Scene> v;
        v.push_back(randomAnisotropic(120, 90, 0.1f, 3, 3));
        v.push_back(maze(33, 21, 0.5f, 4, 2));
        v.push_back(randomIsotropic(7, 300, 0.1f, 5, 2));
        v.push_back(randomAnisotropic(120, 90, 0.1f, 6, 1));
        return v;
    }();
    for (const Scene& s : scenes) {
        Field<float> phi;
        solver.solve(s.problem(), phi);
        EXPECT_TRUE(fieldsIdentical(phi, runFim(GetParam(), s).phi)) << s.nx() << "x" << s.ny();
    }
}

INSTANTIATE_TEST_SUITE_P(PerBackend, FimBackend, ::testing::ValuesIn(testExecs()), ExecParamName());

// ---- CPU determinism ---------------------------------------------------------------

/// Tiles of one colour share no halo, so the CPU result and the work done do
/// not depend on the thread count.
TEST(FimCpu, OneAndTwoThreadsBitwiseIdentical) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    std::vector<Scene> scenes;
    scenes.push_back(randomAnisotropic(200, 50, 0.1f, 91, 3));
    scenes.push_back(randomIsotropic(130, 130, 0.1f, 92, 4));
    scenes.push_back(maze(65, 65, 0.5f, 93, 2));
    scenes.push_back(obstacles(128, 96, 0.25f, 94, 12, 3));
    for (const Scene& s : scenes) {
        const Solution a = runFim(Exec{Backend::Cpu, 1}, s), b = runFim(Exec{Backend::Cpu, 2}, s);
        EXPECT_TRUE(fieldsIdentical(a.phi, b.phi)) << s.nx() << "x" << s.ny();
        EXPECT_EQ(a.stats.iterations, b.stats.iterations);
        EXPECT_EQ(a.stats.updates, b.stats.updates);
        EXPECT_EQ(a.stats.tile_activations, b.stats.tile_activations);
        // and repeated runs too, and 3 threads (uneven splits)
        const Solution c = runFim(Exec{Backend::Cpu, 2}, s), d = runFim(Exec{Backend::Cpu, 3}, s);
        EXPECT_TRUE(fieldsIdentical(b.phi, c.phi));
        EXPECT_TRUE(fieldsIdentical(a.phi, d.phi)) << s.nx() << "x" << s.ny() << ", 3 threads";
        EXPECT_EQ(a.stats.updates, d.stats.updates);
    }
}

}  // namespace
}  // namespace ccrowd::test
