/// @file neighbour_list.cu
/// Builds Verlet neighbour lists (neighbour_list.hpp): partner counts per
/// slot, their exclusive scan, the one int of the total to the host, the
/// partners. Compiled by nvcc in CUDA builds and by the C++ compiler
/// (OpenMP) otherwise.

#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "launch.hpp"
#include "neighbour_list.hpp"
#include "scan.hpp"

namespace ccrowd::sim {

namespace {

/// total[0] = start[slots].
struct ListTotalKernel {
    View1<const int> start;
    int slots = 0;
    View1<int> total;
    CC_HD void operator()(int) const { total[0] = start[slots]; }
};

}  // namespace

NeighbourListView buildNeighbourList(const Exec& ex, View1<const float> x, View1<const float> y, int n,
                                     const NeighbourView& nb, float cutoff, NeighbourListBuffers& ws, const char* stage) {
    if (!(cutoff > 0.f) || !std::isfinite(cutoff))
        throw InputError(fieldMessage(std::string(stage) + " neighbour list cutoff", std::to_string(cutoff), "out of range",
                                      "> 0 m, finite"));
    if (nb.s.cell * static_cast<float>(nb.s.span) < cutoff)
        throw InputError(fieldMessage(std::string(stage) + " neighbour grid cell", std::to_string(nb.s.cell), "too small",
                                      ">= the list cutoff / span"));
    const float cutoff2 = cutoff * cutoff;
    ws.start.resize(n + 1);
    ws.total.resize(1);
    const View1<int> start = ws.start.view(ex);
    // counts, then their exclusive scan in place: the first entry per slot, start[n] = the total
    forEachIndex(ex, n + 1, NeighbourListCountKernel{nb, x, y, cutoff2, n, start});
    exclusiveScan(ex, start.data, start.data, n + 1, stage);
    // the total, one int to the host, sizes the list
    forEachIndex(ex, 1, ListTotalKernel{start, n, ws.total.view(ex)});
    ws.total.toHost(ex, device::Payload::Record);
    const int entries = ws.total[0];
    ws.partner.resizeOn(ex, entries);
    const View1<int> partner = ws.partner.view(ex);
    forEachIndex(ex, n, NeighbourListFillKernel{nb, x, y, cutoff2, start, partner});
    return NeighbourListView{start, partner};
}

}  // namespace ccrowd::sim
