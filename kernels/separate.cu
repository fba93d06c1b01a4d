/// @file separate.cu
/// Separate stage launcher (i): per pass, the shared neighbour grid
/// (neighbour_grid.hpp) is built over the old positions, then every agent
/// gathers its pushes from the old positions and writes its new position to
/// the other buffer (Jacobi, DESIGN.md §4-5).
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
    const View1<float> bx = ws.x.view(ex), by = ws.y.view(ex);
    const float invDt = dt > 0.f ? 1.f / dt : 0.f;
    for (int pass = 0; pass < passes; ++pass) {
        // Jacobi ping-pong: even passes read the agents and write the buffer, odd ones back
        const bool even = pass % 2 == 0;
        const View1<float> xr = even ? a.x : bx, yr = even ? a.y : by;
        const View1<float> xw = even ? bx : a.x, yw = even ? by : a.y;
        // the shared neighbour grid over the old positions (stable sort: ties by agent index)
        const NeighbourView nb = buildNeighbourGrid(ex, xr, yr, n, s, sort, ws.grid, "separate");
        // half-overlap pushes from old positions, never across a wall; the velocity gains them
        forEachIndex(ex, n, SeparatePushKernel{xr, yr, nb, walls, dMin, xw, yw, clearance, a.vx, a.vy, a.vmax, invDt});
    }
    // an odd number of passes left the result in the buffer
    if (passes % 2 == 1) forEachIndex(ex, n, CopyPositionsKernel{bx, by, a.x, a.y});
}

}  // namespace ccrowd::sim
