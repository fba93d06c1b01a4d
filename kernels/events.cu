/// @file events.cu
/// Events stage launcher: agents off the cells a closing barrier blocked
/// (kernels/events.hpp). Compiled by nvcc in CUDA builds and by the C++
/// compiler (OpenMP) otherwise.

#include "events.hpp"
#include "launch.hpp"

namespace ccrowd::sim {

void pushOutOfBlocked(const Exec& ex, const AgentViews& a, const GridInfo& g, View2<const std::uint8_t> blocked,
                      View2<const int> nearestOpen) {
    forEachIndex(ex, a.n, PushOutOfBlockedKernel{a, g, blocked, nearestOpen});
}

}  // namespace ccrowd::sim
