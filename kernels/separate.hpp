#pragma once
/// @file separate.hpp
/// Separate stage (i): minimum distance d_min between agents (DESIGN.md §5,
/// "Minimum distance") by Jacobi relaxation over the shared neighbour grid
/// (neighbour_grid.hpp) of cell >= d_min, rebuilt every pass, then
/// confinement to open cells. Host+device; launched by separate.cu.

#include <cstdint>

#include "ccrowd/field.hpp"
#include "agents.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "neighbour_grid.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Reusable buffers of the separation. The sort itself uses the
/// AgentSortBuffers and the shared neighbour grid (neighbour_grid.hpp).
struct SeparateWorkspace {
    Array<float> x, y;          ///< Second position buffer (Jacobi: read one, write the other). [Units: m] [Size: agents]
    NeighbourGridBuffers grid;  ///< First slot per neighbour-grid cell (cells >= d_min).
};

/// Moves a point outside the grid or inside a blocked cell to the nearest
/// point (kWallGap inside) of the grid and then of an open cell among the 8
/// around its cell; leaves it where it is when none is open.
CC_HD inline void escapeBlocked(const GridInfo& g, View2<const std::uint8_t> blocked, float& x, float& y) {
    const float gap = kWallGap * g.h;
    // into the grid
    const float x0 = g.ox + gap, x1 = g.ox + g.nx * g.h - gap, y0 = g.oy + gap, y1 = g.oy + g.ny * g.h - gap;
    x = x < x0 ? x0 : (x > x1 ? x1 : x);
    y = y < y0 ? y0 : (y > y1 ? y1 : y);
    int ci, cj;
    g.cellOf(x, y, ci, cj);
    if (cellOpen(blocked, ci, cj)) return;
    // nearest point of an open neighbour cell (fixed order breaks ties)
    float best = INFINITY, bx = x, by = y;
    for (int dj = -1; dj <= 1; ++dj)
        for (int di = -1; di <= 1; ++di) {
            const int i = ci + di, j = cj + dj;
            if ((di == 0 && dj == 0) || !cellOpen(blocked, i, j)) continue;
            const float lx = g.ox + i * g.h + gap, hx = g.ox + (i + 1) * g.h - gap;
            const float ly = g.oy + j * g.h + gap, hy = g.oy + (j + 1) * g.h - gap;
            const float qx = x < lx ? lx : (x > hx ? hx : x), qy = y < ly ? ly : (y > hy ? hy : y);
            const float d2 = (qx - x) * (qx - x) + (qy - y) * (qy - y);
            if (d2 < best) { best = d2; bx = qx; by = qy; }
        }
    x = bx;
    y = by;
}

/// One Jacobi pass for agent k (DESIGN.md §5): for every neighbour closer
/// than d_min (3x3 neighbour cells, old positions), a push of half the
/// overlap along the line between them (coincident agents: a fixed direction
/// per pair, opposite for the two); the summed push is then applied
/// confined to open cells (moveConfined from the old position), after an
/// agent outside the grid or in a blocked cell was first moved out; last,
/// the body is kept clear of the walls (keepClearOfWalls).
struct SeparatePushKernel {
    View1<const float> x, y;        ///< Old positions. [Units: m]
    NeighbourView nb;               ///< Neighbour grid of cells >= dMin over the old positions.
    GridInfo g;
    View2<const std::uint8_t> blocked;
    float dMin = 0.f;               ///< [Units: m] [Limit: > 0, <= s.cell]
    View1<float> xOut, yOut;        ///< New positions. [Units: m]
    float clearance = 0.f;          ///< Body radius kept from walls (keepClearOfWalls). [Units: m] [Limit: >= 0]

    CC_HD void operator()(int k) const {
        float xi = x[k], yi = y[k];
        float px = 0.f, py = 0.f;
        // neighbours in the 3x3 cells, in sorted (deterministic) order
        nb.forEachNeighbour(k, xi, yi, [&](int o) {
            const float dx = xi - x[o], dy = yi - y[o];
            const float d2 = dx * dx + dy * dy;
            if (!(d2 < dMin * dMin)) return;
            // half the overlap along the line (a fixed pair direction when coincident)
            const float d = sqrtf(d2);
            float ux, uy;
            pairDirection(k, o, dx, dy, d, 1e-6f * dMin, ux, uy);
            const float push = 0.5f * (dMin - d);
            px += push * ux;
            py += push * uy;
        });
        // out of walls, then the push without entering a blocked cell
        escapeBlocked(g, blocked, xi, yi);
        const ConfinedMove m = moveConfined(g, blocked, xi, yi, px, py);
        float xo = m.x, yo = m.y;
        keepClearOfWalls(g, blocked, clearance, xo, yo);
        xOut[k] = xo;
        yOut[k] = yo;
    }
};

/// Copies positions between buffers.
struct CopyPositionsKernel {
    View1<const float> xIn, yIn;
    View1<float> xOut, yOut;
    CC_HD void operator()(int k) const {
        xOut[k] = xIn[k];
        yOut[k] = yIn[k];
    }
};

}  // namespace ccrowd::sim
