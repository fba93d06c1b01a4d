/// @file outputs_bench.cpp
#include "cmd/outputs_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <memory>
#include <ostream>
#include <random>
#include <sstream>
#include <vector>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "output/run_outputs.hpp"
#include "cmd/median.hpp"

namespace ccrowd::bench {

namespace {

namespace fs = std::filesystem;

/// One timed run.
struct RunTimes {
    double wall = 0.0;        ///< Steps (and closing the outputs). [Units: s]
    double write = 0.0;       ///< Run thread inside the writers (waits included). [Units: s]
    double background = 0.0;  ///< CPU time of the trajectory database's worker. [Units: s]
    long long steps = 0;
    double bytes = 0.0;       ///< Size of the outputs. [Units: B]
};

double directoryBytes(const fs::path& dir) {
    double total = 0.0;
    for (const auto& e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) total += static_cast<double>(e.file_size());
    return total;
}

/// Steps @p scene to its duration, with outputs into @p dir when it is not empty.
RunTimes timeRun(const Scene& scene, const Exec& ex, const output::OutputOptions* outputs) {
    Simulation sim(scene, ex);
    RunTimes r;
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_ptr<output::RunOutputs> w;
    if (outputs) w = std::make_unique<output::RunOutputs>(*outputs, sim);
    while (!sim.finished()) {
        sim.step();
        if (w) w->afterStep(sim);
    }
    if (w) w->finish(sim);
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.steps = sim.steps();
    if (w) {
        r.write = w->seconds();
        r.background = w->backgroundCpuSeconds();
        r.bytes = directoryBytes(outputs->dir);
    }
    return r;
}

/// A new empty directory for the outputs: @p base itself when given (must
/// not exist or be empty), else a fresh one in the temporary directory.
fs::path outputDir(const std::string& base) {
    std::error_code ec;
    if (!base.empty()) {
        const fs::path p(base);
        if (fs::exists(p, ec) && !fs::is_empty(p, ec))
            throw InputError(fieldMessage("--dir", "'" + base + "'", "not empty", "a new or empty directory"));
        fs::create_directories(p, ec);
        if (ec) throw InputError("--dir: cannot create '" + base + "': " + ec.message());
        return p;
    }
    std::random_device rd;
    const fs::path p = fs::temp_directory_path(ec) / ("ccrowd-bench-outputs-" + std::to_string(rd()));
    if (ec || !fs::create_directory(p, ec))
        throw InputError("bench outputs: cannot create a directory in the temporary directory: " + ec.message());
    return p;
}

/// Removes what a run wrote into @p dir (the directory stays).
void emptyDirectory(const fs::path& dir) {
    for (const auto& e : fs::directory_iterator(dir)) fs::remove_all(e.path());
}

}  // namespace

void runOutputsBench(const OutputsBenchOptions& opt, std::ostream& out, std::ostream& log) {
    // Options first: nothing runs with a bad one.
    if (!(opt.duration > 0.0) || !std::isfinite(opt.duration))
        throw InputError(fieldMessage("--duration", std::to_string(opt.duration), "out of range", "> 0 s, finite"));
    if (opt.repeat < 1 || opt.repeat > 100)
        throw InputError(fieldMessage("--repeat", std::to_string(opt.repeat), "out of range", "1..100"));
    if (!(opt.snapshot_every >= 0.0) || !std::isfinite(opt.snapshot_every))
        throw InputError(fieldMessage("--snapshot-every", std::to_string(opt.snapshot_every), "out of range", ">= 0 s, finite (0 = none)"));
    if (opt.trajectory_every < 0)
        throw InputError(fieldMessage("--trajectory-every", std::to_string(opt.trajectory_every), "out of range", ">= 0 steps (0 = none)"));
    const std::string scenePath = opt.scene.empty() ? defaultScenePath() : opt.scene;
    Scene scene = loadScene(scenePath);
    scene.params.duration = opt.duration;
    scene.params.max_steps = -1;
    std::string note;
    const Exec ex = selectBackend(opt.backend, opt.threads, &note);
    if (!note.empty()) log << "note: " << note << "\n";
    const fs::path dir = outputDir(opt.dir);
    output::OutputOptions oo;
    oo.dir = dir.string();
    oo.snapshot_every = opt.snapshot_every;
    oo.trajectory_every = opt.trajectory_every;

    // Pairs of runs; the order alternates so a drifting machine load hits both sides alike.
    std::vector<RunTimes> plain, written;
    std::vector<double> overhead;
    try {
        for (int r = 0; r < opt.repeat; ++r) {
            log << "bench outputs: pair " << (r + 1) << " of " << opt.repeat << "...\n";
            RunTimes a, b;
            for (int side = 0; side < 2; ++side) {
                if ((side == 0) == (r % 2 == 0)) {
                    a = timeRun(scene, ex, nullptr);
                } else {
                    b = timeRun(scene, ex, &oo);
                    emptyDirectory(dir);
                }
            }
            plain.push_back(a);
            written.push_back(b);
            overhead.push_back(b.wall / a.wall - 1.0);
        }
    } catch (...) {
        std::error_code ec;
        if (opt.dir.empty()) fs::remove_all(dir, ec);
        throw;
    }
    std::error_code ec;
    if (opt.dir.empty()) fs::remove_all(dir, ec);

    // Medians over the pairs.
    auto med = [](const std::vector<RunTimes>& v, double RunTimes::*m) {
        std::vector<double> x;
        for (const RunTimes& t : v) x.push_back(t.*m);
        return median(x);
    };
    const double wallPlain = med(plain, &RunTimes::wall), wallWritten = med(written, &RunTimes::wall);
    const double write = med(written, &RunTimes::write), background = med(written, &RunTimes::background);
    const double mib = med(written, &RunTimes::bytes) / (1024.0 * 1024.0);
    const int threads = ex.backend == Backend::Cpu ? cpuThreads(ex) : 1;
    if (opt.csv) {
        out << "scene,steps,backend,threads,repeat,snapshot_every_s,trajectory_every_steps,wall_s_without,wall_s_with,"
               "overhead_median,overhead_min,overhead_max,write_s_run_thread,worker_cpu_s,outputs_mib\n";
        out << scenePath << ',' << written.front().steps << ',' << backendName(ex.backend) << ',' << threads << ','
            << opt.repeat << ',' << opt.snapshot_every << ',' << opt.trajectory_every << ',' << wallPlain << ','
            << wallWritten << ',' << median(overhead) << ',' << *std::min_element(overhead.begin(), overhead.end()) << ','
            << *std::max_element(overhead.begin(), overhead.end()) << ',' << write << ',' << background << ',' << mib << "\n";
        return;
    }
    std::ostringstream t;
    t << std::fixed << std::setprecision(2);
    t << "scene " << scenePath << ", " << written.front().steps << " steps, backend " << backendName(ex.backend) << ", "
      << threads << " threads, " << opt.repeat << " pairs of runs\n";
    t << "outputs: snapshots every " << opt.snapshot_every << " s (vti), trajectories every " << opt.trajectory_every
      << " steps (sqlite), lines and areas; " << std::setprecision(0) << mib << " MiB\n" << std::setprecision(2);
    t << "  wall without outputs   " << std::setw(8) << wallPlain << " s (median)\n";
    t << "  wall with outputs      " << std::setw(8) << wallWritten << " s (median)\n";
    t << "  writing costs          " << std::setw(7) << std::setprecision(1) << 100.0 * median(overhead)
      << " % of the run's wall time (median of paired ratios; min " << 100.0 * *std::min_element(overhead.begin(), overhead.end())
      << ", max " << 100.0 * *std::max_element(overhead.begin(), overhead.end()) << ")\n";
    t << "  run thread in writers  " << std::setw(8) << std::setprecision(2) << write << " s (" << std::setprecision(1)
      << 100.0 * write / wallWritten << " % of its wall time, waits for the database included)\n";
    t << "  database worker CPU    " << std::setw(8) << std::setprecision(2) << background << " s\n";
    out << t.str();
}

}  // namespace ccrowd::bench
