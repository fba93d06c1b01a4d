/// @file social.cu
/// Cohesion launcher (kernels/social.hpp). Compiled by nvcc in CUDA builds
/// and by the C++ compiler (OpenMP) otherwise.

#include "social.hpp"

namespace ccrowd::sim {

void cohesion(const Exec& ex, const AgentViews& a, const GridInfo& g, View1<const int> unitOfId,
              View1<const float> unitSpread, View1<const float> unitCohesion, View2<const float> density,
              View1<unsigned long long> sums) {
    forEachIndex(ex, sums.n, ClearCountsKernel{sums});
    forEachIndex(ex, a.n, UnitSumKernel{a.x, a.y, a.id, unitOfId, sums});
    forEachIndex(ex, a.n, CohesionKernel{a, g, unitOfId, unitSpread, unitCohesion, density, sums});
}

}  // namespace ccrowd::sim
