/// @file separate.cu
/// Separate stage launcher (i): per pass, agents are keyed by neighbour-grid
/// cell and stable-sorted by key (Thrust: OpenMP system on the CPU, CUDA on
/// the GPU), then every agent gathers its pushes from the old positions and
/// writes its new position to the other buffer (Jacobi, DESIGN.md §4-5).
/// Compiled by nvcc in CUDA builds and by the C++ compiler (OpenMP) otherwise.

#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "separate.hpp"
#include "sort_by_key.hpp"

namespace ccrowd::sim {
namespace {

/// Neighbour grid over the simulation grid: cells of d_min plus 1% (so
/// rounding never hides a neighbour two cells away), doubled while there
/// would be more than 2^24 cells (the first-slot table stays <= 64 MiB; larger
/// cells only mean more candidates per cell).
SeparationGrid makeSeparationGrid(const GridInfo& g, float dMin) {
    SeparationGrid s;
    s.ox = g.ox;
    s.oy = g.oy;
    s.cell = dMin * 1.01f;
    const double w = static_cast<double>(g.nx) * g.h, hgt = static_cast<double>(g.ny) * g.h;
    for (;;) {
        const double nx = std::ceil(w / s.cell), ny = std::ceil(hgt / s.cell);
        if (nx * ny <= 16777216.0) {
            s.nx = nx < 1.0 ? 1 : static_cast<int>(nx);
            s.ny = ny < 1.0 ? 1 : static_cast<int>(ny);
            return s;
        }
        s.cell *= 2.f;
    }
}

}  // namespace

void separate(const Exec& ex, const AgentViews& a, const GridInfo& g, View2<const std::uint8_t> blocked, float dMin,
              int passes, AgentSortBuffers& sort, SeparateWorkspace& ws, float clearance) {
    if (!(clearance >= 0.f) || !std::isfinite(clearance))
        throw InputError(fieldMessage("separate clearance", std::to_string(clearance), "out of range", ">= 0 m, finite"));
    if (!(dMin >= 0.f) || !std::isfinite(dMin))
        throw InputError(fieldMessage("separate d_min", std::to_string(dMin), "out of range", ">= 0, finite (0 = off)"));
    if (passes < 0) throw InputError(fieldMessage("separate passes", std::to_string(passes), "out of range", ">= 0"));
    if (blocked.nx != g.nx || blocked.ny != g.ny)
        throw InputError("separate: blocked must be " + std::to_string(g.nx) + "x" + std::to_string(g.ny) +
                         " cells (the grid)");
    const int n = a.n;
    if (n == 0 || passes == 0 || dMin == 0.f) return;

    const SeparationGrid s = makeSeparationGrid(g, dMin);
    sort.key.resize(n);
    sort.order.resize(n);
    ws.x.resize(n);
    ws.y.resize(n);
    const int keys = s.nx * s.ny;
    ws.first.resize(keys + 1);
    const View1<int> key = sort.key.view(ex), order = sort.order.view(ex);
    const View1<float> bx = ws.x.view(ex), by = ws.y.view(ex);
    const View1<int> first = ws.first.view(ex);
    for (int pass = 0; pass < passes; ++pass) {
        // Jacobi ping-pong: even passes read the agents and write the buffer, odd ones back
        const bool even = pass % 2 == 0;
        const View1<float> xr = even ? a.x : bx, yr = even ? a.y : by;
        const View1<float> xw = even ? bx : a.x, yw = even ? by : a.y;
        // neighbour grid: key per agent, stable sort (ties by agent index)
        forEachIndex(ex, n, SeparateKeyKernel{xr, yr, s, key, order});
        sortByKey(ex, key.data, order.data, n, "separate");
        // the first slot of every key
        forEachIndex(ex, n + 1, FirstSlotKernel{key, n, keys, first});
        // half-overlap pushes from old positions, confined to open cells
        forEachIndex(ex, n, SeparatePushKernel{xr, yr, order, first, s, g, blocked, dMin, xw, yw, clearance});
    }
    // an odd number of passes left the result in the buffer
    if (passes % 2 == 1) forEachIndex(ex, n, CopyPositionsKernel{bx, by, a.x, a.y});
}

}  // namespace ccrowd::sim
