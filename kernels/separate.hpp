#pragma once
/// @file separate.hpp
/// Separate stage (i): minimum distance d_min between agents (DESIGN.md §5,
/// "Minimum distance") by Jacobi relaxation over the shared neighbour grid
/// (neighbour_grid.hpp) of cell >= d_min, rebuilt every pass, then
/// confinement by the walls (walls.hpp). Host+device; launched by separate.cu.

#include <cstdint>

#include "ccrowd/field.hpp"
#include "walls.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "neighbour_grid.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Reusable buffers of the separation. The sort itself uses the
/// AgentSortBuffers and the shared neighbour grid (neighbour_grid.hpp).
struct SeparateWorkspace {
    Array<float> x, y;          ///< A pass's old positions in sorted slot order (Jacobi: read these, write the agents'). [Units: m] [Size: agents]
    NeighbourGridBuffers grid;  ///< First slot per neighbour-grid cell (cells >= d_min).
};

/// One Jacobi pass for the agent in sorted slot q (DESIGN.md §5): for
/// every neighbour closer than d_min (3x3 neighbour cells, old positions),
/// a push of half the overlap along the line between them (coincident
/// agents: a fixed direction per pair, opposite for the two); the summed
/// push is then applied without crossing a wall (moveConfined from the old
/// position), after an agent outside the grid or inside a wall was first
/// moved out (escapeWalls; the two as escapeAndMove); last, the body is
/// kept clear of the walls (keepClearOfWalls). walls.hpp has the three.
/// The velocity gains the pass's displacement over the step (invDt), so it
/// stays the velocity the agent actually walked: a body pushed back by its
/// neighbours or a wall reads as slow, not as the speed it pushed with.
/// The old positions are read in slot order (GatherSortedKernel), the
/// neighbours' contiguously; the sums run over the same neighbours in the
/// same order as a gather by agent index, so the result is the same.
struct SeparatePushKernel {
    View1<const float> sx, sy;      ///< Old positions per sorted slot. [Units: m]
    NeighbourView nb;               ///< Neighbour grid of cells >= dMin over the old positions.
    WallView walls;                 ///< The scene's wall edges.
    float dMin = 0.f;               ///< [Units: m] [Limit: > 0, <= s.cell]
    View1<float> xOut, yOut;        ///< New positions per agent. [Units: m]
    float clearance = 0.f;          ///< Body radius kept from walls (keepClearOfWalls). [Units: m] [Limit: >= 0]
    View1<float> vx, vy;            ///< Velocity of the step, gains the displacement over it. [Units: m/s]
    View1<const float> vmax;        ///< Free speed, the most the velocity walked reaches. [Units: m/s]
    float invDt = 0.f;              ///< 1 / time step (0: velocities untouched). [Units: 1/s] [Limit: >= 0]

    CC_HD void operator()(int q) const {
        const int k = nb.order[q];
        const float x0 = sx[q], y0 = sy[q];
        float xi = x0, yi = y0;
        float px = 0.f, py = 0.f;
        // neighbours in the 3x3 cells, in sorted (deterministic) order
        nb.forEachSlot(xi, yi, [&](int p) {
            if (p == q) return;
            const float dx = xi - sx[p], dy = yi - sy[p];
            const float d2 = dx * dx + dy * dy;
            if (!(d2 < dMin * dMin)) return;
            // half the overlap along the line (a fixed pair direction when coincident)
            const float d = sqrtf(d2);
            float ux, uy;
            pairDirection(k, nb.order[p], dx, dy, d, 1e-6f * dMin, ux, uy);
            const float push = 0.5f * (dMin - d);
            px += push * ux;
            py += push * uy;
        });
        // out of walls, then the push without crossing one
        const ConfinedMove m = escapeAndMove(walls, xi, yi, px, py);
        float xo = m.x, yo = m.y;
        keepClearOfWalls(walls, clearance, xo, yo);
        xOut[k] = xo;
        yOut[k] = yo;
        // the velocity walked: the step's velocity plus this displacement, at most the free speed
        float wx = vx[k] + (xo - x0) * invDt, wy = vy[k] + (yo - y0) * invDt;
        const float w = sqrtf(wx * wx + wy * wy);
        if (w > vmax[k]) { wx *= vmax[k] / w; wy *= vmax[k] / w; }
        vx[k] = wx;
        vy[k] = wy;
    }
};

}  // namespace ccrowd::sim
