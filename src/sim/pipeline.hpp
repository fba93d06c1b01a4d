#pragma once
/// @file pipeline.hpp
/// A step as an ordered list of named stages (DESIGN.md §8; JuPedSim's
/// libsimulator runs a step as named, timed phases the same way). Each stage
/// declares the state items it reads and writes; the pipeline checks at
/// construction that every read is available (in the initial state or
/// written by an earlier stage), runs the stages in order and times each on
/// the backend's clock (CUDA events on the GPU). A new behaviour is a new
/// stage, built from the scene, not an edit of a long step.

#include <functional>
#include <string>
#include <vector>

#include "ccrowd/backend.hpp"
#include "sim/stage_clock.hpp"

namespace ccrowd::sim {

struct SimState;

/// When a stage runs.
enum class StagePhase {
    Fields,  ///< Computes fields from the agents where they stand (also run before the first step).
    Move,    ///< Moves the agents or changes the agent table (steps only).
};

/// One named stage of a step.
struct Stage {
    std::string name;                 ///< As in files, timers, benchmark rows and snapshot fields. [Limit: unique, not empty]
    StagePhase phase = StagePhase::Move;
    std::vector<std::string> reads;   ///< State items read (e.g. "agents.position", "density").
    std::vector<std::string> writes;  ///< State items written.
    std::function<void(SimState&)> run;
};

/// The stages of a step, in order, with their timers.
class Pipeline {
public:
    Pipeline() = default;
    /// Checks @p stages against @p initial (the items the state holds before
    /// any stage runs): every stage has a unique, non-empty name and a run
    /// function; every read is in @p initial or written by an earlier stage;
    /// a Fields stage comes before every Move stage and reads nothing only a
    /// Move stage writes. Throws Error naming the stage and the item.
    Pipeline(const Exec& ex, std::vector<Stage> stages, const std::vector<std::string>& initial);

    /// Stage names, in order.
    const std::vector<std::string>& names() const { return names_; }
    /// The stages, in order.
    const std::vector<Stage>& stages() const { return stages_; }
    /// Runs every stage (@p move) or only the Fields stages, in order, each
    /// timed.
    void run(SimState& s, bool move);
    /// Adds each stage's time since the last collect() to @p totalMs
    /// [Units: ms] [Size: stages] (CUDA: one wait for the GPU).
    void collect(double* totalMs);

private:
    std::vector<Stage> stages_;
    std::vector<std::string> names_;
    StageClock clock_;
};

}  // namespace ccrowd::sim
