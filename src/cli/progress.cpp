/// @file progress.cpp
#include "cli/progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace ccrowd::cli {

Progress::Progress(std::FILE* out, double total, bool quiet)
    : out_(out), total_(total), quiet_(quiet), tty_(isatty(fileno(out)) != 0),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

void Progress::update(double simTime, long long steps, int agents, long long exited) {
    if (quiet_) return;
    const auto now = std::chrono::steady_clock::now();
    const double sinceLast = std::chrono::duration<double>(now - last_).count();
    // a terminal redraws 4 times a second; a log gets a line every 10 s
    if (sinceLast < (tty_ ? 0.25 : 10.0) && drawn_) return;
    last_ = now;
    drawn_ = true;
    const double wall = std::chrono::duration<double>(now - start_).count();
    const double frac = total_ > 0 ? std::min(1.0, simTime / total_) : 0.0;
    const double eta = frac > 0 ? wall * (1.0 - frac) / frac : 0.0;
    const double rate = wall > 0 ? steps / wall : 0.0;
    if (tty_) {
        const int width = 30, fill = static_cast<int>(std::round(frac * width));
        std::fprintf(out_, "\r[%s%s] %5.1f%%  t=%.1f s  agents %d  exited %lld  %.1f steps/s  ETA %.0f s ",
                     std::string(static_cast<std::size_t>(fill), '#').c_str(),
                     std::string(static_cast<std::size_t>(width - fill), '.').c_str(), 100 * frac, simTime, agents, exited,
                     rate, eta);
    } else {
        std::fprintf(out_, "progress: t=%.1f s (%.0f%%), step %lld, agents %d, exited %lld, %.1f steps/s, ETA %.0f s\n",
                     simTime, 100 * frac, steps, agents, exited, rate, eta);
    }
    std::fflush(out_);
}

void Progress::finish() {
    if (quiet_ || !drawn_) return;
    if (tty_) std::fputc('\n', out_);
    std::fflush(out_);
}

}  // namespace ccrowd::cli
