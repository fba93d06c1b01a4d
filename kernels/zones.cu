/// @file zones.cu
/// Zone velocity stage launcher (seed 000 §4.6.3; maths in zones.hpp): the
/// shared neighbour grid over the positions, then a gather per agent.
/// Compiled by nvcc in CUDA builds and by the C++ compiler (OpenMP) otherwise.

#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "launch.hpp"
#include "zones.hpp"

namespace ccrowd::sim {

void zonesVelocity(const Exec& ex, const AgentViews& a, const GridInfo& g, const WallView& walls, float clearance,
                   const ZonesParams& z, AgentSortBuffers& sort, NeighbourGridBuffers& ws) {
    const bool radii = z.d1 > 0.f && z.d1 < z.d2 && z.d2 < z.d3 && std::isfinite(z.d3);
    if (!radii)
        throw InputError(fieldMessage("zones d1, d2, d3", std::to_string(z.d1) + ", " + std::to_string(z.d2) + ", " +
                                      std::to_string(z.d3), "out of range", "0 < d1 < d2 < d3 [m], finite"));
    const bool strengths = z.f1 >= z.f2 && z.f2 >= z.f3 && z.f3 >= 0.f && std::isfinite(z.f1);
    if (!strengths)
        throw InputError(fieldMessage("zones f1, f2, f3", std::to_string(z.f1) + ", " + std::to_string(z.f2) + ", " +
                                      std::to_string(z.f3), "out of range", "f1 >= f2 >= f3 >= 0 [m/s], finite"));
    if (!(z.push_cap >= 0.f) || !std::isfinite(z.push_cap))
        throw InputError(fieldMessage("zones push_cap", std::to_string(z.push_cap), "out of range", ">= 0, finite"));
    if (!(clearance >= 0.f) || !std::isfinite(clearance))
        throw InputError(fieldMessage("zones clearance", std::to_string(clearance), "out of range", ">= 0 m, finite"));
    if (walls.first.n != walls.g.nx * walls.g.ny + 1)
        throw InputError("zones: the wall index must have a row per cell of its grid (buildWallIndex)");
    if (a.n == 0) return;
    // the shared neighbour grid: cells >= d3 / 2, so every partner is in the 5x5 cells
    const NeighbourView nb = buildNeighbourGrid(ex, a.x, a.y, a.n, makeNeighbourGrid(g, z.d3, 2), sort, ws, "zones");
    // preferred velocity plus repulsion, per agent
    forEachIndex(ex, a.n, ZonesVelocityKernel{a, nb, z, walls, clearance});
}

}  // namespace ccrowd::sim
