/// @file incident.cu
/// Incident cost launcher (kernels/incident.hpp). Compiled by nvcc in CUDA
/// builds and by the C++ compiler (OpenMP) otherwise.

#include "incident.hpp"

namespace ccrowd::sim {

void incidentCost(const Exec& ex, const GridInfo& g, View2<const FaceCost> cost, View2<const float> distance,
                  View2<const float> weight, View2<FaceCost> out) {
    forEachCell(ex, CellRange{0, 0, g.nx, g.ny}, IncidentCostKernel{g, cost, distance, weight, out});
}

}  // namespace ccrowd::sim
