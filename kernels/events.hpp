#pragma once
/// @file events.hpp
/// Events stage: when an event closes a barrier over agents, each agent on
/// a now-blocked cell moves to the nearest open cell (the cell given per
/// blocked cell by a breadth-first search from the open cells, on the host
/// when the walls change), to the point of that cell's square nearest to
/// it, a quarter cell inside; its velocity is zeroed. Nobody is lost: the
/// agent count never changes here, and the separation stage then spreads
/// the agents pushed onto one cell. Host+device; launched by events.cu.

#include <cstdint>

#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Moves agents off blocked cells (see the file's comment).
struct PushOutOfBlockedKernel {
    AgentViews a;
    GridInfo g;
    View2<const std::uint8_t> blocked;
    View2<const int> nearestOpen;  ///< Per cell: the nearest open cell's index i + j nx (itself when open; -1: none).

    CC_HD void operator()(int k) const {
        // the agent's cell, clamped to the grid
        int i, j;
        g.cellOf(a.x[k], a.y[k], i, j);
        i = i < 0 ? 0 : (i >= g.nx ? g.nx - 1 : i);
        j = j < 0 ? 0 : (j >= g.ny ? g.ny - 1 : j);
        if (!blocked(i, j)) return;
        const int c = nearestOpen(i, j);
        if (c < 0) return;
        // the nearest point of the open cell's square, a quarter cell inside its edges
        const int ci = c % g.nx, cj = c / g.nx;
        const float in = 0.25f * g.h;
        const float x0 = g.ox + ci * g.h + in, x1 = g.ox + (ci + 1) * g.h - in;
        const float y0 = g.oy + cj * g.h + in, y1 = g.oy + (cj + 1) * g.h - in;
        a.x[k] = a.x[k] < x0 ? x0 : (a.x[k] > x1 ? x1 : a.x[k]);
        a.y[k] = a.y[k] < y0 ? y0 : (a.y[k] > y1 ? y1 : a.y[k]);
        a.vx[k] = 0.f;
        a.vy[k] = 0.f;
    }
};

}  // namespace ccrowd::sim
