#pragma once
/// @file progress.hpp
/// Progress of a run: a redrawn bar with ETA, agents remaining and steps/s on
/// a terminal; plain periodic lines when the output is not a terminal.

#include <chrono>
#include <cstdio>

namespace ccrowd::cli {

class Progress {
public:
    /// @param out Stream to draw on (stderr). @param total Simulated seconds to run. [Units: s]
    Progress(std::FILE* out, double total, bool quiet);
    /// Reports the state after a step; draws at most a few times a second.
    void update(double simTime, long long steps, int agents, long long exited);
    /// Ends the bar (newline on a terminal).
    void finish();

private:
    std::FILE* out_;
    double total_;
    bool quiet_, tty_;
    std::chrono::steady_clock::time_point start_, last_;
    bool drawn_ = false;
};

}  // namespace ccrowd::cli
