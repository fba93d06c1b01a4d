/// @file incident_meter.cpp
/// incidents.csv: the behaviour groups around the started incidents (incident_meter.hpp).

#include "incident_meter.hpp"

#include <cmath>
#include <limits>

#include "ccrowd/error.hpp"

namespace ccrowd::measure {

namespace {
constexpr double kDistanceQuantum = 1e-6;  // [m]
}  // namespace

IncidentMeter::IncidentMeter(std::vector<IncidentSpec> incidents, std::vector<std::string> groups, double interval)
    : incidents_(std::move(incidents)),
      groups_(std::move(groups)),
      slices_("incident meter", interval, false),
      csv_({"t_start [s]", "t_end [s]", "group", "samples", "agents_mean [persons]", "distance_mean [m]",
            "inside_harm_mean [persons]"}),
      acc_(groups_.size()),
      lastInside_(groups_.size(), -1.0),
      insideNow_(groups_.size(), false) {}

void IncidentMeter::closeInterval(double t0, double t1) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        // means over the interval's observations
        const Acc& c = acc_[g];
        IncidentGroupRow r;
        r.t_start = t0;
        r.t_end = t1;
        r.group = static_cast<int>(g);
        r.samples = c.samples;
        const double s = static_cast<double>(c.samples);
        r.agents_mean = c.samples ? static_cast<double>(c.agents) / s : nan;
        r.distance_mean = c.agents ? static_cast<double>(c.distanceMicro) * kDistanceQuantum / static_cast<double>(c.agents) : nan;
        r.inside_mean = c.samples ? static_cast<double>(c.inside) / s : nan;
        rows_.push_back(r);
        csv_.addRow({csvNumber(t0), csvNumber(t1), groups_[g], std::to_string(r.samples), csvNumber(r.agents_mean),
                     csvNumber(r.distance_mean), csvNumber(r.inside_mean)});
    }
    acc_.assign(groups_.size(), Acc{});
}

int IncidentMeter::observe(double time, const std::vector<int>& started, int n, const int* group, const float* x, const float* y) {
    slices_.check(time);
    if (started.empty()) return 0;
    const std::size_t before = rows_.size();
    // the first observation after the first start opens the first slice
    if (firstStart_ < 0.0) firstStart_ = time;
    slices_.openAt(time);
    slices_.advance(time, [this](double t0, double t1) { closeInterval(t0, t1); });
    // per agent: the nearest started incident's centre, and inside any harm disc
    std::vector<long long> agents(groups_.size(), 0), inside(groups_.size(), 0), micro(groups_.size(), 0);
    for (int a = 0; a < n; ++a) {
        const int g = group[a];
        if (g < 0 || g >= static_cast<int>(groups_.size())) throw Error("incident meter: agent group out of range");
        double nearest = INFINITY;
        bool in = false;
        for (int s : started) {
            const IncidentSpec& inc = incidents_[static_cast<std::size_t>(s)];
            const double d = std::hypot(static_cast<double>(x[a]) - inc.position.x, static_cast<double>(y[a]) - inc.position.y);
            nearest = std::min(nearest, d);
            in = in || d < inc.radius;
        }
        ++agents[static_cast<std::size_t>(g)];
        inside[static_cast<std::size_t>(g)] += in;
        micro[static_cast<std::size_t>(g)] += std::llround(nearest / kDistanceQuantum);
    }
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        Acc& c = acc_[g];
        ++c.samples;
        c.agents += agents[g];
        c.inside += inside[g];
        c.distanceMicro += micro[g];
        insideNow_[g] = inside[g] > 0;
        if (inside[g] > 0) lastInside_[g] = time;
    }
    return static_cast<int>(rows_.size() - before);
}

int IncidentMeter::finish(double time) {
    const std::size_t before = rows_.size();
    slices_.finish(time, [this](double t0, double t1) { closeInterval(t0, t1); });
    return static_cast<int>(rows_.size() - before);
}

double IncidentMeter::timeToLeaveHarm(int g) const {
    const std::size_t k = static_cast<std::size_t>(g);
    if (firstStart_ < 0.0 || insideNow_[k]) return -1.0;
    return lastInside_[k] < 0.0 ? 0.0 : lastInside_[k] - firstStart_;
}

}  // namespace ccrowd::measure
