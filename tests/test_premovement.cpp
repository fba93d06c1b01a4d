/// @file test_premovement.cpp
/// Pre-movement times (groups[k].premovement; ISO/TR 16738, RiMEA test 5):
/// the scene forms and their errors, the draws of each distribution, agents
/// that stand until their start time and then walk under every operational
/// model, sources' agents counting from their birth, the stage only in
/// scenes that need it, and the same results on 1 and 2 threads.

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "io/run_summary.hpp"
#include "same_run.hpp"
#include "sim/agents.hpp"

namespace ccrowd::test {
namespace {

using Kind = PremovementDistribution::Kind;

/// A 40 m x 12 m hall with an exit strip at its east end and one person per
/// group standing 5 m apart on y = 6 (farther from each other and from the
/// walls than any model's reach, so nobody is pushed while standing). Group
/// k stands at x = 4 + 5 k with pre-movement @p premovement[k] (a JSON
/// value; empty: none), under @p local.
std::string hall(const std::vector<std::string>& premovement, const std::string& local = "uic",
                 const std::string& extra = "") {
    std::string groups;
    for (std::size_t k = 0; k < premovement.size(); ++k) {
        const double x = 4.0 + 5.0 * static_cast<double>(k);
        groups += std::string(k ? ", " : "") + R"({"name": "g)" + std::to_string(k) + R"(", "spawn": [{"rect": {"min": [)" +
                  std::to_string(x - 0.25) + R"(, 5.75], "max": [)" + std::to_string(x + 0.25) +
                  R"(, 6.25]}}], "count": 1, "speed": 1.2, "route": ["east"])" +
                  (premovement[k].empty() ? "" : R"(, "premovement": )" + premovement[k]) + "}";
    }
    return R"({"format": "ccrowd-scene", "version": 1, "name": "hall",
      "domain": {"width": 40, "height": 12, "cell": 0.25},
      "goals": [{"name": "east", "areas": [{"rect": {"min": [39, 0], "max": [40, 12]}}]}],
      "groups": [)" + groups + "]" + extra + R"(, "model": {"seed": 3, "dt": 0.05, "local": ")" + local + R"("}})";
}

Simulation make(const std::string& json, int threads = 0) { return Simulation(parseScene(json, "premovement-test"), Exec{Backend::Cpu, threads}); }

/// Steps @p sim to @p until [s]; per id, the end time of the last step after
/// which the agent still stood where it started (within 0.1 mm) and the
/// first after which it was 1 cm or more away.
struct Starts {
    std::map<int, double> lastStill, firstMoved;
};
Starts watch(Simulation& sim, double until) {
    Starts out;
    std::map<int, std::pair<float, float>> at;
    const AgentSnapshot a0 = sim.agents();
    for (int k = 0; k < a0.size(); ++k) at[a0.id[k]] = {a0.x[k], a0.y[k]};
    while (sim.time() < until - 1e-9) {
        sim.step();
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) {
            const auto it = at.find(a.id[k]);
            if (it == at.end()) { at[a.id[k]] = {a.x[k], a.y[k]}; continue; }  // a source's agent: from where it appeared
            const double d = std::hypot(a.x[k] - it->second.first, a.y[k] - it->second.second);
            if (d < 1e-4) out.lastStill[a.id[k]] = sim.time();
            if (d >= 0.01 && !out.firstMoved.count(a.id[k])) out.firstMoved[a.id[k]] = sim.time();
        }
    }
    return out;
}

TEST(PremovementScene, TheFormsParse) {
    const Scene fixed = parseScene(hall({"12.5"}), "t");
    EXPECT_EQ(fixed.groups[0].premovement.kind, Kind::Fixed);
    EXPECT_FLOAT_EQ(fixed.groups[0].premovement.mean, 12.5f);
    EXPECT_TRUE(fixed.groups[0].premovement.enabled());
    const Scene none = parseScene(hall({"", "0"}), "t");
    EXPECT_FALSE(none.groups[0].premovement.enabled());
    EXPECT_FALSE(none.groups[1].premovement.enabled());  // 0 s: everyone at once
    const Scene u = parseScene(hall({R"({"distribution": "uniform", "min": 10, "max": 100})"}), "t");
    EXPECT_EQ(u.groups[0].premovement.kind, Kind::Uniform);
    EXPECT_FLOAT_EQ(u.groups[0].premovement.min, 10.f);
    EXPECT_FLOAT_EQ(u.groups[0].premovement.max, 100.f);
    const Scene ln = parseScene(hall({R"({"distribution": "lognormal", "mean": 60, "sd": 30, "max": 300})"}), "t");
    EXPECT_EQ(ln.groups[0].premovement.kind, Kind::Lognormal);
    EXPECT_FLOAT_EQ(ln.groups[0].premovement.sd, 30.f);
    EXPECT_FLOAT_EQ(ln.groups[0].premovement.min, 0.f);
    EXPECT_FLOAT_EQ(ln.groups[0].premovement.max, 300.f);
    const Scene nm = parseScene(hall({R"({"distribution": "normal", "mean": 20, "sd": 5, "min": 5})"}), "t");
    EXPECT_EQ(nm.groups[0].premovement.kind, Kind::Normal);
}

TEST(PremovementScene, BadInputIsNamed) {
    auto expectError = [](const std::string& pm, const std::vector<std::string>& parts) {
        std::string m;
        try {
            parseScene(hall({pm}), "premovement-test");
        } catch (const InputError& e) {
            m = e.what();
        }
        ASSERT_FALSE(m.empty()) << pm;
        for (const std::string& p : parts) EXPECT_NE(m.find(p), std::string::npos) << m << " lacks " << p;
    };
    expectError("-1", {"/groups/0/premovement", ">= 0 and <= 100000 [s]"});
    expectError("2e5", {"/groups/0/premovement"});
    expectError(R"("soon")", {"/groups/0/premovement", "a number (s)"});
    expectError(R"({"mean": 10})", {"/groups/0/premovement", "distribution"});
    expectError(R"({"distribution": "weibull", "mean": 10})", {"/groups/0/premovement/distribution", "lognormal"});
    expectError(R"({"distribution": "uniform", "min": 10})", {"/groups/0/premovement", "max"});
    expectError(R"({"distribution": "uniform", "min": 10, "max": 5})", {"/groups/0/premovement/max", "min <= max"});
    expectError(R"({"distribution": "uniform", "min": 1, "max": 5, "mean": 3})", {"/groups/0/premovement/mean", "\"min\" and \"max\" only"});
    expectError(R"({"distribution": "normal", "sd": 3})", {"/groups/0/premovement", "mean"});
    expectError(R"({"distribution": "normal", "mean": 3, "min": 5})", {"/groups/0/premovement/mean", "min <= mean <= max"});
    expectError(R"({"distribution": "lognormal", "mean": 0, "sd": 1})", {"/groups/0/premovement/mean", "> 0"});
    expectError(R"({"distribution": "normal", "mean": 3, "sd": -1})", {"/groups/0/premovement/sd"});
    expectError(R"({"distribution": "normal", "mean": 3, "shape": 2})", {"/groups/0/premovement", "shape"});
}

TEST(PremovementDraws, EachDistributionHasItsMomentsAndBounds) {
    auto draws = [](PremovementDistribution d) {
        std::mt19937_64 rng(11);
        std::vector<double> v;
        for (int k = 0; k < 40000; ++k) v.push_back(sim::drawPremovement(d, rng));
        return v;
    };
    auto mean = [](const std::vector<double>& v) { double s = 0; for (double x : v) s += x; return s / v.size(); };
    auto sd = [&](const std::vector<double>& v) {
        const double m = mean(v);
        double s = 0;
        for (double x : v) s += (x - m) * (x - m);
        return std::sqrt(s / (v.size() - 1));
    };
    // fixed: exactly the time
    PremovementDistribution f;
    f.mean = f.min = f.max = 7.f;
    for (double x : draws(f)) ASSERT_EQ(x, 7.0);
    // uniform on [10, 100]: mean 55, sd 90 / sqrt(12)
    PremovementDistribution u;
    u.kind = Kind::Uniform; u.min = 10.f; u.max = 100.f;
    const std::vector<double> vu = draws(u);
    EXPECT_NEAR(mean(vu), 55.0, 0.6);
    EXPECT_NEAR(sd(vu), 90.0 / std::sqrt(12.0), 0.5);
    EXPECT_GE(*std::min_element(vu.begin(), vu.end()), 10.0);
    EXPECT_LE(*std::max_element(vu.begin(), vu.end()), 100.0);
    // log-normal of mean 60 s and sd 30 s (the times' own moments), right-skewed
    PremovementDistribution l;
    l.kind = Kind::Lognormal; l.mean = 60.f; l.sd = 30.f;
    std::vector<double> vl = draws(l);
    EXPECT_NEAR(mean(vl), 60.0, 0.8);
    EXPECT_NEAR(sd(vl), 30.0, 1.0);
    std::nth_element(vl.begin(), vl.begin() + vl.size() / 2, vl.end());
    EXPECT_LT(vl[vl.size() / 2], 57.0);  // median exp(mu) = 60 / sqrt(1.25) = 53.7 s < mean
    // normal clamped to [min, max]
    PremovementDistribution n;
    n.kind = Kind::Normal; n.mean = 20.f; n.sd = 10.f; n.min = 15.f; n.max = 40.f;
    const std::vector<double> vn = draws(n);
    EXPECT_EQ(*std::min_element(vn.begin(), vn.end()), 15.0);
    const double below = static_cast<double>(std::count(vn.begin(), vn.end(), 15.0)) / vn.size();
    EXPECT_NEAR(below, 0.3085, 0.01);  // P(z < -0.5): those clamped to min
}

class PremovementModels : public ::testing::TestWithParam<std::string> {};

TEST_P(PremovementModels, AgentsStandUntilTheirStartAndThenWalk) {
    // fixed 0 (none), 2 s and 5 s; uniform on [1, 4] s
    Simulation sim = make(hall({"", "2", "5", R"({"distribution": "uniform", "min": 1, "max": 4})"}, GetParam()));
    const AgentSnapshot a = sim.agents();
    ASSERT_EQ(a.size(), 4);
    std::map<int, int> groupOf;
    for (int k = 0; k < a.size(); ++k) groupOf[a.id[k]] = a.group[k];
    const std::vector<float> start = sim.startTimes();
    ASSERT_EQ(start.size(), 4u);  // one per id
    const Starts s = watch(sim, 8.0);
    const double dt = 0.05;
    for (const auto& [id, g] : groupOf) {
        SCOPED_TRACE("group " + std::to_string(g));
        ASSERT_TRUE(s.firstMoved.count(id));  // everyone walks by 8 s
        const double moved = s.firstMoved.at(id);
        const double still = s.lastStill.count(id) ? s.lastStill.at(id) : 0.0;
        if (g == 0) { EXPECT_LE(moved, 0.5); }  // walks from the start
        const double t = start[static_cast<std::size_t>(id)];
        if (g == 0) { EXPECT_EQ(t, 0.f); }
        if (g == 1 || g == 2) { EXPECT_EQ(t, g == 1 ? 2.f : 5.f); }
        if (g == 3) {
            EXPECT_GE(t, 1.f);  // drawn on [1, 4] s
            EXPECT_LE(t, 4.f);
        }
        if (g > 0) {
            EXPECT_GE(still, t - 1.5 * dt);  // stood until its start
            EXPECT_LE(moved, t + 0.5);       // then walked off (1 cm in a few steps)
        }
    }
}

INSTANTIATE_TEST_SUITE_P(EveryModel, PremovementModels, ::testing::Values("uic", "social_force", "orca", "zones"));

TEST(PremovementStage, OnlyScenesWithPremovementHaveTheStage) {
    Simulation with = make(hall({"", "2"})), without = make(hall({"", "0"}));
    const std::vector<std::string>& a = with.stageNames();
    const auto at = std::find(a.begin(), a.end(), "premovement");
    ASSERT_NE(at, a.end());
    // after the stages that set the preferred velocity, before the model's
    EXPECT_GT(at - a.begin(), std::find(a.begin(), a.end(), "desired_velocity") - a.begin());
    EXPECT_LT(at - a.begin(), std::find(a.begin(), a.end(), "pressure") - a.begin());
    const std::vector<std::string>& b = without.stageNames();
    EXPECT_EQ(std::find(b.begin(), b.end(), "premovement"), b.end());
    EXPECT_TRUE(without.startTimes().empty());
    // the start times are kept by id only where needed: 4 bytes per agent more
    EXPECT_EQ(with.agentBytes(), without.agentBytes() + sizeof(float));
}

TEST(PremovementStage, ASourcesAgentsCountFromTheirBirth) {
    // a source of one person per second from t = 0 to 3 s at x = 4 .. 5, y = 2 .. 10, who stand 2 s each
    const std::string source =
        R"(, "sources": [{"group": "g0", "region": {"rect": {"min": [4, 2], "max": [5, 10]}}, "rate": 1, "start": 0, "end": 3}])";
    std::string json = hall({"2"}, "uic", source);
    Simulation sim = make(json);
    // the initial person's id is 0; every other appears at its birth and walks 2 s later
    std::map<int, double> born;
    std::map<int, std::pair<float, float>> at;
    std::map<int, double> moved;
    while (sim.time() < 9.0) {
        sim.step();
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < a.size(); ++k) {
            if (!born.count(a.id[k])) { born[a.id[k]] = sim.time(); at[a.id[k]] = {a.x[k], a.y[k]}; continue; }
            const double d = std::hypot(a.x[k] - at[a.id[k]].first, a.y[k] - at[a.id[k]].second);
            if (d >= 0.01 && !moved.count(a.id[k])) moved[a.id[k]] = sim.time();
        }
    }
    ASSERT_GE(born.size(), 3u);
    int sources = 0;
    for (const auto& [id, t] : born) {
        if (id == 0) continue;
        ++sources;
        ASSERT_TRUE(moved.count(id)) << id;
        EXPECT_GE(moved.at(id) - t, 2.0 - 0.1) << id;
        EXPECT_LE(moved.at(id) - t, 2.5) << id;
    }
    EXPECT_GE(sources, 2);
}

TEST(PremovementStage, TheGroupsStatisticsHoldEveryDrawnTime) {
    // the initial persons and a source's: mean, shortest and longest of what each was given
    const std::string source =
        R"(, "sources": [{"group": "g1", "region": {"rect": {"min": [4, 2], "max": [5, 10]}}, "rate": 2, "start": 0, "end": 3}])";
    Simulation sim = make(hall({"", R"({"distribution": "uniform", "min": 1, "max": 3})", "4"}, "uic", source));
    for (int k = 0; k < 80; ++k) sim.step();
    const std::vector<GroupStats>& g = sim.groupStats();
    EXPECT_EQ(g[0].premovement_persons, 0);
    EXPECT_EQ(g[0].premovement_mean, -1.0);
    EXPECT_EQ(g[2].premovement_persons, 1);
    EXPECT_DOUBLE_EQ(g[2].premovement_mean, 4.0);
    // group 1: its initial person and the source's (born while the run lasted), each 1-3 s
    ASSERT_GE(g[1].spawned, 4);
    EXPECT_EQ(g[1].premovement_persons, g[1].spawned);
    EXPECT_GE(g[1].premovement_min, 1.0 - 1e-5);
    EXPECT_LE(g[1].premovement_max, 3.0 + 1e-5);
    EXPECT_LT(g[1].premovement_min, g[1].premovement_max);
    EXPECT_GT(g[1].premovement_mean, g[1].premovement_min);
    EXPECT_LT(g[1].premovement_mean, g[1].premovement_max);
    // summary.json: the groups with pre-movement carry it, the others do not
    const nlohmann::json j = io::summaryJson(sim, 1.0, false, nlohmann::json::object());
    EXPECT_FALSE(j["groups"][0].contains("premovement"));
    EXPECT_EQ(j["groups"][1]["premovement"]["persons"], g[1].premovement_persons);
    EXPECT_DOUBLE_EQ(j["groups"][2]["premovement"]["max_s"].get<double>(), 4.0);
}

TEST(PremovementStage, TheFixedTimeAddsToTheEvacuationTime) {
    // alone in the hall, the last to leave takes its start plus the walk
    Simulation now = make(hall({"0"})), later = make(hall({"7"}));
    while (now.groupStats()[0].remaining > 0 && now.time() < 60) now.step();
    while (later.groupStats()[0].remaining > 0 && later.time() < 60) later.step();
    ASSERT_EQ(now.groupStats()[0].remaining, 0);
    ASSERT_EQ(later.groupStats()[0].remaining, 0);
    EXPECT_NEAR(later.time() - now.time(), 7.0, 0.11);
}

TEST(PremovementStage, SameResultsForOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    const std::string json = hall({R"({"distribution": "lognormal", "mean": 2, "sd": 1})", "1", "", "3"});
    Simulation a = make(json, 1), b = make(json, 2);
    expectSameRun(a, b, 120);
}

}  // namespace
}  // namespace ccrowd::test
