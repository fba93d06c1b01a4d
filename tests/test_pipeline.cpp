/// @file test_pipeline.cpp
/// The step as a pipeline of named stages (src/sim/pipeline.hpp), the
/// operational-model interface, and the exit_spawn stage on the backend's
/// side (kernels/exit_spawn.hpp): route advance, stable compaction of the
/// agent table, the step record, and sources that read only the agents near
/// them (issue 11 items 1 and 4).

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "backends.hpp"
#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "kernels/exit_spawn.hpp"
#include "sim/field_stages.hpp"
#include "sim/operational_model.hpp"
#include "sim/pipeline.hpp"
#include "sim/sim_state.hpp"
#include "test_crowd.hpp"

namespace ccrowd {
namespace {

using sim::Stage;
using sim::StagePhase;

std::string scenePath(const std::string& name) { return std::string(CCROWD_SOURCE_DIR) + "/scenes/" + name + ".json"; }

/// A stage that appends its name to @p log when it runs.
Stage logged(const std::string& name, StagePhase phase, std::vector<std::string> reads, std::vector<std::string> writes,
             std::vector<std::string>* log) {
    return {name, phase, std::move(reads), std::move(writes), [log, name](sim::SimState&) { log->push_back(name); }};
}

/// The message of the Error that constructing the pipeline throws ("" if none).
std::string pipelineError(std::vector<Stage> stages, const std::vector<std::string>& initial) {
    try {
        sim::Pipeline p(Exec{Backend::Cpu, 1}, std::move(stages), initial);
    } catch (const Error& e) {
        return e.what();
    }
    return "";
}

TEST(Pipeline, ChecksThatEveryReadIsProvidedBeforeIt) {
    std::vector<std::string> log;
    // b reads what a writes: fine; in the other order b's read is missing
    EXPECT_EQ(pipelineError({logged("a", StagePhase::Fields, {"x"}, {"y"}, &log),
                             logged("b", StagePhase::Fields, {"y"}, {"z"}, &log)},
                            {"x"}),
              "");
    const std::string msg = pipelineError({logged("b", StagePhase::Fields, {"y"}, {"z"}, &log),
                                           logged("a", StagePhase::Fields, {"x"}, {"y"}, &log)},
                                          {"x"});
    EXPECT_NE(msg.find("'b'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("reads 'y'"), std::string::npos) << msg;
    // an initial item is readable by anyone
    EXPECT_EQ(pipelineError({logged("m", StagePhase::Move, {"x"}, {}, &log)}, {"x"}), "");
}

TEST(Pipeline, RejectsBadStageLists) {
    std::vector<std::string> log;
    // duplicate and empty names, no run function
    EXPECT_NE(pipelineError({logged("a", StagePhase::Fields, {}, {}, &log), logged("a", StagePhase::Move, {}, {}, &log)}, {})
                  .find("unique"),
              std::string::npos);
    EXPECT_NE(pipelineError({logged("", StagePhase::Fields, {}, {}, &log)}, {}).find("name"), std::string::npos);
    EXPECT_NE(pipelineError({Stage{"r", StagePhase::Move, {}, {}, nullptr}}, {}).find("no run function"), std::string::npos);
    // a fields stage after a moving one; a fields stage reading what only a moving stage writes
    EXPECT_NE(pipelineError({logged("m", StagePhase::Move, {}, {}, &log), logged("f", StagePhase::Fields, {}, {}, &log)}, {})
                  .find("fields stages come first"),
              std::string::npos);
}

TEST(Pipeline, RunsStagesInOrderAndOnlyTheFieldsStagesBeforeTheFirstStep) {
    sim::SimState state(loadScene(scenePath("room_exit")), Exec{Backend::Cpu, 1});
    std::vector<std::string> log;
    sim::Pipeline p(Exec{Backend::Cpu, 1},
                    {logged("f1", StagePhase::Fields, {"x"}, {"y"}, &log), logged("f2", StagePhase::Fields, {"y"}, {}, &log),
                     logged("m1", StagePhase::Move, {"y"}, {"x"}, &log)},
                    {"x"});
    EXPECT_EQ(p.names(), (std::vector<std::string>{"f1", "f2", "m1"}));
    p.run(state, false);
    EXPECT_EQ(log, (std::vector<std::string>{"f1", "f2"}));
    log.clear();
    p.run(state, true);
    EXPECT_EQ(log, (std::vector<std::string>{"f1", "f2", "m1"}));
    std::vector<double> ms(3, 0.0);
    p.collect(ms.data());
    for (double t : ms) EXPECT_GE(t, 0.0);
}

TEST(Pipeline, TheSimulationsStagesDeclareWhatTheyRead) {
    // the continuum's stages, the UIC model's and exit_spawn form a valid pipeline (checked on construction)
    sim::SimState state(loadScene(scenePath("room_exit")), Exec{Backend::Cpu, 1});
    std::vector<Stage> stages = sim::continuumStages();
    auto model = sim::makeOperationalModel("uic");
    EXPECT_STREQ(model->name(), "uic");
    for (Stage& s : model->stages(state)) stages.push_back(std::move(s));
    // dropping the splat leaves speed without its density: rejected
    std::vector<Stage> noSplat;
    for (const Stage& s : stages)
        if (s.name != "splat") noSplat.push_back(s);
    const std::string msg = pipelineError(noSplat, sim::initialStateItems());
    EXPECT_NE(msg.find("'speed' reads 'density'"), std::string::npos) << msg;
    EXPECT_EQ(pipelineError(stages, sim::initialStateItems()), "");
}

TEST(OperationalModel, AnUnknownNameIsAnInputErrorNamingTheModels) {
    try {
        sim::makeOperationalModel("orca2");
        FAIL() << "no error";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("model.local"), std::string::npos) << m;
        EXPECT_NE(m.find("'orca2'"), std::string::npos) << m;
        EXPECT_NE(m.find("'uic'"), std::string::npos) << m;
    }
    EXPECT_EQ(sim::operationalModelNames(), (std::vector<std::string>{"uic", "social_force", "orca", "zones"}));
    // every name makes its model, and the scene's default names one of them
    for (const std::string& n : sim::operationalModelNames())
        EXPECT_STREQ(sim::makeOperationalModel(n)->name(), n.c_str());
    EXPECT_STREQ(sim::makeOperationalModel(ModelParams{}.local)->name(), ModelParams{}.local.c_str());
}

/// exit_spawn's kernels per backend against a host reference.
class ExitSpawnKernels : public ::testing::TestWithParam<Exec> {};

TEST_P(ExitSpawnKernels, RouteAdvanceAndExitsCompactTheTableStably) {
    const Exec ex = GetParam();
    // a 10 x 4 grid of 1 m cells; goal 0 = column 9, goal 1 = column 0
    const GridInfo g{10, 4, 1.f, 0.f, 0.f};
    Array<std::uint8_t> masks(2 * 40, 0);
    for (int j = 0; j < 4; ++j) { masks[9 + j * 10] = 1; masks[40 + 0 + j * 10] = 1; }
    // field 0 walks to goal 0 then field 1; field 1 leaves at goal 1; field 2 stays at goal 0
    Array<int> goal(3), next(3);
    goal[0] = 0; next[0] = 1;
    goal[1] = 1; next[1] = sim::kRouteLeave;
    goal[2] = 0; next[2] = sim::kRouteStay;
    test::TestCrowd c;
    const int n = 1000;
    for (int k = 0; k < n; ++k) {
        const float x = 0.01f * static_cast<float>((k * 7919) % 1000), y = 0.5f + (k % 3);
        c.add(x, y, 0.1f * k, -0.1f * k, 0.f, 0.f, 1.f + 0.001f * k, k % 3);
    }
    // the host reference: same rules, in table order
    std::vector<int> keptId, keptField;
    std::vector<sim::ExitRow> leftRef;
    std::set<int> usedRef;
    for (int k = 0; k < n; ++k) {
        const int i = std::min(9, static_cast<int>(std::floor(c.x[k]))), j = static_cast<int>(std::floor(c.y[k]));
        int f = c.field[k];
        if (masks[goal[f] * 40 + i + j * 10]) {
            if (next[f] >= 0) f = next[f];
            else if (next[f] == sim::kRouteLeave) { leftRef.push_back({c.id[k], f, c.x[k], c.y[k]}); continue; }
        }
        keptId.push_back(c.id[k]);
        keptField.push_back(f);
        usedRef.insert(f);
    }
    ASSERT_GT(leftRef.size(), 10u);
    ASSERT_GT(keptId.size(), 10u);
    const std::vector<float> vx0 = c.vx.vector(), vmax0 = c.vmax.vector();
    for (Array<std::uint8_t>* a : {&masks}) a->toDevice(ex);
    goal.toDevice(ex);
    next.toDevice(ex);
    sim::AgentSortBuffers sort;
    sim::ExitSpawnWorkspace ws;
    std::vector<sim::ExitRow> left;
    c.views(ex);  // uploads the crowd for CUDA
    const sim::AgentRecord r = sim::advanceRoutes(ex, c, g, masks.view(ex), {goal.view(ex), next.view(ex)},
                                                  CellRange{0, 0, g.nx, g.ny}, sim::UnitGate{}, 3,
                                                  sort, ws, left);
    c.fetch(ex);
    // the record, the leavers' rows in order, the kept agents in order with their columns
    EXPECT_EQ(r.kept, static_cast<int>(keptId.size()));
    EXPECT_EQ(r.left, static_cast<int>(leftRef.size()));
    ASSERT_EQ(left.size(), leftRef.size());
    for (std::size_t k = 0; k < left.size(); ++k) {
        EXPECT_EQ(left[k].id, leftRef[k].id);
        EXPECT_EQ(left[k].field, leftRef[k].field);
        EXPECT_EQ(left[k].x, leftRef[k].x);
        EXPECT_EQ(left[k].y, leftRef[k].y);
    }
    for (int k = 0; k < r.kept; ++k) {
        const int id = c.id[static_cast<std::size_t>(k)];
        ASSERT_EQ(id, keptId[static_cast<std::size_t>(k)]) << "slot " << k;
        EXPECT_EQ(c.field[static_cast<std::size_t>(k)], keptField[static_cast<std::size_t>(k)]);
        EXPECT_EQ(c.vx[static_cast<std::size_t>(k)], vx0[static_cast<std::size_t>(id)]);
        EXPECT_EQ(c.vmax[static_cast<std::size_t>(k)], vmax0[static_cast<std::size_t>(id)]);
    }
    for (int f = 0; f < 3; ++f) EXPECT_EQ(r.fieldsInUse[static_cast<std::size_t>(f)], usedRef.count(f) ? 1 : 0) << f;
}

TEST_P(ExitSpawnKernels, PositionsInABoxAreExactlyTheAgentsThere) {
    const Exec ex = GetParam();
    test::TestCrowd c;
    for (int k = 0; k < 500; ++k) c.add(0.02f * k, 0.013f * ((k * 37) % 500));
    sim::AgentSortBuffers sort;
    sim::ExitSpawnWorkspace ws;
    std::vector<float> xs, ys;
    sim::positionsIn(ex, c.views(ex), 2.f, 1.f, 6.f, 4.f, sort, ws, xs, ys);
    std::vector<float> rx, ry;
    for (int k = 0; k < 500; ++k)
        if (c.x[k] >= 2.f && c.x[k] < 6.f && c.y[k] >= 1.f && c.y[k] < 4.f) { rx.push_back(c.x[k]); ry.push_back(c.y[k]); }
    ASSERT_GT(rx.size(), 20u);
    EXPECT_EQ(xs, rx);
    EXPECT_EQ(ys, ry);
}

INSTANTIATE_TEST_SUITE_P(Backends, ExitSpawnKernels, ::testing::ValuesIn(test::testExecs()), test::ExecParamName{});

/// A corridor fed by a source at its west end; the exit at its east end.
Scene sourceScene() {
    return parseScene(R"({"format": "ccrowd-scene", "version": 1, "name": "source_corridor",
      "domain": {"width": 20, "height": 4, "cell": 0.25},
      "goals": [{"name": "east", "areas": [{"rect": {"min": [19, 0], "max": [20, 4]}}]}],
      "groups": [{"name": "walkers", "spawn": [{"rect": {"min": [8, 0], "max": [12, 4]}}], "count": 20, "route": ["east"]}],
      "sources": [{"group": "walkers", "region": {"rect": {"min": [0, 0], "max": [3, 4]}}, "rate": 8, "end": 6}],
      "model": {"seed": 5, "duration": 10}})",
                      "source_corridor");
}

class SourceBackend : public ::testing::TestWithParam<Exec> {};

TEST_P(SourceBackend, BirthsKeepDMinFromEveryAgentAndEveryAgentIsCounted) {
    Simulation sim(sourceScene(), GetParam());
    const float dMin = sim.scene().params.d_min;
    std::set<int> seen;
    for (const int id : sim.agents().id) seen.insert(id);
    long long births = 0;
    while (!sim.finished()) {
        sim.step();
        const AgentSnapshot a = sim.agents();
        // persons are conserved: spawned = here + exited
        ASSERT_EQ(sim.spawnedTotal(), a.size() + sim.exitedTotal());
        for (int k = 0; k < a.size(); ++k) {
            if (seen.count(a.id[k])) continue;
            // a newborn is at least d_min from everybody
            ++births;
            seen.insert(a.id[k]);
            EXPECT_GE(a.x[k], 0.f);
            EXPECT_LT(a.x[k], 3.f);
            for (int m = 0; m < a.size(); ++m) {
                if (m == k) continue;
                EXPECT_GE(std::hypot(a.x[k] - a.x[m], a.y[k] - a.y[m]), dMin * 0.999f) << "id " << a.id[k];
            }
        }
    }
    // 8 persons/s for 6 s (the corridor's entrance has room for them)
    EXPECT_GE(births, 40);
    EXPECT_LE(births, 48);
}

INSTANTIATE_TEST_SUITE_P(Backends, SourceBackend, ::testing::ValuesIn(test::testExecs()), test::ExecParamName{});

}  // namespace
}  // namespace ccrowd
