/// @file test_bench_eikonal.cpp
/// `ccrowd bench eikonal`'s scheduler options: --band-tiles, --sweeps and
/// --stencil reach every FIM row (the plain FIM with one sweep per activation does
/// more updates per cell than the default value-ordered one, same answer),
/// the rows' phases and critical sweeps are the scheduler's, values out
/// of range are refused naming the option, and the crowd case's face costs
/// depend on the direction (no scikit-fmm row for it).

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cmd/eikonal_cases.hpp"
#include "cmd/gpu_profile.hpp"
#include "shell.hpp"

namespace ccrowd::test {
namespace {

/// `ccrowd ARGS`: exit code and combined output.
int runCli(const std::string& args, std::string* out) {
    const Result r = shell(std::string(CCROWD_EXE) + " " + args);
    *out = r.out;
    return r.code;
}

/// One fim row of the CSV.
struct FimRow {
    double first;   ///< updates per cell
    double second;  ///< max |diff| vs fmm
    long long phases, critical, criticalFronts;
};

/// The fim rows of one bench run on the CPU.
std::vector<FimRow> fimRows(const std::string& extra) {
    std::string out;
    const int rc = runCli("bench eikonal --sizes 96 --case obstacles --backend cpu --no-skfmm --repeat 1 --warmup 0 "
                          "--threads 2 --format csv " + extra, &out);
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("max_abs_diff_vs_fmm,phases,critical_sweeps,critical_fronts\n"), std::string::npos) << out;
    std::vector<FimRow> rows;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("obstacles,96,fim,", 0) != 0) continue;
        std::vector<std::string> f;
        for (std::istringstream c(line); std::getline(c, line, ',');) f.push_back(line);
        if (f.size() == 11)
            rows.push_back({std::stod(f[6]), std::stod(f[7]), std::stoll(f[8]), std::stoll(f[9]), std::stoll(f[10])});
    }
    EXPECT_EQ(rows.size(), 2u) << out;  // 1 and 2 threads
    return rows;
}

TEST(BenchEikonal, BandAndSweepOptionsReachEveryFimRow) {
    const auto ordered = fimRows("");
    const auto plain = fimRows("--band-tiles 0 --sweeps 1");
    const auto cpuBand = fimRows("--band-tiles auto");  // the CPU's default, 4 tiles
    ASSERT_EQ(cpuBand.size(), 2u);
    EXPECT_EQ(cpuBand[0].first, ordered[0].first);
    EXPECT_EQ(fimRows("--band-tiles 4")[0].critical, ordered[0].critical);
    ASSERT_EQ(ordered.size(), 2u);
    ASSERT_EQ(plain.size(), 2u);
    for (int k = 0; k < 2; ++k) {
        // one scheduler: the same counts for 1 and 2 threads
        EXPECT_EQ(plain[k].first, plain[0].first);
        EXPECT_GT(plain[k].first, ordered[k].first) << "the plain FIM revisits cells the value ordering leaves alone";
        EXPECT_LT(plain[k].second, 1e-3);
        EXPECT_LT(ordered[k].second, 1e-3);
        // one sweep per activation: every phase's longest tile ran one sweep
        // (a phase whose colour had no active tile, rare, ran none)
        EXPECT_LE(plain[k].critical, plain[k].phases);
        EXPECT_GE(plain[k].critical, plain[k].phases * 9 / 10);
        EXPECT_GT(plain[k].phases, 1);
        // eight sweeps at most: between one and eight per phase, and some phase ran more than one
        EXPECT_EQ(ordered[k].phases, ordered[0].phases);
        EXPECT_EQ(ordered[k].critical, ordered[0].critical);
        EXPECT_GT(ordered[k].critical, ordered[k].phases);
        EXPECT_LE(ordered[k].critical, 8 * ordered[k].phases);
        // a sweep walks at most a tile's 63 fronts, and the sweeps after a
        // tile's first walk only the fronts of the few cells left to them
        EXPECT_EQ(ordered[k].criticalFronts, ordered[0].criticalFronts);
        EXPECT_GT(ordered[k].criticalFronts, ordered[k].phases);
        EXPECT_LT(ordered[k].criticalFronts, 63 * ordered[k].critical);
        EXPECT_LE(plain[k].criticalFronts, 63 * plain[k].critical);
    }
}

/// --stencil 8 reaches the FIM rows and the FMM they are compared with: the
/// FIM still agrees with FMM, with the same updates per cell for 1 and 2
/// threads, and those differ from the 4-neighbour stencil's.
TEST(BenchEikonal, StencilOptionReachesFimAndFmm) {
    const auto four = fimRows("");
    const auto eight = fimRows("--stencil 8");
    ASSERT_EQ(four.size(), 2u);
    ASSERT_EQ(eight.size(), 2u);
    EXPECT_EQ(eight[1].first, eight[0].first);
    EXPECT_NE(eight[0].first, four[0].first);
    for (int k = 0; k < 2; ++k) EXPECT_LT(eight[k].second, 1e-3) << "FIM and FMM solve the same 8-neighbour equation";
}

/// --front-budget reaches every FIM row: with a budget of one front each
/// tile activation runs one sweep (every phase's longest tile ran one, and
/// the solve needs more phases), as --sweeps 1 does; 0 and auto are the
/// CPU's default (none).
TEST(BenchEikonal, FrontBudgetOptionReachesEveryFimRow) {
    const auto none = fimRows("");
    const auto one = fimRows("--front-budget 1");
    const auto zero = fimRows("--front-budget 0");
    const auto oneSweep = fimRows("--sweeps 1");
    ASSERT_EQ(none.size(), 2u);
    ASSERT_EQ(one.size(), 2u);
    ASSERT_EQ(zero.size(), 2u);
    ASSERT_EQ(oneSweep.size(), 2u);
    EXPECT_EQ(fimRows("--front-budget auto")[0].criticalFronts, none[0].criticalFronts);
    for (int k = 0; k < 2; ++k) {
        EXPECT_EQ(zero[k].criticalFronts, none[k].criticalFronts);
        EXPECT_EQ(zero[k].first, none[k].first);
        EXPECT_EQ(one[k].first, oneSweep[k].first);
        EXPECT_EQ(one[k].critical, oneSweep[k].critical);
        EXPECT_EQ(one[k].criticalFronts, oneSweep[k].criticalFronts);
        EXPECT_LE(one[k].critical, one[k].phases);
        EXPECT_GT(one[k].phases, none[k].phases) << "one sweep per activation: more phases";
        EXPECT_LT(one[k].second, 1e-3);
    }
}

TEST(BenchEikonal, SchedulerOptionsOutOfRangeAreRefused) {
    for (const char* bad : {"--band-tiles -1", "--band-tiles nan", "--sweeps 0", "--sweeps 2000", "--tolerance nan", "--max-seconds nan",
                            "--stencil 6", "--stencil x", "--front-budget -1", "--front-budget 1000001", "--front-budget x"}) {
        std::string out;
        EXPECT_NE(runCli(std::string("bench eikonal --sizes 8 ") + bad, &out), 0) << bad;
        EXPECT_NE(out.find(std::string(bad).substr(0, std::string(bad).find(' '))), std::string::npos) << bad << ": " << out;
    }
}

/// The crowd case: the obstacles case's walls and speed, and in nearly every
/// open cell four face costs that differ between opposite faces, each
/// 1 to 2.5 times the cell's 1 / speed; the bench gives it no scikit-fmm row
/// (scikit-fmm takes one isotropic speed per cell) and says so.
TEST(BenchEikonal, CrowdCaseCostsDependOnTheDirection) {
    const bench::EikonalGrid crowd = bench::makeEikonalGrid(bench::EikonalCase::Crowd, 128);
    const bench::EikonalGrid obstacles = bench::makeEikonalGrid(bench::EikonalCase::Obstacles, 128);
    ASSERT_TRUE(std::equal(crowd.blocked.host(), crowd.blocked.host() + crowd.blocked.size(), obstacles.blocked.host()));
    ASSERT_TRUE(std::equal(crowd.speed.host(), crowd.speed.host() + crowd.speed.size(), obstacles.speed.host()));
    long long open = 0, anisotropic = 0;
    for (std::size_t k = 0; k < crowd.cost.size(); ++k) {
        if (crowd.blocked.host()[k]) continue;
        ++open;
        const FaceCost& c = crowd.cost.host()[k];
        anisotropic += c.e != c.w && c.n != c.s;
        const float inv = 1.f / crowd.speed.host()[k];
        for (float f : {c.e, c.n, c.w, c.s}) {
            EXPECT_GE(f, inv * (1.f - 1e-5f)) << "cell " << k;
            EXPECT_LE(f, 2.5f * inv * (1.f + 1e-5f)) << "cell " << k;
        }
    }
    EXPECT_GT(anisotropic, 9 * open / 10);
    std::string out;
    ASSERT_EQ(runCli("bench eikonal --sizes 32 --case crowd --backend cpu --repeat 1 --warmup 0 --format csv", &out), 0)
        << out;
    EXPECT_NE(out.find("crowd,32,fim,"), std::string::npos) << out;
    EXPECT_EQ(out.find("crowd,32,skfmm,"), std::string::npos) << out;
    EXPECT_NE(out.find("skfmm: not run on the crowd case"), std::string::npos) << out;
}

/// The `profile,` lines of both benches' --profile-cuda (bench/cmd/gpu_profile.hpp):
/// the header once when asked, the labels, then every part with its fixed decimals.
TEST(BenchGpuProfile, LineHoldsTheLabelsAndEveryPart) {
    EikonalGpuProfile p;
    p.kernel_us = 1234.56;
    p.select_us = 78.9;
    p.process_us = 1100.04;
    p.slowest_tiles_us = 1000.26;
    p.tiles = 1670;
    p.stage_us = 7.3;
    p.sweep_us = 17.4567;
    p.front_ns = 276.26;
    p.tail_us = 5.39;
    p.clock_ghz = 1.98;
    std::ostringstream log;
    bench::writeGpuProfile(log, "case,size", "obstacles,1024", 33, p, true);
    bench::writeGpuProfile(log, "case,size", "obstacles,1024", 33, p, false);
    const std::string header = "profile,case,size,phases,kernel_us,select_us,process_us,slowest_tiles_us,tiles,stage_us,"
                               "sweep_us,front_ns,tail_us,clock_ghz\n";
    const std::string line = "profile,obstacles,1024,33,1234.6,78.9,1100.0,1000.3,1670,7.300,17.457,276.3,5.390,1.980\n";
    EXPECT_EQ(log.str(), header + line + line);
}

}  // namespace
}  // namespace ccrowd::test
