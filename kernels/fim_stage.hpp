#pragma once
/// @file fim_stage.hpp
/// A FIM tile with its one-cell halo copied from the solve's padded arrays
/// into a team's scratch copy (the GPU warp's shared memory, read by the
/// sweeps as FimTileMem at pitch kFimHaloPitch) and back: which cells travel
/// and which lane moves each one. Host+device code: the CUDA driver
/// (potential_cuda.cuh) runs it on the 32 lanes of a warp, tests run it on
/// the CPU lane after lane. (The CPU driver sweeps the padded arrays in
/// place and copies nothing.)
///
/// Staging a tile is on the critical path of every phase (a phase waits for
/// its slowest tile), and what it costs is latency, not bandwidth: a lane
/// that stores each value before it loads the next waits one memory round
/// trip per value. Written as a loop over the tile's 34 halo rows (and 32
/// cost rows) with a load and a store each, the warp waited a round trip per
/// row, or per four rows where nvcc unrolled the loop (its PTX). Here the
/// halo is one flat range of kFimHaloCells cells dealt out to the lanes, and
/// a lane loads kFimStageBatch values into registers before it stores any:
/// 3 round trips for the potentials and states, 2 for the costs.

#include "fim_schedule.hpp"

namespace ccrowd {

/// Cells of a tile with its halo, corners included (the scratch arrays of
/// potentials and states). [Units: cells]
constexpr int kFimHaloCells = kFimHaloPitch * kFimHaloPitch;
/// Values a lane holds in registers between its loads and its stores.
constexpr int kFimStageBatch = 16;

/// Scratch cell @p e (e = (c + 1) + (r + 1) * kFimHaloPitch) as tile cell
/// (@p c, @p r), c and r in -1..kFimTile. True when it is staged for a
/// w x h tile: inside the tile or on its halo, and a halo corner only with
/// @p diagonals (without them the stencil never reads or writes a corner,
/// and the corner belongs to a tile of the same colour that may be running
/// at the same time).
CC_HD inline bool fimStagedCell(int e, int w, int h, bool diagonals, int& c, int& r) {
    r = e / kFimHaloPitch - 1;
    c = e - (r + 1) * kFimHaloPitch - 1;
    if (e >= kFimHaloCells || c > w || r > h) return false;
    return diagonals || !((c < 0 || c >= w) && (r < 0 || r >= h));
}

/// Lane @p lane of a team of @p LANES copies its share of tile @p b of the
/// padded arrays @p phi / @p state (FimGrid::padded) and of the tile's face
/// costs (@p cost: the field's nx-by-ny costs) into the scratch copy:
/// sPhi / sState at scratch index e (fimStagedCell), sCost at c + r *
/// kFimTile. Cells that are not staged are left as they are. Every lane
/// must run it before any lane reads the copy (the caller's barrier).
template <int LANES>
CC_HD void fimStageTile(int lane, const FimGrid& g, const FimTileBox& b, bool diagonals, const float* phi,
                        const FimState* state, const FaceCost* cost, float* sPhi, FimState* sState, FaceCost* sCost) {
    constexpr int kHaloItems = (kFimHaloCells + LANES - 1) / LANES;
    constexpr int kCostItems = (kFimTile * kFimTile + LANES - 1) / LANES;
    // potentials and states: a batch of loads in flight, then its stores
    for (int k0 = 0; k0 < kHaloItems; k0 += kFimStageBatch) {
        float p[kFimStageBatch] = {};
        FimState s[kFimStageBatch] = {};
        CC_UNROLL
        for (int k = 0; k < kFimStageBatch; ++k) {
            int c, r;
            if (k0 + k < kHaloItems && fimStagedCell(lane + (k0 + k) * LANES, b.w, b.h, diagonals, c, r)) {
                const int q = g.padded(b.i0 + c, b.j0 + r);
                p[k] = phi[q];
                s[k] = state[q];
            }
        }
        CC_UNROLL
        for (int k = 0; k < kFimStageBatch; ++k) {
            int c, r;
            const int e = lane + (k0 + k) * LANES;
            if (k0 + k < kHaloItems && fimStagedCell(e, b.w, b.h, diagonals, c, r)) {
                sPhi[e] = p[k];
                sState[e] = s[k];
            }
        }
    }
    // the tile's face costs, read by every sweep, the same way
    for (int k0 = 0; k0 < kCostItems; k0 += kFimStageBatch) {
        FaceCost fc[kFimStageBatch];
        CC_UNROLL
        for (int k = 0; k < kFimStageBatch; ++k) {
            const int e = lane + (k0 + k) * LANES, c = e % kFimTile, r = e / kFimTile;
            if (k0 + k < kCostItems && c < b.w && r < b.h) fc[k] = cost[g.cell(b.i0 + c, b.j0 + r)];
        }
        CC_UNROLL
        for (int k = 0; k < kFimStageBatch; ++k) {
            const int e = lane + (k0 + k) * LANES, c = e % kFimTile, r = e / kFimTile;
            if (k0 + k < kCostItems && c < b.w && r < b.h) sCost[e] = fc[k];
        }
    }
}

/// Lane @p lane of a team of @p LANES writes its share of the processed
/// scratch copy back to the padded arrays: the tile's potentials and
/// states, and the halo cells' states where the pass marked them (state bit
/// @p modeBit, fimModeBit: the mark goes to the neighbour tile's cell with
/// the state it had at staging, which no other tile of the phase changes).
template <int LANES>
CC_HD void fimUnstageTile(int lane, const FimGrid& g, const FimTileBox& b, bool diagonals, FimState modeBit,
                          const float* sPhi, const FimState* sState, float* phi, FimState* state) {
    for (int e = lane; e < kFimHaloCells; e += LANES) {
        int c, r;
        if (!fimStagedCell(e, b.w, b.h, diagonals, c, r)) continue;
        const int q = g.padded(b.i0 + c, b.j0 + r);
        const FimState s = sState[e];
        if (c >= 0 && r >= 0 && c < b.w && r < b.h) {
            phi[q] = sPhi[e];
            state[q] = s;
        } else if (s & modeBit) {
            state[q] = s;
        }
    }
}

}  // namespace ccrowd
