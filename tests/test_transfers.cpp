/// @file test_transfers.cpp
/// The transfer ledger (include/ccrowd/device_memory.hpp) and the stage
/// timers (src/sim/stage_clock.hpp), issue 11 items 1 and 3.
///
/// The ledger counts, on every backend, the host and device copies the
/// simulation asks for through Field/Array::toHost/toDevice (the CPU moves
/// nothing but asks exactly what CUDA asks), and the bytes that really move
/// on the CUDA backend. So the step's orchestration is checked here on a
/// machine without a GPU: a steady-state step must ask for no copy of a
/// field, and outputs must ask for exactly the fields they write, when they
/// write them.

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "backends.hpp"
#include "ccrowd/config.hpp"
#include "ccrowd/device_memory.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "src/output/run_outputs.hpp"
#include "ccrowd/agent_columns.hpp"
#include "src/sim/stage_clock.hpp"
#include "temp_dir.hpp"

namespace ccrowd {
namespace {

using device::Copy;
using device::Payload;

std::string scenePath(const std::string& name) { return std::string(CCROWD_SOURCE_DIR) + "/scenes/" + name + ".json"; }

/// Agent columns of the agent table (ccrowd/agent_columns.hpp).
constexpr std::uint64_t kAgentColumns = kAgentColumnCount;

TEST(TransferLedger, CountsRequestsOnTheCpuAndMovesNothing) {
    const Exec cpu{Backend::Cpu, 1};
    Field<float> f(8, 4, 1.f);
    Array<int> a(10, 3);
    const device::TransferCounts before = device::transferCounts();
    f.toHost(cpu);
    f.toDevice(cpu);
    f.toDevice(cpu);
    a.toHost(cpu);
    const device::TransferCounts d = device::transferCounts() - before;
    EXPECT_EQ(d.requestsOf(Copy::ToHost, Payload::Field), 1u);
    EXPECT_EQ(d.requestsOf(Copy::ToDevice, Payload::Field), 2u);
    EXPECT_EQ(d.requestsOf(Copy::ToHost, Payload::Array), 1u);
    EXPECT_EQ(d.requestsOf(Copy::ToDevice, Payload::Array), 0u);
    EXPECT_EQ(d.requested_bytes[static_cast<int>(Copy::ToHost)][static_cast<int>(Payload::Field)], 8u * 4u * sizeof(float));
    EXPECT_EQ(d.requested_bytes[static_cast<int>(Copy::ToDevice)][static_cast<int>(Payload::Field)], 2u * 8u * 4u * sizeof(float));
    EXPECT_EQ(d.requested_bytes[static_cast<int>(Copy::ToHost)][static_cast<int>(Payload::Array)], 10u * sizeof(int));
    EXPECT_EQ(d.movedBytes(), 0u);
    EXPECT_EQ(d.copies, 0u);
    // the values stay (nothing was copied over them)
    EXPECT_EQ(f(7, 3), 1.f);
    EXPECT_EQ(a[9], 3);
    // countCopy: what moves, by direction
    device::countCopy(Copy::ToHost, 12);
    device::countCopy(Copy::ToDevice, 5);
    const device::TransferCounts e = device::transferCounts() - before;
    EXPECT_EQ(e.to_host_bytes, 12u);
    EXPECT_EQ(e.to_device_bytes, 5u);
    EXPECT_EQ(e.copies, 2u);
}

TEST(TransferLedger, CountsPerThread) {
    // a simulation stepped on another thread does not show in this thread's counts
    const device::TransferCounts before = device::transferCounts();
    std::thread t([] { device::countCopy(Copy::ToHost, 1000); });
    t.join();
    EXPECT_EQ((device::transferCounts() - before).to_host_bytes, 0u);
}

/// The same orchestration on the CPU: what a steady-state step asks for.
TEST(TransferLedger, SteadyStateStepAsksForNoFieldOrAgentColumnCopy) {
    Simulation sim(loadScene(scenePath("seed003_single_goal")), Exec{Backend::Cpu, 2});
    const std::uint64_t recordBytes = 4u * (2u + static_cast<std::uint64_t>(sim.fieldCount()));
    for (int k = 0; k < 3; ++k) sim.step();  // past the first step's uploads
    for (int k = 0; k < 10; ++k) {
        const long long exited = sim.exitedTotal(), spawned = sim.spawnedTotal();
        sim.step();
        ASSERT_EQ(sim.exitedTotal(), exited);
        ASSERT_EQ(sim.spawnedTotal(), spawned);
        const StepReport& r = sim.lastReport();
        const device::TransferCounts& d = r.transfers;
        // no grid field and no agent column goes either way in a step
        EXPECT_EQ(d.requestsOf(Copy::ToHost, Payload::Field), 0u) << "step " << sim.steps();
        EXPECT_EQ(d.requestsOf(Copy::ToDevice, Payload::Field), 0u) << "step " << sim.steps();
        EXPECT_EQ(d.requestsOf(Copy::ToHost, Payload::Array), 0u) << "step " << sim.steps();
        EXPECT_EQ(d.requestsOf(Copy::ToDevice, Payload::Array), 0u) << "step " << sim.steps();
        // the host reads one small record: agents kept and left, fields in use
        EXPECT_EQ(d.requestsOf(Copy::ToHost, Payload::Record), 1u) << "step " << sim.steps();
        EXPECT_EQ(d.requested_bytes[static_cast<int>(Copy::ToHost)][static_cast<int>(Payload::Record)], recordBytes);
        // the CPU moves nothing
        EXPECT_EQ(r.host_device_bytes, 0u);
        EXPECT_EQ(d.movedBytes(), 0u);
    }
}

// Issue 11, Deliver 5: at most 64 bytes per agent (the table and the
// buffers of the agent sort, the exits' compaction and the operational
// model), here with the UIC on a plain scene and on a route-choice town
// (whose junction columns are 16 bits: 68 bytes when they were 32).
TEST(AgentMemory, AtMost64BytesPerAgentWithTheUicAndWithRouteChoice) {
    for (const char* name : {"seed003_single_goal", "old_town_small"}) {
        Simulation sim(loadScene(scenePath(name)), Exec{Backend::Cpu, 2});
        for (int k = 0; k < 3; ++k) sim.step();
        ASSERT_GT(sim.agentCount(), 0) << name;
        std::printf("[ measured ] %s: %zu bytes per agent\n", name, sim.agentBytes());
        EXPECT_LE(sim.agentBytes(), 64u) << name;
    }
}

TEST(TransferLedger, ExitsAreCompactedOnTheBackendAndOnlyTheirRowsComeBack) {
    Simulation sim(loadScene(scenePath("room_exit")), Exec{Backend::Cpu, 2});
    // step until somebody leaves: that step reads the record and the leavers' rows, nothing else
    long long exited = 0;
    while (exited == 0 && sim.time() < 60.0) {
        sim.step();
        exited = sim.exitedTotal();
    }
    ASSERT_GT(exited, 0);
    const device::TransferCounts& d = sim.lastReport().transfers;
    EXPECT_EQ(d.requestsOf(Copy::ToHost, Payload::Record), 2u);
    EXPECT_EQ(d.requested_bytes[static_cast<int>(Copy::ToHost)][static_cast<int>(Payload::Record)],
              4u * (2u + static_cast<std::uint64_t>(sim.fieldCount())) + 16u * static_cast<std::uint64_t>(exited));
    EXPECT_EQ(d.requestsOf(Copy::ToHost, Payload::Array), 0u);
    EXPECT_EQ(d.requestsOf(Copy::ToDevice, Payload::Array), 0u);
    EXPECT_EQ(d.requestsOf(Copy::ToDevice, Payload::Field), 0u);
    // the next step uploads nothing either: the table stayed on the backend's side
    sim.step();
    EXPECT_EQ(sim.lastReport().transfers.requestsOf(Copy::ToDevice, Payload::Array), 0u);
}

class OutputTransfers : public test::TempDirTest {};

TEST_F(OutputTransfers, OutputsAskForTheFieldsTheyWriteWhenTheyWriteThem) {
    Simulation sim(loadScene(scenePath("room_exit")), Exec{Backend::Cpu, 2});
    const std::uint64_t gridBytes = static_cast<std::uint64_t>(sim.grid().nx) * sim.grid().ny * sizeof(float);
    output::OutputOptions o;
    o.dir = dir_.string();
    o.snapshot_every = 0.5;  // every 10 steps at dt = 0.05 s
    o.snapshot_formats = io::SnapshotFormats{false, true, false};
    o.fields = output::parseSnapshotFields("density,pressure");
    o.trajectory_every = 1;  // agents every step: every column comes to the host once per step
    device::TransferCounts before = device::transferCounts();
    output::RunOutputs out(o, sim);  // frame 0
    device::TransferCounts d = device::transferCounts() - before;
    EXPECT_EQ(d.requestsOf(Copy::ToHost, Payload::Field), 2u);
    EXPECT_EQ(d.requested_bytes[static_cast<int>(Copy::ToHost)][static_cast<int>(Payload::Field)], 2 * gridBytes);
    for (int k = 1; k <= 20; ++k) {
        sim.step();
        before = device::transferCounts();
        out.afterStep(sim);
        d = device::transferCounts() - before;
        const bool snapshot = k % 10 == 0;
        EXPECT_EQ(d.requestsOf(Copy::ToHost, Payload::Field), snapshot ? 2u : 0u) << "step " << k;
        EXPECT_EQ(d.requestsOf(Copy::ToHost, Payload::Array), kAgentColumns) << "step " << k;
        EXPECT_EQ(d.requestsOf(Copy::ToDevice, Payload::Field), 0u) << "step " << k;
    }
    out.finish(sim);
}

TEST(StageClock, CpuChargesEachStageItsOwnTime) {
    sim::StageClock clock(Exec{Backend::Cpu, 1}, 3);
    double total[3] = {0.0, 0.0, 0.0};
    clock.begin(0);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    clock.end(0);
    clock.begin(2);
    clock.end(2);
    clock.collect(total);
    EXPECT_GE(total[0], 29.0);
    EXPECT_EQ(total[1], 0.0);
    EXPECT_LT(total[2], 20.0);
    // collected once: a second collect adds nothing
    const double first = total[0];
    clock.collect(total);
    EXPECT_EQ(total[0], first);
}

/// Per backend: the stage times of whole steps add up to at most the steps'
/// wall time (stages do not overlap) and account for most of it.
class StageTimesBackend : public ::testing::TestWithParam<Exec> {};

TEST_P(StageTimesBackend, StagesAccountForTheStepsWallTime) {
    Simulation sim(loadScene(scenePath("room_exit")), GetParam());
    sim.step();  // first-use allocations
    const StageTimes before = sim.times();
    const int steps = 10;
    const auto t0 = std::chrono::steady_clock::now();
    for (int k = 0; k < steps; ++k) sim.step();
    const double wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    double stages = 0.0;
    ASSERT_EQ(sim.times().names, sim.stageNames());
    for (std::size_t s = 0; s < sim.stageNames().size(); ++s) {
        const double ms = sim.times().total_ms[s] - before.total_ms[s];
        EXPECT_GE(ms, 0.0) << sim.stageNames()[s];
        stages += ms;
    }
    EXPECT_EQ(sim.times().steps - before.steps, steps);
    EXPECT_LE(stages, wall * 1.01 + 0.1);
    EXPECT_GT(stages, 0.5 * wall);
    // the step report's bytes: nothing on the CPU, the ledger's moved bytes on CUDA
    const StepReport& r = sim.lastReport();
    EXPECT_EQ(r.host_device_bytes, r.transfers.movedBytes());
    if (GetParam().backend == Backend::Cpu) EXPECT_EQ(r.host_device_bytes, 0u);
    else EXPECT_GT(r.host_device_bytes, 0u);  // the step record
}

INSTANTIATE_TEST_SUITE_P(Backends, StageTimesBackend, ::testing::ValuesIn(test::testExecs()), test::ExecParamName{});

/// Runs ccrowd with @p args; returns the exit status, stdout+stderr in @p out.
int runCli(const std::string& args, std::string* out) {
    FILE* p = popen((std::string(CCROWD_EXE) + " " + args + " 2>&1").c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out->append(buf, n);
    const int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// The columns of the first CSV row of `bench step`'s output @p out that
/// starts with @p prefix, by the names of the header above it (the notes
/// on stderr skipped); empty when there is none or it does not fit.
std::map<std::string, std::string> csvRow(const std::string& out, const std::string& prefix) {
    std::istringstream lines(out);
    std::string line, header, row;
    while (std::getline(lines, line)) {
        if (line.rfind("agents,", 0) == 0) header = line;
        else if (!header.empty() && row.empty() && line.rfind(prefix, 0) == 0) row = line;
    }
    std::vector<std::string> names, values;
    for (std::istringstream h(header); std::getline(h, line, ',');) names.push_back(line);
    for (std::istringstream r(row); std::getline(r, line, ',');) values.push_back(line);
    std::map<std::string, std::string> m;
    if (values.size() == names.size())
        for (std::size_t k = 0; k < names.size(); ++k) m[names[k]] = values[k];
    return m;
}

/// `ccrowd bench step` per backend: a column per stage and the bytes moved
/// between host and device per step.
class BenchStepBackend : public ::testing::TestWithParam<Exec> {};

TEST_P(BenchStepBackend, ReportsStagesAndHostDeviceBytes) {
    std::string args = "bench step --agents 400 --cells 32 --groups 1 --steps 2 --warmup 1 --format csv";
    for (const std::string& a : test::cliBackendArgs(GetParam())) args += " " + a;
    std::string out;
    ASSERT_EQ(runCli(args, &out), 0) << out;
    const std::map<std::string, std::string> cols = csvRow(out, "400,");
    ASSERT_FALSE(cols.empty()) << out;
    auto value = [&](const std::string& name) {
        const auto it = cols.find(name);
        if (it != cols.end()) return it->second;
        ADD_FAILURE() << "no column " << name << " in " << out;
        return std::string("nan");
    };
    EXPECT_EQ(value("backend"), backendName(GetParam().backend));
    const Simulation ref(loadScene(scenePath("room_exit")), Exec{Backend::Cpu, 1});
    for (const std::string& st : ref.stageNames()) EXPECT_GE(std::stod(value("ms_" + st)), 0.0);
    // the potential's work: phases, and each phase's longest tile at most 8 sweeps (the budget)
    EXPECT_GT(std::stod(value("fim_phases")), 0.0);
    EXPECT_GT(std::stod(value("fim_critical_sweeps")), 0.0);
    EXPECT_LE(std::stod(value("fim_critical_sweeps")), 8.0 * std::stod(value("fim_phases")));
    // ... and at most a tile's 63 fronts per sweep
    EXPECT_GT(std::stod(value("fim_critical_fronts")), 0.0);
    EXPECT_LE(std::stod(value("fim_critical_fronts")), 63.0 * std::stod(value("fim_critical_sweeps")));
    const double bytes = std::stod(value("host_device_bytes_per_step"));
    if (GetParam().backend == Backend::Cpu) EXPECT_EQ(bytes, 0.0);
    else EXPECT_GT(bytes, 0.0);
}

/// `ccrowd bench step --profile-cuda`: on CUDA, after the timed steps, one
/// `profile,` line per configuration for the potential solve of one more
/// step (its phases, its kernel's time, the time per front walked); on the
/// CPU, which has no kernel to time, none. The timed row comes either way.
TEST_P(BenchStepBackend, ProfileCudaTimesOneStepsSolveKernelOnCudaOnly) {
    std::string args = "bench step --agents 400 --cells 64 --groups 2 --steps 2 --warmup 1 --format csv --profile-cuda";
    for (const std::string& a : test::cliBackendArgs(GetParam())) args += " " + a;
    std::string out;
    ASSERT_EQ(runCli(args, &out), 0) << out;
    EXPECT_FALSE(csvRow(out, "400,").empty()) << out;
    const std::string header = "profile,agents,cells,groups,local,scene,phases,kernel_us,select_us,process_us,"
                               "slowest_tiles_us,tiles,stage_us,sweep_us,front_ns,tail_us,clock_ghz\n";
    if (GetParam().backend != Backend::Cuda) {
        EXPECT_EQ(out.find("profile,"), std::string::npos) << out;
        return;
    }
    ASSERT_NE(out.find(header), std::string::npos) << out;
    const std::size_t at = out.find("profile,400,64,2,uic,synthetic,");
    ASSERT_NE(at, std::string::npos) << out;
    std::vector<std::string> f;
    std::istringstream line(out.substr(at, out.find('\n', at) - at));
    for (std::string x; std::getline(line, x, ',');) f.push_back(x);
    ASSERT_EQ(f.size(), 17u) << out;
    EXPECT_GT(std::stoi(f[6]), 0) << "phases";
    EXPECT_GT(std::stod(f[7]), 0.0) << "kernel_us";
    EXPECT_GT(std::stod(f[14]), 0.0) << "front_ns";
}

INSTANTIATE_TEST_SUITE_P(Backends, BenchStepBackend, ::testing::ValuesIn(test::oneExecPerBackend(1)), test::ExecParamName{});

/// `ccrowd bench step --stencil`: 8 runs (the potential stage then solves
/// the 8-neighbour equation), anything but 4 or 8 is refused naming the option.
TEST(BenchStep, StencilOptionRunsAndRefusesOtherValues) {
    const std::string args = "bench step --agents 400 --cells 32 --groups 1 --steps 1 --warmup 0 --backend cpu --format csv";
    std::string out;
    EXPECT_EQ(runCli(args + " --stencil 8", &out), 0) << out;
    EXPECT_NE(out.find("400,32,1,cpu"), std::string::npos) << out;
    for (const char* bad : {"--stencil 6", "--stencil eight"}) {
        EXPECT_NE(runCli(args + " " + bad, &out), 0) << bad;
        EXPECT_NE(out.find("--stencil"), std::string::npos) << bad << ": " << out;
    }
}

/// `ccrowd bench step --sweeps / --band-tiles / --front-budget`: the budgets
/// reach the solve (2 sweeps: no phase's longest tile above 2; one front:
/// one sweep), out-of-range values are refused naming the option.
TEST(BenchStep, SweepsAndBandOptionsReachTheSolveAndRefuseOtherValues) {
    const std::string args = "bench step --agents 1000 --cells 64 --groups 2 --steps 1 --warmup 1 --backend cpu --format csv";
    std::string out;
    ASSERT_EQ(runCli(args + " --sweeps 2 --band-tiles 1", &out), 0) << out;
    std::map<std::string, std::string> cols = csvRow(out, "1000,");
    ASSERT_EQ(cols.count("fim_phases"), 1u) << out;
    const double phases = std::stod(cols["fim_phases"]);
    EXPECT_GT(phases, 0.0) << out;
    EXPECT_LE(std::stod(cols["fim_critical_sweeps"]), 2.0 * phases) << out;
    // a crowd the synthetic scene cannot hold: the error names the scene
    EXPECT_NE(runCli("bench step --agents 2000 --cells 64 --groups 2 --steps 1 --backend cpu", &out), 0) << out;
    EXPECT_NE(out.find("bench step's synthetic scene (2000 agents, 64^2 cells, 2 groups): /groups/0/count"),
              std::string::npos) << out;
    // a front budget of one front: every activation one sweep, as --sweeps 1
    std::string one;
    ASSERT_EQ(runCli(args + " --front-budget 1", &one), 0) << one;
    cols = csvRow(one, "1000,");
    ASSERT_EQ(cols.count("fim_phases"), 1u) << one;
    EXPECT_LE(std::stod(cols["fim_critical_sweeps"]), std::stod(cols["fim_phases"])) << one;
    for (const char* bad : {"--sweeps 0", "--sweeps 65", "--band-tiles -1", "--band-tiles nan", "--front-budget -1",
                            "--front-budget 1.5"}) {
        EXPECT_NE(runCli(args + " " + bad, &out), 0) << bad;
        const std::string opt = std::string(bad).substr(0, std::string(bad).find(' '));
        EXPECT_NE(out.find(opt), std::string::npos) << bad << ": " << out;
    }
}

}  // namespace
}  // namespace ccrowd
