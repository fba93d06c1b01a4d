#pragma once
/// @file interval_clock.hpp
/// Output intervals of the measurements: consecutive slices
/// (k I, (k + 1) I], k = 0, 1, ..., of simulated time. An observation at
/// time t (the end of the step that produced it) belongs to the slice that
/// holds t; t = k I exactly, even when summed from steps with rounding
/// (1e-9 I tolerance), closes slice k - 1. t <= 0 belongs to slice 0.

#include <cmath>

namespace ccrowd::measure {

class IntervalClock {
public:
    /// @param interval  Slice length. [Units: s] [Limit: finite, > 0; callers validate]
    explicit IntervalClock(double interval) : interval_(interval) {}

    /// Slice index of an observation at time @p t. [Units: s]
    long long indexOf(double t) const {
        const double k = std::ceil(t / interval_ - 1e-9) - 1.0;
        return k > 0 ? static_cast<long long>(k) : 0;
    }
    /// Start of slice @p k. [Units: s]
    double start(long long k) const { return static_cast<double>(k) * interval_; }
    /// End of slice @p k. [Units: s]
    double end(long long k) const { return static_cast<double>(k + 1) * interval_; }
    /// True when [t0, t1] spans a whole slice (within the tolerance).
    bool isFull(double t0, double t1) const { return t1 - t0 >= interval_ * (1.0 - 1e-9); }
    /// Slice length. [Units: s]
    double interval() const { return interval_; }

private:
    double interval_;
};

}  // namespace ccrowd::measure
