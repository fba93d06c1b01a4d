#pragma once
/// @file outputs_bench.hpp
/// `ccrowd bench outputs`: what writing a run's outputs costs. Runs a scene
/// for a while without outputs and with them (field snapshots, trajectories,
/// measurements), alternating the order over repeats, in one process, and
/// reports the median wall times, the median of the paired overheads
/// (with / without - 1) and what the run measured of its own writing.

#include <iosfwd>
#include <string>

#include "ccrowd/backend.hpp"

namespace ccrowd::bench {

struct OutputsBenchOptions {
    std::string scene;               ///< Scene file; empty: the bundled default scene.
    double duration = 10.0;          ///< Simulated time per run. [Units: s] [Limit: > 0, finite]
    int repeat = 3;                  ///< Pairs of runs. [Limit: 1..100]
    double snapshot_every = 1.0;     ///< Snapshot interval (vti, default fields). [Units: s] [Limit: >= 0, 0 = none]
    long long trajectory_every = 1;  ///< Trajectory interval (SQLite database). [Units: steps] [Limit: >= 0, 0 = none]
    std::string dir;                 ///< Where the outputs go (emptied after each run); empty: a new directory in the system's temporary directory.
    bool csv = false;
    BackendChoice backend = BackendChoice::Auto;
    int threads = 0;                 ///< CPU threads (0 = all cores).
};

/// Runs the benchmark; writes the table or CSV to @p out, progress and notes
/// to @p log. Throws InputError for bad options or an unusable directory.
void runOutputsBench(const OutputsBenchOptions& opt, std::ostream& out, std::ostream& log);

}  // namespace ccrowd::bench
