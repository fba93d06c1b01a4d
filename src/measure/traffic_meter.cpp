/// @file traffic_meter.cpp
/// traffic_junctions.csv and traffic_roads.csv (traffic_meter.hpp).

#include "traffic_meter.hpp"

#include <cmath>

#include "ccrowd/error.hpp"

namespace ccrowd::measure {

TrafficMeter::TrafficMeter(const StreetTraffic& network, double interval)
    : net_(network),
      slices_("traffic meter", interval),
      junctions_({"t_start [s]", "t_end [s]", "junction", "x [m]", "y [m]", "viewshed_area [m^2]", "arrivals [persons]"}),
      roads_({"t_start [s]", "t_end [s]", "road", "junction_a", "junction_b", "length [m]", "width [m]", "arrivals [persons]"}),
      junctionBase_(network.junction_count),
      roadBase_(network.road_count),
      junctionTotal_(network.junction_count.size(), 0),
      roadTotal_(network.road_count.size(), 0),
      junctionLast_(network.junction_count),
      roadLast_(network.road_count) {}

void TrafficMeter::close(double t0, double t1, const std::vector<long long>& j, const std::vector<long long>& r) {
    // arrivals in the interval: the counts' growth since its start
    for (std::size_t k = 0; k < j.size(); ++k) {
        const long long d = j[k] - junctionBase_[k];
        junctionTotal_[k] += d;
        junctions_.addRow({csvNumber(t0), csvNumber(t1), std::to_string(k), csvNumber(net_.junction_x[k]), csvNumber(net_.junction_y[k]),
                           csvNumber(net_.viewshed_area[k]), std::to_string(d)});
    }
    for (std::size_t k = 0; k < r.size(); ++k) {
        const long long d = r[k] - roadBase_[k];
        roadTotal_[k] += d;
        roads_.addRow({csvNumber(t0), csvNumber(t1), std::to_string(k), std::to_string(net_.road_a[k]), std::to_string(net_.road_b[k]),
                       csvNumber(net_.road_length[k]), csvNumber(net_.road_width[k]), std::to_string(d)});
    }
    junctionBase_ = j;
    roadBase_ = r;
    ++closed_;
}

int TrafficMeter::observe(double time, const std::vector<long long>& junctions, const std::vector<long long>& roads) {
    slices_.check(time);
    if (junctions.size() != junctionBase_.size() || roads.size() != roadBase_.size())
        throw Error("traffic meter: the network changed size");
    // slices that ended before this observation close with the counts seen at their end
    const int n = slices_.advance(time, [this](double t0, double t1) { close(t0, t1, junctionLast_, roadLast_); });
    junctionLast_ = junctions;
    roadLast_ = roads;
    return n;
}

int TrafficMeter::finish(double time, const std::vector<long long>& junctions, const std::vector<long long>& roads) {
    const int n = observe(time, junctions, roads);
    // the open slice, possibly shorter (as LineCounter: not when it is empty)
    return n + slices_.finish(time, [this](double t0, double t1) { close(t0, t1, junctionLast_, roadLast_); });
}

}  // namespace ccrowd::measure
