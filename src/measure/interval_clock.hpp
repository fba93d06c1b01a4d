#pragma once
/// @file interval_clock.hpp
/// Output intervals of the measurements: consecutive slices
/// (k I, (k + 1) I], k = 0, 1, ..., of simulated time. An observation at
/// time t (the end of the step that produced it) belongs to the slice that
/// holds t; t = k I exactly, even when summed from steps with rounding
/// (1e-9 I tolerance), closes slice k - 1. t <= 0 belongs to slice 0.
/// IntervalSlices walks a meter through them as its observations arrive.

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "ccrowd/error.hpp"
#include "io/number_text.hpp"

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

/// A meter's walk through its slices: observations come in time order and
/// not after the end; each slice they pass is closed (empty ones too) by the
/// meter's close(t0, t1), which writes its rows. The walk starts at slice 0,
/// or, when constructed closed, at the slice of the first time given to openAt().
class IntervalSlices {
public:
    /// @param meter     The meter's name in error messages ("line counter").
    /// @param interval  Slice length; anything else throws InputError naming
    ///                  the meter's interval. [Units: s] [Limit: finite, > 0]
    /// @param openAtZero  true: the walk starts at slice 0; false: at openAt().
    IntervalSlices(std::string meter, double interval, bool openAtZero = true)
        : meter_(std::move(meter)), clock_(interval), current_(openAtZero ? 0 : -1) {
        if (!std::isfinite(interval) || interval <= 0)
            throw InputError(fieldMessage(meter_ + " interval", io::shortestText(interval), "not a positive duration",
                                          "finite, > 0 s"));
    }

    /// Takes an observation at @p time as the last one; throws Error naming
    /// the meter after finish(), or when @p time is before the last one or not finite.
    void check(double time) {
        if (finished_) throw Error(meter_ + ": observe() after finish()");
        if (!std::isfinite(time)) throw Error(meter_ + ": observation time " + io::shortestText(time) + " is not a finite time");
        if (time < last_)
            throw Error(meter_ + ": observation time " + io::shortestText(time) + " s is before the previous one (" + io::shortestText(last_) + " s)");
        last_ = time;
    }
    /// Starts the walk at the slice holding @p time, unless it has started. [Units: s]
    void openAt(double time) {
        if (current_ < 0) current_ = clock_.indexOf(time);
    }
    /// True once the walk has started (at once unless openAt() starts it).
    bool open() const { return current_ >= 0; }
    /// Closes every slice before the one holding @p time. @return slices closed.
    template <class Close>
    int advance(double time, Close&& close) {
        int n = 0;
        for (const long long k = clock_.indexOf(time); current_ >= 0 && current_ < k; ++current_, ++n)
            close(clock_.start(current_), clock_.end(current_));
        return n;
    }
    /// The end at @p time (not before the last observation): closes the
    /// slices before it and the one holding it, cut at @p time, unless that
    /// part is empty. Later calls close nothing. @return slices closed.
    template <class Close>
    int finish(double time, Close&& close) {
        if (finished_) return 0;
        if (!std::isfinite(time)) throw Error(meter_ + ": finish time " + io::shortestText(time) + " is not a finite time");
        if (time < last_)
            throw Error(meter_ + ": finish time " + io::shortestText(time) + " s is before the last observation (" + io::shortestText(last_) + " s)");
        finished_ = true;
        int n = advance(time, close);
        if (!open()) return n;
        const double t0 = clock_.start(current_), t1 = std::min(time, clock_.end(current_));
        if (t1 - t0 > 1e-9 * clock_.interval()) close(t0, t1), ++n;
        return n;
    }
    /// True after finish().
    bool finished() const { return finished_; }
    const IntervalClock& clock() const { return clock_; }

private:
    std::string meter_;
    IntervalClock clock_;
    long long current_;      ///< Slice being accumulated (-1: not started).
    double last_ = -1e300;   ///< Time of the last observation. [Units: s]
    bool finished_ = false;
};

}  // namespace ccrowd::measure
