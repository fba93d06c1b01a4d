/// @file route_choice.cu
/// Route choice launcher (kernels/route_choice.hpp). Compiled by nvcc in
/// CUDA builds and by the C++ compiler (OpenMP) otherwise.

#include "launch.hpp"
#include "route_choice.hpp"

namespace ccrowd::sim {

void routeChoice(const Exec& ex, const RouteChoiceKernel& k) { forEachIndex(ex, k.a.n, k); }

}  // namespace ccrowd::sim
