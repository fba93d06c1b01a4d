/// @file run_command.cpp
/// `ccrowd run [SCENE]`: a headless run of a scene with progress, a summary
/// and, with --out, summary.json, exits.csv, the measurements, and field
/// snapshots and trajectories on request (output/run_outputs.hpp). Ctrl-C
/// (or SIGTERM) stops cleanly after the current step and keeps what was
/// written; so does a failed write (e.g. a full disk), with an error.

#include <algorithm>
#include <atomic>
#include <csignal>
#include <iomanip>
#include <iostream>
#include <memory>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "cli/commands.hpp"
#include "cli/progress.hpp"
#include "io/run_summary.hpp"
#include "io/snapshot_formats.hpp"
#include "output/run.hpp"

namespace ccrowd::cli {

namespace {

std::atomic<bool> g_stop{false};
extern "C" void onInterrupt(int) { g_stop.store(true); }

/// What `ccrowd run` was asked for.
struct RunArgs {
    std::string scene, backend = "auto", out;
    double duration = -1;
    long long steps = -1;
    int threads = 0;
    bool quiet = false, force = false;
    double snapshotEvery = 0.0, measureEvery = 1.0;
    std::string snapshotFormats = "vti", fields = "density,velocity,pressure,potential", trajectoryFormats = "sqlite";
    long long trajectoryEvery = 0;
};

int runScene(const RunArgs& args) {
    // load and check everything before the first step: a bad scene never starts a half-run
    const std::string scenePath = args.scene.empty() ? defaultScenePath() : args.scene;
    Scene scene = loadScene(scenePath);
    if (args.duration > 0) scene.params.duration = args.duration;
    if (args.steps >= 0) {
        scene.params.max_steps = args.steps;
        if (args.duration <= 0) scene.params.duration = 1e30;
    }
    const bool outputsAsked = args.snapshotEvery > 0 || args.trajectoryEvery > 0;
    if (outputsAsked && args.out.empty())
        throw InputError(fieldMessage("--snapshot-every/--trajectory-every", "set", "needs an output directory", "--out DIR"));
    output::RunSetup setup;
    setup.outputs = output::outputOptions(args.out, args.snapshotEvery, args.snapshotFormats, args.fields, args.trajectoryEvery,
                                          args.trajectoryFormats, args.measureEvery);
    setup.force = args.force;
    std::string note;
    const Exec ex = selectBackend(parseBackendChoice(args.backend), args.threads, &note);
    if (!note.empty() && !args.quiet) std::cerr << "note: " << note << "\n";
    output::Run run(std::move(scene), ex, setup);
    const Simulation& sim = run.sim();
    if (!args.quiet)
        std::cerr << "scene " << scenePath << ": " << sim.grid().nx << " x " << sim.grid().ny << " cells of " << sim.grid().h
                  << " m, " << sim.agentCount() << " agents in " << sim.scene().groups.size() << " groups, dt "
                  << sim.scene().params.dt << " s\n";

    // step until done, interrupted, or a write fails
    g_stop.store(false);
    auto previousInt = std::signal(SIGINT, onInterrupt);
    auto previousTerm = std::signal(SIGTERM, onInterrupt);
    const ModelParams& mp = sim.scene().params;
    const double total = mp.max_steps >= 0 ? std::min(mp.duration, mp.max_steps * static_cast<double>(mp.dt)) : mp.duration;
    Progress progress(stderr, total, args.quiet);
    while (!sim.finished() && !g_stop.load()) {
        if (!run.step()) break;
        progress.update(sim.time(), sim.steps(), sim.agentCount(), sim.exitedTotal());
    }
    // close the outputs and write summary.json / exits.csv
    const bool interrupted = g_stop.load() || !run.writeError().empty();
    run.finish(interrupted);
    const double wall = run.wallSeconds();
    progress.finish();
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);

    // report and keep what was written
    io::printSummary(std::cout, sim, wall, interrupted);
    if (const output::RunOutputs* outputs = run.outputs()) {
        std::cout << "outputs: " << std::fixed << std::setprecision(2) << outputs->seconds() << " s writing on the run's thread ("
                  << std::setprecision(1) << 100.0 * outputs->seconds() / std::max(wall, 1e-9)
                  << "% of wall time, waits for the trajectory database included)";
        if (outputs->backgroundSeconds() > 0)
            std::cout << std::setprecision(2) << "; the trajectory database's worker used " << outputs->backgroundCpuSeconds()
                      << " s of CPU (" << std::setprecision(1) << 100.0 * outputs->backgroundCpuSeconds() / std::max(wall, 1e-9)
                      << "% of wall time) beside the simulation";
        std::cout << "\n";
        std::cout.unsetf(std::ios::floatfield);
        if (!args.quiet) {
            std::cerr << "wrote " << args.out << "/: summary.json, exits.csv";
            for (const std::string& f : outputs->files()) std::cerr << ", " << f;
            std::cerr << "\n";
        }
    }
    const std::string& writeError = run.writeError();
    if (!writeError.empty()) {
        std::cerr << "error: " << writeError << "\nthe run stopped at t = " << sim.time()
                  << " s; files completed before the error are kept\n";
        return 1;
    }
    return g_stop.load() ? 130 : 0;
}

}  // namespace

void addRunCommand(CLI::App& app, Commands& commands) {
    CLI::App* run = app.add_subcommand(
        "run", "Run a scene headless: continuum crowds (Treuille 2006) with UIC pressure (Narain 2009). Prints progress and "
               "a summary (agents spawned/exited/remaining, evacuation time per group, steps/s, mean ms per stage).");
    auto a = std::make_shared<RunArgs>();
    run->add_option("scene", a->scene, "Scene file (JSON, see scenes/README.md); default: the bundled default scene");
    auto* dur = run->add_option("--duration", a->duration, "Simulated seconds to run (overrides the scene)")
                    ->check(finiteNumber() & CLI::PositiveNumber);
    run->add_option("--steps", a->steps, "Number of steps to run (overrides the scene)")->check(CLI::Range(0LL, 1LL << 40))->excludes(dur);
    run->add_option("--backend", a->backend, "auto (CUDA when a GPU works, else CPU), cpu, or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    run->add_option("--threads", a->threads, "CPU threads (0 = all cores)")->check(CLI::Range(0, 1024))->capture_default_str();
    run->add_option("--out", a->out,
                    "Output directory (created if missing; must be new or empty unless --force): summary.json, exits.csv, "
                    "lines.csv / areas.csv for the scene's measurement lines and areas, and the snapshots and "
                    "trajectories asked for below. Every file is written whole (temporary name, then rename)");
    run->add_flag("--force", a->force, "Write into an existing --out directory, replacing ccrowd's previous outputs there");
    run->add_option("--snapshot-every", a->snapshotEvery,
                    "Field snapshot interval in simulated seconds (0 = none), from t = 0")
        ->check(finiteNumber() & CLI::Range(0.0, 1e9));
    run->add_option("--snapshot-format", a->snapshotFormats,
                    "Comma-separated snapshot formats: vti (VTK ImageData, one file per snapshot, + snapshots.pvd for "
                    "ParaView), npy (one NumPy array per field, + snapshots.json index), png (heat maps)")
        ->capture_default_str();
    run->add_option("--fields", a->fields,
                    std::string("Comma-separated snapshot fields: ") + output::kSnapshotFieldNames +
                        " (potential and desired_velocity: one per group)")
        ->capture_default_str();
    run->add_option("--trajectory-every", a->trajectoryEvery, "Trajectory frame interval in steps (0 = none)")
        ->check(CLI::Range(0LL, 1LL << 40));
    run->add_option("--trajectory-format", a->trajectoryFormats,
                    "Comma-separated: sqlite (JuPedSim trajectory database, trajectories.sqlite, read by PedPy), txt "
                    "(PedPy plain text, trajectories.txt)")
        ->capture_default_str();
    run->add_option("--measure-every", a->measureEvery, "Interval of the lines.csv and areas.csv rows in simulated seconds")
        ->check(finiteNumber() & CLI::Range(1e-6, 1e9))
        ->capture_default_str();
    run->add_flag("--quiet", a->quiet, "No progress or notes on stderr");
    run->callback([a, &commands] {
        commands.action = [a] { return runScene(*a); };
    });
}

}  // namespace ccrowd::cli
