/// @file agents.cu
/// Agents stage launchers (h): agentVelocity and advect, one thread per
/// agent (forEachIndex). Compiled by nvcc in CUDA builds and by the C++
/// compiler (OpenMP) otherwise.

#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "agents.hpp"

namespace ccrowd::sim {

void agentVelocity(const Exec& ex, const AgentViews& a, const GridInfo& g, View2<const float> pressureIn,
                   View2<const std::uint8_t> blocked, View2<const Face4> aperture, View2<Vel2> gradient) {
    if (pressureIn.nx != g.nx || pressureIn.ny != g.ny || blocked.nx != g.nx || blocked.ny != g.ny ||
        (aperture.data && (aperture.nx != g.nx || aperture.ny != g.ny)) ||
        (gradient.data && (gradient.nx != g.nx || gradient.ny != g.ny)))
        throw InputError("agentVelocity: pressure, blocked, aperture and gradient must be " + std::to_string(g.nx) + "x" +
                         std::to_string(g.ny) + " cells (the pressure's grid)");
    // the faces' gradients once per face, not once per agent reading them
    if (gradient.data && a.n > 0)
        forEachCell(ex, CellRange{0, 0, g.nx, g.ny}, FaceGradientKernel{g, pressureIn, blocked, aperture, gradient});
    // v = preferred - grad p at the agent, clamped to vmax (Narain 2009 §4)
    forEachIndex(ex, a.n, AgentVelocityKernel{a, g, pressureIn, blocked, aperture, gradient});
}

void advect(const Exec& ex, const AgentViews& a, const WallView& walls, float dt, float clearance) {
    if (!(dt >= 0.f) || !std::isfinite(dt))
        throw InputError(fieldMessage("advect dt", std::to_string(dt), "out of range", ">= 0, finite"));
    if (!(clearance >= 0.f) || !std::isfinite(clearance))
        throw InputError(fieldMessage("advect clearance", std::to_string(clearance), "out of range", ">= 0 m, finite"));
    if (walls.first.n != walls.g.nx * walls.g.ny + 1)
        throw InputError("advect: the wall index must have a row per cell of the " + std::to_string(walls.g.nx) + "x" +
                         std::to_string(walls.g.ny) + " grid (buildWallIndex)");
    // x += v dt, never across a wall (each agent reads and writes only itself)
    forEachIndex(ex, a.n, AdvectKernel{a, walls, dt, clearance});
}

}  // namespace ccrowd::sim
