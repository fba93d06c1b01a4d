/// @file search.cu
/// Search launcher (kernels/search.hpp). Compiled by nvcc in CUDA builds
/// and by the C++ compiler (OpenMP) otherwise.

#include "search.hpp"

namespace ccrowd::sim {

void search(const Exec& ex, const AgentViews& a, const GridInfo& g, const WallView& walls, float radius,
            View2<const float> distance, int fieldIndex, float visibility, float time, uint32_t seed) {
    SearchKernel k;
    k.a = a;
    k.g = g;
    k.walls = walls;
    k.radius = radius;
    k.distance = distance;
    k.fieldIndex = fieldIndex;
    k.visibility = visibility;
    k.time = time;
    k.seed = seed;
    forEachIndex(ex, a.n, k);
}

}  // namespace ccrowd::sim
