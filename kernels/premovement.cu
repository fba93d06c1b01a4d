/// @file premovement.cu
/// Pre-movement launcher (kernels/premovement.hpp). Compiled by nvcc in CUDA
/// builds and by the C++ compiler (OpenMP) otherwise.

#include "premovement.hpp"

namespace ccrowd::sim {

void premovement(const Exec& ex, const AgentViews& a, View1<const float> startOfId, double time) {
    forEachIndex(ex, a.n, PremovementKernel{a.id, startOfId, time, a.px, a.py});
}

}  // namespace ccrowd::sim
