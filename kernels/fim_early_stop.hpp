#pragma once
/// @file fim_early_stop.hpp
/// The FIM's early stop (EikonalOptions::needed, EikonalNeeded), host+device
/// code that both drivers run after each phase: the CPU driver
/// (kernels/potential.cu) on its lead thread, the CUDA driver
/// (kernels/potential_cuda.cuh) inside the solve kernel, so a CPU solve holds
/// a field after the same phase as a GPU solve and its counts predict the
/// GPU's.
///
/// A caller names the cells it reads per field (the simulation: its agents'
/// bilinear stencils). A FIM update never gives less than the key of the
/// tile that triggered it, so once a field's lowest key lies above every cell
/// its caller reads, those cells (and every cell below them) are final,
/// bitwise: the field is held (Dijkstra's stopping rule, applied to the
/// value-ordered tiles of Hong & Jeong 2016). Before that, a field's tiles
/// keyed above its ceiling, the highest needed value of its last look, are
/// not selected (no such tile can lower a needed cell). The needed cells are
/// looked at only when the lowest key passes the last look's highest value
/// (or, while one was unreached, a band further on) or the ceiling; the
/// first ceiling is the last solve's highest needed value.
///
/// One look, per field: fimLookDue (every thread decides alike from values
/// settled by the phase's barrier), the highest fimNeededValue over the
/// needed cells (the CPU's lead thread tile by tile, the GPU's warps over
/// the box), then fimApplyLook (one thread).

#include <stdint.h>

#include "ccrowd/eikonal.hpp"
#include "fim_schedule.hpp"

namespace ccrowd {

/// What the early stop reads and keeps, per field (arrays of v.fields).
struct FimEarlyStopView {
    const uint32_t* mask = nullptr;  ///< EikonalNeeded::mask: per cell, the bits of the fields that read it. [Size: nx*ny]
    int i0 = 0, j0 = 0, i1 = 0, j1 = 0;  ///< Cells of mask read, inside the grid. [Units: cells]
    const uint32_t* bit = nullptr;   ///< Per field: its bits in mask (0: every cell needed, never held).
    float* ceiling = nullptr;        ///< Per field: FimSchedView::ceiling (-inf: held). [Units: s]
    float* check = nullptr;          ///< Per field: look again when the lowest key passes this. [Units: s]
    float* lastHighest = nullptr;    ///< Per field: highest needed value when a solve last held it (the next solve's first look). [Units: s]
};

/// @p nd's box (clamped to @p g; an inverted box is empty) and bits
/// (@p bits: where the backend reads them) in a view; mask and per-field
/// state left to the driver.
inline FimEarlyStopView fimEarlyStopBox(const EikonalNeeded& nd, const FimGrid& g, const uint32_t* bits) {
    FimEarlyStopView e;
    e.i0 = nd.i0 > 0 ? nd.i0 : 0;
    e.j0 = nd.j0 > 0 ? nd.j0 : 0;
    e.i1 = nd.i1 < g.nx ? nd.i1 : g.nx;
    e.j1 = nd.j1 < g.ny ? nd.j1 : g.ny;
    if (e.i1 < e.i0) e.i1 = e.i0;
    if (e.j1 < e.j0) e.j1 = e.j0;
    e.bit = bits;
    return e;
}

/// Sets up field @p f's early stop for a solve (forEachIndex over fields):
/// its first look and ceiling are the last held solve's highest needed
/// value (-inf: none; then no ceiling and a look at the first phase).
struct FimInitEarlyStop {
    FimEarlyStopView e;
    bool forget = false;  ///< The last solve's values do not apply (other fields): start from none.
    CC_HD void operator()(int f) const {
        if (forget) e.lastHighest[f] = -INFINITY;
        const float last = e.lastHighest[f];
        e.check[f] = last;
        e.ceiling[f] = last > -INFINITY && e.bit[f] ? last : INFINITY;
    }
};

/// True when field @p f is quiet after phase @p phase: no active tile, or
/// held (a ceiling of -inf; @p ceiling null: no early stop).
CC_HD inline bool fimFieldQuiet(const FimSchedView& v, const float* ceiling, int phase, int f) {
    return v.lowest[3 * f + (phase + 1) % 3] == kFimNoKey || (ceiling && !(ceiling[f] > -INFINITY));
}

/// True when field @p f's needed cells are due for a look after phase
/// @p phase: not held, some cell needed, still active, and the lowest key
/// past the last look's mark or the ceiling.
CC_HD inline bool fimLookDue(const FimSchedView& v, const FimEarlyStopView& e, int phase, int f) {
    const uint32_t key = v.lowest[3 * f + (phase + 1) % 3];
    const float ceiling = e.ceiling[f];
    if (!(ceiling > -INFINITY) || !e.bit[f] || key == kFimNoKey) return false;
    const float lowest = fimKeyValue(key);
    return lowest > e.check[f] || lowest > ceiling;
}

/// What cell (i, j) of field @p f adds to its highest needed value: its
/// potential (+inf while unreached), or -inf when its caller does not read
/// it or it is blocked (fixed at +inf: no reader takes a gradient there).
CC_HD inline float fimNeededValue(const FimSchedView& v, const FimEarlyStopView& e, int f, int i, int j) {
    if (!(e.mask[v.g.cell(i, j)] & e.bit[f])) return -INFINITY;
    const int k = v.g.padded(i, j);
    const float p = v.phiOf(f)[k];
    return (v.stateOf(f)[k] & kFimFixed) && !(p < INFINITY) ? -INFINITY : p;
}

/// After a look at field @p f that found @p highest over its needed cells:
/// held when its lowest key lies above them all (EikonalNeeded: they are
/// final), else the ceiling is their highest value (Dijkstra's bound) and
/// the next look comes when the lowest key passes it (or, while a needed
/// cell is unreached, four tile widths of the least step further on).
CC_HD inline void fimApplyLook(const FimSchedView& v, const FimEarlyStopView& e, int phase, int f, float highest) {
    const float lowest = fimKeyValue(v.lowest[3 * f + (phase + 1) % 3]);
    if (lowest > highest) {
        e.ceiling[f] = -INFINITY;
        e.lastHighest[f] = highest;
    } else {
        e.ceiling[f] = highest;
        e.check[f] = highest < INFINITY ? highest : lowest + 4.f * kFimTile * v.reach[f];
    }
}

}  // namespace ccrowd
