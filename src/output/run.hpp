#pragma once
/// @file run.hpp
/// A run as `ccrowd run` and the Python API drive it: the output directory
/// prepared, the simulation, the outputs asked for (run_outputs.hpp), the
/// stepping wall time, and summary.json / exits.csv at the end. One place,
/// so both write exactly the same files.

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "ccrowd/simulation.hpp"
#include "run_outputs.hpp"

namespace ccrowd::output {

/// What a run writes and where.
struct RunSetup {
    OutputOptions outputs;            ///< outputs.dir empty: nothing is written.
    bool force = false;               ///< Write into a non-empty directory, replacing ccrowd's previous outputs there.
    std::string dir_field = "--out";      ///< How errors name the directory option (the CLI's --out, Python's out).
    std::string force_field = "--force";  ///< How errors name the force option.
};

/// Creates @p dir (and parents) or checks it is a directory; an existing
/// non-empty one only with @p force (then ccrowd's previous outputs in it
/// are removed). Throws InputError naming @p field and the allowed values
/// (@p forceField among them).
void prepareOutputDir(const std::string& dir, bool force, const std::string& field, const std::string& forceField);

/// A simulation with its outputs.
class Run {
public:
    /// Checks the output options, prepares the directory, builds the
    /// simulation (Simulation's InputErrors) and opens the outputs.
    Run(Scene scene, const Exec& ex, const RunSetup& setup);
    ~Run();
    Run(const Run&) = delete;
    Run& operator=(const Run&) = delete;

    Simulation& sim() { return *sim_; }
    const Simulation& sim() const { return *sim_; }

    /// One step, then the outputs' record of it. Returns false when a write
    /// failed (writeError() says why; what was complete stays): the run is
    /// then over and only finish() remains.
    bool step();
    /// Closes the outputs and, with an output directory, writes
    /// summary.json and exits.csv. Returns the summary; later calls return
    /// the same without writing again.
    nlohmann::json finish(bool interrupted);
    /// What summary.json would hold now (summaryJson plus the outputs' peaks
    /// and write times).
    nlohmann::json summary(bool interrupted) const;

    /// Wall time spent in step() and finish(). [Units: s]
    double wallSeconds() const { return wall_; }
    /// The first failed write's message ("" when none).
    const std::string& writeError() const { return writeError_; }
    /// The outputs (nullptr without an output directory).
    const RunOutputs* outputs() const { return outputs_.get(); }

private:
    std::string dir_;
    std::unique_ptr<Simulation> sim_;
    std::unique_ptr<RunOutputs> outputs_;
    double wall_ = 0.0;
    std::string writeError_;
    bool finished_ = false;
    nlohmann::json final_;
};

}  // namespace ccrowd::output
