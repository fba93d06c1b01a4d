#pragma once
/// @file eikonal_bench.hpp
/// `ccrowd bench eikonal`: FIM (CPU, 1 and all threads; CUDA when a GPU
/// works) against CPU fast marching and, when installed, scikit-fmm, on the
/// cases of eikonal_cases.hpp. Medians of repeated runs after a warm-up.

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "ccrowd/backend.hpp"
#include "ccrowd/eikonal.hpp"
#include "cmd/eikonal_cases.hpp"

namespace ccrowd::bench {

/// Options of the eikonal benchmark.
struct EikonalBenchOptions {
    std::vector<int> sizes{64, 256, 1024, 4096};  ///< Cells per side. [Limit: 2..16384 each]
    std::vector<EikonalCase> cases = allCases();  ///< Cases to run.
    bool csv = false;                             ///< CSV instead of a table.
    std::string plot;                             ///< PNG path for a log-log plot; empty = none.
    int repeat = 7;                               ///< Timed runs per measurement. [Limit: >= 1]
    int warmup = 1;                               ///< Untimed runs first. [Limit: >= 0]
    double max_seconds = 30.0;                    ///< Stop repeating after this much time (>= 3 runs). [Units: s] [Limit: > 0]
    int threads = 0;                              ///< "All threads" for FIM. [Limit: >= 0, 0 = all cores]
    BackendChoice backend = BackendChoice::Auto;  ///< Auto: add fim-cuda rows when a GPU works.
    bool skfmm = true;                            ///< Time scikit-fmm when it is installed.
    /// After each fim-cuda row, one untimed solve with EikonalOptions::profile,
    /// its EikonalGpuProfile written to the log as a `profile,` line.
    bool profile_cuda = false;
    float tolerance = 1e-9f;                      ///< FIM tolerance (EikonalOptions::tolerance).
    std::optional<float> band_tiles;                   ///< FIM value-ordering band (EikonalOptions::band_tiles; empty: each backend's default). [Limit: >= 0]
    std::optional<int> sweeps;                         ///< FIM sweeps per tile activation (EikonalOptions::inner_iterations; empty: each backend's default). [Limit: >= 1]
    std::optional<int> front_budget;                   ///< FIM fronts per tile activation (EikonalOptions::front_budget; empty: each backend's default). [Limit: 0..1e6]
    int stencil = EikonalOptions{}.stencil;            ///< Local update's neighbours, FIM and FMM (EikonalOptions::stencil). [Limit: 4 or 8]
};

/// One result row: exactly the CSV columns.
struct EikonalBenchRow {
    std::string case_name;           ///< uniform, random, obstacles.
    int size = 0;                    ///< Cells per side.
    std::string method;              ///< fim, fim-cuda, fmm, skfmm.
    int threads = 1;                 ///< CPU threads used.
    double ms_median = 0;            ///< [Units: ms]
    double ms_min = 0;               ///< [Units: ms]
    double updates_per_cell = 0;     ///< Local-solver calls per open cell (NaN for skfmm: not reported by it).
    double max_abs_diff_vs_fmm = 0;  ///< Max |phi - phi_fmm| over cells finite in both (inf when the reachable sets differ). [Units: s]
    int phases = -1;                 ///< FIM: phases of the solve (EikonalStats::iterations); -1 for the others.
    long long critical_sweeps = -1;  ///< FIM: EikonalStats::critical_sweeps, the GPU's latency path; -1 for the others.
    long long critical_fronts = -1;  ///< FIM: EikonalStats::critical_fronts, the same path front by front; -1 for the others.
};

/// Runs the benchmark, writing the table or CSV to @p out and progress and
/// notes to @p log; returns the rows. Throws InputError for bad options.
std::vector<EikonalBenchRow> runEikonalBench(const EikonalBenchOptions& opt, std::ostream& out, std::ostream& log);

/// Parses "64,256,1024" (sizes 2..16384); throws InputError naming @p field.
std::vector<int> parseSizes(const std::string& text, const std::string& field = "--sizes");

}  // namespace ccrowd::bench
