#pragma once
/// @file potential_cuda.cuh
/// Potential stage, CUDA launcher of the block Fast Iterative Method (Jeong &
/// Whitaker 2008, §4 "block FIM"): one 16x16 thread block per tile, the tile
/// plus a one-cell halo in shared memory, Jacobi iterations inside the tile,
/// checkerboard phases as on the CPU (kernels/potential.cu). All per-cell maths
/// and activation rules are the shared host+device functions of potential.hpp
/// and eikonal_update.hpp.
///
/// Included by potential.cu only when nvcc compiles a CUDA build.
///
/// Device state of a solve, per phase (colour c, other colour o = 1 - c):
///   1. processTilesKernel: every active tile of colour c runs its inner
///      iterations and writes flags[t] (kActivateE/N/W/S for dropped edges,
///      kActivateSelf when still changing);
///   2. activateTilesKernel: for every tile of colour o,
///      active[t] = fimTileActivated(flags, ...) (self bit from two phases
///      ago, neighbour bits from step 1), then flags[t] = 0 (consumed).
/// A per-phase counter holds "tiles active next + tiles left unconverged";
/// the solve has converged after the first phase whose counter is 0. The host
/// reads the counters once per kFimCheckEvery phases, with the next batch
/// already queued, so the GPU never waits for the host between phases.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "ccrowd/device_memory.hpp"
#include "ccrowd/eikonal.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/field.hpp"
#include "potential.hpp"
#include "src/backend/cuda_check.hpp"

namespace ccrowd {

namespace fimcuda {

/// Phases queued between two host reads of the termination counters.
/// [Limit: >= 1] Larger: fewer host waits, more no-op phases after convergence.
constexpr int kFimCheckEvery = 8;
/// Threads per tile block: one per cell of a tile.
constexpr int kTileThreads = kFimTile * kFimTile;
/// Rows of the shared tile: the tile plus a one-cell halo on each side.
constexpr int kSharedRows = kFimTile + 2;
/// Row pitch of the shared tile [floats]. Congruent to kFimTile mod 32, so the
/// 32 / kFimTile tile rows one warp touches fall into disjoint banks (no bank
/// conflicts for the centre and the E/W/N/S reads); >= kFimTile + 2 for the halo.
constexpr int kSharedPitch = kFimTile + 32;
/// Threads per block of the per-tile activation and per-cell copy kernels.
constexpr int kSmallBlock = 256;

static_assert(kFimTile >= 4 && kFimTile <= 30 && 32 % kFimTile == 0,
              "potential_cuda.cuh: kFimTile must divide 32, be >= 4 (four thread rows load the halo) and fit the pitch");

/// Statistics accumulated on the device during one solve.
enum FimStat : int {
    kStatUpdates = 0,      ///< Local solver calls.
    kStatActivations = 1,  ///< Tiles processed.
    kStatCount = 2
};

/// Pinned host mirror of the device counters (the async copies' target).
struct FimHostCounters {
    unsigned long long stats[kStatCount];      ///< FimStat totals.
    unsigned work[2][kFimCheckEvery];          ///< Per-phase work of the two batches in flight.
};

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

private:
    struct Free { void operator()(void* p) const noexcept { device::release(p); } };
    std::unique_ptr<void, Free> ptr_;
    std::size_t capacity_ = 0;
};

/// Deleters for CUDA handles. Errors at teardown cannot be reported from a
/// destructor, so they are dropped (as device::release does).
struct StreamDestroy { void operator()(cudaStream_t s) const noexcept { if (s) (void)cudaStreamDestroy(s); } };
struct EventDestroy { void operator()(cudaEvent_t e) const noexcept { if (e) (void)cudaEventDestroy(e); } };
struct PinnedFree { void operator()(FimHostCounters* p) const noexcept { if (p) (void)cudaFreeHost(p); } };

using StreamHandle = std::unique_ptr<std::remove_pointer_t<cudaStream_t>, StreamDestroy>;
using EventHandle = std::unique_ptr<std::remove_pointer_t<cudaEvent_t>, EventDestroy>;
using PinnedCounters = std::unique_ptr<FimHostCounters, PinnedFree>;

/// Everything a tile block reads or writes. Device pointers.
struct TileArgs {
    FimGrid g;                    ///< Grid and tiling.
    float* phi;                   ///< Padded potentials. [Size: (nx+2)*(ny+2)]
    const std::uint8_t* kind;     ///< FimCellKind per cell. [Size: nx*ny]
    const FaceCost* cost;         ///< Unit cost per face. [Size: nx*ny]
    unsigned* flags;              ///< FimTileFlag per tile. [Size: tilesX*tilesY]
    const unsigned char* active;  ///< 1 = tile runs in this phase. [Size: tilesX*tilesY]
    unsigned long long* stats;    ///< FimStat totals. [Size: kStatCount]
    int inner;                    ///< Jacobi iterations per activation. [Limit: >= 1]
};

/// Index of tile cell (li, lj) in the shared tile, li, lj in [-1, kFimTile].
__device__ __forceinline__ int sharedIndex(int li, int lj) { return (li + 1) + (lj + 1) * kSharedPitch; }

/// Tile (tx, ty) of colour @p colour handled by block or thread @p k of a
/// phase: k runs over ceil(tilesX / 2) * tilesY slots; tx >= tilesX means the
/// slot is empty (odd tilesX).
__device__ __forceinline__ void colourTile(const FimGrid& g, int colour, int k, int& tx, int& ty) {
    const int halfX = (g.tilesX + 1) / 2;
    ty = k / halfX;
    tx = 2 * (k - ty * halfX) + ((colour + ty) & 1);
}

namespace {

/// One phase of block FIM (Jeong & Whitaker 2008, §4): block k processes the
/// k-th tile of colour @p colour when it is active; inactive blocks exit at
/// once. Tiles of one colour share no halo cells, so blocks never race.
/// @param work Per-phase counter; gets +1 when the tile is still changing.
__global__ void __launch_bounds__(kTileThreads) processTilesKernel(TileArgs a, int colour, unsigned* work) {
    __shared__ float s[kSharedRows * kSharedPitch];
    __shared__ unsigned edgeBits;
    const FimGrid& g = a.g;
    // the tile of this block; block-uniform exits before any barrier
    int tx, ty;
    colourTile(g, colour, static_cast<int>(blockIdx.x), tx, ty);
    if (tx >= g.tilesX) return;
    const int t = g.tile(tx, ty);
    if (!a.active[t]) return;

    const int li = static_cast<int>(threadIdx.x), lj = static_cast<int>(threadIdx.y);
    const int i0 = tx * kFimTile, j0 = ty * kFimTile;
    const int i = i0 + li, j = j0 + lj;
    const bool valid = i < g.nx && j < g.ny;
    const float inf = INFINITY;
    // this cell: potential at load, kind and face costs in registers (coalesced rows)
    const float before = valid ? a.phi[g.padded(i, j)] : inf;
    const bool open = valid && a.kind[g.cell(i, j)] == kCellOpen;
    FaceCost c;
    if (open) c = a.cost[g.cell(i, j)];
    const int k = sharedIndex(li, lj);
    s[k] = before;  // cells outside the grid stay +inf, like the padded border
    // one-cell halo from the edge-adjacent tiles (other colour: not written in
    // this phase); the four corners are never read by the 4-neighbour stencil
    if (lj == 0) {
        s[sharedIndex(li, -1)] = i < g.nx ? a.phi[g.padded(i, j0 - 1)] : inf;
    } else if (lj == 1) {
        s[sharedIndex(li, kFimTile)] = i < g.nx && j0 + kFimTile < g.ny ? a.phi[g.padded(i, j0 + kFimTile)] : inf;
    } else if (lj == 2) {
        s[sharedIndex(-1, li)] = j0 + li < g.ny ? a.phi[g.padded(i0 - 1, j0 + li)] : inf;
    } else if (lj == 3) {
        s[sharedIndex(kFimTile, li)] = j0 + li < g.ny && i0 + kFimTile < g.nx ? a.phi[g.padded(i0 + kFimTile, j0 + li)] : inf;
    }
    if (li == 0 && lj == 0) edgeBits = 0u;
    // barrier: tile and halo loaded; every inner iteration updates each open cell once
    const int opens = __syncthreads_count(open);

    // Jacobi iterations until no cell drops by more than the tolerance or the
    // budget is spent (the loop condition is block-uniform)
    float value = before;
    int iters = 0;
    bool changed = true;
    while (changed && iters < a.inner) {
        // read: shared Godunov update, neighbours in fimCellUpdate's order (E, W, N, S)
        float next = value;
        if (open) next = eikonalUpdate(s[k + 1], s[k - 1], s[k + kSharedPitch], s[k - kSharedPitch], c, g.h);
        __syncthreads();
        // write: keep the minimum; a drop beyond the tolerance (the CPU sweep's
        // test, fimEdgeChanged) keeps the tile iterating
        bool dropped = false;
        if (next < value) {
            dropped = fimEdgeChanged(value, next, g);
            value = next;
            s[k] = next;
        }
        changed = __syncthreads_or(dropped) != 0;
        ++iters;
    }

    // edges that dropped since the load activate the tile across them
    if (valid && fimEdgeChanged(before, value, g)) {
        const int i1 = i0 + kFimTile < g.nx ? i0 + kFimTile : g.nx;
        const int j1 = j0 + kFimTile < g.ny ? j0 + kFimTile : g.ny;
        unsigned bits = 0u;
        if (li == 0) bits |= kActivateW;
        if (i == i1 - 1) bits |= kActivateE;
        if (lj == 0) bits |= kActivateS;
        if (j == j1 - 1) bits |= kActivateN;
        if (bits) atomicOr(&edgeBits, bits);
    }
    // write back the interior cells that dropped (nobody else reads them in this phase)
    if (valid && value < before) a.phi[g.padded(i, j)] = value;
    __syncthreads();
    // one thread reports the tile: flags, and one atomic per counter
    if (li == 0 && lj == 0) {
        a.flags[t] = edgeBits | (changed ? unsigned(kActivateSelf) : 0u);
        atomicAdd(&a.stats[kStatUpdates], static_cast<unsigned long long>(opens) * static_cast<unsigned long long>(iters));
        atomicAdd(&a.stats[kStatActivations], 1ull);
        if (changed) atomicAdd(work, 1u);
    }
}

/// After a phase of the other colour: thread k decides whether the k-th tile
/// of colour @p colour runs next (fimTileActivated: its own self bit from two
/// phases ago, its neighbours' edge bits from the phase just run), then clears
/// that tile's flags, now fully consumed. Only the tile's own flag word is
/// written; neighbours (other colour) are only read, so threads never race.
/// @param work Per-phase counter; gets the number of tiles activated.
__global__ void __launch_bounds__(kSmallBlock)
    activateTilesKernel(FimGrid g, int colour, unsigned* flags, unsigned char* active, unsigned* work) {
    const int k = static_cast<int>(blockIdx.x) * kSmallBlock + static_cast<int>(threadIdx.x);
    bool on = false;
    if (k < ((g.tilesX + 1) / 2) * g.tilesY) {
        int tx, ty;
        colourTile(g, colour, k, tx, ty);
        if (tx < g.tilesX) {
            const int t = g.tile(tx, ty);
            on = fimTileActivated(flags, g, tx, ty);
            active[t] = on ? 1 : 0;
            flags[t] = 0u;
        }
    }
    // one atomic per block
    const int count = __syncthreads_count(on);
    if (threadIdx.x == 0 && count > 0) atomicAdd(work, static_cast<unsigned>(count));
}

/// Copies the padded potentials into the nx-by-ny field (grid-stride loop).
__global__ void __launch_bounds__(kSmallBlock) copyOutKernel(FimGrid g, const float* phi, View2<float> out) {
    const long long n = static_cast<long long>(g.nx) * g.ny;
    const long long stride = static_cast<long long>(gridDim.x) * kSmallBlock;
    for (long long k = static_cast<long long>(blockIdx.x) * kSmallBlock + threadIdx.x; k < n; k += stride) {
        const int j = static_cast<int>(k / g.nx), i = static_cast<int>(k - static_cast<long long>(j) * g.nx);
        out(i, j) = phi[g.padded(i, j)];
    }
}

}  // namespace
}  // namespace fimcuda

/// Device buffers of the CUDA block FIM, reused between solves (they only grow).
/// Creating one touches no CUDA API; the first solve creates the stream.
/// Non-copyable, movable; frees everything in its destructor.
struct FimCudaWorkspace {
    FimCudaWorkspace() = default;
    ~FimCudaWorkspace() = default;
    FimCudaWorkspace(const FimCudaWorkspace&) = delete;
    FimCudaWorkspace& operator=(const FimCudaWorkspace&) = delete;
    FimCudaWorkspace(FimCudaWorkspace&&) noexcept = default;
    FimCudaWorkspace& operator=(FimCudaWorkspace&&) noexcept = default;

    // Declared first, destroyed last: buffers are freed before the stream goes.
    fimcuda::StreamHandle stream;              ///< Blocking stream: ordered after legacy-stream copies (Field::upload).
    fimcuda::EventHandle batchDone[2];         ///< Recorded after each batch's counter copy.
    fimcuda::PinnedCounters host;              ///< Pinned mirror of the counters.
    fimcuda::DeviceBuffer phi;                 ///< Padded potentials. [Size: (nx+2)*(ny+2) floats]
    fimcuda::DeviceBuffer kind;                ///< FimCellKind per cell. [Size: nx*ny bytes]
    fimcuda::DeviceBuffer cost;                ///< FaceCost per cell, when the cost field has no device copy. [Size: nx*ny]
    fimcuda::DeviceBuffer flags;               ///< FimTileFlag per tile. [Size: tilesX*tilesY unsigned]
    fimcuda::DeviceBuffer active;              ///< 1 = tile runs in the next phase of its colour. [Size: tilesX*tilesY bytes]
    fimcuda::DeviceBuffer stats;               ///< FimStat totals. [Size: kStatCount unsigned long long]
    fimcuda::DeviceBuffer work;                ///< Per-phase work counters of two batches. [Size: 2*kFimCheckEvery unsigned]
    std::vector<unsigned> hostFlags;           ///< Initial tile flags (kept alive while the upload runs).
    std::vector<unsigned char> hostActive;     ///< Initial active tiles (kept alive while the upload runs).

    /// Creates the stream, events and pinned counters on first use and grows
    /// the buffers. Throws BackendError when a CUDA call fails (e.g. no GPU).
    void prepare(std::size_t cells, std::size_t paddedCells, std::size_t tiles) {
        if (!stream) {
            cudaStream_t s = nullptr;
            CC_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamDefault));
            stream.reset(s);
        }
        for (fimcuda::EventHandle& e : batchDone) {
            if (e) continue;
            cudaEvent_t ev = nullptr;
            CC_CUDA_CHECK(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
            e.reset(ev);
        }
        if (!host) {
            void* p = nullptr;
            CC_CUDA_CHECK(cudaMallocHost(&p, sizeof(fimcuda::FimHostCounters)));
            host.reset(static_cast<fimcuda::FimHostCounters*>(p));
        }
        phi.reserve(paddedCells * sizeof(float));
        kind.reserve(cells * sizeof(std::uint8_t));
        flags.reserve(tiles * sizeof(unsigned));
        active.reserve(tiles * sizeof(unsigned char));
        stats.reserve(fimcuda::kStatCount * sizeof(unsigned long long));
        work.reserve(2 * fimcuda::kFimCheckEvery * sizeof(unsigned));
    }
};

/// Block FIM on the GPU (Jeong & Whitaker 2008, §4), mirroring the CPU path of
/// FimSolver::solve: same tiles, colours, initial active set, activation rules
/// and phase cap; Jacobi instead of Gauss-Seidel iterations inside a tile.
///
/// @param ws            Reused device buffers.
/// @param g             Grid and tiling (makeFimGrid).
/// @param p             Problem. Its cost field's device copy is used when it
///                      has one (the caller keeps it current), else the host
///                      costs are uploaded into @p ws.
/// @param paddedPhiInit Padded initial potentials: +inf, sources at their value. [Size: (nx+2)*(ny+2)]
/// @param kind          FimCellKind per cell. [Size: nx*ny]
/// @param opt           inner_iterations = Jacobi iterations per activation. [Limit: >= 1]
/// @param phaseCap      Most phases to run. [Limit: >= 0]
/// @param phi           Out: potentials, nx-by-ny, host and device copies valid.
/// @return iterations = phases run, up to the first one after which no tile is
///         active or left unconverged (a phase with no active tile still counts
///         when the other colour's unconverged tiles wait for it: their self
///         bits are consumed one phase later), updates (local solver calls),
///         tile_activations (tiles processed), converged (false when phaseCap
///         stopped the solve). updates_per_cell is left to the caller.
/// Throws BackendError when a CUDA call fails.
/// Internal linkage, like the kernels it launches: this header belongs to
/// potential.cu alone.
namespace {
EikonalStats fimSolveCuda(FimCudaWorkspace& ws, const FimGrid& g, const EikonalProblem& p,
                          const std::vector<float>& paddedPhiInit, const std::vector<std::uint8_t>& kind,
                          const EikonalOptions& opt, int phaseCap, Field<float>& phi) {
    using namespace fimcuda;
    EikonalStats st;
    const std::size_t cells = static_cast<std::size_t>(g.nx) * static_cast<std::size_t>(g.ny);
    const std::size_t paddedCells = static_cast<std::size_t>(g.pitch) * static_cast<std::size_t>(g.ny + 2);
    const std::size_t tiles = static_cast<std::size_t>(g.tilesX) * static_cast<std::size_t>(g.tilesY);
    // output field of the grid's size; an empty grid has nothing to solve
    if (phi.nx() != g.nx || phi.ny() != g.ny) phi.assign(g.nx, g.ny, std::numeric_limits<float>::infinity());
    if (cells == 0) {
        st.converged = true;
        return st;
    }
    if (!p.cost || p.cost->size() != cells || paddedPhiInit.size() != paddedCells || kind.size() != cells)
        throw Error("fimSolveCuda: cost, padded potentials or kinds do not match the " + std::to_string(g.nx) + "x" +
                    std::to_string(g.ny) + " grid");
    ws.prepare(cells, paddedCells, tiles);
    cudaStream_t stream = ws.stream.get();

    // upload potentials and kinds (pageable sources: staged before the call returns)
    float* dPhi = ws.phi.as<float>();
    CC_CUDA_CHECK(cudaMemcpyAsync(dPhi, paddedPhiInit.data(), paddedCells * sizeof(float), cudaMemcpyHostToDevice, stream));
    CC_CUDA_CHECK(cudaMemcpyAsync(ws.kind.as<std::uint8_t>(), kind.data(), cells * sizeof(std::uint8_t),
                                  cudaMemcpyHostToDevice, stream));
    // costs: the field's device copy when it has one, else an upload into the workspace
    const FaceCost* dCost = nullptr;
    if (p.cost->hasDevice()) {
        dCost = p.cost->deviceView().data;  // const view of the existing copy, trusted to be current
    } else {
        ws.cost.reserve(cells * sizeof(FaceCost));
        CC_CUDA_CHECK(cudaMemcpyAsync(ws.cost.as<FaceCost>(), p.cost->host(), cells * sizeof(FaceCost),
                                      cudaMemcpyHostToDevice, stream));
        dCost = ws.cost.as<FaceCost>();
    }

    // initial active tiles, as on the CPU: every tile holding a source and its
    // four neighbours. The first phase's colour (0 unless it has none) starts
    // in `active`; the other colour's initial tiles are seeded as pending self
    // bits, which the activation after the first phase turns into `active`.
    ws.hostActive.assign(tiles, 0);
    ws.hostFlags.assign(tiles, 0u);
    auto mark = [&](int tx, int ty) {
        if (tx >= 0 && ty >= 0 && tx < g.tilesX && ty < g.tilesY) ws.hostActive[g.tile(tx, ty)] = 1;
    };
    for (const EikonalSource& src : p.sources) {
        if (src.i < 0 || src.j < 0 || src.i >= g.nx || src.j >= g.ny) continue;
        const int tx = src.i / kFimTile, ty = src.j / kFimTile;
        mark(tx, ty); mark(tx + 1, ty); mark(tx - 1, ty); mark(tx, ty + 1); mark(tx, ty - 1);
    }
    int first = 1;
    long long initial = 0;
    for (int ty = 0; ty < g.tilesY; ++ty)
        for (int tx = 0; tx < g.tilesX; ++tx)
            if (ws.hostActive[g.tile(tx, ty)]) {
                ++initial;
                if (FimGrid::colour(tx, ty) == 0) first = 0;
            }
    for (int ty = 0; ty < g.tilesY; ++ty)
        for (int tx = 0; tx < g.tilesX; ++tx) {
            const int t = g.tile(tx, ty);
            if (ws.hostActive[t] && FimGrid::colour(tx, ty) != first) {
                ws.hostActive[t] = 0;
                ws.hostFlags[t] = kActivateSelf;
            }
        }
    unsigned* dFlags = ws.flags.as<unsigned>();
    unsigned char* dActive = ws.active.as<unsigned char>();
    unsigned long long* dStats = ws.stats.as<unsigned long long>();
    unsigned* dWork = ws.work.as<unsigned>();
    CC_CUDA_CHECK(cudaMemcpyAsync(dFlags, ws.hostFlags.data(), tiles * sizeof(unsigned), cudaMemcpyHostToDevice, stream));
    CC_CUDA_CHECK(cudaMemcpyAsync(dActive, ws.hostActive.data(), tiles * sizeof(unsigned char), cudaMemcpyHostToDevice, stream));
    CC_CUDA_CHECK(cudaMemsetAsync(dStats, 0, kStatCount * sizeof(unsigned long long), stream));

    // launch geometry: a phase has one block (or thread) per slot of its colour
    const TileArgs args{g, dPhi, ws.kind.as<std::uint8_t>(), dCost, dFlags, dActive, dStats, std::max(1, opt.inner_iterations)};
    const long long slots = static_cast<long long>((g.tilesX + 1) / 2) * g.tilesY;
    if (slots > std::numeric_limits<int>::max())
        throw BackendError("fimSolveCuda: " + std::to_string(slots) + " tiles per colour exceed the CUDA grid limit");
    const unsigned tileBlocks = static_cast<unsigned>(slots);
    const unsigned activateBlocks = static_cast<unsigned>((slots + kSmallBlock - 1) / kSmallBlock);
    const dim3 tileBlock(kFimTile, kFimTile);

    // queue a batch of up to kFimCheckEvery phases, then its counters' copy and event
    int launched = 0;    // phases queued so far
    int colour = first;  // colour of the next phase to queue
    int batchStart[2] = {0, 0}, batchSize[2] = {0, 0};
    auto queueBatch = [&](int parity) {
        const int n = std::min(kFimCheckEvery, phaseCap - launched);
        unsigned* work = dWork + parity * kFimCheckEvery;
        CC_CUDA_CHECK(cudaMemsetAsync(work, 0, kFimCheckEvery * sizeof(unsigned), stream));
        for (int s = 0; s < n; ++s) {
            processTilesKernel<<<tileBlocks, tileBlock, 0, stream>>>(args, colour, work + s);
            CC_CUDA_CHECK(cudaGetLastError());
            activateTilesKernel<<<activateBlocks, kSmallBlock, 0, stream>>>(g, 1 - colour, dFlags, dActive, work + s);
            CC_CUDA_CHECK(cudaGetLastError());
            colour = 1 - colour;
        }
        CC_CUDA_CHECK(cudaMemcpyAsync(ws.host->work[parity], work, static_cast<std::size_t>(n) * sizeof(unsigned),
                                      cudaMemcpyDeviceToHost, stream));
        CC_CUDA_CHECK(cudaEventRecord(ws.batchDone[parity].get(), stream));
        batchStart[parity] = launched;
        batchSize[parity] = n;
        launched += n;
    };

    // phases until one leaves nothing active or pending, or the cap
    bool converged = initial == 0;
    int phases = 0;
    if (!converged && phaseCap > 0) {
        int parity = 0;
        queueBatch(parity);
        for (;;) {
            // keep the next batch queued while testing this one: phases after
            // convergence find no active tile and change nothing
            const bool more = launched < phaseCap;
            if (more) queueBatch(1 - parity);
            CC_CUDA_CHECK(cudaEventSynchronize(ws.batchDone[parity].get()));
            const unsigned* work = ws.host->work[parity];
            int s = 0;
            while (s < batchSize[parity] && work[s] != 0u) ++s;
            if (s < batchSize[parity]) {
                phases = batchStart[parity] + s + 1;
                converged = true;
                break;
            }
            if (!more) {
                phases = launched;  // cap reached with work left
                break;
            }
            parity = 1 - parity;
        }
    }

    // potentials into the field's device copy, statistics into pinned memory
    const View2<float> out = phi.deviceView();
    const long long copyBlocks = std::min<long long>((static_cast<long long>(cells) + kSmallBlock - 1) / kSmallBlock, 65536);
    copyOutKernel<<<static_cast<unsigned>(copyBlocks), kSmallBlock, 0, stream>>>(g, dPhi, out);
    CC_CUDA_CHECK(cudaGetLastError());
    CC_CUDA_CHECK(cudaMemcpyAsync(ws.host->stats, dStats, kStatCount * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                  stream));
    CC_CUDA_CHECK(cudaStreamSynchronize(stream));
    // host copy of the potentials
    phi.download();

    st.iterations = phases;
    st.updates = static_cast<long long>(ws.host->stats[kStatUpdates]);
    st.tile_activations = static_cast<long long>(ws.host->stats[kStatActivations]);
    st.converged = converged;
    return st;
}
}  // namespace

}  // namespace ccrowd
