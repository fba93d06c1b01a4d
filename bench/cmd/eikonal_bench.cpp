/// @file eikonal_bench.cpp
#include "cmd/eikonal_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>
#include <utility>

#include "ccrowd/error.hpp"
#include "cmd/direction_error.hpp"
#include "cmd/gpu_profile.hpp"
#include "cmd/int_list.hpp"
#include "cmd/skfmm_bridge.hpp"
#include "plot/loglog.hpp"
#include "cmd/median.hpp"
#include "kernels/fim_schedule.hpp"

namespace ccrowd::bench {

std::vector<int> parseSizes(const std::string& text, const std::string& field) {
    return parseIntList(text, field, 2, 16384);
}

namespace {

using Clock = std::chrono::steady_clock;

/// Max |a - b| where both are finite; +inf when one is finite and the other not.
double maxAbsDiff(const Field<float>& a, const Field<float>& b) {
    double m = 0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        const float x = a.host()[k], y = b.host()[k];
        if (std::isfinite(x) != std::isfinite(y)) return std::numeric_limits<double>::infinity();
        if (std::isfinite(x)) m = std::max(m, static_cast<double>(std::fabs(x - y)));
    }
    return m;
}

/// Times @p run (which returns updates per cell): warm-up, then up to
/// opt.repeat runs, stopping after max_seconds once 3 runs are in.
template <class Run>
EikonalBenchRow timeIt(const EikonalBenchOptions& opt, Run run) {
    EikonalBenchRow row;
    for (int k = 0; k < opt.warmup; ++k) run();
    std::vector<double> ms;
    const auto start = Clock::now();
    for (int k = 0; k < opt.repeat; ++k) {
        const auto t0 = Clock::now();
        row.updates_per_cell = run();
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
        const double spent = std::chrono::duration<double>(Clock::now() - start).count();
        if (k + 1 >= std::min(3, opt.repeat) && spent > opt.max_seconds) break;
    }
    row.ms_median = median(ms);
    row.ms_min = *std::min_element(ms.begin(), ms.end());
    return row;
}

std::string fmt(double v, int prec) {
    if (std::isnan(v)) return "-";
    if (std::isinf(v)) return "inf";
    std::ostringstream o;
    o << std::setprecision(prec) << v;
    return o.str();
}

std::string fixed(double v, int prec) {
    if (std::isnan(v)) return "-";
    std::ostringstream o;
    o << std::fixed << std::setprecision(prec) << v;
    return o.str();
}

void printHeader(const EikonalBenchOptions& opt, std::ostream& out) {
    if (opt.csv) {
        out << "case,size,method,threads,ms_median,ms_min,updates_per_cell,max_abs_diff_vs_fmm,phases,critical_sweeps,"
               "critical_fronts\n";
        return;
    }
    out << std::left << std::setw(10) << "case" << std::right << std::setw(7) << "size" << "  " << std::left << std::setw(9)
        << "method" << std::right << std::setw(8) << "threads" << std::setw(12) << "ms_median" << std::setw(11) << "ms_min"
        << std::setw(13) << "updates/cell" << std::setw(15) << "max|d| vs fmm" << std::setw(8) << "phases" << std::setw(16)
        << "critical sweeps" << std::setw(16) << "critical fronts" << "\n";
}

void printRow(const EikonalBenchOptions& opt, const EikonalBenchRow& r, std::ostream& out) {
    if (opt.csv) {
        out << r.case_name << ',' << r.size << ',' << r.method << ',' << r.threads << ',' << fixed(r.ms_median, 3) << ','
            << fixed(r.ms_min, 3) << ',' << (std::isnan(r.updates_per_cell) ? "" : fixed(r.updates_per_cell, 3)) << ','
            << (std::isnan(r.max_abs_diff_vs_fmm) ? "" : fmt(r.max_abs_diff_vs_fmm, 6)) << ','
            << (r.phases < 0 ? "" : std::to_string(r.phases)) << ','
            << (r.critical_sweeps < 0 ? "" : std::to_string(r.critical_sweeps)) << ','
            << (r.critical_fronts < 0 ? "" : std::to_string(r.critical_fronts)) << "\n";
    } else {
        out << std::left << std::setw(10) << r.case_name << std::right << std::setw(7) << r.size << "  " << std::left
            << std::setw(9) << r.method << std::right << std::setw(8) << r.threads << std::setw(12) << fixed(r.ms_median, 2)
            << std::setw(11) << fixed(r.ms_min, 2) << std::setw(13) << fixed(r.updates_per_cell, 2) << std::setw(15)
            << fmt(r.max_abs_diff_vs_fmm, 3) << std::setw(8) << (r.phases < 0 ? "-" : std::to_string(r.phases))
            << std::setw(16) << (r.critical_sweeps < 0 ? "-" : std::to_string(r.critical_sweeps)) << std::setw(16)
            << (r.critical_fronts < 0 ? "-" : std::to_string(r.critical_fronts)) << "\n";
    }
    out.flush();
}

/// Ratios a reader looks for: FIM (all threads) against FMM and scikit-fmm.
void printRatios(const std::vector<EikonalBenchRow>& rows, int allThreads, std::ostream& out) {
    bool any = false;
    for (const EikonalBenchRow& f : rows) {
        if (f.method != "fim" || f.threads != allThreads) continue;
        std::ostringstream line;
        line << "  " << f.case_name << " " << f.size << "^2: fim x" << f.threads;
        bool has = false;
        for (const EikonalBenchRow& o : rows) {
            if (o.case_name != f.case_name || o.size != f.size || (o.method != "fmm" && o.method != "skfmm")) continue;
            line << ", " << fixed(o.ms_median / f.ms_median, 1) << "x faster than " << o.method;
            has = true;
        }
        if (!has) continue;
        if (!any) out << "\nspeed-ups (median time ratios, same run):\n";
        any = true;
        out << line.str() << "\n";
    }
}

/// The uniform case's directional bias (issue 12, Deliver 3): FIM's
/// point-source potential against the Euclidean distance along 0, 22.5
/// and 45 degrees, out to two cells short of the grid's edge.
void printBias(const std::vector<std::pair<int, DirectionError>>& bias, std::ostream& out) {
    if (bias.empty()) return;
    out << "\ndirectional bias (uniform case, fim: centre source, unit cost, against the Euclidean distance):\n"
        << "   size  angle  radius  phi/d-1 at radius  max |phi-d| [cells]  max |phi/d-1| (r >= 4)\n";
    for (const auto& [n, e] : bias)
        out << std::setw(7) << n << std::setw(7) << fixed(e.angle, 1) << std::setw(8) << e.radius << std::setw(18)
            << fixed(100.0 * e.rel_at_radius, 2) + " %" << std::setw(21) << fixed(e.max_abs, 3) << std::setw(24)
            << fixed(100.0 * e.max_rel, 2) + " %" << "\n";
}

/// Throws InputError naming @p field when @p path cannot be created.
void checkWritable(const std::string& path, const std::string& field) {
    const std::string probe = path + ".tmp";
    std::FILE* f = std::fopen(probe.c_str(), "wb");
    if (!f) throw InputError(fieldMessage(field, "'" + path + "'", std::string("cannot write there: ") + std::strerror(errno),
                                          "a path in an existing, writable directory"));
    std::fclose(f);
    std::remove(probe.c_str());
}

void writePlot(const std::string& path, const std::vector<EikonalBenchRow>& rows) {
    plot::LinePlot p;
    p.title = "Eikonal solve time (ccrowd bench eikonal)";
    p.x_label = "cells";
    p.y_label = "median time [ms]";
    std::vector<std::string> keys;
    for (const EikonalBenchRow& r : rows) {
        const std::string key = r.method + " x" + std::to_string(r.threads) + " / " + r.case_name;
        auto it = std::find(keys.begin(), keys.end(), key);
        if (it == keys.end()) {
            keys.push_back(key);
            plot::Series s;
            s.name = key;
            const char* methods[] = {"fim", "fim-cuda", "fmm", "skfmm"};
            int m = 0;
            for (int k = 0; k < 4; ++k)
                if (r.method == methods[k]) m = k;
            s.color = plot::paletteColor(m * 2 + (r.method == "fim" && r.threads > 1 ? 1 : 0));
            const plot::Marker markers[] = {plot::Marker::Circle, plot::Marker::Square, plot::Marker::Triangle};
            s.marker = markers[r.case_name == "uniform" ? 0 : r.case_name == "random" ? 1 : 2];
            p.series.push_back(s);
            it = keys.end() - 1;
        }
        p.series[static_cast<std::size_t>(it - keys.begin())].points.emplace_back(static_cast<double>(r.size) * r.size, r.ms_median);
    }
    plot::writeLogLogPlot(path, p);
}

}  // namespace

std::vector<EikonalBenchRow> runEikonalBench(const EikonalBenchOptions& opt, std::ostream& out, std::ostream& log) {
    // check the options before any work
    if (opt.repeat < 1) throw InputError(fieldMessage("--repeat", std::to_string(opt.repeat), "too small", ">= 1"));
    if (opt.warmup < 0) throw InputError(fieldMessage("--warmup", std::to_string(opt.warmup), "negative", ">= 0"));
    if (!(opt.max_seconds > 0)) throw InputError(fieldMessage("--max-seconds", fmt(opt.max_seconds, 6), "must be positive", "> 0"));
    if (opt.sizes.empty() || opt.cases.empty()) throw InputError("bench eikonal: no sizes or no cases to run");
    for (int n : opt.sizes)
        if (n < 2 || n > 16384) throw InputError(fieldMessage("--sizes", std::to_string(n), "grid size out of range", "2..16384"));
    std::string note;
    Exec gpu;
    bool haveGpu = false;
    if (opt.backend != BackendChoice::Cpu) {
        gpu = selectBackend(opt.backend, opt.threads, &note);
        haveGpu = gpu.backend == Backend::Cuda;
        if (!haveGpu) log << "fim-cuda: skipped (" << note << ")\n";
    }
    const int allThreads = cpuThreads(Exec{Backend::Cpu, opt.threads});
    EikonalOptions eo;
    eo.tolerance = opt.tolerance;
    eo.band_tiles = opt.band_tiles;
    eo.inner_iterations = opt.sweeps;
    eo.front_budget = opt.front_budget;
    eo.stencil = opt.stencil;
    if (!opt.band_tiles && haveGpu)
        log << "band: each backend's default (" << kFimBandTilesCpu << " tiles on the CPU, " << kFimBandTilesGpu
            << " on CUDA; --band-tiles sets one for both)\n";
    if (!opt.sweeps && haveGpu)
        log << "sweeps: each backend's default (" << kFimSweepsCpu << " per tile activation on the CPU, " << kFimSweepsGpu
            << " on CUDA; --sweeps sets one for both)\n";
    if (!opt.front_budget && haveGpu)
        log << "front budget: each backend's default (none on the CPU, " << fimFrontBudgetGpu(opt.stencil)
            << " fronts per tile activation on CUDA; --front-budget sets one for both)\n";
    if (!opt.plot.empty()) checkWritable(opt.plot, "--plot");  // fail before the long run, not after

    std::vector<EikonalBenchRow> rows;
    std::vector<std::pair<int, DirectionError>> bias;  // (size, error) of the uniform case
    bool skfmmNoted = false, crowdNoted = false, profileHeader = false;
    if (opt.profile_cuda && !haveGpu) log << "--profile-cuda: no fim-cuda rows to profile\n";
    printHeader(opt, out);
    for (EikonalCase c : opt.cases) {
        for (int n : opt.sizes) {
            const EikonalGrid grid = makeEikonalGrid(c, n);
            const EikonalProblem prob = grid.problem();
            auto add = [&](EikonalBenchRow r, const char* method, int threads, double diff) {
                r.case_name = caseName(c);
                r.size = n;
                r.method = method;
                r.threads = threads;
                r.max_abs_diff_vs_fmm = diff;
                printRow(opt, r, out);
                rows.push_back(r);
            };
            // FMM: the reference every other method is compared with
            Field<float> ref, phi;
            EikonalBenchRow fmm = timeIt(opt, [&] { return solveFmm(prob, ref, eo).updates_per_cell; });
            add(fmm, "fmm", 1, std::numeric_limits<double>::quiet_NaN());  // the reference: no difference to show
            // FIM on the CPU with one thread, then with all of them
            std::vector<int> threadCounts{1};
            if (allThreads > 1) threadCounts.push_back(allThreads);
            for (int t : threadCounts) {
                FimSolver fim(Exec{Backend::Cpu, t});
                EikonalStats st;
                EikonalBenchRow r = timeIt(opt, [&] { st = fim.solve(prob, phi, eo); return st.updates_per_cell; });
                if (!st.converged) log << "warning: fim did not converge on " << caseName(c) << " " << n << "^2\n";
                r.phases = st.iterations;
                r.critical_sweeps = st.critical_sweeps;
                r.critical_fronts = st.critical_fronts;
                add(r, "fim", t, maxAbsDiff(phi, ref));
            }
            // the point source's directional bias
            if (c == EikonalCase::Uniform && n >= 16)
                for (double angle : {0.0, 22.5, 45.0})
                    bias.emplace_back(n, directionError(phi, grid.srcI, grid.srcJ, grid.h, angle, n / 2 - 2));
            // FIM on the GPU, as the simulation runs it: costs, walls and the
            // result stay on the device (the copies are not timed; the
            // result comes to the host once, for the comparison)
            if (haveGpu) {
                Field<FaceCost> cost = grid.cost;
                Field<std::uint8_t> blocked = grid.blocked;
                cost.upload();
                blocked.upload();
                EikonalProblem onDevice = prob;
                onDevice.cost = &cost;
                onDevice.blocked = &blocked;
                EikonalOptions deo = eo;
                deo.download = false;
                validateEikonalProblem(onDevice, eo);  // once, on the host; not in every timed solve
                deo.validate = false;
                FimSolver fim(gpu);
                EikonalStats st;
                EikonalBenchRow r = timeIt(opt, [&] { st = fim.solve(onDevice, phi, deo); return st.updates_per_cell; });
                if (!st.converged) log << "warning: fim-cuda did not converge on " << caseName(c) << " " << n << "^2\n";
                phi.download();
                r.phases = st.iterations;
                r.critical_sweeps = st.critical_sweeps;
                r.critical_fronts = st.critical_fronts;
                add(r, "fim-cuda", 1, maxAbsDiff(phi, ref));
                if (opt.profile_cuda) {
                    EikonalOptions po = deo;
                    po.profile = true;
                    const EikonalStats ps = fim.solve(onDevice, phi, po);
                    writeGpuProfile(log, "case,size", std::string(caseName(c)) + "," + std::to_string(n), ps.iterations,
                                    ps.gpu_profile, !profileHeader);
                    profileHeader = true;
                }
            }
            // scikit-fmm, when Python has it (its speed is isotropic: not the crowd case)
            if (opt.skfmm && c == EikonalCase::Crowd && !crowdNoted) {
                log << "skfmm: not run on the crowd case (its face costs depend on the direction; scikit-fmm takes "
                       "one speed per cell)\n";
                crowdNoted = true;
            }
            if (opt.skfmm && c != EikonalCase::Crowd) {
                SkfmmResult sk = runSkfmm(grid.speed, grid.blocked, grid.srcI, grid.srcJ, grid.h, opt.warmup,
                                          std::max(1, std::min(opt.repeat, n >= 2048 ? 3 : opt.repeat)));
                if (sk.ran) {
                    EikonalBenchRow r;
                    r.ms_median = median(sk.ms);
                    r.ms_min = *std::min_element(sk.ms.begin(), sk.ms.end());
                    r.updates_per_cell = std::numeric_limits<double>::quiet_NaN();
                    add(r, "skfmm", 1, maxAbsDiff(sk.phi, ref));
                } else if (!skfmmNoted) {
                    log << "skfmm: skipped (" << sk.skipped_reason << ")\n";
                    skfmmNoted = true;
                }
            }
        }
    }
    if (!opt.csv) {
        printRatios(rows, allThreads, out);
        printBias(bias, out);
    }
    if (!opt.plot.empty()) {
        writePlot(opt.plot, rows);
        log << "plot written to " << opt.plot << "\n";
    }
    return rows;
}

}  // namespace ccrowd::bench
