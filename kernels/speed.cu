/// @file speed.cu
/// Speed stage launchers (c): the perceived density (PerceiveRowsKernel,
/// PerceiveColumnsKernel) and the face speeds (SpeedKernel) over the active
/// box (kernels/speed.hpp). Compiled by nvcc in CUDA builds and by the C++
/// compiler (OpenMP) otherwise.

#include <algorithm>
#include <cmath>
#include <string>

#include "launch.hpp"
#include "speed.hpp"

namespace ccrowd::sim {

void perceive(const Exec& ex, const GridInfo& g, const CellRange& box, float radius, View2<const float> rho,
              View2<const Vel2> velocity, View2<const float> openFraction, PerceiveWorkspace& ws,
              View2<float> rhoOut, View2<Vel2> velocityOut) {
    if (!(radius >= 0.f) || !std::isfinite(radius))
        throw InputError(fieldMessage("speed.perception_radius", std::to_string(radius), "out of range", ">= 0, finite [m]"));
    // output: the box grown by the faces' look-ahead, clamped
    const int grow = aheadCells(radius, g.h);
    const CellRange out{std::max(box.i0 - grow, 0), std::max(box.j0 - grow, 0), std::min(box.i1 + grow, g.nx),
                        std::min(box.j1 + grow, g.ny)};
    if (out.empty()) return;
    const float reach = radius / g.h;
    const int m = windowCells(reach);
    // pass 1 needs the rows m above and below the output
    const CellRange rows{out.i0, std::max(out.j0 - m, 0), out.i1, std::min(out.j1 + m, g.ny)};
    if (ws.rows.nx() != g.nx || ws.rows.ny() != g.ny) ws.rows.assign(g.nx, g.ny, WindowSums{});
    const View2<WindowSums> sums = ws.rows.view(ex);
    // pass 1 along x, pass 2 along y (read current, write next)
    forEachCell(ex, rows, PerceiveRowsKernel{g, reach, m, rho, velocity, openFraction, sums});
    forEachCell(ex, out, PerceiveColumnsKernel{g, reach, m, sums, rhoOut, velocityOut});
}

void speed(const Exec& ex, const GridInfo& g, const CellRange& box, const SpeedParams& p, View2<const float> rho,
           View2<const Vel2> meanVelocity, View2<const float> terrain, View2<const std::uint8_t> blocked,
           View2<Face4> speedOut, View2<const std::uint8_t> closed, PerceiveWorkspace* ws) {
    if (p.ahead < 1) throw InputError(fieldMessage("speed.ahead", std::to_string(p.ahead), "out of range", ">= 1 [cells]"));
    // the box, clamped to the grid
    const CellRange r = box.clampedTo(g.nx, g.ny);
    if (r.empty()) return;
    // one reading per cell the faces read (the box grown by the look-ahead)
    View2<const FaceReading> reading;
    if (ws) {
        const CellRange read{std::max(r.i0 - p.ahead, 0), std::max(r.j0 - p.ahead, 0), std::min(r.i1 + p.ahead, g.nx),
                             std::min(r.j1 + p.ahead, g.ny)};
        if (ws->reading.nx() != g.nx || ws->reading.ny() != g.ny) ws->reading.assign(g.nx, g.ny, FaceReading{});
        const View2<FaceReading> w = ws->reading.view(ex);
        forEachCell(ex, read, FaceReadingKernel{p, rho, meanVelocity, w});
        reading = w;
    }
    forEachCell(ex, r, SpeedKernel{g, p, rho, meanVelocity, terrain, blocked, speedOut, closed, reading});
}

}  // namespace ccrowd::sim
