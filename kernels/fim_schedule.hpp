#pragma once
/// @file fim_schedule.hpp
/// The one scheduler of the block Fast Iterative Method, host+device code
/// run by the CPU driver (kernels/potential.cu, one OpenMP thread per tile)
/// and the CUDA driver (kernels/potential_cuda.cuh, one warp per tile), so
/// the updates per cell counted on the CPU are the GPU's.
///
/// Algorithm (decisions and their sources):
/// - Tiles and activity per tile: block FIM, Jeong & Whitaker 2008 §4 (a tile
///   is active while some cell in it may still drop; neighbours are activated
///   across an edge whose cells dropped).
/// - The local update reads four neighbours (eikonalUpdate, Godunov) or,
///   with EikonalOptions::stencil 8, eight (eikonalUpdate8: plus the
///   triangles of the diagonals), so a point source's potential is close to
///   the distance in every direction.
/// - Inside a tile, Gauss-Seidel sweeps in the four diagonal orders of fast
///   sweeping (Zhao 2005, "A fast sweeping method for eikonal equations"),
///   restricted to cells marked dirty (the cell-level active list of Jeong &
///   Whitaker 2008 §3), until no dirty cell is left behind the sweep front or
///   the sweep budget is spent; only then does the tile report its edges and
///   corners. A CPU thread visits a tile row by row, a warp front by front
///   (fronts f = DI i + K DJ j, K = 1 for 4 neighbours and 2 for 8: the
///   cells of one front are never neighbours, so a warp updates them in
///   parallel, and every pair of neighbours is visited in the same order as
///   row by row, so both give identical results; the parallel order of
///   Detrixhe, Gibou & Min 2013, "A parallel fast sweeping method for the
///   eikonal equation", and its extension to 8 neighbours).
/// - Value-ordered tile selection: a phase runs only tiles whose incoming
///   potential lies within a band above the lowest one, a coarse fast-marching
///   order over tiles (the group ordering of Hong & Jeong 2016, "A group-ordered
///   fast iterative method for eikonal equations", with the band of the
///   two-scale / "untidy" priority queues of Yatziv, Bartesaghi & Sapiro 2006).
/// - Coloured phases: tiles of one colour share no halo cell (two colours, a
///   checkerboard, for the 4-neighbour stencil; four, two tiles apart in x
///   and y, when the stencil reads diagonals across tile corners), so a
///   phase runs them in parallel without races and results do not depend on
///   the thread count or the order of tiles (activation uses
///   order-independent atomic min / or only).
/// - Several fields (one per goal set) are one solve: their tiles share the
///   phases, so 4 groups cost one launch and one convergence test.
///
/// A phase p (colour p modulo the colours) has two passes separated by a barrier (an OpenMP
/// loop end on the CPU, a grid-wide sync on the GPU):
///   1. select: every tile of every field is scanned; a tile of the phase's
///      colour whose key is within the band of its field's lowest key
///      (lowest[p % 3]) is selected, every other active tile adds its key to
///      lowest[(p + 1) % 3];
///   2. process: every selected tile clears its key, sweeps, and pushes what
///      it left behind (its edges' drops to the neighbour tiles, unfinished
///      cells to itself) as keys, also into lowest[(p + 1) % 3].
/// The solve ends after the first phase whose lowest[(p + 1) % 3] is +inf
/// for every field. lowest[(p + 2) % 3] is reset during phase p (nobody
/// reads or writes it then). A field may also have a ceiling
/// (FimSchedView::ceiling, both drivers' early stop, fim_early_stop.hpp): no
/// tile keyed above the highest potential its caller reads is selected,
/// and once the field's lowest key passes every cell its caller reads the
/// field is held; held tiles keep their keys, the solve ends when every
/// field is quiet or held, and it can go on later from the same state.

#include <stdint.h>
#include <string.h>

#include "atomics.hpp"
#include "eikonal_update.hpp"
#include "ccrowd/hd.hpp"

namespace ccrowd {

/// Tile edge in cells on both backends: one warp per tile on the GPU (a
/// diagonal of a tile has at most 32 cells, one per lane), one OpenMP thread
/// per tile on the CPU. [Limit: <= 32]
constexpr int kFimTile = 32;
/// Default value-ordering band (EikonalOptions::band_tiles) of the CPU
/// driver, in tile widths: the least work. On `bench eikonal` at 1024^2 and
/// 4096^2 bands of 4-6 tiles do the fewest updates per cell on the random
/// and obstacles cases, and a 100k-agent step does 1.74 updates per cell
/// with 4, 1.87 with 6, 2.23 with 8 (bench/results/fim_critical_path_2026-11-29_cpu2.md).
constexpr float kFimBandTilesCpu = 4.f;
/// Default band of the CUDA driver: a GPU phase lasts as long as its slowest
/// tile and most of the GPU's warps sit idle in a phase, so work is cheap
/// and phases and critical sweeps (EikonalStats::critical_sweeps) are the
/// time. With 16 tiles instead of 4: an H100 solved obstacles 1024^2 / 2048^2
/// 7% / 18% faster (bench/results/gpu_h100_2026-11-27_session2.md, `tune`),
/// and the CPU counts 7-17% fewer critical sweeps on the obstacles case,
/// 48% fewer on uniform 4096^2, 16% fewer in a 1M-agent step.
constexpr float kFimBandTilesGpu = 16.f;
/// Default sweep budget per tile activation (EikonalOptions::inner_iterations)
/// of the CPU driver: the least work. With 6 instead of 8 a 100k-agent step
/// on 2 threads did 3% more updates per cell and its potential took 4% longer
/// (bench/results/gpu_h200_2026-11-30.md).
constexpr int kFimSweepsCpu = 8;
/// Default sweep budget of the CUDA driver: in a crowd's step the slowest
/// tile of nearly every phase spends the whole budget, and the phase waits
/// for it. On an H200 a 1M-agent step's potential (1024^2, 4 groups) took
/// 11.75 ms with 6 sweeps against 12.99 with 8 (-10%; 12 sweeps 13.6), its
/// critical sweeps 284 against 370 at the same phases; on `bench eikonal`'s
/// cases the CPU counts 0-5% fewer critical sweeps with 6
/// (bench/results/gpu_h200_2026-11-30.md).
constexpr int kFimSweepsGpu = 6;
/// Default front budget per tile activation (EikonalOptions::front_budget)
/// of the CPU driver: none, the least work (a budget stops tiles whose
/// next sweeps another phase repeats: a 1M-agent step did 2.28 updates per
/// cell without, 2.82 with the GPU's 150).
constexpr int kFimFrontBudgetCpu = 0;
/// Default front budget of the CUDA driver with the 4-neighbour stencil: a
/// warp's tile takes a time in proportion to the fronts it walks, and a
/// phase waits for its slowest tile, so a tile that has walked about two
/// and a half sweeps' fronts stops after its sweep and keeps what is left
/// for its next activation, while its neighbours move on. Counted on the
/// CPU with the GPU's band and sweep budget
/// (bench/results/fim_front_budget_2026-12-02_cpu2.md): a 1M-agent step's
/// critical fronts 15397 -> 9532 (-38%) at 48.0 -> 51.5 phases, a 100k
/// step's 6594 -> 4092 (-38%) at 22.0 -> 23.3, `bench eikonal`'s random,
/// obstacles and crowd cases at 1024^2 and 4096^2 12-19% fewer at the same
/// phases; below about two sweeps' fronts (125) tiles stop so early that
/// the phases grow (1M step, 64 sweeps: 57.5 with 125, 82 with 110).
constexpr int kFimFrontBudgetGpu = 150;
/// The same with the 8-neighbour stencil, whose sweeps walk 94 fronts
/// instead of 63: `bench eikonal`'s cases at 1024^2 walk 8-13% fewer
/// critical fronts with 300 at the same phases; with 250 the crowd case's
/// phases grow from 67 to 83.
constexpr int kFimFrontBudgetGpu8 = 300;
/// The CUDA driver's default front budget for a stencil of @p stencil neighbours.
inline int fimFrontBudgetGpu(int stencil) { return stencil == 8 ? kFimFrontBudgetGpu8 : kFimFrontBudgetGpu; }
/// Row pitch of a tile with its one-cell halo, corners included (GPU shared memory). [Units: cells]
constexpr int kFimHaloPitch = kFimTile + 2;

/// A cell's state in the solver's padded state array (FimCellState).
using FimState = uint8_t;

/// Cell state bits of the solver's padded state array.
enum FimCellState : uint8_t {
    kFimClean = 0,  ///< Open, up to date with its neighbours.
    kFimDirty = 1,  ///< Open, a neighbour dropped since its last update (lowering: may drop).
    kFimFixed = 2,  ///< Padding border, blocked or source: never updated.
    kFimRaise = 4,  ///< Warm start, raise pass: a value it may rest on was raised (may be unsupported).
    kFimLower = 8,  ///< Warm start, raise pass: raised to +inf; lowered again in the lowering pass.
    kFimShutN = 64, ///< The cell's face towards (i, j+1) is closed (its cost is +inf); set at init with diagonals, never changed.
    kFimShutE = 128 ///< The cell's face towards (i+1, j) is closed; set at init with diagonals, never changed.
};

/// The face bits of a state, kept by every change of a cell's state.
constexpr FimState kFimShut = kFimShutN | kFimShutE;

/// What a pass of the scheduler does to the cells it visits.
enum FimMode : int {
    kFimLowering = 0,  ///< The FIM proper: cells marked kFimDirty may drop (Jeong & Whitaker 2008).
    kFimRaising = 1    ///< Warm start: cells marked kFimRaise that their neighbours no longer support go to +inf.
};

/// The state bit a pass's marks use.
CC_HD inline FimState fimModeBit(int mode) { return mode == kFimRaising ? kFimRaise : kFimDirty; }

/// Edge bits of FimSchedView::from: the edges a tile's activation came through.
enum FimFromBit : uint32_t {
    kFimFromE = 1u,  ///< From tile (tx+1, ty).
    kFimFromN = 2u,  ///< From tile (tx, ty+1).
    kFimFromW = 4u,  ///< From tile (tx-1, ty).
    kFimFromS = 8u   ///< From tile (tx, ty-1).
};

/// Grid and tiling of one solve. Potentials and cell states live in padded
/// arrays of (nx + 2) x (ny + 2) whose border is fixed at +inf, so the local
/// update needs no bounds checks.
struct FimGrid {
    int nx = 0, ny = 0;          ///< Cells. [Limit: >= 1]
    int tilesX = 0, tilesY = 0;  ///< Tiles: ceil(n / kFimTile).
    int pitch = 0;               ///< Row length of the padded arrays: nx + 2.
    float h = 1.f;               ///< Cell size. [Units: m]
    float tol = 1e-6f;           ///< Relative tolerance (eikonalTolerance).

    /// Index of cell (i, j) in a padded array.
    CC_HD int padded(int i, int j) const { return (i + 1) + (j + 1) * pitch; }
    /// Cells of a padded array.
    CC_HD long long paddedSize() const { return static_cast<long long>(pitch) * (ny + 2); }
    /// Index of cell (i, j) in nx-by-ny arrays (costs, blocked).
    CC_HD int cell(int i, int j) const { return i + j * nx; }
    /// Tiles of one field.
    CC_HD int tiles() const { return tilesX * tilesY; }
    /// Index of tile (tx, ty).
    CC_HD int tile(int tx, int ty) const { return tx + ty * tilesX; }
    /// Colour of tile (tx, ty) among @p colours: 2, a checkerboard (tiles
    /// of one colour share no edge: enough for the 4-neighbour stencil), or
    /// 4 (tiles of one colour two tiles apart: their halos, corners
    /// included, never meet: the 8-neighbour stencil).
    CC_HD static int colour(int tx, int ty, int colours) {
        return colours == 4 ? (tx & 1) | ((ty & 1) << 1) : (tx + ty) & 1;
    }
};

/// Makes the tiling of an nx-by-ny grid.
inline FimGrid makeFimGrid(int nx, int ny, float h, float tol) {
    FimGrid g;
    g.nx = nx; g.ny = ny; g.h = h; g.tol = tol;
    g.tilesX = (nx + kFimTile - 1) / kFimTile;
    g.tilesY = (ny + kFimTile - 1) / kFimTile;
    g.pitch = nx + 2;
    return g;
}

// ---------------------------------------------------------------------------
// Keys: potentials as unsigned integers with the same order, so that the
// lowest key is an atomic min on both backends (no float atomics).

/// Key of no activity (+inf).
constexpr uint32_t kFimNoKey = 0xFF800000u;

/// Order-preserving map of a float (not NaN) to an unsigned integer.
CC_HD inline uint32_t fimKey(float v) {
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
/// Inverse of fimKey.
CC_HD inline float fimKeyValue(uint32_t k) {
    const uint32_t b = (k & 0x80000000u) ? (k & 0x7FFFFFFFu) : ~k;
    float v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/// fimMark for a cell whose state @p v was read before (by this call, or
/// earlier in the same visit): sets @p bit unless the cell is fixed or
/// already marked. Exact with an earlier read because the only writes the
/// cell's state can see in between set this same bit over the same other
/// bits (other lanes of the front, other tiles of the colour), so v | bit
/// is what a fresh read would store. A warp reads its neighbours' states
/// with their potentials and marks from them: no load between a visit's
/// update and each of its marks (four loads of shared memory in a row on
/// every marking front otherwise). Returns false for a fixed cell.
CC_HD CC_FORCEINLINE bool fimMarkKnown(FimState* s, FimState v, FimState bit) {
#ifdef __CUDA_ARCH__
    if (!(v & (bit | kFimFixed))) *reinterpret_cast<volatile FimState*>(s) = static_cast<FimState>(v | bit);
#else
    // the store unconditional (the same bits when already marked): no branch to mispredict
    __atomic_store_n(s, static_cast<FimState>(v | ((v & kFimFixed) ? 0 : bit)), __ATOMIC_RELAXED);
#endif
    return !(v & kFimFixed);
}

/// Marks an open cell for the pass with state bit @p bit (kFimDirty or
/// kFimRaise), reading its state now. Two tiles of one colour may mark the
/// same cell of a tile of the other colour at once, and two lanes of a warp
/// the same cell of the next diagonal; all set the same bit over the same
/// other bits, so relaxed loads and stores suffice. Returns false for a
/// fixed cell (border, blocked, source), which is never marked.
CC_HD CC_FORCEINLINE bool fimMark(FimState* s, FimState bit) {
#ifdef __CUDA_ARCH__
    const FimState v = *reinterpret_cast<volatile FimState*>(s);
#else
    const FimState v = __atomic_load_n(s, __ATOMIC_RELAXED);
#endif
    return fimMarkKnown(s, v, bit);
}

// ---------------------------------------------------------------------------
// The state of a solve: every field's padded potentials and cell states, and
// per tile its key and activation edges.

/// Views of a (multi-field) solve's state. Pointers are host pointers on the
/// CPU and device pointers on the GPU.
struct FimSchedView {
    FimGrid g;                  ///< Grid and tiling, the same for every field.
    int fields = 0;             ///< Fields solved together. [Limit: >= 1]
    float* phi = nullptr;       ///< Padded potentials, field after field. [Size: fields * g.paddedSize()]
    FimState* state = nullptr;  ///< FimCellState, same layout as phi.
    const FaceCost* const* cost = nullptr;  ///< Per field: unit costs of its nx*ny cells.
    uint32_t* key = nullptr;    ///< Per field and tile: lowest potential that activated it (fimKey; kFimNoKey = inactive). [Size: fields * g.tiles()]
    uint32_t* from = nullptr;   ///< Per field and tile: FimFromBit edges of that activation. [Size: fields * g.tiles()]
    uint32_t* lowest = nullptr; ///< Per field: 3 rotating lowest keys (see the file comment). [Size: fields * 3]
    const float* band = nullptr;  ///< Per field: band above the lowest key a phase runs. [Units: s] [Size: fields]
    /// Per field: h times the lowest face cost of an open cell, the least
    /// that a step of one cell size costs. [Units: s] [Size: fields]
    const float* reach = nullptr;
    bool diagonals = false;     ///< The 8-neighbour stencil (EikonalOptions::stencil 8); false: 4 neighbours.
    unsigned long long* updates = nullptr;      ///< Per field: local solver calls. [Size: fields]
    unsigned long long* activations = nullptr;  ///< Per field: tiles processed. [Size: fields]
    uint32_t* runs = nullptr;   ///< Per field and tile: times processed. [Size: fields * g.tiles()]
    /// Two rotating slots: the most sweeps one tile ran in the phase (any
    /// field), phase p in slot p & 1 (fimEndPhase empties it). [Size: 2]
    uint32_t* phaseSweeps = nullptr;
    /// Sum over the solve's phases of their slots (EikonalStats::critical_sweeps).
    unsigned long long* criticalSweeps = nullptr;
    /// The same as phaseSweeps for the fronts one tile walked (FimTileReport::fronts). [Size: 2]
    uint32_t* phaseFronts = nullptr;
    /// Sum over the solve's phases of their slots (EikonalStats::critical_fronts).
    unsigned long long* criticalFronts = nullptr;
    int sweeps = 4;             ///< Sweep budget per tile activation. [Limit: >= 1]
    int frontBudget = 0;        ///< Front budget per tile activation (fimProcessTileIn); 0: none. [Limit: >= 0]
    /// Per field: tiles whose key lies above it are not selected (they stay
    /// active with their keys); -inf holds the field (the early stop,
    /// fim_early_stop.hpp); null: no ceiling. [Units: s] [Size: fields]
    const float* ceiling = nullptr;

    /// Tile colours of the phases (FimGrid::colour): 4 with diagonals, else 2.
    CC_HD int colours() const { return diagonals ? 4 : 2; }
    /// Index of tile t of field f in key / from.
    CC_HD long long tileIndex(int f, int t) const { return static_cast<long long>(f) * g.tiles() + t; }
    /// Field f's padded potentials.
    CC_HD float* phiOf(int f) const { return phi + static_cast<long long>(f) * g.paddedSize(); }
    /// Field f's padded cell states.
    CC_HD FimState* stateOf(int f) const { return state + static_cast<long long>(f) * g.paddedSize(); }
};

/// Pass 1 of phase @p phase for tile @p t of field @p f: true when the tile
/// runs in this phase (its colour, key within the band and not above the
/// field's ceiling). An active tile that does not run leaves its key in
/// @p next (else kFimNoKey), for the next lowest key of its field (so a
/// held field's lowest key stays known, and a solve can go on from it): the
/// caller takes the min of these into lowest[(phase + 1) % 3], one tile at
/// a time (fimSelect) or a warp's tiles at once (the CUDA driver: one
/// atomic per warp, not one per tile on one address).
CC_HD inline bool fimSelectTile(const FimSchedView& v, int phase, int f, int t, uint32_t& next) {
    // the field's lowest key and band are read before the tile's key is known (no wait between the loads)
    const uint32_t lo = v.lowest[f * 3 + phase % 3];
    const float band = v.band[f];
    const uint32_t k = v.key[v.tileIndex(f, t)];
    next = kFimNoKey;
    if (k == kFimNoKey) return false;
    const int tx = t % v.g.tilesX, ty = t / v.g.tilesX;
    const int colours = v.colours();
    const float kv = fimKeyValue(k);
    if (FimGrid::colour(tx, ty, colours) == (phase & (colours - 1)) && kv <= fimKeyValue(lo) + band &&
        !(v.ceiling && kv > v.ceiling[f]))
        return true;
    next = k;
    return false;
}

/// fimSelectTile for one tile, its key added to the next lowest key at once.
CC_HD inline bool fimSelect(const FimSchedView& v, int phase, int f, int t) {
    uint32_t next;
    const bool run = fimSelectTile(v, phase, f, t, next);
    if (next != kFimNoKey) atomicMinRelaxed(&v.lowest[f * 3 + (phase + 1) % 3], next);
    return run;
}

/// Activates tile (tx, ty) of field f (if inside) with potential @p value
/// through edge @p fromBit (0: the tile itself).
CC_HD inline void fimActivate(const FimSchedView& v, int phase, int f, int tx, int ty, float value, uint32_t fromBit) {
    if (tx < 0 || ty < 0 || tx >= v.g.tilesX || ty >= v.g.tilesY || !(value < INFINITY)) return;
    const long long ti = v.tileIndex(f, v.g.tile(tx, ty));
    const uint32_t k = fimKey(value);
    atomicMinRelaxed(&v.key[ti], k);
    if (fromBit) atomicOrRelaxed(&v.from[ti], fromBit);
    atomicMinRelaxed(&v.lowest[f * 3 + (phase + 1) % 3], k);
}

// ---------------------------------------------------------------------------
// Processing one tile: sweeps over its dirty cells.

/// One tile's memory as the sweeps see it: cell (0, 0) of the tile and row
/// pitches, with a one-cell halo readable at -1 and w / h. On the CPU these
/// point into the padded arrays; on the GPU into the warp's shared copy.
struct FimTileMem {
    float* phi;            ///< Potential of tile cell (0, 0).
    FimState* state;       ///< FimCellState of tile cell (0, 0), same pitch as phi.
    int pitch;             ///< Row pitch of phi and state. [Units: cells]
    const FaceCost* cost;  ///< Unit cost of tile cell (0, 0).
    int costPitch;         ///< Row pitch of cost. [Units: cells]
    int w, h;              ///< Tile cells (edge tiles are smaller). [Limit: 1..kFimTile]
    float cell;            ///< Cell size. [Units: m]
    float tol;             ///< Relative tolerance.
    float reach;           ///< The least a step of one cell size costs (FimSchedView::reach). [Units: s] [Limit: >= 0]
    bool diagonals;        ///< The 8-neighbour stencil (FimSchedView::diagonals).
};

/// Slots of FimTileReport::key: the four edges' neighbour tiles, the tile
/// itself, the four corners' neighbour tiles.
enum FimReportSlot : int {
    kFimToE = 0, kFimToN = 1, kFimToW = 2, kFimToS = 3, kFimToSelf = 4,
    kFimToNE = 5, kFimToNW = 6, kFimToSW = 7, kFimToSE = 8,
    kFimSlots = 9
};

/// What processing a tile leaves behind, per lane until the tile's end.
struct FimTileReport {
    /// Lowest new potential passed to each neighbour tile (FimReportSlot)
    /// and left in the tile itself (dirty cells after the sweep budget);
    /// +inf = none.
    float key[kFimSlots] = {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY, INFINITY};
    unsigned long long updates = 0;  ///< Local solver calls.
    int sweeps = 0;                  ///< Sweeps run (the same on every lane).
    int fronts = 0;                  ///< Fronts walked by the sweeps (fimWalkFronts; the same on every lane).
};

/// Fronts (fimFrontCell's f) of a sweep known to hold a marked cell.
struct FimFrontRange {
    int lo = 0x7FFFFFFF;  ///< Lowest (INT_MAX: none).
    int hi = -1;          ///< Highest (-1: none).
    CC_HD void raise(int f) { hi = f > hi ? f : hi; }
    CC_HD void add(int f) { lo = f < lo ? f : lo; raise(f); }
    /// Fronts from lo to hi, 0 when none.
    CC_HD int count() const { return hi >= lo ? hi - lo + 1 : 0; }
};

/// A visited cell's neighbours' states (FimCellState), read by the visit
/// before its update (the diagonals' only with the 8-neighbour stencil).
struct FimNeighbourStates {
    FimState e = 0, w = 0, n = 0, s = 0, ne = 0, nw = 0, sw = 0, se = 0;
};

/// The work of one cell (i, j) (tile-local) in a sweep in direction
/// (DI, DJ). A dirty cell is updated with the shared local update
/// (eikonal_update.hpp, eikonalUpdateStencil) and keeps the minimum; a significant drop marks the
/// neighbours above the new value dirty (only those can drop in turn). A
/// mark behind the sweep front (on a cell the sweep has passed) means
/// another sweep; a mark on a halo cell goes to the report for that edge or
/// corner.
///
/// DIAG: the 8-neighbour stencil (FimTileMem::diagonals); without it the
/// cell reads and marks its four axis neighbours only. KNOWN: the visit
/// reads its neighbours' states with their potentials and marks from them
/// (fimMarkKnown: a warp, whose marks would otherwise each wait for a load);
/// without it each mark reads its cell's state (fimMark: a CPU thread, for
/// which the early reads cost more than they save, 2% on obstacles 1024^2).
/// Both give the same tile (tested: FimRowTeam against FimFrontTeam).
/// WALK: the team walks fronts (fimWalkFronts) and learns from the marks
/// ahead where its walk may end; without it the visits of marked cells
/// record the fronts such a walk would have walked (the same count).
///
/// The cell reads its neighbours and its own state, and writes its own
/// value and state and its neighbours' states. In a sweep in direction
/// (DI, DJ) every order that visits the neighbours in row j - DJ and
/// (i - DI, j) before (i, j), and (i + DI, j) and the neighbours in row
/// j + DJ after it, gives the same values, marks and counts: those orders
/// agree on every pair of cells that read or mark each other. Row by row (a
/// CPU thread: contiguous memory) and front by front with f = DI i + K DJ j
/// (a warp, kFrontStride: with K = 1, (i, j - DJ) and (i - DI, j) lie on
/// front f - 1; with K = 2 a front's cells are two or more columns apart,
/// the three cells of row j - DJ lie on fronts f - 3 .. f - 1 and
/// (i - DI, j) on f - 1) are two such orders (the parallel order of
/// Detrixhe, Gibou & Min 2013, §3).
template <int DI, int DJ, int MODE, bool DIAG, bool KNOWN, bool WALK>
struct FimSweepCell {
    FimTileMem m;
    FimTileReport* r;  ///< This lane's report.
    bool* behind;      ///< This lane's "marked a cell behind the front".
    float* behindMin;  ///< Lowest potential that did.
    /// This lane's fronts known to hold a marked cell (fimWalkFronts):
    /// with WALK, its marks ahead raise hi; without, its visits of marked
    /// cells lower lo and raise hi.
    FimFrontRange* fronts;

    static constexpr FimState kBit = MODE == kFimRaising ? kFimRaise : kFimDirty;
    /// Stride K of the fronts a warp may update in parallel (fimFrontCell):
    /// f = ii + K jj, so that a front's cells are never neighbours and every
    /// neighbour it reads or marks lies on an earlier or a later front: the
    /// anti-diagonals (K = 1) for 4 neighbours, K = 2 for 8.
    static constexpr int kFrontStride = DIAG ? 2 : 1;

    /// Front of tile cell (i, j) in this sweep's order (fimFrontCell's f).
    CC_HD int frontOf(int i, int j) const { return (DI > 0 ? i : m.w - 1 - i) + kFrontStride * (DJ > 0 ? j : m.h - 1 - j); }

    /// Adds the fronts of tile row @p j's marked cells to @p r (a
    /// walking team's start: one row per lane).
    CC_HD void rowFronts(int j, FimFrontRange& r) const {
        const FimState* st = m.state + j * m.pitch;
        for (int i = 0; i < m.w; ++i)
            if (st[i] & kBit) r.add(frontOf(i, j));
    }

    /// True when some cell of tile row @p j is marked now (a team may skip
    /// a row without: none of its cells would do anything).
    CC_HD bool rowHasDirty(int j) const {
        const FimState* st = m.state + j * m.pitch;
        unsigned any = 0;
        for (int i = 0; i < m.w; ++i) any |= st[i] & kBit;
        return any != 0;
    }

    /// True when a cell of state @p s and potential @p x is an open grid
    /// cell (fixed cells are the border, blocked cells and sources; only
    /// sources have a finite value).
    CC_HD static bool open(FimState s, float x) { return !(s & kFimFixed) || x < INFINITY; }

    /// Marks neighbour (i + DX, j + DY) of the cell at (i, j), whose value
    /// was @p v: a halo cell for its edge's or corner's report, a cell the
    /// sweep has passed (row j - DJ, or (i - DI, j)) for another sweep, a
    /// cell ahead (a later front) for this sweep's walk to reach. The
    /// offsets are template arguments, so each mark tests only the tile
    /// edges it can cross.
    template <int DX, int DY>
    CC_HD CC_FORCEINLINE void mark(int i, int j, float v, FimState known, bool& back) const {
        const int ti = i + DX, tj = j + DY;
        FimState* s = m.state + ti + tj * m.pitch;
        if (!(KNOWN ? fimMarkKnown(s, known, kBit) : fimMark(s, kBit))) return;
        const bool outX = DX > 0 ? ti >= m.w : (DX < 0 ? ti < 0 : false);
        const bool outY = DY > 0 ? tj >= m.h : (DY < 0 ? tj < 0 : false);
        // the halo cell's report slot, a constant in each branch: indexed at
        // run time, the report went to a GPU thread's local memory (a
        // 48-byte stack frame whose counter every update read and wrote)
        constexpr int kSlotX = DX > 0 ? kFimToE : kFimToW, kSlotY = DY > 0 ? kFimToN : kFimToS;
        constexpr int kSlotXY = DY > 0 ? (DX > 0 ? kFimToNE : kFimToNW) : (DX > 0 ? kFimToSE : kFimToSW);
        constexpr bool kBehind = DY == -DJ || (DY == 0 && DX == -DI);
        if (outX && outY) lowerKey<kSlotXY>(v);
        else if (outX) lowerKey<kSlotX>(v);
        else if (outY) lowerKey<kSlotY>(v);
        else if (kBehind) back = true;
        else if (WALK) fronts->raise(frontOf(ti, tj));
    }
    /// Report slot @p S keeps the lowest value passed to it.
    template <int S>
    CC_HD CC_FORCEINLINE void lowerKey(float v) const { r->key[S] = minf(r->key[S], v); }

    /// Marks the neighbours whose value in @p n lies above @p v (and, when
    /// @p raising, below +inf: those that may have rested on the cell).
    /// Lowering marks a diagonal neighbour only when it lies more than a
    /// cell's least cost above: through this cell (its triangles' diagonal
    /// vertex) it cannot get below v + reach (eikonalDiagonal), 0.1% less
    /// for rounding. A diagonal neighbour at +inf is not marked: a triangle
    /// through this cell needs the axis neighbour A between them open, with
    /// both faces to it open; A, above v, is marked here, and when it drops
    /// it marks the diagonal neighbour (its axis neighbour), which then
    /// reads this cell. So the front does not flood a tile from a corner
    /// before its edges are known (a tile that did ran twice: 2.6-3.2
    /// updates per cell on the benchmark's cases, 1.1-1.9 without).
    /// @p ns: the neighbours' states as this visit read them (with KNOWN: fimMarkKnown).
    CC_HD void markAbove(int i, int j, const EikonalStencil& n, const FimNeighbourStates& ns, float v, bool raising,
                         bool& back) const {
        const auto above = [v, raising](float x) { return v < x && (!raising || x < INFINITY); };
        const float vd = raising ? v : v + 0.999f * m.reach;
        const auto aboveDiag = [vd](float x) { return vd < x && x < INFINITY; };
        if (above(n.e)) mark<1, 0>(i, j, v, ns.e, back);
        if (above(n.n)) mark<0, 1>(i, j, v, ns.n, back);
        if (above(n.w)) mark<-1, 0>(i, j, v, ns.w, back);
        if (above(n.s)) mark<0, -1>(i, j, v, ns.s, back);
        if (!DIAG) return;
        if (aboveDiag(n.ne)) mark<1, 1>(i, j, v, ns.ne, back);
        if (aboveDiag(n.nw)) mark<-1, 1>(i, j, v, ns.nw, back);
        if (aboveDiag(n.sw)) mark<-1, -1>(i, j, v, ns.sw, back);
        if (aboveDiag(n.se)) mark<1, -1>(i, j, v, ns.se, back);
    }

    /// Visits cell (i, j), reading its neighbour (i - DI, j) from memory.
    CC_HD CC_FORCEINLINE void operator()(int i, int j) const { visit(i, j, m.phi[i - DI + j * m.pitch]); }

    /// Visits cell (i, j) with @p prev, the value of its neighbour
    /// (i - DI, j), handed over in a register by a team that has just
    /// visited that cell (FimRowTeam: the next cell's update then need not
    /// wait for this one's store to reach the load). Returns the cell's
    /// value after the visit.
    CC_HD CC_FORCEINLINE float visit(int i, int j, float prev) const {
        // locals: the state stores below are byte stores, which may alias
        // anything, so members and neighbours read once stay in registers
        const int pitch = m.pitch;
        const int q = i + j * pitch;
        FimState* st = m.state + q;
        float* p = m.phi + q;
        const FimState mine = *st;
        if (!(mine & kBit)) return *p;
        *st = static_cast<FimState>(mine & ~kBit);
        if (!WALK) fronts->add(frontOf(i, j));
        // the eight neighbours, and the triangles that may carry the front:
        // axis neighbour open, its face towards the diagonal open (a face
        // between two cells as the lower or left cell's bit holds it)
        EikonalStencil n;
        n.e = DI > 0 ? p[1] : prev; n.w = DI > 0 ? prev : p[-1]; n.n = p[pitch]; n.s = p[-pitch];
        n.ne = n.nw = n.sw = n.se = INFINITY;
        n.tri = 0u;
        // the neighbours' states, read with their potentials when the marks
        // take them from here (KNOWN) or the triangles need them (DIAG)
        FimNeighbourStates ns;
        if (KNOWN || DIAG) { ns.e = st[1]; ns.w = st[-1]; ns.n = st[pitch]; ns.s = st[-pitch]; }
        if (DIAG) {
            n.ne = p[pitch + 1]; n.nw = p[pitch - 1]; n.sw = p[-pitch - 1]; n.se = p[1 - pitch];
            ns.nw = st[pitch - 1]; ns.sw = st[-pitch - 1]; ns.se = st[1 - pitch];
            if (KNOWN) ns.ne = st[pitch + 1];
            const bool oe = open(ns.e, p[1]), ow = open(ns.w, p[-1]), on = open(ns.n, p[pitch]), os = open(ns.s, p[-pitch]);
            n.tri = eikonalTriangles(oe, ow, on, os, !(ns.e & kFimShutN), !(ns.se & kFimShutN), !(ns.w & kFimShutN),
                                     !(ns.sw & kFimShutN), !(ns.n & kFimShutE), !(ns.nw & kFimShutE), !(ns.s & kFimShutE),
                                     !(ns.sw & kFimShutE));
        }
        const float old = *p;
        const float nw = eikonalUpdateStencil(n, m.cost[i + j * m.costPitch], m.cell, DIAG);
        ++r->updates;
        bool back = false;
        float v;
        if (MODE == kFimRaising) {
            // raise (warm start): a value below what its neighbours now give
            // is unsupported; it goes to +inf, and the neighbours above it
            // (only those can have rested on it) are checked in turn
            if (!(nw - old > eikonalTolerance(old, m.tol, m.cell))) return old;  // (nw may be +inf: all support gone)
            *p = INFINITY;
            *st = static_cast<FimState>(*st | kFimLower);
            v = old;
            markAbove(i, j, n, ns, v, true, back);
        } else {
            // lower: keep the minimum; a significant drop lets the neighbours
            // above the new value drop in turn
            if (!(nw < old)) return old;
            *p = nw;
            if (!(old - nw > eikonalTolerance(nw, m.tol, m.cell))) return nw;
            v = nw;
            markAbove(i, j, n, ns, v, false, back);
        }
        if (back) { *behind = true; *behindMin = minf(*behindMin, v); }
        return MODE == kFimRaising ? INFINITY : v;
    }
};

/// Front order of a w x h tile in sweep direction (DI, DJ) with stride K
/// (FimSweepCell::kFrontStride: 1 for 4 neighbours, the anti-diagonals; 2
/// for 8): with ii, jj counted from the sweep's start corner, cell (ii, jj)
/// lies on front f = ii + K jj, f in [0, fimFronts(w, h)); front f holds
/// the cells jj in [fimFrontFirst(f, w), fimFrontLast(f, h)] (at most 32,
/// with K = 2 at most 16, in a 32-wide tile: one per lane).
template <int K>
CC_HD inline int fimFronts(int w, int h) { return w + K * (h - 1); }
template <int K>
CC_HD inline int fimFrontFirst(int f, int w) { return f - (w - 1) > 0 ? (f - (w - 1) + K - 1) / K : 0; }
template <int K>
CC_HD inline int fimFrontLast(int f, int h) { return f / K < h - 1 ? f / K : h - 1; }
template <int DI, int DJ, int K>
CC_HD inline void fimFrontCell(int w, int h, int f, int jj, int& i, int& j) {
    const int ii = f - K * jj;
    i = DI > 0 ? ii : w - 1 - ii;
    j = DJ > 0 ? jj : h - 1 - jj;
}

/// A walking team's sweep (FimFrontTeam, the GPU's WarpTeam): fronts one
/// after another, from the lowest front holding a marked cell when the
/// sweep starts to the highest front holding one when the walk gets there.
/// Before the lowest nothing is marked while the walk lasts (a mark behind
/// the walk is for the next sweep); past the highest of the cells marked at
/// the start and of those marked ahead since (on fronts f + 1 .. f + 3 from
/// a cell on front f) nothing is. A front with no marked cell still costs
/// a warp about half an updating front's time (every lane tests its cell,
/// the warp waits for all: some 160 against 350 ns on an H200, estimated
/// from --profile-cuda's sweep times), so a sweep over the few cells left
/// behind by the one before walks only their fronts (on `bench eikonal`
/// at 1024^2 with the GPU's band and budget, 32-38% fewer critical fronts
/// on the random, obstacles and crowd cases, none on uniform; 13% fewer in
/// a 1M-agent step). The walk's end needs the warp's highest front marked
/// ahead only once it reaches the highest known. Returns the fronts walked
/// (FimTileReport::fronts), the count FimRowTeam gives from its visits.
/// Team: rows(h, g) calls g(j) for the tile's rows (one per lane), lo(x) /
/// hi(x) are the lowest / highest x over the lanes, front<DI, DJ,
/// K>(w, h, f, cell) visits front f's cells and waits for the lanes.
template <int DI, int DJ, class Team, class F>
CC_HD int fimWalkFronts(const Team& team, int w, int h, const F& cell) {
    constexpr int K = F::kFrontStride;
    // the fronts holding a marked cell now
    FimFrontRange start;
    team.rows(h, [&](int j) { cell.rowFronts(j, start); });
    const int lo = team.lo(start.lo);
    int last = team.hi(start.hi);
    if (last < lo) return 0;
    for (int f = lo;; ++f) {
        team.template front<DI, DJ, K>(w, h, f, cell);
        // at the last front known to hold a marked cell: the lanes' marks ahead
        if (f >= last) {
            last = team.hi(cell.fronts->hi > last ? cell.fronts->hi : last);
            if (f >= last) return f - lo + 1;
        }
    }
}

/// One sweep in direction (DI, DJ) over the tile's dirty cells. Team visits
/// the cells in an order FimSweepCell allows (rows on a CPU thread, fronts
/// on a warp) and answers whether any lane marked behind. Returns that
/// answer; the lane's behind-minimum goes to r.key[kFimToSelf], the fronts
/// walked (or, by a row team, that a warp would walk) to r.fronts.
template <int DI, int DJ, int MODE, bool DIAG, class Team>
CC_HD bool fimSweep(const Team& team, const FimTileMem& m, FimTileReport& r) {
    bool behind = false;
    float behindMin = INFINITY;
    FimFrontRange fronts;
    r.fronts += team.template sweep<DI, DJ>(
        m.w, m.h, FimSweepCell<DI, DJ, MODE, DIAG, Team::kKnownStates, Team::kWalksFronts>{m, &r, &behind, &behindMin, &fronts});
    r.key[kFimToSelf] = minf(r.key[kFimToSelf], behindMin);
    return team.any(behind);
}

/// A CPU thread as a team: it visits a tile's cells row by row in the
/// sweep's direction (contiguous memory) and is its own only lane. (Bands of
/// 4 rows swept as skewed wavefronts, whose cells' updates overlap in the
/// core, made the obstacles bench 8% faster but the potential of a 1M-agent
/// step 8-10% slower: the row order stays.)
struct FimRowTeam {
    /// Marks read their cells' states (FimSweepCell's KNOWN off).
    static constexpr bool kKnownStates = false;
    /// Rows, not fronts: the visits count the fronts a walk would take (FimSweepCell's WALK off).
    static constexpr bool kWalksFronts = false;
    /// Sweeps the tile; returns the fronts a warp would walk (fimWalkFronts).
    template <int DI, int DJ, class F>
    CC_HD int sweep(int w, int h, const F& f) const {
        for (int jj = 0; jj < h; ++jj) {
            const int j = DJ > 0 ? jj : h - 1 - jj;
            // a row is only marked by the rows before it and by its own cells:
            // with no dirty cell on arrival, nothing in it runs
            if (!f.rowHasDirty(j)) continue;
            // each cell's value goes on to the next in a register
            float prev = f.m.phi[(DI > 0 ? -1 : w) + j * f.m.pitch];
            for (int ii = 0; ii < w; ++ii) prev = f.visit(DI > 0 ? ii : w - 1 - ii, j, prev);
        }
        return f.fronts->count();
    }
    CC_HD bool any(bool x) const { return x; }
};

/// The GPU's visiting order (front by front, a front's cells in lane
/// order) and its marks run by one thread: what a warp computes, on the
/// CPU, so tests can check that both give the same tiles.
struct FimFrontTeam {
    /// Marks from the states the visit read, as a warp's (FimSweepCell's KNOWN).
    static constexpr bool kKnownStates = true;
    /// Walks fronts, as a warp (FimSweepCell's WALK).
    static constexpr bool kWalksFronts = true;
    /// Sweeps the tile (fimWalkFronts); returns the fronts walked.
    template <int DI, int DJ, class F>
    CC_HD int sweep(int w, int h, const F& f) const { return fimWalkFronts<DI, DJ>(*this, w, h, f); }
    template <class G>
    CC_HD void rows(int h, const G& g) const {
        for (int j = 0; j < h; ++j) g(j);
    }
    CC_HD int lo(int x) const { return x; }
    CC_HD int hi(int x) const { return x; }
    template <int DI, int DJ, int K, class F>
    CC_HD void front(int w, int h, int fr, const F& f) const {
        for (int jj = fimFrontFirst<K>(fr, w); jj <= fimFrontLast<K>(fr, h); ++jj) {
            int i, j;
            fimFrontCell<DI, DJ, K>(w, h, fr, jj, i, j);
            f(i, j);
        }
    }
    CC_HD bool any(bool x) const { return x; }
};

/// Direction of the first sweep along one axis (x, or y when @p alongY):
/// true for increasing i (j). Downwind of the edges the activation came
/// through (@p from): up when it came through the low edge (@p lowBit) or
/// not through the high one (@p highBit). When it came through edges
/// across the other axis only (@p otherBits: a front entering through an x
/// edge, which gives no way in y), the way the front runs along that edge:
/// up when the lowest halo value on it lies in the edge's lower half, down
/// when in its upper half, so that the first sweep moves away from where
/// the front enters (on `bench eikonal`'s obstacles 6% fewer updates,
/// random 5%, uniform 2%; 100k-agent step 6%).
CC_HD inline bool fimFirstSweepUp(const FimTileMem& m, uint32_t from, uint32_t lowBit, uint32_t highBit, uint32_t otherBits,
                                  bool alongY) {
    const bool up = !(from & highBit) || (from & lowBit);
    if ((from & (lowBit | highBit)) || !(from & otherBits)) return up;
    // the edge the front came through (the low one when both): a halo column for y, a halo row for x
    const bool lowEdge = alongY ? (from & kFimFromW) : (from & kFimFromS);
    const int n = alongY ? m.h : m.w;
    const int stride = alongY ? m.pitch : 1;
    const float* edge = alongY ? m.phi + (lowEdge ? -1 : m.w) : m.phi + (lowEdge ? -1 : m.h) * m.pitch;
    // where along it the lowest value enters (the first of equals)
    float best = INFINITY;
    int at = 0;
    for (int k = 0; k < n; ++k) {
        const float x = edge[k * stride];
        if (x < best) { best = x; at = k; }
    }
    return 2 * at <= n - 1;
}

/// Processes one tile: sweeps its dirty cells in the four diagonal orders,
/// the first one downwind of the edges its activation came through
/// (@p from, FimFromBit), until no dirty cell is left behind a sweep, the
/// sweep budget @p sweeps is spent, or the sweeps have walked @p frontBudget
/// fronts (FimTileReport::fronts, the same on every lane; 0: no front
/// budget), a cap on the tile's time in a GPU phase (kFimFrontBudgetGpu).
/// Returns this lane's report; the caller combines the lanes' reports
/// (Team::reduce). key[kFimToSelf] is finite only when dirty cells are left
/// over.
template <int MODE, bool DIAG, class Team>
CC_HD FimTileReport fimProcessTileIn(const Team& team, const FimTileMem& m, uint32_t from, int sweeps, int frontBudget) {
    FimTileReport r;
    const bool east = fimFirstSweepUp(m, from, kFimFromW, kFimFromE, kFimFromN | kFimFromS, false);
    const bool north = fimFirstSweepUp(m, from, kFimFromS, kFimFromN, kFimFromE | kFimFromW, true);
    const int order = (east ? 0 : 1) | (north ? 0 : 2);  // index of (DI, DJ) = (+-1, +-1)
    // the next sweeps: first the one that reverses only the axis across the
    // front's way in (a front entering through an x edge travels along x:
    // what the first sweep left behind are cells whose upwind neighbours lie
    // the other way in y), then the other two: the orders order ^ {0, 2, 1, 3}
    // (packed in 0xD8: no table in local memory), or order ^ {0, 1, 2, 3}
    // (0xE4) when the activation came through y edges only. Against
    // order ^ {0, 3, 1, 2}: 8-10% fewer updates on every `bench eikonal`
    // case and 13% fewer in a 100k-agent step (2.15 -> 1.87 per cell).
    const bool yOnly = (from & (kFimFromN | kFimFromS)) && !(from & (kFimFromE | kFimFromW));
    const unsigned orders = yOnly ? 0xE4u : 0xD8u;
    bool again = true;
    for (int s = 0; s < sweeps && again && (frontBudget == 0 || r.fronts < frontBudget); ++s) {
        r.sweeps = s + 1;
        switch (order ^ ((orders >> (2 * (s & 3))) & 3)) {
            case 0: again = fimSweep<1, 1, MODE, DIAG>(team, m, r); break;
            case 1: again = fimSweep<-1, 1, MODE, DIAG>(team, m, r); break;
            case 2: again = fimSweep<1, -1, MODE, DIAG>(team, m, r); break;
            default: again = fimSweep<-1, -1, MODE, DIAG>(team, m, r); break;
        }
    }
    if (!again) r.key[kFimToSelf] = INFINITY;
    return r;
}

/// fimProcessTileIn for the pass @p mode (FimMode).
template <class Team>
CC_HD FimTileReport fimProcessTile(const Team& team, const FimTileMem& m, uint32_t from, int sweeps, int mode = kFimLowering,
                                   int frontBudget = 0) {
    if (m.diagonals)
        return mode == kFimRaising ? fimProcessTileIn<kFimRaising, true>(team, m, from, sweeps, frontBudget)
                                   : fimProcessTileIn<kFimLowering, true>(team, m, from, sweeps, frontBudget);
    return mode == kFimRaising ? fimProcessTileIn<kFimRaising, false>(team, m, from, sweeps, frontBudget)
                               : fimProcessTileIn<kFimLowering, false>(team, m, from, sweeps, frontBudget);
}

/// Pass 2's report of tile (tx, ty) of field f after processing: the edges'
/// and corners' drops activate the neighbour tiles across them (a corner's
/// as if through both its edges), cells left dirty the tile
/// itself, and the tile's counters grow. @p r is the tile's combined report.
CC_HD inline void fimReport(const FimSchedView& v, int phase, int f, int tx, int ty, const FimTileReport& r) {
    fimActivate(v, phase, f, tx + 1, ty, r.key[kFimToE], kFimFromW);
    fimActivate(v, phase, f, tx, ty + 1, r.key[kFimToN], kFimFromS);
    fimActivate(v, phase, f, tx - 1, ty, r.key[kFimToW], kFimFromE);
    fimActivate(v, phase, f, tx, ty - 1, r.key[kFimToS], kFimFromN);
    fimActivate(v, phase, f, tx + 1, ty + 1, r.key[kFimToNE], kFimFromW | kFimFromS);
    fimActivate(v, phase, f, tx - 1, ty + 1, r.key[kFimToNW], kFimFromE | kFimFromS);
    fimActivate(v, phase, f, tx - 1, ty - 1, r.key[kFimToSW], kFimFromE | kFimFromN);
    fimActivate(v, phase, f, tx + 1, ty - 1, r.key[kFimToSE], kFimFromW | kFimFromN);
    fimActivate(v, phase, f, tx, ty, r.key[kFimToSelf], 0u);
    atomicAddRelaxed(&v.updates[f], r.updates);
    atomicAddRelaxed(&v.activations[f], 1ull);
    atomicMaxRelaxed(&v.phaseSweeps[phase & 1], static_cast<uint32_t>(r.sweeps));
    atomicMaxRelaxed(&v.phaseFronts[phase & 1], static_cast<uint32_t>(r.fronts));
    ++v.runs[v.tileIndex(f, v.g.tile(tx, ty))];  // only this tile's worker writes it in a phase
}

/// After pass 2 of phase @p phase, on one thread (the CPU's lead, the GPU's
/// first thread, past the barrier): the phase's longest tile goes to the
/// critical path, its slot is emptied for phase + 2. A phase lasts as long
/// as its slowest tile on a GPU, where a warp's tile takes a time in
/// proportion to its sweeps (each one front by front), so the sum predicts
/// the solve's latency where the GPU has more warps than selected tiles.
CC_HD inline void fimEndPhase(const FimSchedView& v, int phase) {
    uint32_t* slot = &v.phaseSweeps[phase & 1];
    *v.criticalSweeps += atomicLoadRelaxed(slot);
    *slot = 0u;
    uint32_t* fronts = &v.phaseFronts[phase & 1];
    *v.criticalFronts += atomicLoadRelaxed(fronts);
    *fronts = 0u;
}

/// Cells [i0, i0 + w) x [j0, j0 + h) of tile (tx, ty).
struct FimTileBox {
    int i0, j0, w, h;
};
/// The cells of tile (tx, ty).
CC_HD inline FimTileBox fimTileBox(const FimGrid& g, int tx, int ty) {
    FimTileBox b;
    b.i0 = tx * kFimTile;
    b.j0 = ty * kFimTile;
    b.w = g.nx - b.i0 < kFimTile ? g.nx - b.i0 : kFimTile;
    b.h = g.ny - b.j0 < kFimTile ? g.ny - b.j0 : kFimTile;
    return b;
}

// ---------------------------------------------------------------------------
// Set-up of a solve, per cell and per source (forEachIndex functors).

/// Cell (i, j) of the padded arrays of every field stacked row after row
/// (i in [0, pitch), j in [0, fields * (ny + 2))), as the per-cell set-up
/// functors see it: its field, grid cell (ci, cj) (-1 or n on the border)
/// and index k in phi / state.
struct FimPaddedCell {
    int f, ci, cj;
    long long k;
};
CC_HD inline FimPaddedCell fimPaddedCell(const FimGrid& g, int i, int j) {
    const int rows = g.ny + 2;
    const int f = j / rows, jp = j - f * rows;
    return FimPaddedCell{f, i - 1, jp - 1, f * g.paddedSize() + static_cast<long long>(jp) * g.pitch + i};
}

/// Fills every field's padded potentials (+inf) and states (fixed on the
/// border and blocked cells, clean elsewhere; with diagonals, closed N and E
/// faces from the field's costs). Runs over padded cells (i, j)
/// with i in [0, pitch) and j in [0, fields * (ny + 2)): field after field.
struct FimInitCells {
    FimSchedView v;
    const uint8_t* blocked;  ///< 1 = blocked. [Size: nx*ny]
    bool keepPhi = false;    ///< Warm start: leave the potentials (the previous solve's) as they are.
    CC_HD void operator()(int i, int j) const { row(i, i + 1, j); }
    /// Padded cells [i0, i1) of padded row j (launch.hpp's row hook).
    CC_HD void row(int i0, int i1, int j) const {
        // the row's arrays, and which of its cells are grid cells
        const FimPaddedCell c = fimPaddedCell(v.g, 0, j);
        float* phi = v.phi + c.k;
        FimState* st = v.state + c.k;
        const int nx = v.g.nx;
        const bool gridRow = c.cj >= 0 && c.cj < v.g.ny;
        const uint8_t* b = gridRow ? blocked + static_cast<long long>(c.cj) * nx : blocked;  // b[i - 1]: padded column i
        const int lo = gridRow ? (i0 > 1 ? i0 : 1) : i1, hi = gridRow ? (i1 < nx + 1 ? i1 : nx + 1) : i1;
        if (!keepPhi)
            for (int i = i0; i < i1; ++i) phi[i] = INFINITY;
        // border and blocked cells are fixed, open grid cells clean; every
        // grid cell keeps which of its N and E faces are closed
        const FaceCost* cost = gridRow ? v.cost[c.f] + static_cast<long long>(c.cj) * nx : nullptr;  // cost[i - 1]: padded column i
        for (int i = i0; i < lo; ++i) st[i] = kFimFixed;
        for (int i = lo; i < hi; ++i) st[i] = b[i - 1] ? kFimFixed : kFimClean;
        // the faces only the diagonals' triangles read
        if (v.diagonals)
            for (int i = lo; i < hi; ++i) {
                const FaceCost& fc = cost[i - 1];
                st[i] = static_cast<FimState>(st[i] | (fc.n < INFINITY ? 0 : kFimShutN) | (fc.e < INFINITY ? 0 : kFimShutE));
            }
        for (int i = hi > lo ? hi : lo; i < i1; ++i) st[i] = kFimFixed;
    }
};

/// Clears the per-tile keys, activation edges and run counts; index k runs over fields * tiles.
struct FimInitTiles {
    FimSchedView v;
    bool keepRuns = false;  ///< Between the warm start's passes: keep counting runs.
    CC_HD void operator()(int k) const {
        v.key[k] = kFimNoKey;
        v.from[k] = 0u;
        if (!keepRuns) v.runs[k] = 0u;
    }
};

/// Sets keys to kFimNoKey (the rotating lowest keys); index k runs over them.
struct FimInitKeys {
    uint32_t* key;
    CC_HD void operator()(int k) const { key[k] = kFimNoKey; }
};

/// One source cell of a multi-field solve.
struct FimSource {
    int field;    ///< Field index. [Limit: 0 <= field < fields]
    int i, j;     ///< Cell. [Limit: inside the grid, open]
    float value;  ///< Fixed potential. [Units: s] [Limit: finite]
};

/// Sets a source cell: its potential (the lowest of duplicates) and fixed
/// state. Index k runs over the sources.
struct FimSetSources {
    FimSchedView v;
    const FimSource* src;
    CC_HD void operator()(int k) const {
        const FimSource s = src[k];
        const int q = v.g.padded(s.i, s.j);
        // lowest value of duplicated sources: a min over ordered keys
        uint32_t* bits = reinterpret_cast<uint32_t*>(v.phiOf(s.field) + q);
        for (;;) {
            const float cur = *reinterpret_cast<volatile float*>(v.phiOf(s.field) + q);
            if (!(s.value < cur)) break;
            uint32_t expect, want;
            memcpy(&expect, &cur, sizeof expect);
            memcpy(&want, &s.value, sizeof want);
#ifdef __CUDA_ARCH__
            if (atomicCAS(reinterpret_cast<unsigned int*>(bits), expect, want) == expect) break;
#else
            if (__atomic_compare_exchange_n(bits, &expect, want, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
#endif
        }
        FimState* st = v.stateOf(s.field) + q;
        *st = static_cast<FimState>((*st & kFimShut) | kFimFixed);
    }
};

/// After FimSetSources: marks the open (axis) neighbours of each source
/// dirty and activates their tiles with the source's value (phase 0's lowest
/// key). With diagonals too: a diagonal neighbour is reached through them
/// (FimSweepCell::markAbove).
struct FimSeedSources {
    FimSchedView v;
    const FimSource* src;
    CC_HD void operator()(int k) const {
        const FimSource s = src[k];
        const int q = v.g.padded(s.i, s.j);
        FimState* st = v.stateOf(s.field);
        const int nb[4][2] = {{s.i + 1, s.j}, {s.i - 1, s.j}, {s.i, s.j + 1}, {s.i, s.j - 1}};
        const int dq[4] = {1, -1, v.g.pitch, -v.g.pitch};
        for (int n = 0; n < 4; ++n) {
            if (!fimMark(st + q + dq[n], kFimDirty)) continue;
            // phase -1's "next" slot is phase 0's current one
            fimActivate(v, -1 + 3, s.field, nb[n][0] / kFimTile, nb[n][1] / kFimTile, s.value, 0u);
        }
    }
};

// ---------------------------------------------------------------------------
// Warm start: the previous solve's potentials, first raised where the new
// costs no longer support them, then lowered by the FIM proper.
//
// The converged previous potentials u satisfy u >= G(u) cell by cell (G the
// local update, 4 or 8 neighbours: a value was set by an update, and its
// neighbours only dropped since). With new costs inside a box, a cell with u < G(u) - tol
// is unsupported; the raise pass sets it to +inf and re-checks the cells
// above it (only those can have rested on it), until every finite cell is
// supported again: u >= G(u) - tol everywhere, a supersolution, which lies
// above the solution (the comparison principle of monotone schemes, Barles
// & Souganidis 1991; for FMM/FIM the same argument as the "raise" phase of
// dynamic fast marching, e.g. the D* Lite-style updates of Koenig &
// Likhachev 2002). The lowering pass, the FIM from that upper bound, then
// converges to the same solution as a cold solve. The work is the box, what
// the raise invalidates behind it, and its re-solve.

/// A box of cells [i0, i1) x [j0, j1) whose costs may differ from the
/// previous solve's.
struct FimBox {
    int i0, j0, i1, j1;
    CC_HD bool inside(int i, int j) const { return i >= i0 && j >= j0 && i < i1 && j < j1; }
};

/// Raise seeding: every finite open cell of the box is checked first. Runs
/// over padded cells like FimInitCells (after it, with keepPhi), activating
/// their tiles with their value (phase 0's lowest key).
struct FimWarmSeedRaise {
    FimSchedView v;
    FimBox box;
    CC_HD void operator()(int i, int j) const {
        const FimPaddedCell c = fimPaddedCell(v.g, i, j);
        if (!box.inside(c.ci, c.cj)) return;
        if ((v.state[c.k] & kFimFixed) || !(v.phi[c.k] < INFINITY)) return;
        v.state[c.k] = static_cast<FimState>((v.state[c.k] & kFimShut) | kFimRaise);
        fimActivate(v, 2, c.f, c.ci / kFimTile, c.cj / kFimTile, v.phi[c.k], 0u);
    }
};

/// Between the passes: the cells the raise set to +inf, and every open cell
/// of the box (its costs may have dropped), are marked dirty for lowering;
/// their tiles are activated with their lowest finite neighbour. Runs over
/// padded cells like FimInitCells.
struct FimWarmSeedLower {
    FimSchedView v;
    FimBox box;
    CC_HD void operator()(int i, int j) const {
        const FimPaddedCell c = fimPaddedCell(v.g, i, j);
        const FimState s = v.state[c.k];
        if (s & kFimFixed) return;
        const FimState shut = s & kFimShut;
        if (!((s & kFimLower) || box.inside(c.ci, c.cj))) {
            v.state[c.k] = static_cast<FimState>(shut | kFimClean);
            return;
        }
        v.state[c.k] = static_cast<FimState>(shut | kFimDirty);
        const float* p = v.phi + c.k;
        const int P = v.g.pitch;
        float lo = minf(minf(p[1], p[-1]), minf(p[P], p[-P]));
        if (v.diagonals) lo = minf(lo, minf(minf(p[P + 1], p[P - 1]), minf(p[-P - 1], p[1 - P])));
        fimActivate(v, 2, c.f, c.ci / kFimTile, c.cj / kFimTile, lo, 0u);
    }
};

}  // namespace ccrowd
