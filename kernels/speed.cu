/// @file speed.cu
/// Speed stage launcher (c): SpeedKernel over the active box
/// (kernels/speed.hpp). Compiled by nvcc in CUDA builds and by the C++
/// compiler (OpenMP) otherwise.

#include <algorithm>

#include "launch.hpp"
#include "speed.hpp"

namespace ccrowd::sim {

void speed(const Exec& ex, const GridInfo& g, const CellRange& box, const SpeedParams& p, View2<const float> rho,
           View2<const Vel2> meanVelocity, View2<const float> terrain, View2<const std::uint8_t> blocked,
           View2<Face4> speedOut) {
    // the box, clamped to the grid
    const CellRange r{std::max(box.i0, 0), std::max(box.j0, 0), std::min(box.i1, g.nx), std::min(box.j1, g.ny)};
    forEachCell(ex, r, SpeedKernel{g, p, rho, meanVelocity, terrain, blocked, speedOut});
}

}  // namespace ccrowd::sim
