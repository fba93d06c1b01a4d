#pragma once
/// @file neighbour_grid.hpp
/// The one neighbour grid of the operational models (DESIGN.md §8): agents
/// sorted by the cell of a uniform grid over the simulation grid's extent
/// (stable sort: by cell, then agent index, whatever the thread count), and
/// first[key] = the first sorted slot with a key >= key, so the cells
/// c0..c1 of one row are the one slot range [first[key(c0, r)],
/// first[key(c1, r) + 1]) found in O(1). With a cell size >= an interaction
/// range / span, every partner closer than the range lies in the
/// (2 span + 1)^2 cells around an agent's cell (span 1: the 3x3 cells;
/// span 2 scans 5x5 cells of half the size, about 30% fewer candidates). Used by the separation (UIC), the social force and the
/// zone repulsion; every agent then gathers from its neighbours in sorted
/// order: deterministic, no atomics. Built by buildNeighbourGrid
/// (neighbour_grid.cu). Host+device.

#include <math.h>

#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "portable_math.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Uniform neighbour grid over the simulation grid's extent.
struct NeighbourGrid {
    float ox = 0.f, oy = 0.f;  ///< Corner (the simulation grid's). [Units: m]
    float cell = 1.f;          ///< Cell size. [Units: m] [Limit: >= the interaction range / span]
    int nx = 1, ny = 1;        ///< Cells. [Limit: >= 1, nx*ny <= 2^24]
    int span = 1;              ///< Cells scanned on each side of an agent's cell. [Limit: >= 1]

    /// Cell column of x, clamped to the grid (NaN -> 0).
    CC_HD int column(float x) const { return clampCell((x - ox) / cell, nx); }
    CC_HD int row(float y) const { return clampCell((y - oy) / cell, ny); }
    CC_HD int key(int i, int j) const { return i + j * nx; }

    CC_HD static int clampCell(float f, int n) {
        if (!(f >= 0.f)) return 0;
        if (f >= static_cast<float>(n)) return n - 1;
        const int c = static_cast<int>(f);
        return c < n ? c : n - 1;
    }
};

/// The first-slot table of a neighbour grid (the sort itself is in the
/// AgentSortBuffers: key = cell per sorted slot, ascending; order = agent
/// per sorted slot).
struct NeighbourGridBuffers {
    Array<int> first;  ///< First sorted slot whose key is >= the index. [Size: cells + 1]
};

/// Read-only view of a built neighbour grid: the agents of the
/// (2 span + 1)^2 cells around a point, one contiguous slot range per row
/// (rows cj - span .. cj + span).
struct NeighbourView {
    NeighbourGrid s;
    View1<const int> order;  ///< Agent per sorted slot. [Size: agents]
    View1<const int> first;  ///< First slot per key. [Size: cells + 1]

    /// Slot range [b, e) of row @p r's cells around column @p ci
    /// (ci - span .. ci + span, clamped); empty (b == e) for a row outside
    /// the grid.
    CC_HD void rowSlots(int ci, int r, int& b, int& e) const {
        if (r < 0 || r >= s.ny) { b = e = 0; return; }
        const int c0 = ci > s.span ? ci - s.span : 0, c1 = ci + s.span < s.nx ? ci + s.span : s.nx - 1;
        b = first[s.key(c0, r)];
        e = first[s.key(c1, r) + 1];
    }

    /// Calls f(q) for every sorted slot q in the (2 span + 1)^2 cells
    /// around (x, y) [m], in slot order (the same order for any thread
    /// count: deterministic sums). A gather that keeps its agents' values in
    /// slot order (GatherSortedKernel) reads them contiguously.
    template <class F>
    CC_HD void forEachSlot(float x, float y, F&& f) const {
        const int ci = s.column(x), cj = s.row(y);
        for (int r = cj - s.span; r <= cj + s.span; ++r) {
            int b, e;
            rowSlots(ci, r, b, e);
            for (int q = b; q < e; ++q) f(q);
        }
    }

    /// Calls f(o) for every agent o other than @p k in the (2 span + 1)^2
    /// cells around (x, y) [m], in sorted slot order (forEachSlot).
    template <class F>
    CC_HD void forEachNeighbour(int k, float x, float y, F&& f) const {
        forEachSlot(x, y, [&](int q) {
            const int o = order[q];
            if (o != k) f(o);
        });
    }
};

/// Unit direction for two coincident agents lo < hi: a fixed angle per pair
/// (integer hash), so the pair separates the same way on every run.
CC_HD inline void coincidentDirection(int lo, int hi, float& ux, float& uy) {
    unsigned hsh = static_cast<unsigned>(lo) * 2654435761u ^ (static_cast<unsigned>(hi) + 0x9e3779b9u) * 2246822519u;
    hsh ^= hsh >> 15;
    portableUnitVector(static_cast<float>(hsh >> 8) * (1.f / 16777216.f), ux, uy);
}

/// Unit vector from agent o to agent k for their offset (dx, dy) at
/// distance @p d [m]; when d <= @p tiny [m] (coincident), the pair's fixed
/// direction (coincidentDirection, opposite for the other agent).
CC_HD inline void pairDirection(int k, int o, float dx, float dy, float d, float tiny, float& ux, float& uy) {
    if (d > tiny) { ux = dx / d; uy = dy / d; return; }
    coincidentDirection(k < o ? k : o, k < o ? o : k, ux, uy);
    if (k > o) { ux = -ux; uy = -uy; }
}

/// Fills first[k] = q for the keys k in (key[q-1], key[q]] (slot 0 from key
/// 0; slot n up to the last key), so first[k] is the first slot with a key
/// >= k. Slots write disjoint key ranges: race-free and deterministic.
struct FirstSlotKernel {
    View1<const int> key;  ///< Ascending. [Size: n]
    int n = 0;
    int keys = 0;          ///< Neighbour cells; first has keys + 1 entries.
    View1<int> first;
    CC_HD void operator()(int q) const {
        const int lo = q == 0 ? 0 : key[q - 1] + 1;
        const int hi = q == n ? keys : key[q];
        for (int k = lo; k <= hi; ++k) first[k] = q;
    }
};

/// Copies per-agent values into sorted slot order: out[q] = in[order[q]]
/// for two columns (positions), so a gather over forEachSlot reads its
/// neighbours' values contiguously instead of through the permutation.
struct GatherSortedKernel {
    View1<const int> order;   ///< Agent per sorted slot. [Size: n]
    View1<const float> x, y;  ///< Per agent.
    View1<float> sx, sy;      ///< Per sorted slot.
    CC_HD void operator()(int q) const {
        const int k = order[q];
        sx[q] = x[k];
        sy[q] = y[k];
    }
};

/// Neighbour-grid key and identity slot of every agent (before the sort).
struct NeighbourKeyKernel {
    View1<const float> x, y;  ///< Positions. [Units: m]
    NeighbourGrid s;
    View1<int> key, order;

    CC_HD void operator()(int k) const {
        key[k] = s.key(s.column(x[k]), s.row(y[k]));
        order[k] = k;
    }
};

/// Neighbour grid over @p g's extent with cells of @p range / @p span plus
/// 1% (so rounding never hides a partner span + 1 cells away), doubled while
/// there would be more than 2^24 cells (the first-slot table stays <= 64
/// MiB; larger cells only mean more candidates). [Limit: range > 0, finite;
/// span >= 1]
NeighbourGrid makeNeighbourGrid(const GridInfo& g, float range, int span = 1);

/// Sorts the @p n agents at (x, y) by cell of @p s (stable, into
/// sort.key / sort.order) and fills @p ws.first; returns the view the
/// gathers read. @p stage names the caller in errors.
NeighbourView buildNeighbourGrid(const Exec& ex, View1<const float> x, View1<const float> y, int n,
                                 const NeighbourGrid& s, AgentSortBuffers& sort, NeighbourGridBuffers& ws,
                                 const char* stage);

}  // namespace ccrowd::sim
