/// @file test_run_outputs.cpp
/// A run's outputs (output/run_outputs.hpp) and `ccrowd run`'s handling of
/// them: snapshots at their times, trajectory frames with every agent, line
/// crossings that match the exits, summary keys; the CLI's errors for bad
/// output arguments, refusal to overwrite, and what a stopped or killed run
/// leaves behind (only complete files under final names).
///
/// Tests that run the simulation are instantiated per backend
/// (tests/backends.hpp): the CPU, and CUDA where a GPU answers, in process
/// and through the CLI (--backend).

#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "backends.hpp"
#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "src/io/npy.hpp"
#include "src/output/run_outputs.hpp"
#include "temp_dir.hpp"

extern char** environ;

namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;

std::string scenePath(const std::string& name) { return std::string(CCROWD_SOURCE_DIR) + "/scenes/" + name + ".json"; }

std::string readText(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

/// Rows of @p table in the SQLite database @p path (-1 when it cannot be read).
long long sqliteRows(const std::string& path, const std::string& table) {
    sqlite3* db = nullptr;
    long long n = -1;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, ("SELECT COUNT(*) FROM " + table).c_str(), -1, &st, nullptr) == SQLITE_OK &&
            sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return n;
}

/// Runs ccrowd with @p args; returns the exit status, stdout+stderr in @p out.
int runCli(const std::string& args, std::string* out) {
    const std::string cmd = std::string(CCROWD_EXE) + " " + args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return -1;
    char buf[4096];
    std::string text;
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
    const int status = pclose(p);
    if (out) *out = text;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// " --backend cpu --threads N" or " --backend cuda".
std::string backendOptions(const Exec& ex) {
    std::string s;
    for (const std::string& a : cliBackendArgs(ex)) s += " " + a;
    return s;
}

class RunOutputsTest : public TempDirTest {};

/// Per backend: the CPU (2 threads) and CUDA where a GPU answers.
class RunOutputsBackend : public TempDirTest, public ::testing::WithParamInterface<Exec> {};

TEST_P(RunOutputsBackend, SnapshotsTrajectoriesAndMeasurementsOfARun) {
    Simulation sim(loadScene(scenePath("room_exit")), GetParam());
    output::OutputOptions o;
    o.dir = dir_.string();
    o.snapshot_every = 0.5;
    o.snapshot_formats = io::SnapshotFormats{true, true, true};
    o.fields = output::parseSnapshotFields(output::kSnapshotFieldNames);  // every field
    o.trajectory_every = 4;
    o.trajectory_sqlite = o.trajectory_text = true;
    long long expectedRows = sim.agentCount();  // frame 0
    {
        output::RunOutputs out(o, sim);
        while (sim.time() < 2.0 - 1e-6) {
            sim.step();
            out.afterStep(sim);
            if (sim.steps() % 4 == 0) expectedRows += sim.agentCount();
        }
        out.finish(sim);
        const nlohmann::json j = out.summary();
        EXPECT_EQ(j["outputs"]["snapshots"], 5);  // t = 0, 0.5, 1, 1.5, 2
        EXPECT_EQ(j["outputs"]["trajectory_frames"], 1 + sim.steps() / 4);
        EXPECT_GT(j["max_density"]["value_per_m2"].get<double>(), 0.0);
        EXPECT_EQ(j["lines"][0]["name"], "door");
    }
    // the series as ParaView and NumPy see it
    const std::string pvd = readText(dir_ / "snapshots.pvd");
    std::size_t datasets = 0;
    for (std::size_t at = pvd.find("<DataSet"); at != std::string::npos; at = pvd.find("<DataSet", at + 1)) ++datasets;
    EXPECT_EQ(datasets, 5u);
    const nlohmann::json index = nlohmann::json::parse(readText(dir_ / "snapshots.json"));
    ASSERT_EQ(index["frames"].size(), 5u);
    const io::NpyFloatArray rho = io::readNpyFloatArray(path("snapshots/frame_000004_density.npy"));
    ASSERT_EQ(rho.shape.size(), 2u);
    EXPECT_EQ(rho.shape[0], sim.grid().ny);
    EXPECT_EQ(rho.shape[1], sim.grid().nx);
    for (std::size_t c = 0; c < rho.data.size(); ++c) ASSERT_EQ(rho.data[c], sim.density().host()[c]) << "cell " << c;
    // the walkable share per cell: the room's open area, 14 m x 10 m less its east wall (two 0.5 m x 4.5 m blocks)
    const io::NpyFloatArray open = io::readNpyFloatArray(path("snapshots/frame_000000_open_fraction.npy"));
    ASSERT_EQ(open.data.size(), rho.data.size());
    double area = 0.0;
    for (float v : open.data) area += static_cast<double>(v) * sim.grid().h * sim.grid().h;
    EXPECT_NEAR(area, 14.0 * 10.0 - 2 * 0.5 * 4.5, 1e-3);
    // every field of every frame in every format
    for (int f = 0; f < 5; ++f) {
        char frame[32];
        std::snprintf(frame, sizeof frame, "snapshots/frame_%06d", f);
        EXPECT_TRUE(fs::exists(path(std::string(frame) + ".vti"))) << frame;
        for (const char* field : {"density", "velocity", "speed", "pressure", "potential_occupants",
                                  "desired_velocity_occupants", "blocked", "open_fraction"}) {
            EXPECT_TRUE(fs::exists(path(std::string(frame) + "_" + field + ".npy"))) << frame << " " << field;
            EXPECT_TRUE(fs::exists(path(std::string(frame) + "_" + field + ".png"))) << frame << " " << field;
        }
    }
    // every agent of every trajectory frame, in both formats
    EXPECT_EQ(sqliteRows(path("trajectories.sqlite"), "trajectory_data"), expectedRows);
    const std::string txt = readText(dir_ / "trajectories.txt");
    long long dataLines = 0;
    std::istringstream lines(txt);
    for (std::string l; std::getline(lines, l);)
        if (!l.empty() && l[0] != '#') ++dataLines;
    EXPECT_EQ(dataLines, expectedRows);
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir_))
        EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

/// Sum of rho h^2 over a density snapshot: the persons on the grid. [Units: persons]
double persons(const io::NpyFloatArray& rho, double h) {
    double n = 0.0;
    for (float v : rho.data) n += static_cast<double>(v) * h * h;
    return n;
}

TEST_P(RunOutputsBackend, SnapshotAtTimeZeroHoldsTheInitialFields) {
    // the initial state's density integrates to the persons standing there,
    // and the potential they follow is already solved (finite at each of them)
    Simulation sim(loadScene(scenePath("room_exit")), GetParam());
    const int present = sim.agentCount();
    ASSERT_GT(present, 100);
    output::OutputOptions o;
    o.dir = dir_.string();
    o.snapshot_every = 1.0;
    o.snapshot_formats = io::SnapshotFormats{false, true, false};
    o.fields = output::parseSnapshotFields("density,potential,desired_velocity,pressure");
    {
        output::RunOutputs out(o, sim);
        sim.step();
        out.afterStep(sim);
        out.finish(sim);
    }
    const double h = sim.grid().h;
    const io::NpyFloatArray rho = io::readNpyFloatArray(path("snapshots/frame_000000_density.npy"));
    EXPECT_NEAR(persons(rho, h), present, 1e-4 * present);
    const io::NpyFloatArray phi = io::readNpyFloatArray(path("snapshots/frame_000000_potential_occupants.npy"));
    const AgentSnapshot a = sim.agents();  // one step later: everybody moved less than a cell
    int finite = 0;
    for (int k = 0; k < a.size(); ++k) {
        int i = 0, j = 0;
        sim.grid().cellOf(a.x[k], a.y[k], i, j);
        finite += std::isfinite(phi.data[static_cast<std::size_t>(i + j * sim.grid().nx)]) ? 1 : 0;
    }
    EXPECT_EQ(finite, a.size());
    const io::NpyFloatArray v = io::readNpyFloatArray(path("snapshots/frame_000000_desired_velocity_occupants.npy"));
    EXPECT_GT(*std::max_element(v.data.begin(), v.data.end()), 0.5f) << "desired velocity at t = 0";
    // no UIC solve before the first step
    const io::NpyFloatArray p = io::readNpyFloatArray(path("snapshots/frame_000000_pressure.npy"));
    EXPECT_EQ(*std::max_element(p.data.begin(), p.data.end()), 0.f);
}

TEST_P(RunOutputsBackend, EveryAgentThatLeavesCrossedTheDoorLine) {
    Scene scene = loadScene(scenePath("room_exit"));
    Simulation sim(std::move(scene), GetParam());
    output::OutputOptions o;
    o.dir = dir_.string();
    output::RunOutputs out(o, sim);
    while (sim.time() < 30.0 && !sim.finished()) {
        sim.step();
        out.afterStep(sim);
    }
    out.finish(sim);
    ASSERT_GT(sim.exitedTotal(), 20);
    // leaving agents are seen at their exit position: net crossings of the
    // door (x = 10.5 m) = agents that left + agents walking on outside
    const AgentSnapshot a = sim.agents();
    long long outside = 0;
    for (int k = 0; k < a.size(); ++k) outside += a.x[k] > 10.5f ? 1 : 0;
    const nlohmann::json door = out.summary()["lines"][0];
    const long long net = door["forward"].get<long long>() - door["backward"].get<long long>();
    EXPECT_EQ(std::llabs(net), sim.exitedTotal() + outside);
    EXPECT_GT(door["peak_specific_flow_per_m_s"].get<double>(), 0.5);
    EXPECT_TRUE(fs::exists(dir_ / "lines.csv"));
    EXPECT_TRUE(fs::exists(dir_ / "areas.csv"));
}

TEST_F(RunOutputsTest, BadOptionsAreInputErrors) {
    Simulation sim(loadScene(scenePath("seed003_single_goal")), Exec{Backend::Cpu, 1});
    output::OutputOptions o;
    o.dir = dir_.string();
    o.snapshot_every = -1.0;
    EXPECT_THROW(output::RunOutputs(o, sim), InputError);
    o.snapshot_every = 1.0;
    o.trajectory_every = -3;
    EXPECT_THROW(output::RunOutputs(o, sim), InputError);
    o.trajectory_every = 1;
    o.measure_interval = 0.0;
    EXPECT_THROW(output::RunOutputs(o, sim), InputError);
    EXPECT_THROW(output::parseSnapshotFields("density,bogus"), InputError);
    EXPECT_THROW(output::parseSnapshotFields("density,density"), InputError);
    EXPECT_THROW(output::parseSnapshotFields(""), InputError);
    EXPECT_THROW(output::parseTrajectoryFormats("sqlite,csv", o), InputError);
    const output::SnapshotFieldSet f = output::parseSnapshotFields("pressure, blocked");
    EXPECT_TRUE(f.pressure && f.blocked && !f.density && !f.potential);
    output::parseTrajectoryFormats("txt", o);
    EXPECT_TRUE(o.trajectory_text && !o.trajectory_sqlite);
}

TEST_F(RunOutputsTest, CliRejectsBadOutputArgumentsNamingThem) {
    const std::string scene = scenePath("seed003_single_goal");
    struct Case {
        std::string args, expect;
    };
    const std::vector<Case> cases = {
        {"--out " + path("a") + " --snapshot-every 1 --fields density,bogus", "--fields"},
        {"--out " + path("b") + " --snapshot-every 1 --snapshot-format vti,gif", "--snapshot-format"},
        {"--out " + path("c") + " --snapshot-every -1", "--snapshot-every"},
        {"--out " + path("d") + " --trajectory-every -2", "--trajectory-every"},
        {"--out " + path("e") + " --trajectory-every 1 --trajectory-format parquet", "--trajectory-format"},
        {"--snapshot-every 1", "--out"},
    };
    for (const Case& c : cases) {
        std::string out;
        EXPECT_EQ(runCli("run " + scene + " --steps 2 --quiet " + c.args, &out), 2) << c.args;
        EXPECT_NE(out.find(c.expect), std::string::npos) << c.args << "\n" << out;
    }
    // nothing was started: no output directory holds a file
    for (const char* d : {"a", "b", "c", "d", "e"}) {
        if (fs::exists(path(d))) {
            EXPECT_TRUE(fs::is_empty(path(d))) << d;
        }
    }
}

TEST_F(RunOutputsTest, CliBadArgumentsExitTwoAndHelpExitsZero) {
    // Parse errors (CLI11's checks) and InputErrors alike exit 2, naming the option.
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"run --threads -1", "--threads"},
        {"run --no-such-option", "--no-such-option"},
        {"bench outputs --duration -1", "--duration"},
        {"bench outputs --repeat 0", "--repeat"},
        {"bench outputs --trajectory-every -3", "--trajectory-every"},
        {"bench outputs --format xml", "--format"},
        {"bench outputs " + path("missing.json"), "missing.json"},
        // NaN passes CLI11's range checks (every comparison with it is false); a NaN duration ran the scene's own
        {"run " + scenePath("seed003_single_goal") + " --quiet --duration nan", "--duration: not a finite number"},
        {"run " + scenePath("seed003_single_goal") + " --quiet --duration inf", "--duration: (not a finite number)"},
        {"run " + scenePath("seed003_single_goal") + " --steps 1 --measure-every nan", "--measure-every: not a finite number"},
        {"bench outputs --duration nan", "--duration: not a finite number"},
        {"bench outputs --snapshot-every nan", "--snapshot-every: not a finite number"},
    };
    for (const auto& [args, expect] : bad) {
        std::string out;
        EXPECT_EQ(runCli(args, &out), 2) << args << "\n" << out;
        EXPECT_NE(out.find(expect), std::string::npos) << args << "\n" << out;
    }
    std::string out;
    EXPECT_EQ(runCli("run --help", &out), 0) << out;
    EXPECT_NE(out.find("--trajectory-every"), std::string::npos) << out;
    EXPECT_EQ(runCli("--version", &out), 0) << out;
}

TEST_P(RunOutputsBackend, BenchOutputsReportsPairedRunsAndEmptiesItsDirectory) {
    // Two pairs of 1 s runs of a small scene, CSV: one header and one row.
    const std::string dir = path("bench");
    std::string out;
    ASSERT_EQ(runCli("bench outputs " + scenePath("seed003_two_groups") + " --duration 1 --repeat 2" +
                         backendOptions(GetParam()) + " --format csv --dir " + dir,
                     &out),
              0)
        << out;
    std::istringstream lines(out);
    std::string line, header, row;
    while (std::getline(lines, line)) {
        if (line.rfind("scene,", 0) == 0) header = line;
        else if (!header.empty() && row.empty()) row = line;
    }
    ASSERT_FALSE(header.empty()) << out;
    std::vector<std::string> names, values;
    for (std::istringstream h(header); std::getline(h, line, ',');) names.push_back(line);
    for (std::istringstream r(row); std::getline(r, line, ',');) values.push_back(line);
    ASSERT_EQ(values.size(), names.size()) << out;
    auto value = [&](const std::string& name) {
        const auto it = std::find(names.begin(), names.end(), name);
        EXPECT_NE(it, names.end()) << name;
        return it == names.end() ? std::string() : values[static_cast<std::size_t>(it - names.begin())];
    };
    // 1 s at the scene's dt, both runs with wall times; the outputs were written and then removed.
    EXPECT_EQ(value("steps"), "20");
    EXPECT_EQ(value("repeat"), "2");
    EXPECT_EQ(value("backend"), backendName(GetParam().backend));
    EXPECT_GT(std::stod(value("wall_s_without")), 0.0);
    EXPECT_GT(std::stod(value("wall_s_with")), 0.0);
    EXPECT_GT(std::stod(value("outputs_mib")), 0.0);
    EXPECT_GT(std::stod(value("overhead_median")), -1.0);
    EXPECT_TRUE(fs::is_directory(dir));
    EXPECT_TRUE(fs::is_empty(dir));
}

TEST_P(RunOutputsBackend, CliRefusesANonEmptyOutputDirectoryWithoutForce) {
    const std::string scene = scenePath("seed003_single_goal") + backendOptions(GetParam()), out = path("run");
    std::string text;
    ASSERT_EQ(runCli("run " + scene + " --steps 3 --quiet --out " + out, &text), 0) << text;
    const std::string keep = write("run/notes.txt", "mine");
    EXPECT_NE(runCli("run " + scene + " --steps 3 --quiet --out " + out, &text), 0);
    EXPECT_NE(text.find("--force"), std::string::npos) << text;
    // --force replaces ccrowd's files and leaves the user's alone
    ASSERT_EQ(runCli("run " + scene + " --steps 5 --quiet --force --out " + out, &text), 0) << text;
    EXPECT_EQ(nlohmann::json::parse(readText(fs::path(out) / "summary.json"))["steps"], 5);
    EXPECT_EQ(readText(keep), "mine");
}

/// Starts ccrowd with @p args in the background.
pid_t spawnCli(const std::vector<std::string>& args) {
    std::vector<std::string> all = {CCROWD_EXE};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    if (posix_spawn(&pid, all[0].c_str(), &fa, nullptr, argv.data(), environ) != 0) pid = -1;
    posix_spawn_file_actions_destroy(&fa);
    return pid;
}

/// Waits until @p file exists (at most 60 s).
bool waitFor(const fs::path& file) {
    for (int k = 0; k < 600; ++k) {
        if (fs::exists(file)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

/// Every file under a final name in @p dir is complete: indexes parse and
/// list existing files, .vti files end with their closing tag, .npy files
/// load, CSV files end with a newline. Returns the number of files checked.
int checkAllComplete(const fs::path& dir) {
    int checked = 0;
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file() || e.path().extension() == ".tmp") continue;
        const std::string ext = e.path().extension().string(), text = readText(e.path());
        ++checked;
        if (ext == ".json") {
            const nlohmann::json j = nlohmann::json::parse(text);  // throws when cut short
            if (e.path().filename() != "snapshots.json") continue;
            for (const auto& f : j["frames"]) {
                if (f.contains("vti") && f["vti"].is_string()) {
                    EXPECT_TRUE(fs::exists(dir / f["vti"].get<std::string>()));
                }
            }
        } else if (ext == ".vti" || ext == ".pvd") {
            EXPECT_NE(text.rfind("</VTKFile>"), std::string::npos) << e.path();
        } else if (ext == ".npy") {
            EXPECT_NO_THROW(io::readNpyFloatArray(e.path().string())) << e.path();
        } else if (ext == ".csv") {
            EXPECT_TRUE(!text.empty() && text.back() == '\n') << e.path();
        }
    }
    return checked;
}

TEST_P(RunOutputsBackend, CliRunWritesEverySnapshotFormatAndTrajectories) {
    // the report's job on this backend: snapshots every 0.5 s in every format, trajectories in both
    const std::string out = path("run");
    std::string text;
    ASSERT_EQ(runCli("run " + scenePath("room_exit") + " --steps 20 --quiet" + backendOptions(GetParam()) +
                         " --snapshot-every 0.5 --snapshot-format vti,npy,png --fields density,potential,desired_velocity"
                         " --trajectory-every 5 --trajectory-format sqlite,txt --out " + out,
                     &text),
              0)
        << text;
    const nlohmann::json summary = nlohmann::json::parse(readText(fs::path(out) / "summary.json"));
    EXPECT_EQ(summary["backend"], backendName(GetParam().backend));
    EXPECT_EQ(summary["outputs"]["snapshots"], 3);  // t = 0, 0.5, 1
    for (const char* f : {"snapshots/frame_000002.vti", "snapshots/frame_000002_density.npy",
                          "snapshots/frame_000002_potential_occupants.png", "trajectories.sqlite", "trajectories.txt"})
        EXPECT_TRUE(fs::exists(fs::path(out) / f)) << f;
    EXPECT_EQ(sqliteRows(out + "/trajectories.sqlite", "trajectory_data"), 5 * 200);  // frames 0, 5, 10, 15, 20
    // frame 0 holds the initial density: the 200 persons of the room
    const Scene scene = loadScene(scenePath("room_exit"));
    EXPECT_NEAR(persons(io::readNpyFloatArray(out + "/snapshots/frame_000000_density.npy"), scene.cell), 200.0, 0.02);
    EXPECT_GT(checkAllComplete(fs::path(out)), 10);
}

TEST_P(RunOutputsBackend, StoppedRunKeepsCompleteFilesAndAKilledRunLeavesNoPartialOne) {
    std::vector<std::string> common = {"run", scenePath("room_exit"), "--snapshot-every", "0.1",
                                       "--snapshot-format", "vti,npy", "--trajectory-every", "1", "--quiet"};
    for (const std::string& arg : cliBackendArgs(GetParam())) common.push_back(arg);
    // SIGTERM: a clean stop, every file complete and in place
    std::vector<std::string> a = common;
    a.insert(a.end(), {"--out", path("term")});
    pid_t pid = spawnCli(a);
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(waitFor(dir_ / "term" / "snapshots" / "frame_000003.vti"));
    ::kill(pid, SIGTERM);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 130);
    EXPECT_GT(checkAllComplete(dir_ / "term"), 5);
    EXPECT_GT(sqliteRows(path("term/trajectories.sqlite"), "trajectory_data"), 0);
    EXPECT_TRUE(nlohmann::json::parse(readText(dir_ / "term" / "summary.json"))["interrupted"].get<bool>());
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir_ / "term"))
        EXPECT_NE(e.path().extension(), ".tmp") << e.path();
    // SIGKILL mid-run: whatever carries a final name is complete
    std::vector<std::string> b = common;
    b.insert(b.end(), {"--out", path("kill")});
    pid = spawnCli(b);
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(waitFor(dir_ / "kill" / "snapshots" / "frame_000003.vti"));
    ::kill(pid, SIGKILL);
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status));
    EXPECT_GT(checkAllComplete(dir_ / "kill"), 5);
    EXPECT_FALSE(fs::exists(dir_ / "kill" / "trajectories.sqlite"));  // never renamed into place
}

INSTANTIATE_TEST_SUITE_P(PerBackend, RunOutputsBackend, ::testing::ValuesIn(oneExecPerBackend(2)), ExecParamName{});

}  // namespace
}  // namespace ccrowd::test
