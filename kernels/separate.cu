/// @file separate.cu
/// Separate stage launcher (i): per pass, the shared neighbour grid
/// (neighbour_grid.hpp) is built over the old positions, which are copied in
/// sorted slot order; every agent gathers its pushes from that copy and
/// writes its new position in place (Jacobi, DESIGN.md §4-5).
/// Compiled by nvcc in CUDA builds and by the C++ compiler (OpenMP) otherwise.

#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "separate.hpp"
#include "launch.hpp"

namespace ccrowd::sim {

void separate(const Exec& ex, const AgentViews& a, const GridInfo& g, const WallView& walls, float dMin, int passes,
              AgentSortBuffers& sort, SeparateWorkspace& ws, float clearance, float dt) {
    if (!(clearance >= 0.f) || !std::isfinite(clearance))
        throw InputError(fieldMessage("separate clearance", std::to_string(clearance), "out of range", ">= 0 m, finite"));
    if (!(dMin >= 0.f) || !std::isfinite(dMin))
        throw InputError(fieldMessage("separate d_min", std::to_string(dMin), "out of range", ">= 0, finite (0 = off)"));
    if (!(dt >= 0.f) || !std::isfinite(dt))
        throw InputError(fieldMessage("separate dt", std::to_string(dt), "out of range", ">= 0 s, finite (0 = velocities untouched)"));
    if (passes < 0) throw InputError(fieldMessage("separate passes", std::to_string(passes), "out of range", ">= 0"));
    if (walls.first.n != walls.g.nx * walls.g.ny + 1)
        throw InputError("separate: the wall index must have a row per cell of its " + std::to_string(walls.g.nx) + "x" +
                         std::to_string(walls.g.ny) + " grid (buildWallIndex)");
    const int n = a.n;
    if (n == 0 || passes == 0 || dMin == 0.f) return;

    const NeighbourGrid s = makeNeighbourGrid(g, dMin);
    ws.x.resize(n);
    ws.y.resize(n);
    const View1<float> sx = ws.x.view(ex), sy = ws.y.view(ex);
    const float invDt = dt > 0.f ? 1.f / dt : 0.f;
    for (int pass = 0; pass < passes; ++pass) {
        // the shared neighbour grid over the old positions (stable sort: ties by agent index)
        const NeighbourView nb = buildNeighbourGrid(ex, a.x, a.y, n, s, sort, ws.grid, "separate");
        // Jacobi: the old positions in slot order, read by every agent's gather
        forEachIndex(ex, n, GatherSortedKernel{nb.order, a.x, a.y, sx, sy});
        // half-overlap pushes from old positions, never across a wall; the velocity gains them
        forEachIndex(ex, n, SeparatePushKernel{sx, sy, nb, walls, dMin, a.x, a.y, clearance, a.vx, a.vy, a.vmax, invDt});
    }
}

}  // namespace ccrowd::sim
