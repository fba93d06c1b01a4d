#pragma once
/// @file run_outputs.hpp
/// Everything a run writes into its output directory besides summary.json
/// and exits.csv (DESIGN.md §2, "measure/export"):
///
///   snapshots.pvd, snapshots.json, snapshots/   field snapshots every
///                                               snapshot_every seconds
///   trajectories.sqlite, trajectories.txt       every agent every
///                                               trajectory_every steps
///   lines.csv, areas.csv                        the scene's measurement
///                                               lines and areas, per interval
///   traffic_junctions.csv, traffic_roads.csv,   route choice's arrivals per
///   traffic_map.png                             junction and road, per
///                                               interval, and their map
///
/// Every file is complete at all times (atomic writes; the databases are
/// renamed into place by finish()). The time spent writing is measured, for
/// the summary.

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ccrowd/simulation.hpp"
#include "../io/snapshot_formats.hpp"
#include "snapshot_fields.hpp"

namespace ccrowd::output {

/// What to write.
struct OutputOptions {
    std::string dir;                   ///< Existing output directory. [Limit: non-empty]
    double snapshot_every = 0.0;       ///< Snapshot interval; 0 = no snapshots. [Units: s] [Limit: >= 0, finite]
    io::SnapshotFormats snapshot_formats{true, false, false};  ///< --snapshot-format (default vti).
    SnapshotFieldSet fields;           ///< --fields.
    long long trajectory_every = 0;    ///< Trajectory frame interval; 0 = none. [Units: steps] [Limit: >= 0]
    bool trajectory_sqlite = true;     ///< JuPedSim/PedPy SQLite database.
    bool trajectory_text = false;      ///< PedPy plain-text file.
    double measure_interval = 1.0;     ///< Interval of lines.csv / areas.csv rows. [Units: s] [Limit: > 0, finite]
};

/// Parses --trajectory-format: a comma-separated subset of "sqlite,txt".
/// Throws InputError naming the option, the bad entry and the allowed values.
void parseTrajectoryFormats(const std::string& list, OutputOptions& o);

/// The options from `ccrowd run`'s text forms (--snapshot-format,
/// --fields, --trajectory-format and the intervals); the CLI and the Python
/// API both read them so. Throws InputError naming the option and the
/// allowed values for a bad list entry.
OutputOptions outputOptions(const std::string& dir, double snapshotEvery, const std::string& snapshotFormats,
                            const std::string& fields, long long trajectoryEvery, const std::string& trajectoryFormats,
                            double measureEvery);

/// The files of ccrowd's outputs in @p dir that a new run replaces
/// (--force): known names and snapshot frames only, nothing else.
void removePreviousOutputs(const std::string& dir);

/// Writes a run's outputs as it goes.
class RunOutputs {
public:
    /// Opens the writers and records the initial state (snapshot and
    /// trajectory frame 0, the measurements' first observation). Throws
    /// InputError / Error naming the path when a file cannot be written.
    RunOutputs(OutputOptions options, const Simulation& sim);
    ~RunOutputs();
    RunOutputs(const RunOutputs&) = delete;
    RunOutputs& operator=(const RunOutputs&) = delete;

    /// Records the state after a step: snapshots and trajectory frames when
    /// due, measurements every step. Throws Error naming the path on a
    /// failed write (e.g. a full disk); what was complete stays.
    void afterStep(const Simulation& sim);
    /// Ends the measurements, writes their last rows and closes the
    /// trajectory files (renamed into place).
    void finish(const Simulation& sim);

    /// Peaks of the run and the output cost, for summary.json: max grid
    /// density, per-area max density, per-line crossings and peak flows,
    /// files written, seconds spent writing (run thread and background).
    nlohmann::json summary() const;
    /// Wall time the run's thread spent in the writers. [Units: s]
    double seconds() const { return seconds_; }
    /// Wall time the trajectory database's background thread spent
    /// inserting (runs alongside the simulation, competing for cores). [Units: s]
    double backgroundSeconds() const;
    /// CPU time of that background thread. [Units: s]
    double backgroundCpuSeconds() const;
    /// Files written so far, relative to the output directory, for people.
    std::vector<std::string> files() const;

private:
    struct Writers;
    void observe(const Simulation& sim);
    /// Writes the traffic tables, and with @p map the traffic map.
    void writeTraffic(const Simulation& sim, bool map);

    OutputOptions opt_;
    std::unique_ptr<Writers> w_;
    double nextSnapshot_ = 0.0;
    double seconds_ = 0.0;
    float maxDensity_ = 0.f;
    double maxDensityTime_ = 0.0;
    std::size_t exitsSeen_ = 0;
    bool trafficMap_ = false;
};

}  // namespace ccrowd::output
