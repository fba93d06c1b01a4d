/// @file cost.cu
/// Cost stage launcher (d): UnitCostKernel over the whole grid
/// (kernels/cost.hpp). Compiled by nvcc in CUDA builds and by the C++
/// compiler (OpenMP) otherwise.

#include <algorithm>

#include "cost.hpp"
#include "launch.hpp"

namespace ccrowd::sim {

void unitCost(const Exec& ex, const GridInfo& g, const CellRange& box, const CostParams& c, const SpeedParams& sp,
              View2<const Face4> speedIn, View2<const float> discomfort, View2<const float> terrain,
              View2<const std::uint8_t> blocked, View2<FaceCost> costOut, View2<const std::uint8_t> closed) {
    // every cell: the crowd's speeds inside the (clamped) box, free flow outside
    const CellRange r = box.clampedTo(g.nx, g.ny);
    forEachCell(ex, CellRange{0, 0, g.nx, g.ny},
                UnitCostKernel{g, r, c, sp, speedIn, discomfort, terrain, blocked, costOut, closed});
}

}  // namespace ccrowd::sim
