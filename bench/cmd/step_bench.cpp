/// @file step_bench.cpp
#include "cmd/step_bench.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "cmd/gpu_profile.hpp"
#include "cmd/median.hpp"

namespace ccrowd::bench {

namespace {

Polygon rect(float x0, float y0, float x1, float y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

/// A square domain of n x n cells of 0.5 m. One group: the western three
/// quarters walking east. Several groups: one quadrant each, walking to the
/// side across the domain, so the flows cross in the middle.
Scene syntheticScene(int agents, int n, int groups) {
    Scene s;
    s.name = "bench-step";
    // how its errors name it (no file): "bench step's synthetic scene (N agents, n^2 cells, G groups)"
    s.label = "bench step's synthetic scene (" + std::to_string(agents) + " agents, " + std::to_string(n) + "^2 cells, " +
              std::to_string(groups) + (groups == 1 ? " group)" : " groups)");
    s.cell = 0.5f;
    s.width = s.height = n * s.cell;
    const float L = s.width, m = 2.f;
    const char* names[4] = {"west", "east", "south", "north"};
    const Polygon goals[4] = {rect(L - 1.f, 0, L, L), rect(0, 0, 1.f, L), rect(0, L - 1.f, L, L), rect(0, 0, L, 1.f)};
    const float H = 0.5f * L;
    const Polygon spawns[4] = {groups == 1 ? rect(m, m, 0.75f * L, L - m) : rect(m, m, H - m, H - m),
                               rect(H + m, H + m, L - m, L - m), rect(H + m, m, L - m, H - m), rect(m, H + m, H - m, L - m)};
    for (int g = 0; g < groups; ++g) {
        GoalSpec goal;
        goal.name = std::string("to_") + names[g];
        goal.areas = {goals[g]};
        s.goals.push_back(goal);
        GroupSpec gs;
        gs.name = names[g];
        gs.spawn = {spawns[g]};
        gs.count = agents / groups + (g < agents % groups ? 1 : 0);
        gs.radius = 0.15f;
        gs.route = {goal.name};
        s.groups.push_back(gs);
    }
    s.params.d_min = 0.3f;
    s.params.duration = 1e9;
    return s;
}

/// Stage names of the pipelines of every model in @p locals (merged in
/// pipeline order: a model's own stages go before the next stage it shares
/// with those already listed).
std::vector<std::string> stageColumns(const std::vector<std::string>& locals, const Exec& ex) {
    std::vector<std::string> cols;
    for (const std::string& local : locals) {
        Scene tiny = syntheticScene(8, 16, 1);
        if (!local.empty()) tiny.params.local = local;
        const Simulation sim(std::move(tiny), ex);
        const std::vector<std::string>& names = sim.stageNames();
        for (std::size_t k = 0; k < names.size(); ++k) {
            if (std::find(cols.begin(), cols.end(), names[k]) != cols.end()) continue;
            // before the next of this pipeline's stages already listed (else at the end)
            auto at = cols.end();
            for (std::size_t q = k + 1; q < names.size() && at == cols.end(); ++q)
                at = std::find(cols.begin(), cols.end(), names[q]);
            cols.insert(at, names[k]);
        }
    }
    return cols;
}

double peakRssMiB() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss / 1024.0;
}

}  // namespace

void runStepBench(const StepBenchOptions& opt, std::ostream& out, std::ostream& log) {
    if (opt.steps < 1) throw InputError(fieldMessage("--steps", std::to_string(opt.steps), "too small", ">= 1"));
    if (opt.warmup < 0) throw InputError(fieldMessage("--warmup", std::to_string(opt.warmup), "negative", ">= 0"));
    std::string note;
    const Exec ex = selectBackend(opt.backend, opt.threads, &note);
    if (!note.empty()) log << "note: " << note << "\n";
    const int threads = ex.backend == Backend::Cpu ? cpuThreads(ex) : 1;
    // stage columns: every stage of every model asked for (each scene's own when none)
    const std::vector<std::string> locals = opt.locals.empty() ? std::vector<std::string>{""} : opt.locals;
    std::vector<std::string> columns;
    bool headerDone = false;
    bool profileHeader = false;  // the `profile,` lines' header, once
    auto header = [&](const std::vector<std::string>& ownStages) {
        if (headerDone) return;
        headerDone = true;
        columns = opt.locals.empty() ? ownStages : stageColumns(opt.locals, ex);
        const std::vector<std::string>& stages = columns;
        if (opt.csv) {
            out << "agents,cells,groups,backend,threads,local,ms_median";
            for (const std::string& st : stages) out << ",ms_" << st;
            out << ",host_device_bytes_per_step,bytes_per_agent,bytes_per_cell_per_group,peak_rss_mib,fim_updates_per_cell,"
                   "fim_phases,fim_critical_sweeps,fim_critical_fronts,warm_start,scene\n";
        } else {
            out << std::setw(9) << "agents" << std::setw(7) << "cells" << std::setw(7) << "groups" << std::setw(9)
                << "backend" << std::setw(8) << "threads" << std::setw(14) << "local" << std::setw(11) << "ms/step";
            for (const std::string& st : stages) out << std::setw(17) << st;
            out << std::setw(14) << "H<->D B/step" << std::setw(12) << "B/agent" << std::setw(14) << "B/cell/group"
                << std::setw(10) << "peak MiB" << std::setw(10) << "FIM upc" << std::setw(11) << "FIM phases" << std::setw(13)
                << "FIM crit.sw." << std::setw(13) << "FIM crit.fr." << std::setw(6)
                << "warm" << "  scene\n";
        }
    };
    // one configuration: warm-up steps, then timed steps; one row
    auto runOne = [&](Scene scene, const std::string& label, int groups, bool warm, const std::string& local) {
        scene.params.potential_warm_start = warm;
        if (!local.empty()) scene.params.local = local;
        if (opt.stencil) scene.params.potential_stencil = opt.stencil;
        if (opt.sweeps) scene.params.potential_sweeps = opt.sweeps;
        if (opt.bandTiles >= 0.f) scene.params.potential_band_tiles = opt.bandTiles;
        if (opt.frontBudget >= 0) scene.params.potential_front_budget = opt.frontBudget;
        Simulation sim(std::move(scene), ex);
        header(sim.stageNames());
        const int agents = sim.agentCount(), n = sim.grid().nx;
        for (int k = 0; k < opt.warmup; ++k) sim.step();
        // time whole steps; the stage breakdown is the mean over the timed steps
        std::vector<double> ms;
        const StageTimes before = sim.times();
        // the potential stage's work per step: FIM updates per cell, phases, critical sweeps and fronts
        double upc = 0.0, phases = 0.0, critical = 0.0, criticalFronts = 0.0;
        double transferBytes = 0.0;      // host<->device, summed over the timed steps (0 on the CPU)
        for (int k = 0; k < opt.steps; ++k) {
            const auto t0 = std::chrono::steady_clock::now();
            sim.step();
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
            upc += sim.lastReport().potential_updates_per_cell / opt.steps;
            phases += static_cast<double>(sim.lastReport().potential_phases) / opt.steps;
            critical += static_cast<double>(sim.lastReport().potential_critical_sweeps) / opt.steps;
            criticalFronts += static_cast<double>(sim.lastReport().potential_critical_fronts) / opt.steps;
            transferBytes += static_cast<double>(sim.lastReport().host_device_bytes);
        }
        const StageTimes after = sim.times();  // a copy: the profiled step below is not timed
        // one more step, untimed, whose potential solve times its kernel's parts
        if (opt.profileCuda && ex.backend == Backend::Cuda) {
            sim.profilePotential(true);
            sim.step();
            sim.profilePotential(false);
            const StepReport& pr = sim.lastReport();
            std::ostringstream labels;
            labels << agents << ',' << n << ',' << groups << ',' << sim.scene().params.local << ',' << label;
            writeGpuProfile(log, "agents,cells,groups,local,scene", labels.str(), static_cast<int>(pr.potential_phases),
                            pr.potential_gpu_profile, !profileHeader);
            profileHeader = true;
        }
        const double perCellGroup = static_cast<double>(sim.gridBytes()) /
                                    (static_cast<double>(sim.grid().nx) * sim.grid().ny * groups);
        const char* sep = opt.csv ? "," : "";
        std::ostringstream row;
        row << std::fixed;
        const std::string model = sim.scene().params.local;
        if (opt.csv)
            row << agents << ',' << n << ',' << groups << ',' << backendName(ex.backend) << ',' << threads << ',' << model;
        else
            row << std::setw(9) << agents << std::setw(7) << n << std::setw(7) << groups << std::setw(9)
                << backendName(ex.backend) << std::setw(8) << threads << std::setw(14) << model;
        row << sep << std::setprecision(2) << (opt.csv ? std::setw(0) : std::setw(11)) << median(ms);
        // a value per stage column; empty (csv) or "-" where this model has no such stage
        const std::vector<std::string>& own = sim.stageNames();
        for (const std::string& col : columns) {
            const auto it = std::find(own.begin(), own.end(), col);
            row << sep << (opt.csv ? std::setw(0) : std::setw(17));
            if (it == own.end()) { row << (opt.csv ? "" : "-"); continue; }
            const std::size_t s = static_cast<std::size_t>(it - own.begin());
            row << std::setprecision(3) << (after.total_ms[s] - before.total_ms[s]) / opt.steps;
        }
        row << sep << std::setprecision(0) << (opt.csv ? std::setw(0) : std::setw(14)) << transferBytes / opt.steps;
        row << sep << std::setprecision(0) << (opt.csv ? std::setw(0) : std::setw(12)) << static_cast<double>(sim.agentBytes())
            << sep << std::setprecision(1) << (opt.csv ? std::setw(0) : std::setw(14)) << perCellGroup << sep
            << std::setprecision(0) << (opt.csv ? std::setw(0) : std::setw(10)) << peakRssMiB() << sep
            << std::setprecision(2) << (opt.csv ? std::setw(0) : std::setw(10)) << upc << sep
            << std::setprecision(1) << (opt.csv ? std::setw(0) : std::setw(11)) << phases << sep
            << std::setprecision(1) << (opt.csv ? std::setw(0) : std::setw(13)) << critical << sep
            << std::setprecision(1) << (opt.csv ? std::setw(0) : std::setw(13)) << criticalFronts << sep
            << (opt.csv ? std::setw(0) : std::setw(6)) << (warm ? "on" : "off") << (opt.csv ? "," : "  ") << label;
        out << row.str() << "\n";
        out.flush();
    };
    if (!opt.scenes.empty()) {
        for (const std::string& path : opt.scenes) {
            const Scene scene = loadScene(path);
            for (const std::string& local : locals)
                for (const bool warm : opt.warmStart) {
                    log << "bench step: " << path << (warm ? " (warm start)" : " (cold solves)")
                        << (local.empty() ? "" : ", model " + local) << "...\n";
                    runOne(scene, scene.name, static_cast<int>(scene.groups.size()), warm, local);
                }
        }
        return;
    }
    for (std::size_t ai = 0; ai < opt.agents.size(); ++ai) {
        for (std::size_t ci = 0; ci < opt.cells.size(); ++ci) {
            if (opt.matched && opt.agents.size() == opt.cells.size() && ai != ci) continue;
            for (int groups : opt.groups) {
                const int agents = opt.agents[ai], n = opt.cells[ci];
                for (const std::string& local : locals)
                    for (const bool warm : opt.warmStart) {
                        log << "bench step: " << agents << " agents, " << n << "^2 cells, " << groups << " groups"
                            << (warm ? ", warm start" : "") << (local.empty() ? "" : ", model " + local) << "...\n";
                        runOne(syntheticScene(agents, n, groups), "synthetic", groups, warm, local);
                    }
            }
        }
    }
}

}  // namespace ccrowd::bench
