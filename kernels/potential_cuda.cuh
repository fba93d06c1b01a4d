#pragma once
/// @file potential_cuda.cuh
/// Potential stage, CUDA driver of the one FIM scheduler (fim_schedule.hpp):
/// the whole multi-field solve is one cooperative kernel. Every phase's two
/// passes (select, process) are separated by grid-wide barriers; one warp
/// works one tile, with the tile and its halo in shared memory, running the
/// same fimProcessTile as a CPU thread (a diagonal's cells on the lanes). The
/// convergence test stays on the device; the host reads one small record of
/// counters per solve.
///
/// Only the launch, the warp "team", the shared-memory staging and the
/// buffers are CUDA-specific; every decision is the shared code's.
///
/// Included by potential.cu only when nvcc compiles a CUDA build.

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ccrowd/device_memory.hpp"
#include "ccrowd/eikonal.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/field.hpp"
#include "launch.hpp"
#include "fim_early_stop.hpp"
#include "fim_stage.hpp"
#include "potential.hpp"
#include "cuda_check.hpp"

namespace ccrowd {

namespace fimcuda {

/// Warps (tiles in flight) per block of the solve kernel.
constexpr int kWarpsPerBlock = 4;
static_assert(kFimTile <= 32, "potential_cuda.cuh: a tile's diagonal must fit the 32 lanes of a warp");

/// Device memory from device::allocate, grown on demand (contents are not
/// kept when it grows), freed with device::release.
class DeviceBuffer {
public:
    /// Ensures room for @p bytes. [Units: bytes]
    void reserve(std::size_t bytes) {
        if (bytes <= capacity_) return;
        ptr_.reset();  // free first: peak memory stays at the new size
        capacity_ = 0;
        ptr_.reset(device::allocate(bytes));
        capacity_ = bytes;
    }
    /// The buffer as T* (device pointer; null before the first reserve).
    template <class T>
    T* as() const { return static_cast<T*>(ptr_.get()); }
    /// Bytes allocated.
    std::size_t capacity() const { return capacity_; }

private:
    struct Free { void operator()(void* p) const noexcept { device::release(p); } };
    std::unique_ptr<void, Free> ptr_;
    std::size_t capacity_ = 0;
};

/// What the solve kernel tells the host: one record per solve.
struct SolveRecord {
    int phases;       ///< Phases run.
    int converged;    ///< 1 when every field went quiet before the cap.
};

/// Byte offsets in FimCudaWorkspace::report for @p fields fields: the
/// SolveRecord, FimSchedView::phaseSweeps at 8, the critical sweeps, the
/// open cells and the critical fronts (u64 each), FimSchedView::phaseFronts
/// (2 x u32), per field the updates and activations (u64), then per field
/// the phases after which it went quiet and whether it was held (int each).
struct ReportLayout {
    static constexpr std::size_t kPhaseSweeps = 8;
    std::size_t critical, open, criticalFronts, phaseFronts, updates, activations, quiet, held, bytes;
    explicit ReportLayout(int fields)
        : critical(16),
          open(critical + sizeof(unsigned long long)),
          criticalFronts(open + sizeof(unsigned long long)),
          phaseFronts(criticalFronts + sizeof(unsigned long long)),
          updates(phaseFronts + 2 * sizeof(uint32_t)),
          activations(updates + static_cast<std::size_t>(fields) * sizeof(unsigned long long)),
          quiet(activations + static_cast<std::size_t>(fields) * sizeof(unsigned long long)),
          held(quiet + static_cast<std::size_t>(fields) * sizeof(int)),
          bytes(held + static_cast<std::size_t>(fields) * sizeof(int)) {}
};
static_assert(sizeof(SolveRecord) <= ReportLayout::kPhaseSweeps, "potential_cuda.cuh: the record must fit before the phase slots");

/// Counters of EikonalOptions::profile (unsigned long long each, in
/// FimCudaWorkspace::prof): the first thread's global-timer sums, then the
/// tiles' cycle sums.
enum ProfSlot : int {
    kProfKernelNs,      ///< Kernel start to end (first thread). [ns]
    kProfKernelCycles,  ///< The same in the first thread's SM cycles.
    kProfSelectNs,      ///< Per phase: select pass, end test, barrier. [ns]
    kProfProcessNs,     ///< Per phase: process pass, barrier. [ns]
    kProfSlowest,       ///< Sum over phases of kProfPhaseMax. [cycles]
    kProfPhaseMax,      ///< This phase's slowest tile (reset by the first thread after the phase). [cycles]
    kProfTiles,         ///< Tiles processed.
    kProfStage,         ///< Staging, summed over tiles. [cycles]
    kProfSweep,         ///< Sweeps, summed over tiles. [cycles]
    kProfSweeps,        ///< Sweeps run, summed over tiles.
    kProfFronts,        ///< Fronts walked, summed over tiles.
    kProfTail,          ///< Write-back, reduction and report, summed over tiles. [cycles]
    kProfSlots
};

/// The device's global timer. [Units: ns]
__device__ inline unsigned long long globalNs() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/// Scheduler state the kernel needs beyond FimSchedView.
struct SolveArgs {
    FimSchedView v;
    int mode;             ///< FimMode of the pass.
    int first;            ///< First phase (FimSolver::finish goes on from a held solve's last). [Limit: >= 0]
    int cap;              ///< Phase cap. [Limit: > first]
    int* list;            ///< Tiles selected in a phase. [Size: fields * tiles]
    unsigned* listCount;  ///< Two rotating counts of list entries.
    int* quietAfter;      ///< Per field: phases after which it went quiet (0: not yet). [Size: fields]
    int* held;            ///< Per field: 1 when the early stop held it. [Size: fields]
    SolveRecord* record;
    unsigned long long* prof;  ///< ProfSlot counters (EikonalOptions::profile), or null.
    /// The early stop (EikonalNeeded; v.ceiling is e.ceiling), when early.
    FimEarlyStopView e;
    bool early;
    /// Per field: the ordered key (fimKey) of the highest needed value a
    /// look has found so far (0: none yet). [Size: fields]
    uint32_t* highKey;
};

/// A warp as fim_schedule.hpp's team: a front's cells on its lanes (at
/// most 32, with diagonals 16, in a 32-wide tile), a tile row per lane
/// when a sweep looks for its fronts (fimWalkFronts).
struct WarpTeam {
    /// Marks from the states the visit read (FimSweepCell's KNOWN): no load between a front's update and its marks.
    static constexpr bool kKnownStates = true;
    /// Walks fronts (FimSweepCell's WALK).
    static constexpr bool kWalksFronts = true;
    int lane;  ///< 0..31
    /// Sweeps the tile (fimWalkFronts); returns the fronts walked.
    template <int DI, int DJ, class F>
    __device__ int sweep(int w, int h, const F& f) const { return fimWalkFronts<DI, DJ>(*this, w, h, f); }
    template <class G>
    __device__ void rows(int h, const G& g) const {
        if (lane < h) g(lane);
    }
    __device__ int lo(int x) const { return __reduce_min_sync(0xffffffffu, x); }
    __device__ int hi(int x) const { return __reduce_max_sync(0xffffffffu, x); }
    /// Front @p fr's cells, one per lane; the lanes wait for each other
    /// (the next front reads what this one wrote in shared memory).
    template <int DI, int DJ, int K, class F>
    __device__ void front(int w, int h, int fr, const F& f) const {
        const int jj = fimFrontFirst<K>(fr, w) + lane;
        if (jj <= fimFrontLast<K>(fr, h)) {
            int i, j;
            fimFrontCell<DI, DJ, K>(w, h, fr, jj, i, j);
            f(i, j);
        }
        __syncwarp();
    }
    __device__ bool any(bool x) const { return __any_sync(0xffffffffu, x); }
};

/// The lanes' reports combined: lowest keys, summed updates.
__device__ inline FimTileReport warpReduce(FimTileReport r) {
    for (int o = 16; o > 0; o >>= 1) {
        for (int k = 0; k < kFimSlots; ++k) r.key[k] = minf(r.key[k], __shfl_xor_sync(0xffffffffu, r.key[k], o));
        r.updates += __shfl_xor_sync(0xffffffffu, r.updates, o);
    }
    return r;
}

/// The select pass's keys of waiting tiles (@p next of lane @p lane, for
/// its field @p f; kFimNoKey for none) into each field's next lowest key:
/// one atomic min per field present in the warp (the lanes' tiles are
/// consecutive, so usually one field), not one per tile on that address.
__device__ inline void warpMinPerField(const FimSchedView& v, int phase, int f, uint32_t next, int lane) {
    unsigned pending = __ballot_sync(0xffffffffu, next != kFimNoKey);
    while (pending) {
        const int leader = __ffs(static_cast<int>(pending)) - 1;
        const int fl = __shfl_sync(0xffffffffu, f, leader);
        uint32_t m = f == fl ? next : kFimNoKey;
        for (int o = 16; o > 0; o >>= 1) m = min(m, __shfl_xor_sync(0xffffffffu, m, o));
        if (lane == leader) atomicMinRelaxed(&v.lowest[fl * 3 + (phase + 1) % 3], m);
        pending &= ~__ballot_sync(0xffffffffu, f == fl);
    }
}

namespace {

/// Pass 2 for one selected tile, worked by one warp: stage tile and halo in
/// shared memory, run fimProcessTile, write back the tile and the marks left
/// in the halo, report (lane 0).
__device__ void processTileWarp(const FimSchedView& v, int mode, int phase, int idx, float* sPhi, FimState* sState,
                                FaceCost* sCost, int lane, unsigned long long* prof) {
    const long long c0 = prof ? clock64() : 0;
    const FimGrid& g = v.g;
    const int f = idx / g.tiles(), t = idx % g.tiles();
    const int tx = t % g.tilesX, ty = t / g.tilesX;
    const long long ti = v.tileIndex(f, t);
    // lane 0 takes the activation's edges and clears the tile's key and edges
    // (its own load before its own stores: no barrier waits for the load
    // before the staging's loads go out); the lanes get the edges after staging
    uint32_t from = 0u;
    if (lane == 0) {
        from = v.from[ti];
        v.key[ti] = kFimNoKey;
        v.from[ti] = 0u;
    }
    const FimTileBox b = fimTileBox(g, tx, ty);
    float* phi = v.phiOf(f);
    FimState* state = v.stateOf(f);
    // stage the tile, its halo and its face costs (fim_stage.hpp: batches of
    // loads in flight; the costs are read by every sweep, and staged they
    // took 18-23% off the solve on an H100, bench/results)
    fimStageTile<32>(lane, g, b, v.diagonals, phi, state, v.cost[f], sPhi, sState, sCost);
    from = __shfl_sync(0xffffffffu, from, 0);
    __syncwarp();
    const long long c1 = prof ? clock64() : 0;
    const FimTileMem m{sPhi + 1 + kFimHaloPitch, sState + 1 + kFimHaloPitch, kFimHaloPitch,
                       sCost, kFimTile, b.w, b.h, g.h, g.tol, v.reach[f], v.diagonals};
    const FimTileReport mine = fimProcessTile(WarpTeam{lane}, m, from, v.sweeps, mode, v.frontBudget);
    __syncwarp();
    const long long c2 = prof ? clock64() : 0;
    // write back the tile's cells, and the marks left on its halo cells
    fimUnstageTile<32>(lane, g, b, v.diagonals, fimModeBit(mode), sPhi, sState, phi, state);
    const FimTileReport r = warpReduce(mine);
    if (lane == 0) fimReport(v, phase, f, tx, ty, r);
    // the tile's parts (EikonalOptions::profile)
    if (prof && lane == 0) {
        const long long c3 = clock64();
        atomicAdd(&prof[kProfTiles], 1ull);
        atomicAdd(&prof[kProfStage], static_cast<unsigned long long>(c1 - c0));
        atomicAdd(&prof[kProfSweep], static_cast<unsigned long long>(c2 - c1));
        atomicAdd(&prof[kProfSweeps], static_cast<unsigned long long>(r.sweeps));
        atomicAdd(&prof[kProfFronts], static_cast<unsigned long long>(r.fronts));
        atomicAdd(&prof[kProfTail], static_cast<unsigned long long>(c3 - c2));
        atomicMax(&prof[kProfPhaseMax], static_cast<unsigned long long>(c3 - c0));
    }
}

/// The early stop's look after phase @p phase (fim_early_stop.hpp), on
/// every thread of the grid (thread @p gthread of @p nthreads): the highest
/// needed value of each field due for one, over the needed box, into
/// highKey (one atomic max per warp and field). Every thread takes the same
/// branches: fimLookDue reads what the phase's barrier settled.
__device__ void lookAtNeededCells(const SolveArgs& a, int phase, int gthread, int nthreads, int lane) {
    const FimSchedView& v = a.v;
    const FimEarlyStopView& e = a.e;
    const int w = e.i1 - e.i0, n = w * (e.j1 - e.j0);  // the box: at most the grid's cells (< 2^31)
    for (int f = 0; f < v.fields; ++f) {
        if (!fimLookDue(v, e, phase, f)) continue;
        float m = -INFINITY;
        for (int k = gthread; k < n; k += nthreads) m = fmaxf(m, fimNeededValue(v, e, f, e.i0 + k % w, e.j0 + k / w));
        for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
        if (lane == 0 && m > -INFINITY) atomicMax(&a.highKey[f], fimKey(m));
    }
}

/// Shared memory of one warp of the solve kernel: its tile's face costs,
/// then the tile's potentials and states with their halo. [Units: bytes]
constexpr std::size_t kWarpCostBytes = sizeof(FaceCost) * kFimTile * kFimTile;
constexpr std::size_t kWarpSharedBytes =
    kWarpCostBytes + (kFimHaloCells * (sizeof(float) + sizeof(FimState)) + 15) / 16 * 16;
/// Dynamic shared memory of a block of the solve kernel (over the 48 KiB
/// of static shared memory: the launch opts in). [Units: bytes]
constexpr int kBlockSharedBytes = static_cast<int>(kWarpsPerBlock * kWarpSharedBytes);

/// The whole solve: phases until every field is quiet or the cap. Launched
/// cooperatively (every block resident), kWarpsPerBlock warps per block,
/// kBlockSharedBytes of dynamic shared memory.
__global__ void __launch_bounds__(kWarpsPerBlock * 32, 2) solveKernel(SolveArgs a) {
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    extern __shared__ __align__(16) unsigned char shared[];
    const FimSchedView& v = a.v;
    const int lane = static_cast<int>(threadIdx.x) & 31, warp = static_cast<int>(threadIdx.x) >> 5;
    unsigned char* mine = shared + warp * kWarpSharedBytes;
    FaceCost* sCost = reinterpret_cast<FaceCost*>(mine);
    float* sPhi = reinterpret_cast<float*>(mine + kWarpCostBytes);
    FimState* sState = reinterpret_cast<FimState*>(sPhi + kFimHaloCells);
    const int gwarp = static_cast<int>(blockIdx.x) * kWarpsPerBlock + warp;
    const int nwarps = static_cast<int>(gridDim.x) * kWarpsPerBlock;
    const int gthread = gwarp * 32 + lane, nthreads = nwarps * 32;
    const float* ceiling = a.early ? a.e.ceiling : nullptr;
    const bool first = blockIdx.x == 0 && threadIdx.x == 0;
    const int total = v.fields * v.g.tiles();
    // EikonalOptions::profile: the first thread times the phases' passes
    unsigned long long* prof = a.prof;
    const bool timer = prof && first;
    const unsigned long long tStart = timer ? globalNs() : 0ull;
    const long long cStart = timer ? clock64() : 0;
    unsigned long long tMark = tStart;
    for (int phase = a.first; phase < a.cap; ++phase) {
        // slots nobody uses in this phase: the lowest keys two phases ahead,
        // the list count of the next phase
        if (first) {
            for (int f = 0; f < v.fields; ++f) v.lowest[3 * f + (phase + 2) % 3] = kFimNoKey;
            a.listCount[(phase + 1) & 1] = 0u;
        }
        // pass 1: select (fimSelectTile), 32 tiles per warp step, one atomic
        // per warp for the list and one per field for the waiting tiles' keys
        unsigned* count = &a.listCount[phase & 1];
        for (int base = gwarp * 32; base < total; base += nwarps * 32) {
            const int idx = base + lane, f = idx / v.g.tiles();
            uint32_t next = kFimNoKey;
            const bool sel = idx < total && fimSelectTile(v, phase, f, idx % v.g.tiles(), next);
            warpMinPerField(v, phase, f, next, lane);
            const unsigned ballot = __ballot_sync(0xffffffffu, sel);
            if (ballot == 0u) continue;
            unsigned start = 0u;
            if (lane == 0) start = atomicAdd(count, static_cast<unsigned>(__popc(ballot)));
            start = __shfl_sync(0xffffffffu, start, 0);
            if (sel) a.list[start + __popc(ballot & ((1u << lane) - 1u))] = idx;
        }
        grid.sync();
        if (timer) {
            const unsigned long long t = globalNs();
            prof[kProfSelectNs] += t - tMark;
            tMark = t;
        }
        // pass 2: the selected tiles, one per warp
        const int n = static_cast<int>(*reinterpret_cast<volatile unsigned*>(count));
        for (int k = gwarp; k < n; k += nwarps)
            processTileWarp(v, a.mode, phase, a.list[k], sPhi, sState, sCost, lane, prof);
        grid.sync();
        if (timer) {
            const unsigned long long t = globalNs();
            prof[kProfProcessNs] += t - tMark;
            tMark = t;
            // read and emptied at the L2, where the tiles' atomics went (no
            // tile writes it again before the next phase's first barrier)
            prof[kProfSlowest] += atomicExch(&prof[kProfPhaseMax], 0ull);
        }
        // end: the phase's longest tile, the early stop's looks (all
        // threads or none: the same test on settled values), quiet fields,
        // and the solve when all are
        if (first) fimEndPhase(v, phase);
        bool look = false;
        for (int f = 0; a.early && f < v.fields; ++f) look = look || fimLookDue(v, a.e, phase, f);
        if (look) {
            lookAtNeededCells(a, phase, gthread, nthreads, lane);
            grid.sync();
            if (first)
                for (int f = 0; f < v.fields; ++f) {
                    if (!fimLookDue(v, a.e, phase, f)) continue;
                    const uint32_t hk = *reinterpret_cast<volatile uint32_t*>(&a.highKey[f]);
                    fimApplyLook(v, a.e, phase, f, hk ? fimKeyValue(hk) : -INFINITY);
                    a.highKey[f] = 0u;
                    if (!(a.e.ceiling[f] > -INFINITY)) a.held[f] = 1;
                }
            grid.sync();
        }
        bool quiet = true;
        for (int f = 0; f < v.fields; ++f) {
            const bool q = fimFieldQuiet(v, ceiling, phase, f);
            if (q && first && a.quietAfter[f] == 0) a.quietAfter[f] = phase + 1;
            quiet = quiet && q;
        }
        if (first) a.record->phases = phase + 1;
        if (quiet) {
            if (first) a.record->converged = 1;
            break;  // every thread: they all read the same keys after the barrier
        }
    }
    if (timer) {
        prof[kProfKernelNs] += globalNs() - tStart;
        prof[kProfKernelCycles] += static_cast<unsigned long long>(clock64() - cStart);
    }
}

/// Lowest face cost of the open cells of each field (block reduce, one
/// atomic min of the ordered key per block), and the open cells (added to
/// @p open, which the caller zeroed; EikonalStats::updates_per_cell).
/// Index k runs over cells.
__global__ void minCostKernel(const FaceCost* const* cost, const uint8_t* blocked, long long cells, int fields,
                              uint32_t* lowest, unsigned long long* open) {
    __shared__ uint32_t blockMin[32];
    __shared__ unsigned blockOpen[32];
    for (int f = 0; f < fields; ++f) {
        uint32_t m = kFimNoKey;
        unsigned count = 0u;
        for (long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; k < cells;
             k += static_cast<long long>(gridDim.x) * blockDim.x) {
            if (blocked[k]) continue;
            const FaceCost c = cost[f][k];
            m = min(m, fimKey(minf(minf(c.e, c.w), minf(c.n, c.s))));
            ++count;
        }
        for (int o = 16; o > 0; o >>= 1) {
            m = min(m, __shfl_xor_sync(0xffffffffu, m, o));
            count += __shfl_xor_sync(0xffffffffu, count, o);
        }
        if ((threadIdx.x & 31) == 0) {
            blockMin[threadIdx.x >> 5] = m;
            blockOpen[threadIdx.x >> 5] = count;
        }
        __syncthreads();
        if (threadIdx.x < 32) {
            const bool mine = threadIdx.x < blockDim.x / 32;
            m = mine ? blockMin[threadIdx.x] : kFimNoKey;
            count = mine ? blockOpen[threadIdx.x] : 0u;
            for (int o = 16; o > 0; o >>= 1) {
                m = min(m, __shfl_xor_sync(0xffffffffu, m, o));
                count += __shfl_xor_sync(0xffffffffu, count, o);
            }
            if (threadIdx.x == 0) {
                atomicMin(&lowest[f], m);
                if (f == 0) atomicAdd(open, static_cast<unsigned long long>(count));
            }
        }
        __syncthreads();
    }
}

/// band[f] = bandTiles * tile width * h * lowest cost of field f (+inf for
/// bandTiles 0: plain FIM), and reach[f] = h * lowest cost (FimSchedView::reach).
__global__ void bandKernel(const uint32_t* lowestCost, int fields, float width, float h, float* band, float* reach) {
    const int f = static_cast<int>(threadIdx.x);
    if (f >= fields) return;
    band[f] = width > 0.f ? width * fimKeyValue(lowestCost[f]) : INFINITY;
    reach[f] = h * fimKeyValue(lowestCost[f]);
}

}  // namespace
}  // namespace fimcuda

/// Device buffers of the CUDA FIM, reused between solves (they only grow).
/// Creating one touches no CUDA API. Non-copyable, movable.
struct FimCudaWorkspace {
    fimcuda::DeviceBuffer phi, state, key, from, runs, lowest, band, lowestCost;
    fimcuda::DeviceBuffer cost, costPtrs, blocked, sources, list, listCount;
    /// What the host reads after a solve, in one copy: a SolveRecord, the
    /// phase slots, the critical sweeps and fronts and open cells, then per field the
    /// updates and activations (u64), the phases after which it went quiet
    /// and whether it was held (int). See ReportLayout.
    fimcuda::DeviceBuffer report;
    fimcuda::DeviceBuffer prof;  ///< ProfSlot counters, with EikonalOptions::profile.
    /// The early stop (EikonalNeeded), per field: ceiling, check and last
    /// highest value (float), the look's highest key and the bits (u32);
    /// and the mask when the caller's has no device copy.
    fimcuda::DeviceBuffer early, mask;
    int earlyFields = 0;          ///< Fields whose last highest values early holds (0: none).
    int blocksPerSm = 0, sms = 0;  ///< Cooperative launch geometry (0: not queried yet).
    std::vector<const FaceCost*> hostCostPtrs;  ///< What costPtrs holds.
    std::vector<FimSource> hostSources;         ///< What sources holds.
    std::vector<uint32_t> hostBits;             ///< The bits early holds.
    /// The last solve, for FimSolver::finish: its state, phase cap, the
    /// phase it stopped after, its outputs and whether they go to the host.
    FimSchedView lastView;
    int lastCap = 0, nextPhase = 0;
    std::vector<Field<float>*> lastOutputs;
    bool lastDownload = false;

    /// Bytes allocated on the device.
    std::size_t bytes() const {
        std::size_t n = 0;
        for (const fimcuda::DeviceBuffer* b : {&phi, &state, &key, &from, &runs, &lowest, &band, &lowestCost,
                                               &cost, &costPtrs, &blocked, &sources, &list, &listCount, &report, &prof,
                                               &early, &mask})
            n += b->capacity();
        return n;
    }
    /// Host copy of field k's per-tile run counts (n tiles per field).
    std::vector<uint32_t> runsOf(int k, std::size_t n) const {
        std::vector<uint32_t> out(n);
        if (n) device::copyToHost(out.data(), runs.as<uint32_t>() + static_cast<std::size_t>(k) * n, n * sizeof(uint32_t));
        return out;
    }
};

namespace {

/// True when two source lists are the same, field by field and bit by bit.
inline bool sameSources(const std::vector<FimSource>& a, const std::vector<FimSource>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(FimSource)) == 0);
}

/// The kernel's ProfSlot counters at @p dProf as an EikonalGpuProfile
/// (cycles converted at the clock the first thread saw).
inline EikonalGpuProfile readProfile(const unsigned long long* dProf) {
    using namespace fimcuda;
    unsigned long long c[kProfSlots];
    device::copyToHost(c, dProf, sizeof c);
    EikonalGpuProfile p;
    p.kernel_us = 1e-3 * static_cast<double>(c[kProfKernelNs]);
    p.select_us = 1e-3 * static_cast<double>(c[kProfSelectNs]);
    p.process_us = 1e-3 * static_cast<double>(c[kProfProcessNs]);
    p.clock_ghz = c[kProfKernelNs] ? static_cast<double>(c[kProfKernelCycles]) / static_cast<double>(c[kProfKernelNs]) : 0.0;
    const double perUs = 1e3 * p.clock_ghz;  // cycles per us
    if (perUs > 0) p.slowest_tiles_us = static_cast<double>(c[kProfSlowest]) / perUs;
    p.tiles = static_cast<long long>(c[kProfTiles]);
    if (perUs > 0 && p.tiles > 0) {
        p.stage_us = static_cast<double>(c[kProfStage]) / perUs / static_cast<double>(p.tiles);
        p.tail_us = static_cast<double>(c[kProfTail]) / perUs / static_cast<double>(p.tiles);
    }
    if (perUs > 0 && c[kProfSweeps] > 0) p.sweep_us = static_cast<double>(c[kProfSweep]) / perUs / static_cast<double>(c[kProfSweeps]);
    if (perUs > 0 && c[kProfFronts] > 0) p.front_ns = 1e3 * static_cast<double>(c[kProfSweep]) / perUs / static_cast<double>(c[kProfFronts]);
    return p;
}

/// The solve kernel's arguments for phases @p first.. @p cap of @p v,
/// lowering, without early stop: the workspace's list and report.
inline fimcuda::SolveArgs solveArgs(FimCudaWorkspace& ws, const FimSchedView& v, int first, int cap,
                                    unsigned long long* prof) {
    using namespace fimcuda;
    const ReportLayout lay(v.fields);
    char* report = ws.report.as<char>();
    return SolveArgs{v, kFimLowering, first, cap, ws.list.as<int>(), ws.listCount.as<unsigned>(),
                     reinterpret_cast<int*>(report + lay.quiet), reinterpret_cast<int*>(report + lay.held),
                     reinterpret_cast<SolveRecord*>(report), prof, FimEarlyStopView{}, false, nullptr};
}

/// Each field's potentials of @p v into its output's device copy (sized to
/// the grid when it is not), and its host copy when @p download.
inline void copyOutCuda(const FimSchedView& v, const std::vector<Field<float>*>& outs, bool download) {
    const Exec gpu{Backend::Cuda, 0};
    for (int f = 0; f < v.fields; ++f) {
        Field<float>& out = *outs[static_cast<std::size_t>(f)];
        if (out.nx() != v.g.nx || out.ny() != v.g.ny) out.assign(v.g.nx, v.g.ny, INFINITY);
        forEachCell(gpu, CellRange{0, 0, v.g.nx, v.g.ny}, FimCopyOut{v, f, out.deviceView()});
        if (download) out.download();
    }
}

/// One pass of phases @p first.. of @p mode: one cooperative launch of the
/// solve kernel (the host reads nothing here); @p args' quiet, held and
/// record zeroed first.
inline void launchPhases(FimCudaWorkspace& ws, fimcuda::SolveArgs args, int fields) {
    using namespace fimcuda;
    CC_CUDA_CHECK(cudaMemsetAsync(args.quietAfter, 0, 2 * fields * sizeof(int)));  // quiet, then held (ReportLayout)
    CC_CUDA_CHECK(cudaMemsetAsync(args.listCount, 0, 2 * sizeof(unsigned)));
    CC_CUDA_CHECK(cudaMemsetAsync(args.record, 0, sizeof(SolveRecord)));
    void* params[] = {&args};
    const int blocks = ws.blocksPerSm * ws.sms;
    CC_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(solveKernel), dim3(blocks),
                                              dim3(kWarpsPerBlock * 32), params, kBlockSharedBytes, nullptr));
    CC_CUDA_CHECK(cudaGetLastError());
}

/// The early stop's view on the device for a solve of @p fields fields on
/// @p g (fim_early_stop.hpp): @p nd's mask (its device copy, else uploaded),
/// its bits (uploaded when they changed) and per field the state in
/// FimCudaWorkspace::early, set up by FimInitEarlyStop (the last highest
/// values forgotten when the fields changed); the looks' keys zeroed.
inline FimEarlyStopView setUpEarlyStopCuda(FimCudaWorkspace& ws, const EikonalNeeded& nd, const FimGrid& g, int fields) {
    using namespace fimcuda;
    const std::size_t n = static_cast<std::size_t>(fields);
    const bool grown = ws.early.capacity() < 5 * n * sizeof(float);
    ws.early.reserve(5 * n * sizeof(float));  // ceiling, check, last highest, look key, bits
    float* state = ws.early.as<float>();
    uint32_t* keys = ws.early.as<uint32_t>() + 3 * n;
    uint32_t* bits = keys + n;
    if (grown || ws.hostBits != nd.bits) {
        device::copyToDevice(bits, nd.bits.data(), n * sizeof(uint32_t));
        ws.hostBits = nd.bits;
    }
    const uint32_t* mask = nullptr;
    if (nd.mask->hasDevice()) {
        mask = nd.mask->deviceView().data;
    } else {
        const std::size_t cells = static_cast<std::size_t>(g.nx) * static_cast<std::size_t>(g.ny);
        ws.mask.reserve(cells * sizeof(uint32_t));
        device::copyToDevice(ws.mask.as<uint32_t>(), nd.mask->host(), cells * sizeof(uint32_t));
        mask = ws.mask.as<uint32_t>();
    }
    FimEarlyStopView e = fimEarlyStopBox(nd, g, bits);
    e.mask = mask;
    e.ceiling = state;
    e.check = state + n;
    e.lastHighest = state + 2 * n;
    const bool forget = grown || ws.earlyFields != fields;
    ws.earlyFields = fields;
    forEachIndex(Exec{Backend::Cuda, 0}, fields, FimInitEarlyStop{e, forget});
    CC_CUDA_CHECK(cudaMemsetAsync(keys, 0, n * sizeof(uint32_t)));
    return e;
}

/// Multi-field FIM on the GPU: one cooperative kernel for the whole solve
/// (two for a warm start: the raise pass, then the lowering pass).
/// Costs and the blocked mask come from the fields' device copies when they
/// have one (the caller keeps them current), else their host copies are
/// uploaded into @p ws. Results go to each output's device copy, and to its
/// host copy when opt.download. @p warmable: the workspace holds the
/// converged potentials of these problems' previous solve, whose costs may
/// have changed inside @p box (fim_schedule.hpp's warm start). @p early:
/// stop each field once opt.needed's cells are final (fim_early_stop.hpp;
/// the caller checked opt.needed). Returns per-field stats without
/// updates_per_cell (the caller's, over the @p open cells, counted on the
/// device). Throws BackendError when a CUDA call fails or the device cannot
/// launch cooperative kernels.
std::vector<EikonalStats> fimSolveCuda(FimCudaWorkspace& ws, const FimGrid& g, const std::vector<const EikonalProblem*>& problems,
                                       const std::vector<Field<float>*>& phi, const std::vector<FimSource>& sources,
                                       const EikonalOptions& opt, int cap, bool warmable, const FimBox& box, bool early,
                                       long long& open) {
    using namespace fimcuda;
    const int fields = static_cast<int>(problems.size());
    const std::size_t cells = static_cast<std::size_t>(g.nx) * static_cast<std::size_t>(g.ny);
    const long long padded = g.paddedSize() * fields;
    const int tiles = g.tiles() * fields;
    if (padded > 0x7fffffffLL)
        throw BackendError("fimSolveCuda: " + std::to_string(padded) + " cells over all fields exceed the 2^31 a launch indexes");
    // launch geometry, once per workspace
    if (ws.sms == 0) {
        int dev = 0, coop = 0;
        CC_CUDA_CHECK(cudaGetDevice(&dev));
        CC_CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
        if (!coop) throw BackendError("fimSolveCuda: this GPU cannot launch cooperative kernels (needed by the FIM solve)");
        CC_CUDA_CHECK(cudaDeviceGetAttribute(&ws.sms, cudaDevAttrMultiProcessorCount, dev));
        CC_CUDA_CHECK(cudaFuncSetAttribute(solveKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kBlockSharedBytes));
        CC_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ws.blocksPerSm, solveKernel, kWarpsPerBlock * 32,
                                                                    kBlockSharedBytes));
        if (ws.blocksPerSm < 1) throw BackendError("fimSolveCuda: the solve kernel does not fit on a multiprocessor");
    }
    ws.phi.reserve(static_cast<std::size_t>(padded) * sizeof(float));
    ws.state.reserve(static_cast<std::size_t>(padded) * sizeof(FimState));
    ws.key.reserve(static_cast<std::size_t>(tiles) * sizeof(uint32_t));
    ws.from.reserve(static_cast<std::size_t>(tiles) * sizeof(uint32_t));
    ws.runs.reserve(static_cast<std::size_t>(tiles) * sizeof(uint32_t));
    ws.list.reserve(static_cast<std::size_t>(tiles) * sizeof(int));
    ws.lowest.reserve(3 * fields * sizeof(uint32_t));
    ws.lowestCost.reserve(fields * sizeof(uint32_t));
    ws.band.reserve(2 * fields * sizeof(float));  // band, then reach
    ws.listCount.reserve(2 * sizeof(unsigned));
    const ReportLayout lay(fields);
    ws.report.reserve(lay.bytes);
    char* report = ws.report.as<char>();
    SolveRecord* dRecord = reinterpret_cast<SolveRecord*>(report);
    ws.sources.reserve(std::max<std::size_t>(1, sources.size()) * sizeof(FimSource));
    ws.costPtrs.reserve(fields * sizeof(const FaceCost*));

    // inputs on the device: blocked mask and costs (device copies when present)
    const Field<std::uint8_t>& blockedField = *problems[0]->blocked;
    const uint8_t* dBlocked = nullptr;
    if (blockedField.hasDevice()) {
        dBlocked = blockedField.deviceView().data;
    } else {
        ws.blocked.reserve(cells);
        device::copyToDevice(ws.blocked.as<uint8_t>(), blockedField.host(), cells);
        dBlocked = ws.blocked.as<uint8_t>();
    }
    std::vector<const FaceCost*> costPtrs(fields, nullptr);
    std::size_t uploads = 0;
    for (int f = 0; f < fields; ++f)
        if (!problems[f]->cost->hasDevice()) ++uploads;
    if (uploads) ws.cost.reserve(uploads * cells * sizeof(FaceCost));
    for (int f = 0, u = 0; f < fields; ++f) {
        const Field<FaceCost>& c = *problems[f]->cost;
        if (c.hasDevice()) { costPtrs[f] = c.deviceView().data; continue; }
        FaceCost* dst = ws.cost.as<FaceCost>() + static_cast<std::size_t>(u++) * cells;
        device::copyToDevice(dst, c.host(), cells * sizeof(FaceCost));
        costPtrs[f] = dst;
    }
    // small tables: uploaded only when they differ from the last solve's (a
    // simulation's steady state uploads nothing here)
    if (costPtrs != ws.hostCostPtrs) {
        device::copyToDevice(ws.costPtrs.as<void>(), costPtrs.data(), fields * sizeof(const FaceCost*));
        ws.hostCostPtrs = costPtrs;
    }
    if (!sources.empty() && !sameSources(sources, ws.hostSources)) {
        device::copyToDevice(ws.sources.as<void>(), sources.data(), sources.size() * sizeof(FimSource));
        ws.hostSources = sources;
    }

    FimSchedView v;
    v.g = g;
    v.fields = fields;
    v.phi = ws.phi.as<float>();
    v.state = ws.state.as<FimState>();
    v.cost = ws.costPtrs.as<const FaceCost*>();
    v.key = ws.key.as<uint32_t>();
    v.from = ws.from.as<uint32_t>();
    v.lowest = ws.lowest.as<uint32_t>();
    v.band = ws.band.as<float>();
    v.reach = ws.band.as<float>() + fields;
    v.diagonals = opt.stencil == 8;
    v.updates = reinterpret_cast<unsigned long long*>(report + lay.updates);
    v.activations = reinterpret_cast<unsigned long long*>(report + lay.activations);
    v.runs = ws.runs.as<uint32_t>();
    v.phaseSweeps = reinterpret_cast<uint32_t*>(report + ReportLayout::kPhaseSweeps);
    v.criticalSweeps = reinterpret_cast<unsigned long long*>(report + lay.critical);
    v.phaseFronts = reinterpret_cast<uint32_t*>(report + lay.phaseFronts);
    v.criticalFronts = reinterpret_cast<unsigned long long*>(report + lay.criticalFronts);
    v.sweeps = std::max(1, opt.inner_iterations.value_or(kFimSweepsGpu));
    v.frontBudget = opt.front_budget.value_or(fimFrontBudgetGpu(opt.stencil));

    // set-up kernels (the shared functors), counters zeroed, band from the lowest cost
    const Exec gpu{Backend::Cuda, 0};
    // the phase slots, the critical sweeps and fronts, the open cells, the updates and the activations lie together (ReportLayout)
    CC_CUDA_CHECK(cudaMemsetAsync(report + ReportLayout::kPhaseSweeps, 0, lay.quiet - ReportLayout::kPhaseSweeps));
    CC_CUDA_CHECK(cudaMemsetAsync(ws.lowestCost.as<uint32_t>(), 0xff, fields * sizeof(uint32_t)));
    minCostKernel<<<std::min<long long>((static_cast<long long>(cells) + 255) / 256, 1024), 256>>>(
        v.cost, dBlocked, static_cast<long long>(cells), fields, ws.lowestCost.as<uint32_t>(),
        reinterpret_cast<unsigned long long*>(report + lay.open));
    CC_CUDA_CHECK(cudaGetLastError());
    const float bandTiles = opt.band_tiles.value_or(kFimBandTilesGpu);
    const float width = bandTiles > 0.f ? bandTiles * kFimTile * g.h : 0.f;
    bandKernel<<<1, 32 * ((fields + 31) / 32)>>>(ws.lowestCost.as<uint32_t>(), fields, width, g.h, ws.band.as<float>(),
                                                 ws.band.as<float>() + fields);
    CC_CUDA_CHECK(cudaGetLastError());
    const CellRange paddedCells{0, 0, g.pitch, (g.ny + 2) * fields};
    const int nsrc = static_cast<int>(sources.size());
    const FimSource* dSources = ws.sources.as<FimSource>();
    // EikonalOptions::profile: the kernel's timers, zeroed once per solve
    unsigned long long* dProf = nullptr;
    if (opt.profile) {
        ws.prof.reserve(kProfSlots * sizeof(unsigned long long));
        dProf = ws.prof.as<unsigned long long>();
        CC_CUDA_CHECK(cudaMemsetAsync(dProf, 0, kProfSlots * sizeof(unsigned long long)));
    }
    // one pass of phases (the early stop: the lowering pass only)
    SolveArgs args = solveArgs(ws, v, 0, std::max(1, cap), dProf);
    auto runPhases = [&](int mode) {
        args.mode = mode;
        launchPhases(ws, args, fields);
    };

    // warm start: raise what the new costs no longer support, then lower
    // from there; cold when the raise did not finish
    bool warm = false;
    int raisePhases = 0;
    if (warmable) {
        forEachCell(gpu, paddedCells, FimInitCells{v, dBlocked, true});
        forEachIndex(gpu, tiles, FimInitTiles{v});
        forEachIndex(gpu, 3 * fields, FimInitKeys{v.lowest});
        forEachIndex(gpu, nsrc, FimSetSources{v, dSources});
        forEachCell(gpu, paddedCells, FimWarmSeedRaise{v, box});
        runPhases(kFimRaising);
        SolveRecord raise{};  // the raise pass's record: did it finish?
        device::copyToHost(&raise, dRecord, sizeof raise);
        if (raise.converged) {
            warm = true;
            raisePhases = raise.phases;
            forEachIndex(gpu, tiles, FimInitTiles{v, true});
            forEachIndex(gpu, 3 * fields, FimInitKeys{v.lowest});
            forEachCell(gpu, paddedCells, FimWarmSeedLower{v, box});
        }
    }
    if (!warm) {
        forEachCell(gpu, paddedCells, FimInitCells{v, dBlocked});
        forEachIndex(gpu, tiles, FimInitTiles{v});
        forEachIndex(gpu, 3 * fields, FimInitKeys{v.lowest});
        forEachIndex(gpu, nsrc, FimSetSources{v, dSources});
        forEachIndex(gpu, nsrc, FimSeedSources{v, dSources});
    }
    if (early) {
        args.e = setUpEarlyStopCuda(ws, opt.needed, g, fields);
        args.early = true;
        args.highKey = ws.early.as<uint32_t>() + 3 * fields;
        args.v.ceiling = args.e.ceiling;
    }
    runPhases(kFimLowering);

    // outputs: each field's device copy (and host copy when asked)
    copyOutCuda(v, phi, opt.download);
    // the solve's one small read: its record and counters
    std::vector<char> host(lay.bytes);
    device::copyToHost(host.data(), report, lay.bytes);
    SolveRecord rec;
    std::memcpy(&rec, host.data(), sizeof rec);
    unsigned long long critical = 0, criticalFronts = 0, openCells = 0;
    std::memcpy(&critical, host.data() + lay.critical, sizeof critical);
    std::memcpy(&criticalFronts, host.data() + lay.criticalFronts, sizeof criticalFronts);
    std::memcpy(&openCells, host.data() + lay.open, sizeof openCells);
    open = static_cast<long long>(openCells);
    std::vector<unsigned long long> upd(fields), act(fields);
    std::vector<int> quiet(fields), held(fields);
    std::memcpy(upd.data(), host.data() + lay.updates, fields * sizeof(unsigned long long));
    std::memcpy(act.data(), host.data() + lay.activations, fields * sizeof(unsigned long long));
    std::memcpy(quiet.data(), host.data() + lay.quiet, fields * sizeof(int));
    std::memcpy(held.data(), host.data() + lay.held, fields * sizeof(int));
    // what FimSolver::finish goes on from
    ws.lastView = v;
    ws.lastCap = std::max(1, cap);
    ws.nextPhase = rec.phases;
    ws.lastOutputs = phi;
    ws.lastDownload = opt.download;

    const EikonalGpuProfile profile = dProf ? readProfile(dProf) : EikonalGpuProfile{};

    std::vector<EikonalStats> stats(fields);
    for (int f = 0; f < fields; ++f) {
        EikonalStats& st = stats[f];
        st.iterations = raisePhases + (quiet[f] > 0 ? quiet[f] : rec.phases);
        st.updates = static_cast<long long>(upd[f]);
        st.tile_activations = static_cast<long long>(act[f]);
        st.critical_sweeps = static_cast<long long>(critical);
        st.critical_fronts = static_cast<long long>(criticalFronts);
        st.converged = quiet[f] > 0;
        st.complete = held[f] == 0;
        st.warm = warm;
        st.gpu_profile = profile;
    }
    return stats;
}

/// FimSolver::finish on the GPU: the held fields of the last solve go on,
/// without ceilings, from the phase it stopped after; their outputs are
/// copied out again (device, and host when the solve downloaded). Returns
/// whether every field converged.
bool fimFinishCuda(FimCudaWorkspace& ws) {
    using namespace fimcuda;
    if (ws.nextPhase >= ws.lastCap) return false;  // the solve ran to its cap
    // the last solve's view has no ceilings (solveArgs: no early stop)
    launchPhases(ws, solveArgs(ws, ws.lastView, ws.nextPhase, ws.lastCap, nullptr), ws.lastView.fields);
    copyOutCuda(ws.lastView, ws.lastOutputs, ws.lastDownload);
    SolveRecord rec;
    device::copyToHost(&rec, ws.report.as<char>(), sizeof rec);
    ws.nextPhase = rec.phases;
    return rec.converged != 0;
}

}  // namespace

}  // namespace ccrowd
