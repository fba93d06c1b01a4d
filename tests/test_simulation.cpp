/// @file test_simulation.cpp
/// Whole runs of the shipped scenes, checking the invariants of every step
/// (issue: continuum crowd simulation, tests): agents stay in the domain and
/// out of obstacles; present + exited = spawned; nothing is NaN or infinite;
/// the UIC solve keeps the predicted density at the limit; pressure is zero
/// where the crowd is sparse; the separation keeps 0.9 d_min on the seed-003
/// scenes; every group reaches its goal; runs are bitwise reproducible
/// whatever the CPU thread count.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <iterator>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "all_loops_parallel.hpp"
#include "backends.hpp"
#include "kernels/uic_grid.hpp"
#include "ccrowd/config.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "src/validate/body_checks.hpp"
#include "src/validate/cases.hpp"

namespace ccrowd {
namespace {

std::string scenePath(const std::string& name) { return std::string(CCROWD_SOURCE_DIR) + "/scenes/" + name + ".json"; }

/// Smallest distance between two agents (brute force over squared
/// distances in double; small scenes only). [Units: m]
float minPairDistance(const AgentSnapshot& a) {
    double best = INFINITY;
    for (int p = 0; p < a.size(); ++p)
        for (int q = p + 1; q < a.size(); ++q) {
            const double dx = static_cast<double>(a.x[p]) - a.x[q], dy = static_cast<double>(a.y[p]) - a.y[q];
            best = std::min(best, dx * dx + dy * dy);
        }
    return static_cast<float>(std::sqrt(best));
}

/// Checks the invariants after one step; returns false (with gtest failures) on the first broken one.
bool checkStep(const Simulation& sim, bool checkSeparation) {
    const SceneGrid& g = sim.grid();
    const Scene& sc = sim.scene();
    const AgentSnapshot a = sim.agents();
    const double t = sim.time();
    // present + exited = spawned
    EXPECT_EQ(a.size() + sim.exitedTotal(), sim.spawnedTotal()) << "t = " << t;
    long long present = 0;
    for (const GroupStats& gs : sim.groupStats()) {
        EXPECT_EQ(gs.remaining + gs.exited, gs.spawned) << gs.name << " t = " << t;
        present += gs.remaining;
    }
    EXPECT_EQ(present, a.size()) << "t = " << t;
    // every body (centre + radius) clear of every wall cell and the grid's edge (issue 17)
    int worst = -1;
    const double clearance = validate::smallestWallClearance(g, a, &worst);
    if (clearance < -validate::kBodyTolerance) {
        ADD_FAILURE() << "agent " << a.id[worst] << " at (" << a.x[worst] << ", " << a.y[worst] << ") overlaps a wall by "
                      << -clearance << " m at t = " << t;
        return false;
    }
    // agents: finite, inside the domain, never in a blocked cell
    for (int k = 0; k < a.size(); ++k) {
        const bool finite = std::isfinite(a.x[k]) && std::isfinite(a.y[k]) && std::isfinite(a.vx[k]) && std::isfinite(a.vy[k]);
        if (!finite) { ADD_FAILURE() << "agent " << a.id[k] << " not finite at t = " << t; return false; }
        const bool inDomain = a.x[k] >= sc.origin.x && a.y[k] >= sc.origin.y && a.x[k] <= sc.origin.x + sc.width &&
                              a.y[k] <= sc.origin.y + sc.height;
        if (!inDomain) { ADD_FAILURE() << "agent " << a.id[k] << " left the domain at t = " << t; return false; }
        int i = 0, j = 0;
        g.cellOf(a.x[k], a.y[k], i, j);
        if (g.blocked(i, j)) {
            ADD_FAILURE() << "agent " << a.id[k] << " in blocked cell (" << i << ", " << j << ") at t = " << t;
            return false;
        }
        // never faster than its free speed (small slack for float rounding)
        if (std::hypot(a.vx[k], a.vy[k]) > a.vmax[k] * 1.001f + 1e-6f) {
            ADD_FAILURE() << "agent " << a.id[k] << " faster than vmax at t = " << t;
            return false;
        }
    }
    // fields: no NaN or inf in density and pressure; potentials finite or +inf
    // (each field fetched once: every Simulation accessor looks the field up)
    const Field<float>& density = sim.density();
    const float* rho = density.host();
    const float* pressure = sim.pressure().host();
    const int uc = sim::uicFactor(sc.params.perception_radius, g.h);
    for (std::size_t c = 0; c < density.size(); ++c) {
        const float p = pressure[c];
        if (!std::isfinite(rho[c]) || !std::isfinite(p)) {
            ADD_FAILURE() << "density or pressure not finite in cell " << c << " at t = " << t;
            return false;
        }
        // pressure never negative, and zero where the crowd is sparse
        if (p < 0.f) { ADD_FAILURE() << "negative pressure " << p << " in cell " << c << " at t = " << t; return false; }
        if (p == 0.f) continue;
        // sparse: every density in the 3x3 UIC cells around the cell's UIC
        // cell (kernels/uic_grid.hpp) below a quarter of the limit, so no
        // inflow within one step can reach the limit there
        const int ci = static_cast<int>(c % static_cast<std::size_t>(g.nx)), cj = static_cast<int>(c / static_cast<std::size_t>(g.nx));
        const int ui = ci / uc, uj = cj / uc;
        float around = 0.f;
        for (int j = std::max(0, (uj - 1) * uc); j < std::min(g.ny, (uj + 2) * uc); ++j)
            for (int i = std::max(0, (ui - 1) * uc); i < std::min(g.nx, (ui + 2) * uc); ++i)
                around = std::max(around, density(i, j));
        if (around < 0.25f * sc.params.rho_limit) {
            ADD_FAILURE() << "pressure " << p << " in sparse cell " << c << " (density " << rho[c] << ", 3x3 max " << around
                          << ") at t = " << t;
            return false;
        }
    }
    for (int f = 0; f < sim.fieldCount(); ++f) {
        const Field<float>& potential = sim.potential(f);
        const float* phi = potential.host();
        for (std::size_t c = 0; c < potential.size(); ++c)
            if (std::isnan(phi[c])) { ADD_FAILURE() << "potential NaN at t = " << t; return false; }
    }
    // UIC: after the correction the predicted density is at most the limit (x 1.001)
    EXPECT_LE(sim.lastReport().pressure_residual, 1e-3f * sc.params.rho_limit) << "t = " << t;
    if (checkSeparation && a.size() > 1) {
        const float d = minPairDistance(a);
        if (d < 0.9f * sc.params.d_min) {
            ADD_FAILURE() << "agents " << d << " m apart (d_min " << sc.params.d_min << ") at t = " << t;
            return false;
        }
    }
    return !::testing::Test::HasFailure();
}

struct SceneCase {
    const char* name;
    /// Check 0.9 d_min every step: not in room_exit and bottleneck, whose
    /// crowds press into a door (three Jacobi passes leave pairs at 0.415 m,
    /// 0.897 d_min, there; `ccrowd validate` bounds their local density).
    bool separation;
};

/// Whole runs per backend: the CPU with all threads, CUDA when a GPU answers
/// (no CUDA instance otherwise; test_backends.cpp reports that skip).
std::vector<Exec> wholeRunExecs() {
    std::vector<Exec> out{Exec{Backend::Cpu, 0}};
    if (cudaUsable(nullptr)) out.push_back(Exec{Backend::Cuda, 0});
    return out;
}

class ShippedScene : public ::testing::TestWithParam<std::tuple<SceneCase, Exec>> {};

TEST_P(ShippedScene, InvariantsHoldEveryStepAndEveryGroupArrives) {
    const SceneCase sc = std::get<0>(GetParam());
    Simulation sim(loadScene(scenePath(sc.name)), std::get<1>(GetParam()));
    ASSERT_GT(sim.agentCount(), 0);
    while (!sim.finished()) {
        sim.step();
        if (!checkStep(sim, sc.separation)) break;
    }
    ASSERT_FALSE(HasFailure());
    for (const GroupStats& g : sim.groupStats()) {
        EXPECT_GT(g.spawned, 0) << g.name;
        EXPECT_EQ(g.remaining, 0) << g.name << " did not reach its goal by t = " << sim.time();
        EXPECT_EQ(g.exited, g.spawned) << g.name;
    }
}

INSTANTIATE_TEST_SUITE_P(Scenes, ShippedScene,
                         ::testing::Combine(::testing::Values(SceneCase{"seed003_single_goal", true},
                                                              SceneCase{"seed003_two_groups", true},
                                                              SceneCase{"seed003_four_groups", true}, SceneCase{"corridor", true},
                                                              SceneCase{"room_exit", false}, SceneCase{"bottleneck", false},
                                                              SceneCase{"eight_groups", true}, SceneCase{"l_corner", true}),
                                            ::testing::ValuesIn(wholeRunExecs())),
                         [](const ::testing::TestParamInfo<std::tuple<SceneCase, Exec>>& info) {
                             return std::string(std::get<0>(info.param).name) + "_" +
                                    backendName(std::get<1>(info.param).backend);
                         });

/// CPU against CUDA on whole runs, within tolerances (SameBitsEveryStep...
/// below asks for the same bits; this one says how far apart the runs are
/// when they are not). Stated tolerance: each
/// group's evacuation time within 5% and the mean exit time within 3%; after
/// 100 steps the agents' mean distance between backends under 0.05 m.
TEST(CpuVsCuda, ExitTimesAndPositionsAgree) {
    std::string why;
    if (!cudaUsable(&why)) GTEST_SKIP() << "no usable CUDA GPU: " << why;
    for (const char* name : {"seed003_two_groups", "room_exit"}) {
        const Scene scene = loadScene(scenePath(name));
        Simulation cpu(scene, Exec{Backend::Cpu, 0}), gpu(scene, Exec{Backend::Cuda, 0});
        for (int k = 0; k < 100; ++k) {
            cpu.step();
            gpu.step();
        }
        const AgentSnapshot a = cpu.agents(), b = gpu.agents();
        std::map<int, int> slot;
        for (int k = 0; k < b.size(); ++k) slot[b.id[k]] = k;
        double sum = 0;
        int matched = 0;
        for (int k = 0; k < a.size(); ++k) {
            const auto it = slot.find(a.id[k]);
            if (it == slot.end()) continue;
            sum += std::hypot(a.x[k] - b.x[it->second], a.y[k] - b.y[it->second]);
            ++matched;
        }
        ASSERT_GT(matched, 0) << name;
        EXPECT_LT(sum / matched, 0.05) << name << ": mean distance between backends after 100 steps";
        while (!cpu.finished()) cpu.step();
        while (!gpu.finished()) gpu.step();
        for (std::size_t g = 0; g < cpu.groupStats().size(); ++g) {
            const double tc = cpu.groupStats()[g].last_exit, tg = gpu.groupStats()[g].last_exit;
            EXPECT_NEAR(tg, tc, 0.05 * tc) << name << " group " << g << " evacuation time";
        }
        auto meanExit = [](const Simulation& s) {
            double t = 0;
            for (const ExitRecord& e : s.exits()) t += e.time;
            return s.exits().empty() ? 0.0 : t / static_cast<double>(s.exits().size());
        };
        EXPECT_NEAR(meanExit(gpu), meanExit(cpu), 0.03 * meanExit(cpu)) << name << " mean exit time";
    }
}

/// Index of the first element where @p a and @p b differ as bits (so that
/// -0 and +0 differ, and equal NaNs agree), or -1.
template <class T>
int firstBitDifference(const std::vector<T>& a, const std::vector<T>& b) {
    if (a.size() != b.size()) return 0;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (std::memcmp(&a[k], &b[k], sizeof(T)) != 0) return static_cast<int>(k);
    return -1;
}

/// CPU against CUDA, bit for bit: every kernel is compiled without fused
/// multiply-adds on both sides, divides and takes roots in IEEE arithmetic,
/// and calls kernels/portable_math.hpp's transcendentals, so a CUDA run
/// with the CPU's FIM band and sweep budget (validate::validationScene)
/// computes the CPU's trajectories exactly. Every step of the first 400
/// (20 s) of room_exit under every operational model, of the two crossing
/// groups and of the smoke room (the search's headings, herding): the
/// agents' columns and the exits. Reports the first step and column that
/// differ.
TEST(CpuVsCuda, SameBitsEveryStepUnderEveryModel) {
    std::string why;
    if (!cudaUsable(&why)) GTEST_SKIP() << "no usable CUDA GPU: " << why;
    struct Case { const char* scene; const char* local; };
    for (const Case c : {Case{"room_exit", "uic"}, Case{"room_exit", "social_force"}, Case{"room_exit", "orca"},
                         Case{"room_exit", "zones"}, Case{"seed003_two_groups", ""}, Case{"smoke_room", ""}}) {
        // one FIM schedule on both (validate's): the backends' default bands and budgets differ, and with
        // them the potential's last bits
        Scene scene = validate::validationScene(loadScene(scenePath(c.scene)));
        if (*c.local) scene.params.local = c.local;
        Simulation cpu(scene, Exec{Backend::Cpu, 0}), gpu(scene, Exec{Backend::Cuda, 0});
        const std::string label = std::string(c.scene) + (*c.local ? std::string(" under ") + c.local : "");
        bool same = true;
        for (int step = 1; step <= 400 && same && !cpu.finished(); ++step) {
            cpu.step();
            gpu.step();
            const AgentSnapshot a = cpu.agents(), b = gpu.agents();
            const std::pair<const char*, int> diffs[] = {
                {"id", firstBitDifference(a.id, b.id)}, {"x", firstBitDifference(a.x, b.x)},
                {"y", firstBitDifference(a.y, b.y)},    {"vx", firstBitDifference(a.vx, b.vx)},
                {"vy", firstBitDifference(a.vy, b.vy)}, {"vmax", firstBitDifference(a.vmax, b.vmax)}};
            for (const auto& [column, at] : diffs) {
                if (at < 0) continue;
                ADD_FAILURE() << label << ": step " << step << ", column " << column << " first differs at agent slot " << at
                              << " (" << a.size() << " agents on the CPU, " << b.size() << " on CUDA)";
                same = false;
                break;
            }
            if (same && cpu.exits().size() != gpu.exits().size()) {
                ADD_FAILURE() << label << ": step " << step << ": " << cpu.exits().size() << " exits on the CPU, "
                              << gpu.exits().size() << " on CUDA";
                same = false;
            }
        }
    }
}

TEST(DefaultScene, FiftyThousandAgentsFourExitsFirstStepsKeepInvariants) {
    Simulation sim(loadScene(scenePath("default")), Exec{Backend::Cpu, 0});
    EXPECT_GE(sim.agentCount(), 50000);
    int exitsWithGoal = 0;
    for (const GoalSpec& goal : sim.scene().goals) exitsWithGoal += goal.exit ? 1 : 0;
    EXPECT_GE(exitsWithGoal, 4);
    for (int k = 0; k < 3; ++k) {
        sim.step();
        ASSERT_TRUE(checkStep(sim, false));
    }
}

TEST(SceneWithEightGroups, HasEightGroupsWithDifferentGoalsThatCross) {
    const Scene s = loadScene(scenePath("eight_groups"));
    ASSERT_GE(s.groups.size(), 8u);
    std::vector<std::string> finals;
    for (const GroupSpec& g : s.groups) finals.push_back(g.route.back());
    std::sort(finals.begin(), finals.end());
    EXPECT_EQ(std::unique(finals.begin(), finals.end()) - finals.begin(), static_cast<long>(s.groups.size()));
}

/// Same scene, same seed: bitwise-identical agents for 1 and 2 CPU threads,
/// and for 3 (uneven static splits of every loop).
TEST(Determinism, SameResultForOneAndTwoThreads) {
    const test::AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    const Scene scene = loadScene(scenePath("seed003_two_groups"));
    Simulation one(scene, Exec{Backend::Cpu, 1});
    for (int k = 0; k < 200; ++k) one.step();
    const AgentSnapshot a = one.agents();
    ASSERT_GT(a.size(), 0);
    for (const int threads : {2, 3}) {
        Simulation other(scene, Exec{Backend::Cpu, threads});
        for (int k = 0; k < 200; ++k) other.step();
        const AgentSnapshot b = other.agents();
        ASSERT_EQ(a.size(), b.size()) << threads << " threads";
        for (int k = 0; k < a.size(); ++k) {
            ASSERT_EQ(a.id[k], b.id[k]) << threads << " threads";
            ASSERT_EQ(a.x[k], b.x[k]) << "agent " << a.id[k] << ", " << threads << " threads";
            ASSERT_EQ(a.y[k], b.y[k]) << "agent " << a.id[k] << ", " << threads << " threads";
            ASSERT_EQ(a.vx[k], b.vx[k]) << "agent " << a.id[k] << ", " << threads << " threads";
        }
        for (std::size_t c = 0; c < one.density().size(); ++c)
            ASSERT_EQ(one.density().host()[c], other.density().host()[c]) << threads << " threads";
    }
}

/// Per-backend: a short run gives agents that moved toward their goal.
class SimulationBackend : public ::testing::TestWithParam<Exec> {};

TEST_P(SimulationBackend, AgentsMoveTowardTheirGoal) {
    Simulation sim(loadScene(scenePath("seed003_single_goal")), GetParam());
    const AgentSnapshot before = sim.agents();
    for (int k = 0; k < 20; ++k) sim.step();
    const AgentSnapshot after = sim.agents();
    ASSERT_EQ(before.size(), after.size());
    // the potential of the group's field drops along every agent's path
    // (agents are stored by cell, not by id: match them by id)
    const SceneGrid& g = sim.grid();
    std::map<int, int> slotBefore;
    for (int k = 0; k < before.size(); ++k) slotBefore[before.id[k]] = k;
    int moved = 0;
    for (int k = 0; k < after.size(); ++k) {
        int i0 = 0, j0 = 0, i1 = 0, j1 = 0;
        ASSERT_EQ(slotBefore.count(after.id[k]), 1u);
        const int b = slotBefore[after.id[k]];
        g.cellOf(before.x[b], before.y[b], i0, j0);
        g.cellOf(after.x[k], after.y[k], i1, j1);
        const Field<float>& phi = sim.potential(0);
        if (phi(i1, j1) < phi(i0, j0)) ++moved;
    }
    EXPECT_EQ(moved, after.size());
}

/// model.potential_warm_start: every step starts from the last potentials
/// (the first from those the construction solved for t = 0), and the
/// potentials equal a cold solve's to the
/// FIM's accuracy (1e-5 relative) step after step.
TEST_P(SimulationBackend, WarmStartedPotentialsEqualColdOnes) {
    Scene warmScene = loadScene(scenePath("bottleneck"));
    Scene coldScene = warmScene;
    warmScene.params.potential_warm_start = true;
    coldScene.params.potential_warm_start = false;
    Simulation warm(warmScene, GetParam()), cold(coldScene, GetParam());
    for (int k = 0; k < 15; ++k) {
        warm.step();
        cold.step();
        // the construction solved the initial potentials: every step starts warm
        EXPECT_TRUE(warm.lastReport().potential_warm) << "step " << k;
        EXPECT_FALSE(cold.lastReport().potential_warm);
        // same agents so far: each step's potentials from the same costs
        for (int f = 0; f < warm.fieldCount(); ++f) {
            const Field<float>& a = warm.potential(f);
            const Field<float>& b = cold.potential(f);
            double worst = 0;
            for (std::size_t c = 0; c < a.size(); ++c) {
                const float x = a.host()[c], y = b.host()[c];
                if (std::isinf(x) || std::isinf(y)) { ASSERT_EQ(x, y) << "cell " << c; continue; }
                worst = std::max(worst, std::fabs(static_cast<double>(x) - y) / std::max<double>(std::fabs(y), warm.grid().h));
            }
            EXPECT_LE(worst, 1e-5) << "step " << k << " field " << f;
        }
        // positions follow potentials that differ by rounding only
        const AgentSnapshot aw = warm.agents(), ac = cold.agents();
        ASSERT_EQ(aw.size(), ac.size());
        for (int a = 0; a < aw.size(); ++a) EXPECT_NEAR(aw.x[a], ac.x[a], 1e-3) << "step " << k;
    }
}

/// model.potential_stencil 8: the potential stage solves with the diagonals'
/// triangles, which only add ways down, so every potential lies at or below
/// the 4-neighbour one (to the FIM's tolerance) and strictly below it
/// somewhere (the bottleneck's funnel is crossed obliquely); the crowd
/// still walks down it and leaves.
TEST_P(SimulationBackend, EightNeighbourPotentialsLieBelowFourNeighbourOnesAndLeadOut) {
    Scene four = loadScene(scenePath("bottleneck"));
    Scene eight = four;
    ASSERT_EQ(four.params.potential_stencil, 4);
    eight.params.potential_stencil = 8;
    Simulation a(four, GetParam()), b(eight, GetParam());
    ASSERT_EQ(a.fieldCount(), b.fieldCount());
    for (int f = 0; f < a.fieldCount(); ++f) {
        const Field<float>& p4 = a.potential(f);
        const Field<float>& p8 = b.potential(f);
        int lower = 0;
        for (std::size_t c = 0; c < p4.size(); ++c) {
            const float x4 = p4.host()[c], x8 = p8.host()[c];
            if (std::isinf(x4)) { EXPECT_TRUE(std::isinf(x8)) << "cell " << c; continue; }
            EXPECT_LE(x8, x4 + 1e-5f * (std::fabs(x4) + b.grid().h)) << "cell " << c;
            lower += x8 < x4 - 1e-3f * (std::fabs(x4) + b.grid().h) ? 1 : 0;
        }
        EXPECT_GT(lower, 0) << "field " << f;
    }
    for (int k = 0; k < 400 && b.exitedTotal() == 0; ++k) b.step();
    EXPECT_GT(b.exitedTotal(), 0);
}

/// model.potential_sweeps and model.potential_band_tiles reach the potential
/// stage's solve: a budget of 2 sweeps leaves no phase with more than 2 on
/// its critical path (the default's steps have more), a band of a quarter
/// tile runs more phases than the default band (whose 4 tiles span this
/// small grid), and every variant gives the default's potentials within the
/// solver's tolerance.
TEST_P(SimulationBackend, PotentialSweepsAndBandReachTheSolve) {
    const Scene base = loadScene(scenePath("bottleneck"));
    Scene two = base, narrow = base;
    two.params.potential_sweeps = 2;
    narrow.params.potential_band_tiles = 0.25f;
    Simulation a(base, GetParam()), b(two, GetParam()), c(narrow, GetParam());
    a.step();
    b.step();
    c.step();
    const StepReport& ra = a.lastReport();
    const StepReport& rb = b.lastReport();
    EXPECT_GT(ra.potential_critical_sweeps, 2 * ra.potential_phases) << "the default budget never used more than 2";
    EXPECT_LE(rb.potential_critical_sweeps, 2 * rb.potential_phases);
    EXPECT_GT(c.lastReport().potential_phases, ra.potential_phases);
    for (int f = 0; f < a.fieldCount(); ++f) {
        const Field<float>& pa = a.potential(f);
        for (const Simulation* s : {&b, &c}) {
            const Field<float>& p = s->potential(f);
            for (std::size_t k = 0; k < pa.size(); ++k) {
                const float x = pa.host()[k], y = p.host()[k];
                if (std::isinf(x)) { EXPECT_TRUE(std::isinf(y)) << "cell " << k; continue; }
                EXPECT_NEAR(y, x, 1e-4f * (std::fabs(x) + a.grid().h)) << "field " << f << " cell " << k;
            }
        }
    }
}

/// Simulation::profilePotential: the profiled steps' potential solves
/// report their kernel's parts on CUDA (zeros on the CPU, which has no
/// kernel), and nothing else changes: the same agents after the same steps,
/// bitwise, as a run without.
TEST_P(SimulationBackend, ProfiledPotentialSolvesChangeNothingAndReportTheirKernel) {
    const Scene scene = loadScene(scenePath("bottleneck"));
    Simulation plain(scene, GetParam()), profiled(scene, GetParam());
    profiled.profilePotential(true);
    for (int k = 0; k < 3; ++k) {
        plain.step();
        profiled.step();
    }
    const AgentSnapshot a = plain.agents(), b = profiled.agents();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(0, std::memcmp(a.x.data(), b.x.data(), a.x.size() * sizeof(float)));
    EXPECT_EQ(0, std::memcmp(a.y.data(), b.y.data(), a.y.size() * sizeof(float)));
    const EikonalGpuProfile& p = profiled.lastReport().potential_gpu_profile;
    if (GetParam().backend == Backend::Cuda) {
        EXPECT_GT(p.kernel_us, 0.0);
        EXPECT_GT(p.tiles, 0);
    } else {
        EXPECT_EQ(p.kernel_us, 0.0);
        EXPECT_EQ(p.tiles, 0);
    }
    // off again: the next step reports no profile
    profiled.profilePotential(false);
    profiled.step();
    EXPECT_EQ(profiled.lastReport().potential_gpu_profile.tiles, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, SimulationBackend, ::testing::ValuesIn(test::testExecs()), test::ExecParamName{});

TEST(Simulation, StageNamesFollowThePipeline) {
    const char* expected[] = {"active_box", "splat", "speed", "cost", "potential", "desired_velocity",
                              "pressure", "agents", "separate", "exit_spawn"};
    const Simulation sim(loadScene(std::string(CCROWD_SOURCE_DIR) + "/scenes/room_exit.json"), Exec{Backend::Cpu, 1});
    ASSERT_EQ(sim.stageNames().size(), std::size(expected));
    for (std::size_t s = 0; s < std::size(expected); ++s) EXPECT_EQ(sim.stageNames()[s], expected[s]);
    EXPECT_EQ(sim.times().names, sim.stageNames());
    EXPECT_THROW(sim.times().mean("no_such_stage"), InputError);
}

}  // namespace
}  // namespace ccrowd
