/// @file run_command.cpp
/// `ccrowd run [SCENE]`: a headless run of a scene with progress, a summary
/// and, with --out, summary.json and exits.csv. Ctrl-C stops cleanly after
/// the current step and keeps what was written.

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <memory>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "io/run_summary.hpp"

namespace ccrowd::cli {

namespace {

std::atomic<bool> g_stop{false};
extern "C" void onInterrupt(int) { g_stop.store(true); }

/// Creates @p dir (and parents) or checks it is a writable directory.
void prepareOutDir(const std::string& dir) {
    std::string path;
    for (std::size_t k = 0; k <= dir.size(); ++k) {
        if (k < dir.size() && dir[k] != '/') continue;
        path = dir.substr(0, k);
        if (path.empty()) continue;
        if (::mkdir(path.c_str(), 0777) != 0 && errno != EEXIST)
            throw InputError(fieldMessage("--out", "'" + dir + "'", "cannot create '" + path + "': " + std::strerror(errno),
                                          "a writable directory"));
    }
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw InputError(fieldMessage("--out", "'" + dir + "'", "not a directory", "a writable directory"));
}

int runScene(const std::string& scenePath, double duration, long long steps, const std::string& backend, int threads,
             const std::string& out, bool quiet) {
    // load and check everything before the first step: a bad scene never starts a half-run
    Scene scene = loadScene(scenePath);
    if (duration > 0) scene.params.duration = duration;
    if (steps >= 0) {
        scene.params.max_steps = steps;
        if (duration <= 0) scene.params.duration = 1e30;
    }
    std::string note;
    const Exec ex = selectBackend(parseBackendChoice(backend), threads, &note);
    if (!note.empty() && !quiet) std::cerr << "note: " << note << "\n";
    if (!out.empty()) prepareOutDir(out);
    Simulation sim(std::move(scene), ex);
    if (!quiet)
        std::cerr << "scene " << scenePath << ": " << sim.grid().nx << " x " << sim.grid().ny << " cells of " << sim.grid().h
                  << " m, " << sim.agentCount() << " agents in " << sim.scene().groups.size() << " groups, dt "
                  << sim.scene().params.dt << " s\n";

    // step until done or interrupted
    g_stop.store(false);
    auto previous = std::signal(SIGINT, onInterrupt);
    const double total = sim.scene().params.max_steps >= 0 ? std::min(sim.scene().params.duration,
                                                                       sim.scene().params.max_steps * static_cast<double>(sim.scene().params.dt))
                                                           : sim.scene().params.duration;
    Progress progress(stderr, total, quiet);
    const auto t0 = std::chrono::steady_clock::now();
    while (!sim.finished() && !g_stop.load()) {
        sim.step();
        progress.update(sim.time(), sim.steps(), sim.agentCount(), sim.exitedTotal());
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    progress.finish();
    std::signal(SIGINT, previous);
    const bool interrupted = g_stop.load();

    // report and keep what was written
    io::printSummary(std::cout, sim, wall, interrupted);
    if (!out.empty()) {
        io::writeSummary(out, sim, wall, interrupted);
        if (!quiet) std::cerr << "wrote " << out << "/summary.json and " << out << "/exits.csv\n";
    }
    return interrupted ? 130 : 0;
}

}  // namespace

void addRunCommand(CLI::App& app, Commands& commands) {
    CLI::App* run = app.add_subcommand(
        "run", "Run a scene headless: continuum crowds (Treuille 2006) with UIC pressure (Narain 2009). Prints progress and "
               "a summary (agents spawned/exited/remaining, evacuation time per group, steps/s, mean ms per stage).");
    struct Args {
        std::string scene, backend = "auto", out;
        double duration = -1;
        long long steps = -1;
        int threads = 0;
        bool quiet = false;
    };
    auto a = std::make_shared<Args>();
    run->add_option("scene", a->scene, "Scene file (JSON, see scenes/README.md); default: the bundled default scene");
    auto* dur = run->add_option("--duration", a->duration, "Simulated seconds to run (overrides the scene)")
                    ->check(CLI::PositiveNumber);
    run->add_option("--steps", a->steps, "Number of steps to run (overrides the scene)")->check(CLI::Range(0LL, 1LL << 40))->excludes(dur);
    run->add_option("--backend", a->backend, "auto (CUDA when a GPU works, else CPU), cpu, or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    run->add_option("--threads", a->threads, "CPU threads (0 = all cores)")->check(CLI::Range(0, 1024))->capture_default_str();
    run->add_option("--out", a->out, "Output directory for summary.json and exits.csv (created if missing)");
    run->add_flag("--quiet", a->quiet, "No progress or notes on stderr");
    run->callback([a, &commands] {
        commands.action = [a] {
            const std::string scene = a->scene.empty() ? defaultScenePath() : a->scene;
            return runScene(scene, a->duration, a->steps, a->backend, a->threads, a->out, a->quiet);
        };
    });
}

}  // namespace ccrowd::cli
