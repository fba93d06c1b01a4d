#pragma once
/// @file traffic_meter.hpp
/// Traffic counts on the street network of route-choice groups (seed 004,
/// Nicosia et al., Fig. 4: "how many avatars go through each junction"):
/// per output interval, the persons arriving at each junction
/// (traffic_junctions.csv) and arriving along each road
/// (traffic_roads.csv), from the simulation's cumulative counts.

#include <string>
#include <vector>

#include "ccrowd/simulation.hpp"
#include "csv_text.hpp"
#include "interval_clock.hpp"

namespace ccrowd::measure {

class TrafficMeter {
public:
    /// @param network   The network (StreetTraffic at the start: its counts are the baseline).
    /// @param interval  Output interval. [Units: s] [Limit: finite, > 0]
    TrafficMeter(const StreetTraffic& network, double interval);

    /// Takes the cumulative counts per junction @p junctions and per road
    /// @p roads at simulated time @p time (non-decreasing): closes the
    /// intervals that ended before it. @return intervals closed.
    int observe(double time, const std::vector<long long>& junctions, const std::vector<long long>& roads);
    /// Closes the last (possibly shorter) interval at @p time. @return intervals closed.
    int finish(double time, const std::vector<long long>& junctions, const std::vector<long long>& roads);

    /// traffic_junctions.csv: "t_start [s],t_end [s],junction,x [m],y [m],
    /// viewshed_area [m^2],arrivals [persons]".
    const CsvText& junctionCsv() const { return junctions_; }
    /// traffic_roads.csv: "t_start [s],t_end [s],road,junction_a,junction_b,
    /// length [m],width [m],arrivals [persons]".
    const CsvText& roadCsv() const { return roads_; }
    /// Arrivals since the start, per junction and per road.
    const std::vector<long long>& junctionTotals() const { return junctionTotal_; }
    const std::vector<long long>& roadTotals() const { return roadTotal_; }
    /// The network (as given at construction: geometry, start counts).
    const StreetTraffic& network() const { return net_; }
    /// Intervals closed so far.
    long long intervals() const { return closed_; }

private:
    void close(double t0, double t1, const std::vector<long long>& j, const std::vector<long long>& r);

    StreetTraffic net_;
    IntervalSlices slices_;
    CsvText junctions_, roads_;
    std::vector<long long> junctionBase_, roadBase_;    ///< Counts at the start of the open interval.
    std::vector<long long> junctionTotal_, roadTotal_;
    std::vector<long long> junctionLast_, roadLast_;    ///< Counts at the last observation.
    long long closed_ = 0;
};

}  // namespace ccrowd::measure
