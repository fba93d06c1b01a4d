#pragma once
/// @file splat.hpp
/// Splat stage (b): agents -> density and mean velocities (DESIGN.md §5,
/// "Density"; Treuille et al. 2006 §4.1 without the lambda sharpening).
///
/// Deterministic, mass-conserving cloud-in-cell transfer. sortAgents():
///   1. per agent: the lower-left cell of its bilinear stencil (the key);
///   2. sort agent indices by key (stable, Thrust);
///   3. per cell: the sorted range [begin, end) of each key (cleared, then
///      set by the sorted agents that start / end a run of equal keys);
///   4. every agent column into sorted order: a 4-byte column is gathered
///      into the scratch of its type, which becomes the column (their
///      storage swapped: nothing copied back); a 16-bit one goes through
///      the int scratch and back. The agents themselves are stored by
///      cell: no sorted copies, and later per-agent stages read the grid
///      with locality.
/// splat():
///   5. per cell: gather from the four stencil origins (i-1..i, j-1..j) in a
///      fixed order, so sums do not depend on threads or scheduling.
/// The stencil is also used to interpolate grid values back to agents
/// (preferredVelocity), so both transfers use the same weights.

#include <math.h>

#include "ccrowd/field.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Reusable buffers of the splat. Sized by sortAgents(); on the CUDA backend
/// the device copies are used and the host copies only hold the size.
struct SplatWorkspace {
    /// key: stencil origin cell i0 + j0*nx per agent (nx*ny = outside the
    /// grid), then the int columns' scratch (step 4 swaps storage with them:
    /// it ends holding an old column's); scratch: the float columns'.
    AgentSortBuffers sort;
    Array<int> begin, end;  ///< Range [begin, end) of sorted agents whose stencil origin is the cell. [Size: nx*ny]
};

/// Continuous coordinate @p f of one axis (cell centres at integers) clamped
/// to the band of cell centres [0, n-1], as a stencil origin @p i0 in
/// [0, max(n-2, 0)] and fraction @p t in [0, 1]. Clamping keeps every weight
/// on a cell of the grid, so the splat conserves mass exactly; for n = 1 the
/// weight 1 - t = 1 stays on cell 0.
CC_HD inline void clampedAxis(float f, int n, int& i0, float& t) {
    const float hi = static_cast<float>(n - 1);
    f = f < 0.f ? 0.f : (f > hi ? hi : f);
    int i = static_cast<int>(floorf(f));
    const int last = n >= 2 ? n - 2 : 0;
    i = i > last ? last : i;
    i0 = i;
    t = f - static_cast<float>(i);
}

/// Bilinear stencil of the point (x, y) [m] with the position clamped to the
/// band of cell centres (clampedAxis): the four weights sum to 1 (to float
/// rounding) and only weights of exactly 0 fall outside the grid.
CC_HD inline Bilinear clampedBilinear(const GridInfo& g, float x, float y) {
    Bilinear b;
    float tx = 0.f, ty = 0.f;
    clampedAxis(g.gx(x), g.nx, b.i0, tx);
    clampedAxis(g.gy(y), g.ny, b.j0, ty);
    b.w00 = (1.f - tx) * (1.f - ty);
    b.w10 = tx * (1.f - ty);
    b.w01 = (1.f - tx) * ty;
    b.w11 = tx * ty;
    return b;
}

/// True when (x, y) [m] lies in the grid rectangle [ox, ox + nx h) x
/// [oy, oy + ny h) (false for NaN). Only such agents are splatted.
CC_HD inline bool insideGrid(const GridInfo& g, float x, float y) {
    const float fx = (x - g.ox) / g.h, fy = (y - g.oy) / g.h;
    return fx >= 0.f && fy >= 0.f && fx < static_cast<float>(g.nx) && fy < static_cast<float>(g.ny);
}

/// Step 1: stencil origin key of agent k and the identity permutation.
struct SplatKeyKernel {
    GridInfo g;
    View1<const float> x, y;  ///< Agent positions. [Units: m]
    View1<int> key;           ///< Out: i0 + j0*nx, or nx*ny outside the grid.
    View1<int> order;         ///< Out: k.

    CC_HD void operator()(int k) const {
        order[k] = k;
        if (!insideGrid(g, x[k], y[k])) { key[k] = g.nx * g.ny; return; }
        const Bilinear b = clampedBilinear(g, x[k], y[k]);
        key[k] = g.index(b.i0, b.j0);
    }
};

/// Step 4: out[s] = in[order[s]] (one agent column into sorted order).
template <class T>
struct PermuteKernel {
    View1<const int> order;
    View1<const T> in;
    View1<T> out;
    CC_HD void operator()(int s) const { out[s] = in[order[s]]; }
};

/// Step 4, 16-bit columns: copies the permuted column back.
template <class T>
struct CopyKernel {
    View1<const T> in;
    View1<T> out;
    CC_HD void operator()(int s) const { out[s] = in[s]; }
};

/// Step 3a: empty range for cell (i, j) (stencil origins of the box).
struct SplatClearKernel {
    GridInfo g;
    View1<int> begin, end;  ///< Out, per cell.

    CC_HD void operator()(int i, int j) const {
        const int c = g.index(i, j);
        begin[c] = 0;
        end[c] = 0;
    }
};

/// Step 3b: the sorted position s that starts (ends) a run of equal keys
/// writes the run's begin (end) for that cell: one writer per cell, no
/// search. Agents outside the grid (key nx*ny) are skipped.
struct SplatBoundsKernel {
    GridInfo g;
    View1<const int> key;   ///< Sorted keys. [Size: n]
    View1<int> begin, end;  ///< Out, per cell.

    CC_HD void operator()(int s) const {
        const int k = key[s];
        if (k >= g.nx * g.ny) return;
        if (s == 0 || key[s - 1] != k) begin[k] = s;
        if (s == key.n - 1 || key[s + 1] != k) end[k] = s + 1;
    }
};

/// Weighted sums of one cell.
struct SplatSums {
    float w = 0.f;             ///< Sum of weights [persons].
    float ux = 0.f, uy = 0.f;  ///< Sum of w u. [Units: persons m/s]
    /// Adds weight @p wq of an agent with vector (@p vx, @p vy).
    CC_HD void add(float wq, float vx, float vy) {
        w += wq;
        ux += wq * vx;
        uy += wq * vy;
    }
};

/// Step 5: density and mean of (ux, uy) of every cell of the grid; cells
/// outside the box get 0. Origins are visited in the fixed order (i-1, j-1),
/// (i, j-1), (i-1, j), (i, j), agents of one origin in sorted order.
struct SplatGatherKernel {
    GridInfo g;
    CellRange box;
    View1<const int> begin, end;
    View1<const float> x, y, ux, uy;  ///< Sorted agents. [Units: m, m/s]
    View2<float> rho;                 ///< Out (not written when empty). [Units: persons/m^2]
    View2<Vel2> mean;                 ///< Out. [Units: m/s]

    /// Fractions (@p tx, @p ty) of sorted agent @p q within its stencil (clampedAxis).
    CC_HD void fractions(int q, float& tx, float& ty) const {
        int i0 = 0, j0 = 0;
        clampedAxis(g.gx(x[q]), g.nx, i0, tx);
        clampedAxis(g.gy(y[q]), g.ny, j0, ty);
    }

    /// Adds the agents of origin (oi, oj); the cell is at offset (di, dj) in
    /// {0, 1}^2 from the origin, so its weight is the matching corner weight.
    CC_HD void add(int oi, int oj, int di, int dj, SplatSums& s) const {
        if (oi < 0 || oj < 0) return;
        const int c = g.index(oi, oj);
        for (int q = begin[c]; q < end[c]; ++q) {
            float tx = 0.f, ty = 0.f;
            fractions(q, tx, ty);
            s.add((di ? tx : 1.f - tx) * (dj ? ty : 1.f - ty), ux[q], uy[q]);
        }
    }

    CC_HD void operator()(int i, int j) const {
        // outside the box: nothing
        if (i < box.i0 || j < box.j0 || i >= box.i1 || j >= box.j1) { write(i, j, SplatSums{}); return; }
        // gather from the four stencil origins in a fixed order
        SplatSums s;
        add(i - 1, j - 1, 1, 1, s);
        add(i, j - 1, 0, 1, s);
        add(i - 1, j, 1, 0, s);
        add(i, j, 0, 0, s);
        write(i, j, s);
    }

    /// Density [persons/m^2] and weighted mean (DESIGN.md §5) of cell (i, j) from its sums.
    CC_HD void write(int i, int j, const SplatSums& s) const {
        if (rho.data) rho(i, j) = s.w / (g.h * g.h);
        mean(i, j) = s.w > 0.f ? Vel2{s.ux / s.w, s.uy / s.w} : Vel2{};
    }

    /// Cells [i0, i1) of row j (the CPU's forEachCell calls it per row):
    /// the same sums in the same order as operator(), but each origin row
    /// (j - 1, then j) is walked once, an agent's weights computed once per
    /// row its stencil reaches and added to the two cells beside it (cell
    /// oi then oi + 1: per cell, origin i - 1 before origin i), instead of
    /// once per cell of its stencil. Bitwise equal to operator() (tested).
    void row(int i0, int i1, int j) const {
        const bool rowIn = j >= box.j0 && j < box.j1;
        const int b0 = rowIn ? (i0 > box.i0 ? i0 : box.i0) : i1, b1 = rowIn ? (i1 < box.i1 ? i1 : box.i1) : i1;
        // outside the box: nothing
        for (int i = i0; i < i1; ++i)
            if (i < b0 || i >= b1) write(i, j, SplatSums{});
        // the box's cells, a chunk at a time: sums over origin rows j - 1 (dj = 1) and j (dj = 0)
        constexpr int kChunk = 256;
        for (int c0 = b0; c0 < b1; c0 += kChunk) {
            const int c1 = c0 + kChunk < b1 ? c0 + kChunk : b1;
            SplatSums s[kChunk];
            for (int dj = 1; dj >= 0; --dj) {
                const int oj = j - dj;
                if (oj < 0) continue;
                for (int oi = (c0 > 0 ? c0 - 1 : 0); oi < c1; ++oi) {
                    const int c = g.index(oi, oj);
                    for (int q = begin[c]; q < end[c]; ++q) {
                        float tx = 0.f, ty = 0.f;
                        fractions(q, tx, ty);
                        const float wy = dj ? ty : 1.f - ty;
                        if (oi >= c0) s[oi - c0].add((1.f - tx) * wy, ux[q], uy[q]);     // cell oi: corner (0, dj)
                        if (oi + 1 < c1) s[oi + 1 - c0].add(tx * wy, ux[q], uy[q]);      // cell oi + 1: corner (1, dj)
                    }
                }
            }
            for (int i = c0; i < c1; ++i) write(i, j, s[i - c0]);
        }
    }
};

}  // namespace ccrowd::sim
