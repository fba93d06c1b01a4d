/// @file bench_command.cpp
/// `ccrowd bench eikonal | step | outputs`: option wiring (the benchmarks are in bench/cmd/).

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cmd/eikonal_bench.hpp"
#include "cmd/name_list.hpp"
#include "cmd/outputs_bench.hpp"
#include "cmd/step_bench.hpp"
#include "sim/operational_model.hpp"

namespace ccrowd::cli {

void addBenchCommand(CLI::App& app, Commands& commands) {
    CLI::App* bench = app.add_subcommand("bench", "Benchmarks");
    bench->require_subcommand(1);
    CLI::App* eik = bench->add_subcommand(
        "eikonal",
        "Time the Fast Iterative Method (CPU with 1 and all threads; CUDA when a GPU works) against CPU fast "
        "marching and scikit-fmm (when Python has it) on n x n grids. Prints medians of repeated runs after a "
        "warm-up, updates per cell and the largest difference from fast marching.");
    struct Args {
        std::string sizes = "64,256,1024,4096", cases = "all", format = "table", plot, backend = "auto";
        int repeat = 7, warmup = 1, threads = 0;
        double maxSeconds = 30.0;
        bool noSkfmm = false, profileCuda = false;
        float tolerance = 1e-9f;
        std::string bandTiles = "auto", frontBudget = "auto";
        int sweeps = 0;  // 0: each backend's default
        int stencil = EikonalOptions{}.stencil;
    };
    auto a = std::make_shared<Args>();
    const CLI::Validator finite = finiteNumber();
    eik->add_option("--sizes", a->sizes, "Comma-separated cells per side, each 2..16384")->capture_default_str();
    eik->add_option("--case", a->cases,
                    "uniform (unit speed, centre source), random (smooth speed 0.5-1.5 m/s), obstacles (random plus "
                    "rectangles on ~15% of cells), crowd (obstacles plus a turning flow: each cell's four face costs "
                    "differ, as in a simulation step), or all")
        ->capture_default_str();
    eik->add_option("--format", a->format, "table or csv (columns: case,size,method,threads,ms_median,ms_min,"
                                           "updates_per_cell,max_abs_diff_vs_fmm,phases,critical_sweeps,critical_fronts)")
        ->check(CLI::IsMember({"table", "csv"}))
        ->capture_default_str();
    eik->add_option("--plot", a->plot, "Write a log-log plot of time against cells to this PNG file");
    eik->add_option("--repeat", a->repeat, "Timed runs per measurement (median and min reported)")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    eik->add_option("--warmup", a->warmup, "Untimed runs before timing")->check(CLI::Range(0, 100))->capture_default_str();
    eik->add_option("--max-seconds", a->maxSeconds, "Stop repeating a measurement after this many seconds (at least 3 runs)")
        ->check(finite & CLI::PositiveNumber)
        ->capture_default_str();
    eik->add_option("--threads", a->threads, "Threads for the all-threads FIM row (0 = all cores)")
        ->check(CLI::Range(0, 1024))
        ->capture_default_str();
    eik->add_option("--backend", a->backend, "auto (add fim-cuda rows when a GPU works), cpu, or cuda (fail without a GPU)")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    eik->add_option("--tolerance", a->tolerance, "FIM relative convergence tolerance")
        ->check(finite & CLI::Range(1e-12, 0.1))
        ->capture_default_str();
    // a FIM band: "auto" (each backend's default) or 0..1e6 tile widths
    const CLI::Validator bandCheck(
        [finite](std::string& v) {
            if (v == "auto") return std::string();
            const std::string bad = finite(v);
            return bad.empty() ? CLI::Range(0.0, 1e6)(v) : bad;
        },
        "auto or 0..1e6", "auto or a band");
    // a FIM front budget: "auto" (each backend's default) or 0..1e6 fronts
    const CLI::Validator frontCheck(
        [](std::string& v) { return v == "auto" ? std::string() : CLI::Range(0, 1000000)(v); }, "auto or 0..1e6",
        "auto or a front budget");
    eik->add_option("--band-tiles", a->bandTiles,
                    "FIM value-ordering band in tile widths (EikonalOptions::band_tiles; 0 = plain FIM, every active tile "
                    "every phase): auto (each backend's default: 4 on the CPU, 16 on CUDA) or one value 0..1e6 for every "
                    "FIM row, CPU and CUDA")
        ->check(bandCheck)
        ->capture_default_str();
    eik->add_option("--sweeps", a->sweeps,
                    "FIM sweeps per tile activation (EikonalOptions::inner_iterations), 1..1024, for every FIM row, CPU "
                    "and CUDA; default: each backend's (8 on the CPU, 6 on CUDA)")
        ->check(CLI::Range(1, 1024));
    eik->add_option("--front-budget", a->frontBudget,
                    "FIM fronts a tile's sweeps may walk per activation (EikonalOptions::front_budget; 0 = none): auto "
                    "(each backend's default: none on the CPU; on CUDA 150 with 4 neighbours, 300 with 8) or one value "
                    "0..1e6 for every FIM row, CPU and CUDA")
        ->check(frontCheck)
        ->capture_default_str();
    eik->add_option("--stencil", a->stencil,
                    "Neighbours of the local update, for FIM and fast marching alike (EikonalOptions::stencil): 4, or 8 "
                    "(plus the diagonals' triangles: less directional bias, about twice the work)")
        ->check(CLI::IsMember({4, 8}))
        ->capture_default_str();
    eik->add_flag("--no-skfmm", a->noSkfmm, "Do not time scikit-fmm");
    eik->add_flag("--profile-cuda", a->profileCuda,
                  "After each fim-cuda row, one more (untimed) solve with the solve kernel's timers "
                  "(EikonalOptions::profile): where its phases' time goes, as 'profile,' lines on stderr");
    eik->callback([a, &commands] {
        commands.action = [a] {
            bench::EikonalBenchOptions o;
            o.sizes = bench::parseSizes(a->sizes);
            o.cases = bench::parseCases(a->cases);
            o.csv = a->format == "csv";
            o.plot = a->plot;
            o.repeat = a->repeat;
            o.warmup = a->warmup;
            o.max_seconds = a->maxSeconds;
            o.threads = a->threads;
            o.backend = parseBackendChoice(a->backend);
            o.skfmm = !a->noSkfmm;
            o.profile_cuda = a->profileCuda;
            o.tolerance = a->tolerance;
            if (a->bandTiles != "auto") o.band_tiles = std::stof(a->bandTiles);
            if (a->sweeps > 0) o.sweeps = a->sweeps;
            if (a->frontBudget != "auto") o.front_budget = std::stoi(a->frontBudget);
            o.stencil = a->stencil;
            const char* wait = std::getenv("OMP_WAIT_POLICY");
            if (!wait || (std::strcmp(wait, "passive") != 0 && std::strcmp(wait, "PASSIVE") != 0))
                std::cerr << "note: OMP_WAIT_POLICY is not 'passive'; on small machines OpenMP's busy waiting can "
                             "distort timings (export OMP_WAIT_POLICY=passive)\n";
            bench::runEikonalBench(o, std::cout, std::cerr);
            return 0;
        };
    });

    CLI::App* step = bench->add_subcommand(
        "step", "Time whole simulation steps and each stage on synthetic scenes (square domain of 0.5 m cells, groups "
                "in bands walking to the opposite side). Reports median ms per step, mean ms per stage (CUDA events on the "
                "GPU), bytes moved between host and device per step (0 on the CPU), bytes per agent, bytes per cell per "
                "group and peak resident memory.");
    struct StepArgs {
        std::string agents = "10000,100000,1000000", cells = "256,512,1024", groups = "1,4", format = "table",
                    backend = "auto", warm = "off", local, bandTiles = "auto", frontBudget = "auto";
        std::vector<std::string> scenes;
        int steps = 10, warmup = 3, threads = 0, stencil = 0, sweeps = 0;
        bool all = false, profileCuda = false;
    };
    auto s2 = std::make_shared<StepArgs>();
    step->add_option("--agents", s2->agents, "Comma-separated agent counts")->capture_default_str();
    step->add_option("--cells", s2->cells, "Comma-separated cells per side (16..4096)")->capture_default_str();
    step->add_option("--groups", s2->groups, "Comma-separated group counts (1..4)")->capture_default_str();
    step->add_flag("--all-combinations", s2->all,
                   "Every agents x cells combination (default: pair the lists in order, 10k/256, 100k/512, 1M/1024)");
    step->add_option("--steps", s2->steps, "Timed steps per configuration")->check(CLI::Range(1, 100000))->capture_default_str();
    step->add_option("--warmup", s2->warmup, "Untimed steps first")->check(CLI::Range(0, 100000))->capture_default_str();
    step->add_option("--format", s2->format, "table or csv")->check(CLI::IsMember({"table", "csv"}))->capture_default_str();
    step->add_option("--backend", s2->backend, "auto, cpu or cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    step->add_option("--threads", s2->threads, "CPU threads (0 = all cores)")->check(CLI::Range(0, 1024))->capture_default_str();
    step->add_option("--scene", s2->scenes, "Scene files to time instead of the synthetic scenes (repeatable)")
        ->check(CLI::ExistingFile);
    step->add_option("--warm-start", s2->warm,
                     "Potential warm start from the previous step: on, off, or both (a row each, to compare the work)")
        ->check(CLI::IsMember({"on", "off", "both"}))
        ->capture_default_str();
    step->add_option("--local", s2->local,
                     "Comma-separated operational models to run each configuration with (uic, social_force, orca, zones); "
                     "default: each scene's own (synthetic scenes: uic). A row each, with a `local` column")
        ->capture_default_str();
    step->add_option("--stencil", s2->stencil,
                     "Potential stencil for every configuration (model.potential_stencil): 4 or 8; default: each "
                     "scene's own (synthetic scenes: 4)")
        ->check(CLI::IsMember({4, 8}));
    step->add_option("--sweeps", s2->sweeps,
                     "Potential FIM sweeps per tile activation for every configuration (model.potential_sweeps): "
                     "1..64; default: each scene's own (synthetic scenes: each backend's default, 8 on the CPU, 6 on "
                     "CUDA)")
        ->check(CLI::Range(1, 64));
    step->add_option("--band-tiles", s2->bandTiles,
                     "Potential FIM band in tile widths for every configuration (model.potential_band_tiles): auto "
                     "(each scene's own; synthetic scenes: each backend's default, 4 on the CPU, 16 on CUDA) or 0..1e6")
        ->check(bandCheck)
        ->capture_default_str();
    step->add_option("--front-budget", s2->frontBudget,
                     "Potential FIM fronts a tile's sweeps may walk per activation for every configuration "
                     "(model.potential_front_budget): auto (each scene's own; synthetic scenes: each backend's default, "
                     "none on the CPU, on CUDA 150 with 4 neighbours and 300 with 8) or 0..1e6 (0 = none)")
        ->check(frontCheck)
        ->capture_default_str();
    step->add_flag("--profile-cuda", s2->profileCuda,
                   "CUDA: after each configuration's timed steps, one more (untimed) step whose potential solve times its "
                   "kernel's parts (EikonalOptions::profile), as a 'profile,' line on stderr");
    step->callback([s2, &commands] {
        commands.action = [s2] {
            bench::StepBenchOptions o;
            o.agents = bench::parseIntList(s2->agents, "--agents", 1, 20000000);
            o.cells = bench::parseIntList(s2->cells, "--cells", 16, 4096);
            o.groups = bench::parseIntList(s2->groups, "--groups", 1, 4);
            o.matched = !s2->all;
            o.steps = s2->steps;
            o.warmup = s2->warmup;
            o.csv = s2->format == "csv";
            o.backend = parseBackendChoice(s2->backend);
            o.threads = s2->threads;
            o.scenes = s2->scenes;
            o.warmStart = s2->warm == "both" ? std::vector<bool>{true, false} : std::vector<bool>{s2->warm == "on"};
            o.locals = bench::parseNameList(s2->local, "--local", sim::operationalModelNames());
            o.stencil = s2->stencil;
            o.sweeps = s2->sweeps;
            if (s2->bandTiles != "auto") o.bandTiles = std::stof(s2->bandTiles);
            if (s2->frontBudget != "auto") o.frontBudget = std::stoi(s2->frontBudget);
            o.profileCuda = s2->profileCuda;
            bench::runStepBench(o, std::cout, std::cerr);
            return 0;
        };
    });

    CLI::App* outs = bench->add_subcommand(
        "outputs", "What writing a run's outputs costs: runs a scene without outputs and with field snapshots (vti), "
                   "trajectories (SQLite) and the scene's measurements, in pairs with alternating order, and prints the "
                   "median wall times and the median overhead in % of the run's wall time.");
    auto o2 = std::make_shared<bench::OutputsBenchOptions>();
    auto outBackend = std::make_shared<std::string>("auto");
    auto outFormat = std::make_shared<std::string>("table");
    outs->add_option("scene", o2->scene, "Scene file; default: the bundled default scene (50,000 agents)");
    outs->add_option("--duration", o2->duration, "Simulated seconds per run")->check(finiteNumber() & CLI::PositiveNumber)->capture_default_str();
    outs->add_option("--repeat", o2->repeat, "Pairs of runs (with and without outputs)")->check(CLI::Range(1, 100))->capture_default_str();
    outs->add_option("--snapshot-every", o2->snapshot_every, "Snapshot interval in simulated seconds (0 = none)")
        ->check(finiteNumber() & CLI::NonNegativeNumber)
        ->capture_default_str();
    outs->add_option("--trajectory-every", o2->trajectory_every, "Trajectory frame every K steps (0 = none)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    outs->add_option("--dir", o2->dir, "Write the outputs here (new or empty; emptied after each run) instead of a temporary directory");
    outs->add_option("--format", *outFormat, "table or csv")->check(CLI::IsMember({"table", "csv"}))->capture_default_str();
    outs->add_option("--backend", *outBackend, "auto, cpu or cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
    outs->add_option("--threads", o2->threads, "CPU threads (0 = all cores)")->check(CLI::Range(0, 1024))->capture_default_str();
    outs->callback([o2, outBackend, outFormat, &commands] {
        commands.action = [o2, outBackend, outFormat] {
            o2->backend = parseBackendChoice(*outBackend);
            o2->csv = *outFormat == "csv";
            bench::runOutputsBench(*o2, std::cout, std::cerr);
            return 0;
        };
    });
}

}  // namespace ccrowd::cli
