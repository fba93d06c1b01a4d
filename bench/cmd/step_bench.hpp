#pragma once
/// @file step_bench.hpp
/// `ccrowd bench step`: time whole simulation steps and each stage on
/// synthetic scenes (a square domain, groups spawned in bands and routed to
/// the opposite side) for several agent counts, grid sizes and group counts,
/// or on scene files; with and without the potential's warm start; with
/// each operational model asked for (a `local` column; a stage column per
/// stage of any model, empty in the rows of models without it).

#include <iosfwd>
#include <string>
#include <vector>

#include "ccrowd/backend.hpp"
#include "cmd/int_list.hpp"

namespace ccrowd::bench {

struct StepBenchOptions {
    std::vector<int> agents{10000, 100000, 1000000};  ///< [Limit: 1..20,000,000]
    std::vector<int> cells{256, 512, 1024};           ///< Cells per side. [Limit: 16..4096]
    std::vector<int> groups{1, 4};                    ///< [Limit: 1..4]
    int steps = 10;                                   ///< Timed steps. [Limit: >= 1]
    int warmup = 3;                                   ///< Untimed steps first. [Limit: >= 0]
    bool csv = false;
    BackendChoice backend = BackendChoice::Auto;
    int threads = 0;
    /// Only the configurations the targets name (10k/256, 100k/512, 1M/1024)
    /// instead of every combination.
    bool matched = true;
    /// Scene files to time instead of the synthetic scenes (their agents,
    /// grid and groups; agents/cells/groups are then ignored).
    std::vector<std::string> scenes;
    /// Potential warm start settings to run each configuration with
    /// (ModelParams::potential_warm_start): {false} (the default), {true} or both.
    std::vector<bool> warmStart{false};
    /// Operational models to run each configuration with (ModelParams::local:
    /// "uic", "social_force", "orca", "zones"); empty: each scene's own (synthetic: uic).
    std::vector<std::string> locals;
    /// Potential stencil for every configuration (ModelParams::potential_stencil:
    /// 4 or 8); 0: each scene's own (synthetic: 4).
    int stencil = 0;
    /// FIM sweeps per tile activation for every configuration
    /// (ModelParams::potential_sweeps, 1..64); 0: each scene's own (synthetic:
    /// each backend's default).
    int sweeps = 0;
    /// FIM band in tile widths for every configuration
    /// (ModelParams::potential_band_tiles, 0..1e6); negative: each scene's own
    /// (synthetic: each backend's default).
    float bandTiles = -1.f;
    /// FIM front budget for every configuration
    /// (ModelParams::potential_front_budget, 0..1e6); negative: each scene's
    /// own (synthetic: each backend's default).
    int frontBudget = -1;
    /// CUDA: after each configuration's timed steps, one more step whose
    /// potential solve times its kernel's parts (Simulation::profilePotential),
    /// as a `profile,` line on the log (gpu_profile.hpp).
    bool profileCuda = false;
};

/// Runs the benchmark; writes the table or CSV to @p out, notes to @p log.
void runStepBench(const StepBenchOptions& opt, std::ostream& out, std::ostream& log);


}  // namespace ccrowd::bench
