/// @file potential.cu
/// Potential stage launcher: the block Fast Iterative Method of
/// fim_schedule.hpp, one scheduler for both backends. On the CPU a phase's
/// selected tiles run on OpenMP threads, one tile per thread; in CUDA builds
/// (potential_cuda.cuh) the whole solve is one cooperative kernel, one warp
/// per tile. Compiled by nvcc in CUDA builds and by the C++ compiler
/// otherwise.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <omp.h>

#include "ccrowd/config.hpp"
#include "ccrowd/eikonal.hpp"
#include "ccrowd/host_allocator.hpp"
#include "launch.hpp"
#include "fim_early_stop.hpp"
#include "potential.hpp"

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
#include "potential_cuda.cuh"
#endif

namespace ccrowd {

namespace {
/// The CPU driver's early-stop state (EikonalNeeded), kept between solves.
struct EarlyStopBuffers {
    std::vector<float> ceiling;           ///< Per field: FimSchedView::ceiling (-inf: held). [Units: s]
    std::vector<float> check;             ///< Per field: look at the needed cells again when the lowest key passes this. [Units: s]
    std::vector<float> lastHighest;       ///< Per field: highest needed potential when the last solve held it (the next one's first look). [Units: s]
    std::vector<std::uint32_t> tileBits;  ///< Per tile: the needed bits of its cells.
};
}  // namespace

/// Buffers reused between solves (they only grow).
struct FimSolver::Workspace {
    std::vector<float, HostAllocator<float>> phi;       ///< CPU: padded potentials of every field.
    std::vector<FimState, HostAllocator<FimState>> state;  ///< CPU: padded FimCellState of every field.
    std::vector<std::uint32_t> key, from, runs;  ///< CPU: per field and tile.
    FimGrid grid;                              ///< Last solve's grid.
    int fields = 0;                            ///< Last solve's fields.
    std::vector<std::uint32_t> lowest;         ///< CPU: 3 per field.
    std::vector<float> band;                   ///< Per field. [Units: s]
    std::vector<float> reach;                  ///< Per field: h times the lowest cost. [Units: s]
    std::vector<unsigned long long> updates, activations;  ///< CPU: per field.
    std::uint32_t phaseSweeps[2] = {0u, 0u};   ///< CPU: FimSchedView::phaseSweeps.
    unsigned long long criticalSweeps = 0;     ///< CPU: FimSchedView::criticalSweeps.
    std::uint32_t phaseFronts[2] = {0u, 0u};   ///< CPU: FimSchedView::phaseFronts.
    unsigned long long criticalFronts = 0;     ///< CPU: FimSchedView::criticalFronts.
    std::vector<const FaceCost*> cost;         ///< Per field: its costs (host or device pointers).
    std::vector<FimSource> sources;            ///< Every field's sources.
    std::vector<int> list;                     ///< CPU: tiles selected in a phase (field * tiles + tile).
    std::vector<const EikonalProblem*> lastProblems;  ///< Last solve's problems (warm start).
    long long lastPadded = 0;                  ///< Last solve's padded cells over all fields.
    bool lastConverged = false;                ///< Last solve converged (its potentials can start the next).
    int lastStencil = 0;                       ///< Last solve's EikonalOptions::stencil.
    EarlyStopBuffers early;                    ///< CPU: early stop (EikonalNeeded).
    std::vector<Field<float>*> lastOutputs;    ///< Last solve's outputs (finish() fills them).
    FimSchedView lastView;                     ///< Last solve's state (finish() goes on from it).
    int nextPhase = 0;                         ///< The phase finish() goes on with.
    int cap = 0;                               ///< Last solve's phase cap.
    bool incomplete = false;                   ///< Some field of the last solve is held.
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
    FimCudaWorkspace cuda;
#endif
};

FimSolver::FimSolver(const Exec& ex) : ex_(ex), ws_(std::make_unique<Workspace>()) {}
FimSolver::~FimSolver() = default;
FimSolver::FimSolver(FimSolver&&) noexcept = default;
FimSolver& FimSolver::operator=(FimSolver&&) noexcept = default;

std::size_t FimSolver::workspaceBytes() const {
    const Workspace& w = *ws_;
    std::size_t bytes = w.phi.capacity() * sizeof(float) + w.state.capacity() * sizeof(FimState) +
                        (w.key.capacity() + w.from.capacity() + w.runs.capacity() + w.lowest.capacity()) * sizeof(std::uint32_t) +
                        w.list.capacity() * sizeof(int) + w.sources.capacity() * sizeof(FimSource);
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
    bytes += w.cuda.bytes();
#endif
    return bytes;
}

namespace {

/// Automatic phase cap: finite always, and generous: a one-cell-wide
/// serpentine through every tile needs about 8 phases per tile.
int phaseCap(const FimGrid& g, const EikonalOptions& opt) {
    if (opt.max_iterations > 0) return opt.max_iterations;
    const long long cap = 64LL * g.tilesX * g.tilesY + 1000;
    return static_cast<int>(std::min<long long>(cap, std::numeric_limits<int>::max()));
}

/// Lowest face cost of an open cell, the first open cell whose cost is
/// not positive and finite (cells() when none), and the open cells, on the host.
struct CostScan {
    float lowest = INFINITY;
    std::ptrdiff_t firstBad = 0;
    long long open = 0;
};
CostScan scanCosts(const EikonalProblem& p, int threads) {
    const FaceCost* c = p.cost->host();
    const std::uint8_t* b = p.blocked->host();
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(p.cost->size());
    // in chunks whose inner loop is branch-free and vectorises (the scan
    // reads every cost, 16 bytes per cell: at 4096^2 about a seventh of a
    // solve); blocked and bad cells count as +inf
    constexpr std::ptrdiff_t kChunk = 4096;
    const std::ptrdiff_t chunks = (n + kChunk - 1) / kChunk;
    float lowest = INFINITY;
    int bad = 0;
    long long open = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : lowest) reduction(| : bad) reduction(+ : open) if (chunks > 1)
    for (std::ptrdiff_t ch = 0; ch < chunks; ++ch) {
        const std::ptrdiff_t k0 = ch * kChunk, k1 = std::min(n, k0 + kChunk);
        float lo = INFINITY;
        int allOk = 1, count = 0;
#pragma omp simd reduction(min : lo) reduction(& : allOk) reduction(+ : count)
        for (std::ptrdiff_t k = k0; k < k1; ++k) {
            const int isOpen = b[k] == 0;
            const int ok = eikonalCostOk(c[k]);
            const float m = minf(minf(c[k].e, c[k].w), minf(c[k].n, c[k].s));
            lo = std::min(lo, isOpen & ok ? m : INFINITY);
            allOk &= ok | (1 - isOpen);
            count += isOpen;
        }
        lowest = std::min(lowest, lo);
        bad |= 1 - allOk;
        open += count;
    }
    // the first bad cell, searched only when there is one
    std::ptrdiff_t firstBad = n;
    if (bad)
        for (std::ptrdiff_t k = 0; k < n && firstBad == n; ++k)
            if (!b[k] && !eikonalCostOk(c[k])) firstBad = k;
    return {lowest, firstBad, open};
}

/// Distinct source cells of @p p that are open.
long long countOpenSources(const EikonalProblem& p) {
    std::vector<long long> cells;
    for (const EikonalSource& s : p.sources)
        if (!(*p.blocked)(s.i, s.j)) cells.push_back(static_cast<long long>(s.j) * p.nx() + s.i);
    std::sort(cells.begin(), cells.end());
    return static_cast<long long>(std::unique(cells.begin(), cells.end()) - cells.begin());
}

/// Fills updates_per_cell of each problem's stats: updates over the
/// @p open cells that are not sources.
void perCellStats(const std::vector<const EikonalProblem*>& problems, std::vector<EikonalStats>& stats, long long open) {
    for (std::size_t f = 0; f < problems.size(); ++f) {
        const long long solved = open - countOpenSources(*problems[f]);
        stats[f].updates_per_cell = solved > 0 ? static_cast<double>(stats[f].updates) / solved : 0.0;
    }
}

/// Asks the cache for a tile's potentials and states with their halo rows,
/// and its costs, before the sweeps read them row after row (rows lie a
/// grid row apart, which defeats the hardware prefetcher): the CPU's
/// counterpart of the GPU's staging of a tile in shared memory. One thread
/// at 1024^2 obstacles: about 6% faster.
void prefetchTile(const FimTileMem& m) {
    constexpr int kLine = 64;  // bytes
    for (int j = -1; j <= m.h; ++j) {
        const char* phi = reinterpret_cast<const char*>(m.phi + j * m.pitch - 1);
        for (int o = 0; o < (m.w + 2) * static_cast<int>(sizeof(float)); o += kLine) __builtin_prefetch(phi + o);
        __builtin_prefetch(m.state + j * m.pitch - 1);
        if (j < 0 || j >= m.h) continue;
        const char* cost = reinterpret_cast<const char*>(m.cost + j * m.costPitch);
        for (int o = 0; o < m.w * static_cast<int>(sizeof(FaceCost)); o += kLine) __builtin_prefetch(cost + o);
    }
}

/// Processes selected tile @p idx (field * tiles + tile) of phase @p phase on
/// this thread: clears its activation, sweeps it in place (pass @p mode), reports.
void processTileCpu(const FimSchedView& v, int phase, int idx, int mode) {
    const FimGrid& g = v.g;
    const int f = idx / g.tiles(), t = idx % g.tiles();
    const int tx = t % g.tilesX, ty = t / g.tilesX;
    const long long ti = v.tileIndex(f, t);
    const std::uint32_t from = v.from[ti];
    v.key[ti] = kFimNoKey;
    v.from[ti] = 0u;
    const FimTileBox b = fimTileBox(g, tx, ty);
    const int q = g.padded(b.i0, b.j0);
    const FimTileMem m{v.phiOf(f) + q, v.stateOf(f) + q, g.pitch, v.cost[f] + g.cell(b.i0, b.j0), g.nx, b.w, b.h, g.h, g.tol, v.reach[f], v.diagonals};
    prefetchTile(m);
    const FimTileReport r = fimProcessTile(FimRowTeam{}, m, from, v.sweeps, mode, v.frontBudget);
    fimReport(v, phase, f, tx, ty, r);
}


/// The CPU driver's early stop (EikonalNeeded): the shared view
/// (fim_early_stop.hpp) and, to skip tiles at a look, each tile's bits.
struct EarlyStop {
    FimEarlyStopView view;                ///< Mask, box, bits and the per-field state (in buf).
    const std::uint32_t* tileBits = nullptr;  ///< Per tile: the needed bits of its cells.
};

/// Highest fimNeededValue of field @p f over the cells its caller reads,
/// tile by tile (tiles without its bits skipped): +inf as soon as one of
/// them is unreached.
float highestNeeded(const FimSchedView& v, const EarlyStop& e, int f) {
    const FimGrid& g = v.g;
    const FimEarlyStopView& ev = e.view;
    float hi = -INFINITY;
    for (int t = 0; t < g.tiles(); ++t) {
        if (!(e.tileBits[t] & ev.bit[f])) continue;
        const FimTileBox b = fimTileBox(g, t % g.tilesX, t / g.tilesX);
        const int i0 = std::max(b.i0, ev.i0), i1 = std::min(b.i0 + b.w, ev.i1);
        const int j0 = std::max(b.j0, ev.j0), j1 = std::min(b.j0 + b.h, ev.j1);
        for (int j = j0; j < j1; ++j)
            for (int i = i0; i < i1; ++i) {
                hi = std::max(hi, fimNeededValue(v, ev, f, i, j));
                if (!(hi < INFINITY)) return hi;
            }
    }
    return hi;
}

/// After phase @p phase, on the lead thread: a look at every field due for
/// one (fim_early_stop.hpp), which holds it or sets its ceiling.
void holdFinishedFields(const FimSchedView& v, const EarlyStop& e, int phase) {
    for (int f = 0; f < v.fields; ++f)
        if (fimLookDue(v, e.view, phase, f)) fimApplyLook(v, e.view, phase, f, highestNeeded(v, e, f));
}

/// How a run of phases ended.
struct PhaseRun {
    int phases = 0;               ///< Phases run (counted from the solve's first).
    bool converged = false;       ///< Every field went quiet (or was held) before the cap.
    std::vector<int> quietAfter;  ///< Per field: phases after which it had no active tile or was held (0: never).
};

/// Barrier of the FIM's phase loop: the threads spin for a while, then
/// yield, but never sleep in the kernel. A phase lasts a fraction of a
/// millisecond; under OMP_WAIT_POLICY=passive an OpenMP region per phase put
/// the second thread to sleep after each one, and waking it cost about a
/// fifth of obstacles 1024^2 on 2 threads
/// (bench/results/fim_chain_2026-11-29_cpu2.md). Yielding, not spinning
/// forever, keeps a machine with more threads than cores moving.
class PhaseBarrier {
public:
    explicit PhaseBarrier(int threads) : threads_(threads) {}
    void wait() {
        const unsigned g = generation_.load(std::memory_order_acquire);
        if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
            arrived_.store(0, std::memory_order_relaxed);
            generation_.fetch_add(1u, std::memory_order_release);
            return;
        }
        constexpr int kSpins = 1 << 14;  // some tens of microseconds
        for (int k = 0; generation_.load(std::memory_order_acquire) == g; ++k)
            if (k >= kSpins) std::this_thread::yield();
    }

private:
    const int threads_;
    std::atomic<int> arrived_{0};
    std::atomic<unsigned> generation_{0u};
};

/// Phases @p first.. of pass @p mode until every field is quiet (or held by
/// @p stop) or @p cap: select (pass 1, in tile order, on one thread), then
/// the selected tiles in parallel (pass 2), the threads kept between phases
/// (PhaseBarrier).
PhaseRun runPhasesCpu(const FimSchedView& v, std::vector<int>& list, int mode, int cap, int threads, int first = 0,
                      const EarlyStop* stop = nullptr) {
    PhaseRun run;
    run.quietAfter.assign(static_cast<std::size_t>(v.fields), 0);
    run.phases = first;
    const int tiles = v.g.tiles() * v.fields;
    int n = 0;              // tiles selected for the phase
    bool done = false;      // no more phases
    std::atomic<int> next{0};
    // pass 1 of a phase and the check after pass 2: one thread
    const auto select = [&](int phase) {
        for (int f = 0; f < v.fields; ++f) v.lowest[3 * f + (phase + 2) % 3] = kFimNoKey;
        list.clear();
        for (int idx = 0; idx < tiles; ++idx)
            if (fimSelect(v, phase, idx / v.g.tiles(), idx % v.g.tiles())) list.push_back(idx);
        n = static_cast<int>(list.size());
        next.store(0, std::memory_order_relaxed);
    };
    const auto check = [&](int phase) {
        run.phases = phase + 1;
        fimEndPhase(v, phase);
        if (stop) holdFinishedFields(v, *stop, phase);
        run.converged = true;
        for (int f = 0; f < v.fields; ++f) {
            const bool quiet = fimFieldQuiet(v, stop ? stop->view.ceiling : nullptr, phase, f);
            if (!quiet) run.converged = false;
            else if (run.quietAfter[static_cast<std::size_t>(f)] == 0) run.quietAfter[static_cast<std::size_t>(f)] = run.phases;
        }
    };
    std::unique_ptr<PhaseBarrier> bar;
#pragma omp parallel num_threads(threads) if (threads > 1 && tiles > 1)
    {
        // the team as OpenMP formed it (the barrier counts its threads)
#pragma omp single
        bar = std::make_unique<PhaseBarrier>(omp_get_num_threads());
        const bool lead = omp_get_thread_num() == 0;
        for (int phase = first;; ++phase) {
            if (lead) {
                done = phase >= cap || run.converged;
                if (!done) select(phase);
            }
            bar->wait();
            if (done) break;
            // pass 2: each thread takes the next selected tile
            for (int k = next.fetch_add(1, std::memory_order_relaxed); k < n; k = next.fetch_add(1, std::memory_order_relaxed))
                processTileCpu(v, phase, list[static_cast<std::size_t>(k)], mode);
            bar->wait();
            if (lead) check(phase);
        }
    }
    return run;
}

/// True when @p opt asks @p fields problems on @p g to stop early
/// (EikonalNeeded names a mask and bits); throws InputError when its bits or
/// mask do not fit the problems.
bool wantsEarlyStop(const EikonalOptions& opt, const FimGrid& g, int fields) {
    const EikonalNeeded& nd = opt.needed;
    if (!nd.mask || nd.bits.empty()) return false;
    if (static_cast<int>(nd.bits.size()) != fields)
        throw InputError("FimSolver::solveMany: EikonalNeeded::bits has " + std::to_string(nd.bits.size()) +
                         " entries for " + std::to_string(fields) + " problems (allowed: one per problem, or none)");
    if (nd.mask->nx() != g.nx || nd.mask->ny() != g.ny)
        throw InputError("FimSolver::solveMany: EikonalNeeded::mask is " + std::to_string(nd.mask->nx()) + "x" +
                         std::to_string(nd.mask->ny()) + " cells, the problems " + std::to_string(g.nx) + "x" +
                         std::to_string(g.ny) + " (allowed: the problems' grid)");
    return true;
}

/// Early stop (EikonalNeeded) for a CPU solve of @p fields fields on @p g,
/// when @p early (wantsEarlyStop): fills @p e and the workspace's per-field
/// state. The fields' ceilings are +inf otherwise.
void setUpEarlyStop(EarlyStopBuffers& w, const EikonalOptions& opt, const FimGrid& g, int fields, bool early, EarlyStop& e) {
    const std::size_t n = static_cast<std::size_t>(fields);
    w.ceiling.assign(n, INFINITY);
    if (!early) return;
    const EikonalNeeded& nd = opt.needed;
    FimEarlyStopView& ev = e.view;
    ev = fimEarlyStopBox(nd, g, nd.bits.data());
    ev.mask = nd.mask->host();
    // per tile, the bits of its cells in the box: a look at a field's cells skips the others
    w.tileBits.assign(static_cast<std::size_t>(g.tiles()), 0u);
    for (int j = ev.j0; j < ev.j1; ++j)
        for (int i0 = ev.i0; i0 < ev.i1;) {
            // the row's cells in one tile: an OR the compiler vectorises, one store
            const int i1 = std::min(ev.i1, (i0 / kFimTile + 1) * kFimTile);
            const std::uint32_t* row = ev.mask + g.cell(0, j);
            std::uint32_t bits = 0u;
            for (int i = i0; i < i1; ++i) bits |= row[i];
            w.tileBits[static_cast<std::size_t>(g.tile(i0 / kFimTile, j / kFimTile))] |= bits;
            i0 = i1;
        }
    e.tileBits = w.tileBits.data();
    // the first look at a field, and its first ceiling: the last held solve's
    // highest needed value (a guess: a look raises the ceiling if it was low)
    const bool forget = w.lastHighest.size() != n;
    w.lastHighest.resize(n);
    w.check.resize(n);
    ev.ceiling = w.ceiling.data();
    ev.check = w.check.data();
    ev.lastHighest = w.lastHighest.data();
    for (int f = 0; f < fields; ++f) FimInitEarlyStop{ev, forget}(f);
}

/// The box of cells whose costs may have changed, clamped to the grid.
FimBox changedBox(const EikonalOptions& opt, const FimGrid& g) {
    return FimBox{std::max(0, opt.changed_i0), std::max(0, opt.changed_j0), std::min(g.nx, opt.changed_i1),
                  std::min(g.ny, opt.changed_j1)};
}

}  // namespace

std::vector<EikonalStats> FimSolver::solveMany(const std::vector<const EikonalProblem*>& problems,
                                               const std::vector<Field<float>*>& phi, const EikonalOptions& opt) {
    if (problems.empty()) return {};
    if (problems.size() != phi.size())
        throw InputError("FimSolver::solveMany: " + std::to_string(problems.size()) + " problems but " +
                         std::to_string(phi.size()) + " output fields (allowed: one output per problem)");
    const EikonalProblem& p0 = *problems[0];
    // every problem: valid alone, and on the first one's grid and walls
    for (std::size_t f = 0; f < problems.size(); ++f) {
        const EikonalProblem& p = *problems[f];
        if (opt.validate) validateEikonalSetup(p, opt);
        if (p.nx() != p0.nx() || p.ny() != p0.ny() || p.h != p0.h || p.blocked != p0.blocked)
            throw InputError("FimSolver::solveMany: problem " + std::to_string(f) +
                             " differs from problem 0 in grid size, cell size or blocked field (allowed: one grid and "
                             "one blocked field for every problem solved together)");
    }
    const FimGrid g = makeFimGrid(p0.nx(), p0.ny(), p0.h, opt.tolerance);
    const int fields = static_cast<int>(problems.size());
    // one thread for small solves: a phase's barriers cost more than its tiles' work
    const int threads = static_cast<long long>(fields) * g.nx * g.ny >= minParallelCells() ? cpuThreads(ex_) : 1;
    const bool early = wantsEarlyStop(opt, g, fields);
    Workspace& w = *ws_;
    w.grid = g;
    w.fields = fields;
    w.incomplete = false;

    // sources of every field, and the band per field from its lowest cost
    w.sources.clear();
    w.band.assign(fields, INFINITY);
    w.reach.assign(fields, INFINITY);
    w.cost.assign(fields, nullptr);
    for (int f = 0; f < fields; ++f)
        for (const EikonalSource& s : problems[f]->sources) w.sources.push_back({f, s.i, s.j, s.value});

    // warm start (fim_schedule.hpp) when the last solve was of these
    // problems on this grid with this stencil and converged
    const long long padded = g.paddedSize() * fields;
    const bool warmable = opt.warm_start && w.lastConverged && w.lastProblems == problems && w.lastPadded == padded &&
                          w.lastStencil == opt.stencil;
    w.lastProblems = problems;
    w.lastPadded = padded;
    w.lastStencil = opt.stencil;
    w.lastConverged = false;

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
    if (ex_.backend == Backend::Cuda) {
        if (opt.validate)
            for (const EikonalProblem* p : problems) validateEikonalProblem(*p, opt);
        long long open = 0;
        std::vector<EikonalStats> stats = fimSolveCuda(w.cuda, g, problems, phi, w.sources, opt, phaseCap(g, opt),
                                                       warmable, changedBox(opt, g), early, open);
        perCellStats(problems, stats, open);
        for (const EikonalStats& st : stats) w.incomplete = w.incomplete || !st.complete;
        w.lastConverged = !w.incomplete && std::all_of(stats.begin(), stats.end(), [](const EikonalStats& st) { return st.converged; });
        return stats;
    }
#else
    if (ex_.backend == Backend::Cuda)
        throw BackendError("FimSolver: this build has no CUDA backend (rebuild with -DCCROWD_CUDA=ON)");
#endif

    // costs: lowest per field (the band) and, when validating, the first bad one
    // (fields sharing one cost field, as the simulation's groups do, scan it once)
    CostScan cs;
    const float bandTiles = opt.band_tiles.value_or(kFimBandTilesCpu);
    for (int f = 0; f < fields; ++f) {
        if (f == 0 || problems[f]->cost != problems[f - 1]->cost) cs = scanCosts(*problems[f], threads);
        if (opt.validate && cs.firstBad < static_cast<std::ptrdiff_t>(problems[f]->cost->size()))
            throwBadEikonalCost(*problems[f], cs.firstBad);
        // value ordering: a phase runs tiles within band_tiles tile widths
        // (at the lowest cost) of the lowest key; 0 = plain FIM (every active tile)
        w.band[f] = bandTiles > 0.f ? bandTiles * kFimTile * g.h * cs.lowest : INFINITY;
        w.reach[f] = g.h * cs.lowest;
        w.cost[f] = problems[f]->cost->host();
    }

    // state of the solve: every field's cells, tiles, lowest keys and counters
    const int tiles = g.tiles() * fields;
    w.phi.resize(static_cast<std::size_t>(padded));
    w.state.resize(static_cast<std::size_t>(padded));
    w.key.resize(static_cast<std::size_t>(tiles));
    w.from.resize(static_cast<std::size_t>(tiles));
    w.runs.resize(static_cast<std::size_t>(tiles));
    w.lowest.assign(static_cast<std::size_t>(3 * fields), kFimNoKey);
    w.updates.assign(fields, 0ull);
    w.activations.assign(fields, 0ull);
    w.phaseSweeps[0] = w.phaseSweeps[1] = 0u;
    w.criticalSweeps = 0ull;
    w.phaseFronts[0] = w.phaseFronts[1] = 0u;
    w.criticalFronts = 0ull;
    FimSchedView v;
    v.g = g;
    v.fields = fields;
    v.phi = w.phi.data();
    v.state = w.state.data();
    v.cost = w.cost.data();
    v.key = w.key.data();
    v.from = w.from.data();
    v.lowest = w.lowest.data();
    v.band = w.band.data();
    v.reach = w.reach.data();
    v.diagonals = opt.stencil == 8;
    v.updates = w.updates.data();
    v.activations = w.activations.data();
    v.runs = w.runs.data();
    v.phaseSweeps = w.phaseSweeps;
    v.criticalSweeps = &w.criticalSweeps;
    v.phaseFronts = w.phaseFronts;
    v.criticalFronts = &w.criticalFronts;
    v.sweeps = std::max(1, opt.inner_iterations.value_or(kFimSweepsCpu));
    v.frontBudget = opt.front_budget.value_or(kFimFrontBudgetCpu);
    const Exec cpu{Backend::Cpu, threads};
    const CellRange paddedCells{0, 0, g.pitch, (g.ny + 2) * fields};
    const int nsrc = static_cast<int>(w.sources.size());
    const int cap = phaseCap(g, opt);

    // warm start (fim_schedule.hpp): raise what the new costs no longer
    // support, then lower from there; cold when the raise did not finish
    bool warm = false;
    int raisePhases = 0;
    if (warmable) {
        forEachCell(cpu, paddedCells, FimInitCells{v, p0.blocked->host(), true});
        forEachIndex(cpu, tiles, FimInitTiles{v});
        forEachIndex(cpu, nsrc, FimSetSources{v, w.sources.data()});
        const FimBox box = changedBox(opt, g);
        forEachCell(cpu, paddedCells, FimWarmSeedRaise{v, box});
        const PhaseRun raise = runPhasesCpu(v, w.list, kFimRaising, cap, threads);
        if (raise.converged) {
            warm = true;
            raisePhases = raise.phases;
            forEachIndex(cpu, tiles, FimInitTiles{v, true});
            std::fill(w.lowest.begin(), w.lowest.end(), kFimNoKey);
            forEachCell(cpu, paddedCells, FimWarmSeedLower{v, box});
        }
    }
    if (!warm) {
        forEachCell(cpu, paddedCells, FimInitCells{v, p0.blocked->host()});
        forEachIndex(cpu, tiles, FimInitTiles{v});
        std::fill(w.lowest.begin(), w.lowest.end(), kFimNoKey);
        forEachIndex(cpu, nsrc, FimSetSources{v, w.sources.data()});
        forEachIndex(cpu, nsrc, FimSeedSources{v, w.sources.data()});
    }
    // the FIM proper; with EikonalNeeded, fields are held once their callers' cells are final
    EarlyStop stop;
    setUpEarlyStop(w.early, opt, g, fields, early, stop);
    v.ceiling = early ? w.early.ceiling.data() : nullptr;
    const PhaseRun lower = runPhasesCpu(v, w.list, kFimLowering, cap, threads, 0, early ? &stop : nullptr);
    const auto held = [&w](int f) { return !(w.early.ceiling[static_cast<std::size_t>(f)] > -INFINITY); };
    w.incomplete = false;
    for (int f = 0; early && f < fields; ++f) w.incomplete = w.incomplete || held(f);
    w.lastConverged = lower.converged && !w.incomplete;
    w.lastView = v;
    w.lastOutputs = phi;
    w.nextPhase = lower.phases;
    w.cap = cap;

    // copy out and statistics per field
    std::vector<EikonalStats> stats(fields);
    for (int f = 0; f < fields; ++f) {
        Field<float>& out = *phi[static_cast<std::size_t>(f)];
        if (out.nx() != g.nx || out.ny() != g.ny) out.assign(g.nx, g.ny, INFINITY);
        forEachCell(cpu, CellRange{0, 0, g.nx, g.ny}, FimCopyOut{v, f, out.hostView()});
        EikonalStats& st = stats[f];
        const int quiet = lower.quietAfter[static_cast<std::size_t>(f)];
        st.iterations = raisePhases + (quiet > 0 ? quiet : lower.phases);
        st.updates = static_cast<long long>(w.updates[f]);
        st.tile_activations = static_cast<long long>(w.activations[f]);
        st.critical_sweeps = static_cast<long long>(w.criticalSweeps);
        st.critical_fronts = static_cast<long long>(w.criticalFronts);
        st.converged = quiet != 0;
        st.complete = !(early && held(f));
        st.warm = warm;
    }
    perCellStats(problems, stats, cs.open);
    return stats;
}

bool FimSolver::finish() {
    Workspace& w = *ws_;
    if (!w.incomplete) return false;
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
    if (ex_.backend == Backend::Cuda) {
        w.lastConverged = fimFinishCuda(w.cuda);
        w.incomplete = false;
        return true;
    }
#endif
    // release the held fields and go on from the phase the solve stopped after
    FimSchedView v = w.lastView;
    v.ceiling = nullptr;
    const PhaseRun run = runPhasesCpu(v, w.list, kFimLowering, w.cap, cpuThreads(ex_), w.nextPhase);
    const Exec cpu{Backend::Cpu, cpuThreads(ex_)};
    for (int f = 0; f < w.fields; ++f)
        forEachCell(cpu, CellRange{0, 0, v.g.nx, v.g.ny}, FimCopyOut{v, f, w.lastOutputs[static_cast<std::size_t>(f)]->hostView()});
    w.incomplete = false;
    w.lastConverged = run.converged;
    w.nextPhase = run.phases;
    return true;
}

std::vector<std::uint32_t> FimSolver::lastTileRuns(int k) const {
    const Workspace& w = *ws_;
    if (k < 0 || k >= w.fields)
        throw InputError("FimSolver::lastTileRuns: problem " + std::to_string(k) + " not in the last solve (allowed: 0.." +
                         std::to_string(w.fields - 1) + ")");
    const std::size_t n = static_cast<std::size_t>(w.grid.tiles());
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
    if (ex_.backend == Backend::Cuda) return w.cuda.runsOf(k, n);
#endif
    return {w.runs.begin() + static_cast<std::ptrdiff_t>(k * n), w.runs.begin() + static_cast<std::ptrdiff_t>((k + 1) * n)};
}

EikonalStats FimSolver::solve(const EikonalProblem& p, Field<float>& phi, const EikonalOptions& opt) {
    return solveMany({&p}, {&phi}, opt).front();
}

}  // namespace ccrowd
