#pragma once
/// @file line_counter.hpp
/// Flow through the scene's measurement lines: counts agents crossing each
/// line segment, per direction and group, and reports per output interval
/// the crossings, the flow [persons/s] and the specific flow
/// [persons/(m s)] = flow / line length (lines.csv).
///
/// Crossing rule. For each agent and line the counter keeps the last side
/// the agent was strictly on. A crossing is counted at the observation where
/// the agent is strictly on the other side, if that step's move (previous
/// to current position) touches the segment a-b (end points included). So
/// an agent that steps onto the line and back is not counted, one that
/// stops on the line and later goes on is counted once when it leaves the
/// line, and one that walks around the end of the segment is not counted.
/// (PedPy's compute_crossing_frames also counts a move that starts on the
/// line; otherwise the rules agree.) A move through the shared end point
/// of two lines counts on both.
///
/// Direction: forward = from the right of a->b to its left, i.e. along the
/// left normal (-(b-a).y, (b-a).x); a line drawn west to east counts
/// northward crossings as forward. Flow counts both directions.
///
/// Determinism: counts are integer sums, so they do not depend on the order
/// of agents in the arrays nor on hash-map order; intervals and rows come
/// in a fixed order (time, then line, then "all" and the groups in order).

#include <string>
#include <unordered_map>
#include <vector>

#include "ccrowd/scene.hpp"
#include "interval_clock.hpp"
#include "csv_text.hpp"

namespace ccrowd::measure {

/// One row of lines.csv: one line, one group (or all), one interval.
struct LineFlowRow {
    double t_start = 0, t_end = 0;  ///< Interval. [Units: s]
    int line = 0;                   ///< Index of the line.
    int group = -1;                 ///< Group index; -1 = all groups.
    long long forward = 0;          ///< Crossings to the left of a->b. [Units: persons]
    long long backward = 0;         ///< Crossings to the right of a->b. [Units: persons]
    double flow = 0;                ///< (forward + backward) / (t_end - t_start). [Units: persons/s]
    double specific_flow = 0;       ///< flow / line length. [Units: persons/(m s)]
};

class LineCounter {
public:
    /// @param lines       Measurement lines. [Limit: names non-empty, a != b, finite]
    /// @param groupNames  Names of the groups (group index g -> name); may be empty (then only "all" rows).
    /// @param interval    Output interval. [Units: s] [Limit: finite, > 0]
    /// Throws InputError naming the line or field for bad input.
    LineCounter(std::vector<LineSpec> lines, std::vector<std::string> groupNames, double interval);

    /// Feeds the agents present after a step, at simulated time @p time
    /// (non-decreasing). Arrays are indexed 0..n-1 (may be null when n == 0;
    /// @p group may be null when there are no group names). Agents absent
    /// since the last call are forgotten; a new id starts without a crossing.
    /// Emits the rows of every interval that ended before @p time.
    /// @param x,y  Positions. [Units: m] [Limit: finite]
    /// @return Number of rows emitted (rewrite lines.csv when > 0).
    /// Throws Error for time going back, a duplicate id, a group index out of
    /// range or a non-finite position, naming the value.
    int observe(double time, int n, const int* id, const int* group, const float* x, const float* y);

    /// Ends the measurement at @p time: emits the last (possibly shorter)
    /// interval. Later observe() calls throw. @return rows emitted.
    int finish(double time);

    /// All emitted rows, in time / line / group order.
    const std::vector<LineFlowRow>& rows() const { return rows_; }
    /// lines.csv text: header "t_start [s],t_end [s],line,group,forward [persons],
    /// backward [persons],flow [persons/s],specific_flow [persons/(m s)]";
    /// group is the group name or "all".
    const std::string& csv() const { return csv_.text(); }
    /// Writes csv() atomically to @p path.
    void writeCsv(const std::string& path) const { csv_.write(path); }

    /// Highest all-groups flow of line @p line over the emitted full-length
    /// intervals (over all emitted intervals when none is full). [Units: persons/s]
    double peakFlow(int line) const;
    /// peakFlow / line length. [Units: persons/(m s)]
    double peakSpecificFlow(int line) const;
    /// Crossings of line @p line since the start, all groups. [Units: persons]
    long long totalForward(int line) const;
    long long totalBackward(int line) const;

    const std::vector<LineSpec>& lines() const { return lines_; }
    /// Length of line @p line. [Units: m]
    double length(int line) const;

private:
    void closeInterval(double t0, double t1);
    long long& count(int line, int groupSlot, int dir) {
        return counts_[(static_cast<std::size_t>(line) * (groups_.size() + 1) + groupSlot) * 2 + dir];
    }

    std::vector<LineSpec> lines_;
    std::vector<std::string> groups_;
    std::vector<double> length_;
    IntervalSlices slices_;
    CsvText csv_;
    std::vector<LineFlowRow> rows_;

    // Current interval.
    std::vector<long long> counts_;  ///< [line][group slot: 0 = all, 1 + g][forward, backward]

    // Per-agent state of the previous observation, in that observation's
    // order (agents keep much of their order from one step to the next, so
    // reading it back is close to sequential): position and last strict side
    // per line, found through a per-id entry stamped with the observation.
    struct IdEntry {
        int slot = -1;           ///< Index into the previous (or current) observation's arrays.
        unsigned int stamp = 0;  ///< Observation that wrote it (0: never).
    };
    /// The entry of agent @p id (a reference to fill in).
    IdEntry& entryOf(int id);
    static constexpr int kDenseIds = 1 << 24;  ///< Ids below: a table; others: hashed.
    std::vector<IdEntry> dense_;                ///< [id] for ids < kDenseIds.
    std::unordered_map<int, IdEntry> sparse_;   ///< Other ids.
    std::vector<float> px_, py_, nextX_, nextY_;          ///< Positions, previous and current observation. [Units: m]
    std::vector<signed char> side_, nextSide_;            ///< [agent][line]: -1, +1, or 0 (not yet strictly on a side)
    unsigned int stamp_ = 0;                              ///< Observations so far (entries of the last one are valid).

    // Totals and peaks.
    std::vector<long long> totalForward_, totalBackward_;
    std::vector<double> peakFull_, peakAny_;
    bool anyFull_ = false;
};

}  // namespace ccrowd::measure
