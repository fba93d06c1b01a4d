#pragma once
/// @file stage_clock.hpp
/// Wall time per stage of a step, measured where the stage runs: the host's
/// steady clock on the CPU backend, CUDA events on the default stream on the
/// CUDA backend (a kernel launch returns before the kernel ran, so a host
/// clock would charge a stage's GPU time to whichever later stage waits for
/// the GPU first). On the GPU a stage's time runs from the moment the GPU
/// reached its start (all earlier work done) to the moment it finished the
/// stage's last work, host work of the stage included when the GPU waited
/// for it. The events are resolved once per step, in collect().

#include <chrono>
#include <vector>

#include "ccrowd/backend.hpp"

namespace ccrowd::device {
struct Event;
}  // namespace ccrowd::device

namespace ccrowd::sim {

/// Times a fixed list of stages, each begun and ended at most once between
/// two collect() calls.
class StageClock {
public:
    StageClock() = default;
    /// @param ex Backend whose clock is used. @param stages Number of stages [Limit: >= 0]
    StageClock(const Exec& ex, int stages);
    ~StageClock();
    StageClock(StageClock&&) noexcept;
    StageClock& operator=(StageClock&&) noexcept;
    StageClock(const StageClock&) = delete;
    StageClock& operator=(const StageClock&) = delete;

    /// Marks the start of stage @p s [Limit: 0 <= s < stages] (CUDA: records an event).
    void begin(int s);
    /// Marks the end of stage @p s, after begin(s).
    void end(int s);
    /// Adds the time of every stage ended since the last collect() to
    /// @p totalMs [Units: ms] [Size: stages] and forgets it. CUDA: waits for
    /// the last recorded event (one wait per call).
    void collect(double* totalMs);

private:
    void release() noexcept;
    Backend backend_ = Backend::Cpu;
    std::vector<std::chrono::steady_clock::time_point> started_;  ///< CPU: start per stage.
    std::vector<double> pendingMs_;                                ///< CPU: ended, not yet collected. [Units: ms]
    std::vector<device::Event*> startEv_, endEv_;                  ///< CUDA: events per stage (made on first use).
    std::vector<char> ended_;                                      ///< Ended since the last collect().
};

}  // namespace ccrowd::sim
