/// @file neighbour_grid.cu
/// Builds the shared neighbour grid (neighbour_grid.hpp): key per agent,
/// stable sort by key (Thrust: OpenMP system on the CPU, CUDA on the GPU),
/// first slot per key. Compiled by nvcc in CUDA builds and by the C++
/// compiler (OpenMP) otherwise.

#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "launch.hpp"
#include "neighbour_grid.hpp"
#include "sort_by_key.hpp"

namespace ccrowd::sim {

NeighbourGrid makeNeighbourGrid(const GridInfo& g, float range, int span) {
    if (!(range > 0.f) || !std::isfinite(range))
        throw InputError(fieldMessage("neighbour grid range", std::to_string(range), "out of range", "> 0 m, finite"));
    if (span < 1) throw InputError(fieldMessage("neighbour grid span", std::to_string(span), "out of range", ">= 1"));
    NeighbourGrid s;
    s.ox = g.ox;
    s.oy = g.oy;
    s.span = span;
    s.cell = range / static_cast<float>(span) * 1.01f;
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

NeighbourView buildNeighbourGrid(const Exec& ex, View1<const float> x, View1<const float> y, int n,
                                 const NeighbourGrid& s, AgentSortBuffers& sort, NeighbourGridBuffers& ws,
                                 const char* stage) {
    sort.key.resize(n);
    sort.order.resize(n);
    const int keys = s.nx * s.ny;
    ws.first.resize(keys + 1);
    const View1<int> key = sort.key.view(ex), order = sort.order.view(ex), first = ws.first.view(ex);
    // key per agent, stable sort (ties by agent index)
    forEachIndex(ex, n, NeighbourKeyKernel{x, y, s, key, order});
    sortByKey(ex, key.data, order.data, n, keys, stage);
    // the first slot of every key
    forEachIndex(ex, n + 1, FirstSlotKernel{key, n, keys, first});
    return NeighbourView{s, order, first};
}

}  // namespace ccrowd::sim
