#pragma once
/// @file neighbour_list.hpp
/// Verlet neighbour lists (Verlet, Phys. Rev. 159:98, 1967; the "skin" of
/// molecular dynamics codes): for every sorted slot of a built neighbour
/// grid, the other slots within a cutoff at build time, in slot order. A
/// force of range R evaluated while every agent moves at most a skin s
/// from its position at the build finds all its partners in lists of cutoff
/// R + 2 s: the social force's kicks scan ~8 candidates per agent from
/// them where the grid's 5x5 cells held ~12, and its rejections are
/// fewer. Built by buildNeighbourList (neighbour_list.cu) in two passes
/// (count, exclusive scan, fill): no atomics, deterministic. Host+device.

#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "neighbour_grid.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// A built neighbour list: slot k's partners are partner[start[k]] ..
/// partner[start[k + 1] - 1], ascending.
struct NeighbourListView {
    View1<const int> start;    ///< First entry per slot. [Size: slots + 1]
    View1<const int> partner;  ///< Partner slots. [Size: start[slots]]
};

/// Buffers of a neighbour list.
struct NeighbourListBuffers {
    Array<int> start;    ///< Counts, then first entries (in place). [Size: slots + 1]
    Array<int> partner;  ///< Partner slots. [Size: entries]
    Array<int> total;    ///< start[slots], read by the host to size partner. [Size: 1]
    /// Bytes held. [Units: bytes]
    std::size_t bytes() const {
        return (start.vector().capacity() + partner.vector().capacity() + total.vector().capacity()) * sizeof(int);
    }
};

/// Calls f(o) for every slot o != k of @p nb's cells around slot k's
/// position (@p x, @p y: positions per slot, the grid's build positions)
/// closer than sqrt(@p cutoff2), in slot order.
template <class F>
CC_HD void forEachSlotWithin(const NeighbourView& nb, View1<const float> x, View1<const float> y, int k, float cutoff2,
                             F&& f) {
    const float xk = x[k], yk = y[k];
    nb.forEachSlot(xk, yk, [&](int o) {
        const float dx = xk - x[o], dy = yk - y[o];
        if (o != k && dx * dx + dy * dy < cutoff2) f(o);
    });
}

/// Pass 1: slot k's partner count (count[slots] = 0 for the scan's total).
struct NeighbourListCountKernel {
    NeighbourView nb;          ///< Built on the slots' positions; cells >= cutoff / span.
    View1<const float> x, y;   ///< Position per slot. [Units: m]
    float cutoff2 = 0.f;       ///< Squared cutoff. [Units: m^2]
    int slots = 0;
    View1<int> count;          ///< [Size: slots + 1]
    CC_HD void operator()(int k) const {
        if (k == slots) { count[k] = 0; return; }
        int c = 0;
        forEachSlotWithin(nb, x, y, k, cutoff2, [&](int) { ++c; });
        count[k] = c;
    }
};

/// Pass 2: slot k's partners from its first entry on.
struct NeighbourListFillKernel {
    NeighbourView nb;
    View1<const float> x, y;
    float cutoff2 = 0.f;
    View1<const int> start;    ///< First entry per slot (the scanned counts).
    View1<int> partner;
    CC_HD void operator()(int k) const {
        int e = start[k];
        forEachSlotWithin(nb, x, y, k, cutoff2, [&](int o) { partner[e++] = o; });
    }
};

/// Neighbour lists of the @p n slots at (@p x, @p y) (positions per sorted
/// slot of @p nb, whose cells must be >= @p cutoff / span): every pair
/// closer than @p cutoff [m]. The host reads one int (the entry count, a
/// Record) to size the list. @p stage names the caller in errors.
/// [Limit: cutoff > 0; entries < 2^31]
NeighbourListView buildNeighbourList(const Exec& ex, View1<const float> x, View1<const float> y, int n,
                                     const NeighbourView& nb, float cutoff, NeighbourListBuffers& ws, const char* stage);

}  // namespace ccrowd::sim
