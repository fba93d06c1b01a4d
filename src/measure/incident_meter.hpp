#pragma once
/// @file incident_meter.hpp
/// The behaviour groups around incidents (incidents.csv; issue 13, Deliver
/// 5). Per output interval and group, from the first incident's start on:
/// the mean head count, their mean distance to the nearest started
/// incident's centre [m] and the mean number inside a harm disc. Per group
/// over the run: the time from the first start until the last of the group
/// was seen inside a harm disc ("time to leave the harm radius").
///
/// Determinism: distances are summed as integers (micrometres), so the
/// result does not depend on the order of agents in the arrays.

#include <string>
#include <vector>

#include "ccrowd/scene.hpp"
#include "csv_text.hpp"
#include "interval_clock.hpp"

namespace ccrowd::measure {

/// One row of incidents.csv: one group, one interval.
struct IncidentGroupRow {
    double t_start = 0, t_end = 0;  ///< Interval. [Units: s]
    int group = 0;
    long long samples = 0;          ///< Observations in the interval (after the first start).
    double agents_mean = 0;         ///< Mean head count. [Units: persons] (NaN without samples)
    double distance_mean = 0;       ///< Mean distance to the nearest started incident's centre. [Units: m] (NaN when nobody)
    double inside_mean = 0;         ///< Mean number inside a harm disc. [Units: persons] (NaN without samples)
};

class IncidentMeter {
public:
    /// @param incidents  The scene's incidents. @param groups  Group names.
    /// @param interval   Output interval. [Units: s] [Limit: finite, > 0]
    IncidentMeter(std::vector<IncidentSpec> incidents, std::vector<std::string> groups, double interval);

    /// Samples the agents at simulated time @p time (non-decreasing), with
    /// @p started the incidents started so far (indices into the scene's).
    /// Arrays are indexed 0..n-1. @return rows emitted (rewrite the CSV when > 0).
    int observe(double time, const std::vector<int>& started, int n, const int* group, const float* x, const float* y);
    /// Emits the last (possibly shorter) interval. @return rows emitted.
    int finish(double time);

    const std::vector<IncidentGroupRow>& rows() const { return rows_; }
    /// incidents.csv: "t_start [s],t_end [s],group,samples,agents_mean [persons],
    /// distance_mean [m],inside_harm_mean [persons]".
    const std::string& csv() const { return csv_.text(); }
    void writeCsv(const std::string& path) const { csv_.write(path); }

    /// Seconds from the first start until group @p g was last seen inside a
    /// harm disc; 0 when it never was; -1 when someone still was at the last
    /// observation (or no incident started). [Units: s]
    double timeToLeaveHarm(int g) const;
    /// The group names, as given.
    const std::vector<std::string>& groups() const { return groups_; }
    /// Time of the first start (-1: none yet). [Units: s]
    double firstStart() const { return firstStart_; }

private:
    struct Acc {
        long long samples = 0, agents = 0, inside = 0, distanceMicro = 0;
    };
    void closeInterval(double t0, double t1);

    std::vector<IncidentSpec> incidents_;
    std::vector<std::string> groups_;
    IntervalSlices slices_;
    CsvText csv_;
    std::vector<IncidentGroupRow> rows_;
    std::vector<Acc> acc_;
    std::vector<double> lastInside_;   ///< Per group: last time seen inside (-1: never).
    std::vector<bool> insideNow_;      ///< Per group: inside at the last observation.
    double firstStart_ = -1.0;
};

}  // namespace ccrowd::measure
