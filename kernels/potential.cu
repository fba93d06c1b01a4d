/// @file potential.cu
/// Potential stage launcher: block Fast Iterative Method (Jeong & Whitaker
/// 2008) on the CPU (OpenMP over tiles, Gauss-Seidel sweeps inside a tile) and,
/// in CUDA builds, on the GPU (potential_cuda.cuh). Compiled by nvcc in CUDA
/// builds and by the C++ compiler otherwise.

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "ccrowd/config.hpp"
#include "ccrowd/eikonal.hpp"
#include "potential.hpp"

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
#include "potential_cuda.cuh"
#endif

namespace ccrowd {

/// Buffers reused between solves.
struct FimSolver::Workspace {
    std::vector<float> phi;            ///< Padded potentials. [Size: (nx+2)*(ny+2)]
    std::vector<std::uint8_t> kind;    ///< CUDA: FimCellKind per cell. [Size: nx*ny]
    std::vector<unsigned> flags;       ///< FimTileFlag per tile.
    std::vector<std::uint8_t> mark;    ///< CPU: 1 = tile is in an active list.
    std::vector<float> key;            ///< CPU: lowest potential that activated the tile.
    std::vector<unsigned> from;        ///< CPU: edges through which the tile was activated.
    float minCost = 1.f;               ///< Lowest face cost of an open cell.
    std::vector<std::uint32_t> state;  ///< CPU: padded CellState (4 bytes, like phi, so tiles share no cache lines).
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
    FimCudaWorkspace cuda;
#endif
};

FimSolver::FimSolver(const Exec& ex) : ex_(ex), ws_(std::make_unique<Workspace>()) {}
FimSolver::~FimSolver() = default;

std::size_t FimSolver::workspaceBytes() const {
    const Workspace& w = *ws_;
    return w.phi.capacity() * sizeof(float) + w.kind.capacity() + w.flags.capacity() * sizeof(unsigned) + w.mark.capacity() +
           w.key.capacity() * sizeof(float) + w.from.capacity() * sizeof(unsigned) + w.state.capacity() * sizeof(std::uint32_t);
}
FimSolver::FimSolver(FimSolver&&) noexcept = default;
FimSolver& FimSolver::operator=(FimSolver&&) noexcept = default;

namespace {

/// CPU cell states in the padded state array.
enum CellState : std::uint32_t {
    kClean = 0,  ///< Open, up to date with its neighbours.
    kDirty = 1,  ///< Open, a neighbour dropped since its last update.
    kFixed = 2   ///< Border, blocked or source: never updated.
};

/// Everything a CPU tile worker reads.
struct CpuTileContext {
    FimGrid g;
    float* phi;               ///< Padded potentials.
    std::uint32_t* state;     ///< Padded CellState per cell.
    const FaceCost* cost;
    int inner;
};

/// Marks an open cell dirty. Two tiles of one colour may mark the same cell
/// of a tile of the other colour at once; both store kDirty over kClean, so
/// relaxed atomic loads and stores suffice.
/// Returns false for a fixed cell (border, blocked, source), which is never marked.
inline bool markDirty(std::uint32_t* s) {
    const std::uint32_t v = __atomic_load_n(s, __ATOMIC_RELAXED);
    if (v == kClean) __atomic_store_n(s, kDirty, __ATOMIC_RELAXED);
    return v != kFixed;
}

/// What processing a tile produced, for the scheduler: the dirty cells it
/// left in each neighbour tile (and itself) and the lowest potential that
/// caused them, so the neighbour runs in value order and sweeps only there.
struct TileReport {
    /// Lowest new potential passed to the E, N, W, S neighbour and left in
    /// the tile itself; +inf = nothing to do there.
    float key[5] = {INFINITY, INFINITY, INFINITY, INFINITY, INFINITY};
};

/// Cells [i0, i1) x [j0, j1) of a tile.
struct TileBounds {
    int i0, i1, j0, j1;
};

/// One Gauss-Seidel sweep in direction (DI, DJ) over the dirty cells of tile
/// @p t (cell-level FIM activity, Jeong & Whitaker 2008 §3: clean cells cost
/// a flag test). A cell whose potential drops marks dirty the neighbours
/// whose value is above its new one (only those can drop in turn); a mark
/// across the tile edge lowers that neighbour tile's key in @p r. Returns true
/// when a mark landed behind the sweep front, i.e. another sweep is needed;
/// r.key[4] is then the lowest potential that caused it.
/// Cells are visited by anti-diagonals (u + v = d in direction-mirrored tile
/// coordinates): the result equals the row-by-row sweep in that direction,
/// since a cell only reads upwind neighbours of the previous diagonal, but the
/// cells of one diagonal are independent, so the CPU overlaps their square
/// roots and divisions instead of waiting on a chain.
template <int DI, int DJ>
bool sweepTile(const CpuTileContext& c, const TileBounds& t, TileReport& r, long long& updates) {
    const FimGrid& g = c.g;
    const int w = t.i1 - t.i0, h = t.j1 - t.j0;
    // tile-local (u, v) -> cell: i = iFirst + DI u, j = jFirst + DJ v
    const int iFirst = DI > 0 ? t.i0 : t.i1 - 1, jFirst = DJ > 0 ? t.j0 : t.j1 - 1;
    // along a diagonal u grows by one and v shrinks by one
    const std::ptrdiff_t step = DI - static_cast<std::ptrdiff_t>(DJ) * g.pitch;
    const std::ptrdiff_t stepCost = DI - static_cast<std::ptrdiff_t>(DJ) * g.nx;
    const int pitch = g.pitch;
    bool again = false;        // dirty cells left behind the sweep
    float againMin = INFINITY;
    long long count = 0;
    for (int d = 0; d <= w + h - 2; ++d) {
        const int uBegin = d - (h - 1) > 0 ? d - (h - 1) : 0, uEnd = d < w - 1 ? d : w - 1;
        const int iStart = iFirst + DI * uBegin, jStart = jFirst + DJ * (d - uBegin);
        std::ptrdiff_t q = g.padded(iStart, jStart);
        const FaceCost* cost = c.cost + g.cell(iStart, jStart);
        for (int u = uBegin; u <= uEnd; ++u, q += step, cost += stepCost) {
            if (c.state[q] != kDirty) continue;
            c.state[q] = kClean;
            // Godunov update from the current neighbours; keep the minimum
            float* p = c.phi + q;
            const float nw = eikonalUpdate(p[1], p[-1], p[pitch], p[-pitch], *cost, g.h);
            ++count;
            if (!(nw < *p)) continue;
            const bool significant = *p - nw > eikonalTolerance(nw, g.tol, g.h);
            *p = nw;
            if (!significant) continue;
            // neighbours above the new value may drop now (one at or below it
            // cannot: an update never goes below its upwind values); a mark
            // across the tile edge activates the tile there
            std::uint32_t* st = c.state + q;
            const int i = iFirst + DI * u, j = jFirst + DJ * (d - u);
            // behind: a neighbour this sweep already passed (upwind in the
            // sweep direction) needs another sweep; the others come later in this one
            bool behind = false;
            if (nw < p[1] && markDirty(st + 1)) { if (i == t.i1 - 1) r.key[0] = minf(r.key[0], nw); else behind |= DI < 0; }
            if (nw < p[pitch] && markDirty(st + pitch)) { if (j == t.j1 - 1) r.key[1] = minf(r.key[1], nw); else behind |= DJ < 0; }
            if (nw < p[-1] && markDirty(st - 1)) { if (i == t.i0) r.key[2] = minf(r.key[2], nw); else behind |= DI > 0; }
            if (nw < p[-pitch] && markDirty(st - pitch)) { if (j == t.j0) r.key[3] = minf(r.key[3], nw); else behind |= DJ > 0; }
            if (behind) { again = true; againMin = minf(againMin, nw); }
        }
    }
    updates += count;
    r.key[4] = againMin;
    return again;
}

/// Processes tile (tx, ty): sweeps its dirty cells in alternating directions
/// (fast-sweeping orders, the first one downwind of the edges the change came
/// through) until no dirty cell is left or c.inner sweeps ran. key[4] is
/// finite when dirty cells are left over.
TileReport processTileCpu(const CpuTileContext& c, int tx, int ty, unsigned from, long long& updates) {
    const FimGrid& g = c.g;
    TileBounds t;
    t.i0 = tx * g.tileSize; t.i1 = std::min(t.i0 + g.tileSize, g.nx);
    t.j0 = ty * g.tileSize; t.j1 = std::min(t.j0 + g.tileSize, g.ny);
    TileReport r;
    // first sweep downwind of the edges the change came through
    const bool east = !(from & kActivateE) || (from & kActivateW);
    const bool north = !(from & kActivateN) || (from & kActivateS);
    const int order = (east ? 0 : 1) | (north ? 0 : 2);  // index of (DI, DJ) = (+-1, +-1)
    static constexpr int kSequence[4][4] = {{0, 3, 1, 2}, {1, 2, 0, 3}, {2, 1, 3, 0}, {3, 0, 2, 1}};
    // sweep until no dirty cell is left behind or the inner budget is spent
    bool again = true;
    for (int s = 0; s < c.inner && again; ++s) {
        switch (kSequence[order][s & 3]) {
            case 0: again = sweepTile<1, 1>(c, t, r, updates); break;
            case 1: again = sweepTile<-1, 1>(c, t, r, updates); break;
            case 2: again = sweepTile<1, -1>(c, t, r, updates); break;
            default: again = sweepTile<-1, -1>(c, t, r, updates); break;
        }
    }
    if (!again) r.key[4] = INFINITY;
    return r;
}

/// Automatic phase cap: finite always, and generous: a one-cell-wide
/// serpentine through every tile needs about 8 phases per tile.
int phaseCap(const FimGrid& g, const EikonalOptions& opt) {
    if (opt.max_iterations > 0) return opt.max_iterations;
    const long long cap = 64LL * g.tilesX * g.tilesY + 1000;
    return static_cast<int>(std::min<long long>(cap, std::numeric_limits<int>::max()));
}

}  // namespace

/// Fills the padded potentials: +inf, sources at their value.
static void initPotentials(const EikonalProblem& p, const FimGrid& g, std::vector<float>& phi, int threads) {
    phi.resize(static_cast<std::size_t>(g.pitch) * (g.ny + 2));
    float* ph = phi.data();
    const std::ptrdiff_t np = static_cast<std::ptrdiff_t>(phi.size());
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::ptrdiff_t k = 0; k < np; ++k) ph[k] = INFINITY;
    for (const EikonalSource& s : p.sources) {
        float& v = phi[g.padded(s.i, s.j)];
        v = std::min(v, s.value);
    }
}

/// Fills the CUDA path's cell kinds (nx-by-ny); returns the open cells.
[[maybe_unused]] static long long initKinds(const EikonalProblem& p, const FimGrid& g, std::vector<std::uint8_t>& kind, int threads) {
    kind.resize(static_cast<std::size_t>(g.nx) * g.ny);
    const std::uint8_t* blocked = p.blocked->host();
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(kind.size());
    long long open = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : open)
    for (std::ptrdiff_t k = 0; k < n; ++k) {
        kind[k] = blocked[k] ? kCellBlocked : kCellOpen;
        open += blocked[k] ? 0 : 1;
    }
    for (const EikonalSource& s : p.sources) {
        open -= kind[g.cell(s.i, s.j)] == kCellOpen ? 1 : 0;
        kind[g.cell(s.i, s.j)] = kCellSource;
    }
    return open;
}

/// Copies the padded potentials into @p out (nx-by-ny).
static void copyOut(const std::vector<float>& phi, const FimGrid& g, Field<float>& out, int threads) {
    if (out.nx() != g.nx || out.ny() != g.ny) out.assign(g.nx, g.ny, INFINITY);
    float* dst = out.host();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int j = 0; j < g.ny; ++j)
        std::copy_n(&phi[g.padded(0, j)], g.nx, dst + static_cast<std::ptrdiff_t>(j) * g.nx);
}

EikonalStats FimSolver::solve(const EikonalProblem& p, Field<float>& phi, const EikonalOptions& opt) {
    // the CPU path scans the costs while building its cell states
    if (opt.validate) {
        if (ex_.backend == Backend::Cuda) validateEikonalProblem(p, opt);
        else validateEikonalSetup(p, opt);
    }
    const FimGrid g = makeFimGrid(p.nx(), p.ny(), p.h, opt.tolerance, ex_.backend == Backend::Cuda ? kFimTile : kFimCpuTile);
    const int threads = cpuThreads(ex_);
    Workspace& w = *ws_;
    initPotentials(p, g, w.phi, threads);
    EikonalStats st;

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
    if (ex_.backend == Backend::Cuda) {
        const long long open = initKinds(p, g, w.kind, threads);
        st = fimSolveCuda(w.cuda, g, p, w.phi, w.kind, opt, phaseCap(g, opt), phi);
        st.updates_per_cell = open > 0 ? static_cast<double>(st.updates) / open : 0.0;
        return st;
    }
#else
    if (ex_.backend == Backend::Cuda)
        throw BackendError("FimSolver: this build has no CUDA backend (rebuild with -DCCROWD_CUDA=ON)");
#endif

    st = solveCpu(p, g, opt, threads);
    copyOut(w.phi, g, phi, threads);
    return st;
}

EikonalStats FimSolver::solveCpu(const EikonalProblem& p, const FimGrid& g, const EikonalOptions& opt, int threads) {
    Workspace& w = *ws_;
    const int ntiles = g.tilesX * g.tilesY;
    // cell states: fixed (border, blocked, sources), clean, or dirty (only
    // the sources' neighbours at first); on the way: open cells, lowest cost,
    // and the first open cell with a bad cost (validation)
    w.state.resize(w.phi.size());
    std::uint32_t* state = w.state.data();
    const std::uint8_t* blocked = p.blocked->host();
    const FaceCost* cost = p.cost->host();
    long long open = 0;
    float lowest = INFINITY;
    const std::ptrdiff_t cells = static_cast<std::ptrdiff_t>(g.nx) * g.ny;
    std::ptrdiff_t firstBad = cells;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : open) reduction(min : lowest, firstBad)
    for (int j = -1; j <= g.ny; ++j) {
        std::uint32_t* row = state + g.padded(-1, j);
        if (j < 0 || j == g.ny) { std::fill_n(row, g.pitch, kFixed); continue; }
        row[0] = row[g.pitch - 1] = kFixed;
        const std::ptrdiff_t base = static_cast<std::ptrdiff_t>(j) * g.nx;
        for (int i = 0; i < g.nx; ++i) {
            const bool b = blocked[base + i] != 0;
            row[i + 1] = b ? kFixed : kClean;
            open += b ? 0 : 1;
            const FaceCost& c = cost[base + i];
            const float m = minf(minf(c.e, c.w), minf(c.n, c.s));
            lowest = b ? lowest : minf(lowest, m);
            if (!b && !eikonalCostOk(c)) firstBad = std::min(firstBad, base + i);
        }
    }
    if (opt.validate && firstBad < cells) throwBadEikonalCost(p, firstBad);
    for (const EikonalSource& s : p.sources) {
        open -= state[g.padded(s.i, s.j)] == kClean ? 1 : 0;
        state[g.padded(s.i, s.j)] = kFixed;
    }
    for (const EikonalSource& s : p.sources) {
        const int k = g.padded(s.i, s.j);
        for (const int q : {k + 1, k - 1, k + g.pitch, k - g.pitch})
            if (state[q] == kClean) state[q] = kDirty;
    }
    w.minCost = lowest;
    CpuTileContext ctx{g, w.phi.data(), state, p.cost->host(), std::max(1, opt.inner_iterations)};

    // tiles waiting to run, per colour, with the lowest potential that reached them
    std::vector<int> active[2];
    w.key.assign(ntiles, INFINITY);
    w.mark.assign(ntiles, 0);
    w.from.assign(ntiles, 0u);
    // key: lowest potential that reached the tile; from: the edge it came through
    auto activate = [&](int tx, int ty, float key, unsigned from) {
        if (tx < 0 || ty < 0 || tx >= g.tilesX || ty >= g.tilesY || !(key < INFINITY)) return;
        const int t = g.tile(tx, ty);
        w.key[t] = std::min(w.key[t], key);
        w.from[t] |= from;
        if (!w.mark[t]) { w.mark[t] = 1; active[FimGrid::colour(tx, ty)].push_back(t); }
    };
    // at first: the tiles holding the sources' neighbours
    for (const EikonalSource& s : p.sources) {
        const int nb[4][2] = {{s.i + 1, s.j}, {s.i - 1, s.j}, {s.i, s.j + 1}, {s.i, s.j - 1}};
        for (const auto& q : nb) {
            if (q[0] < 0 || q[1] < 0 || q[0] >= g.nx || q[1] >= g.ny) continue;
            activate(q[0] / g.tileSize, q[1] / g.tileSize, s.value, 0u);
        }
    }
    // value ordering (a coarse fast-marching order over tiles): a phase runs
    // only tiles whose key is within `band` of the lowest key, so tiles rarely
    // run before their upwind neighbours settled. band = +inf is plain FIM.
    const float band = opt.band_tiles > 0.f ? opt.band_tiles * g.tileSize * g.h * w.minCost : INFINITY;

    const int cap = phaseCap(g, opt);
    std::vector<int> current, keep;
    std::vector<TileReport> reports;
    std::vector<unsigned> fromOf;
    int colour = active[0].empty() ? 1 : 0;
    long long updates = 0, activations = 0;
    int phases = 0, idle = 0;
    while ((!active[0].empty() || !active[1].empty()) && phases < cap) {
        // pick this colour's tiles within the band
        float lowest = INFINITY;
        for (int c = 0; c < 2; ++c)
            for (int t : active[c]) lowest = std::min(lowest, w.key[t]);
        const float limit = lowest + band;
        current.clear(); keep.clear();
        for (int t : active[colour]) (w.key[t] <= limit ? current : keep).push_back(t);
        active[colour].swap(keep);
        if (current.empty()) {  // the lowest tiles are of the other colour
            colour = 1 - colour;
            if (++idle > 2) break;  // cannot happen: the lowest tile is always selectable
            continue;
        }
        idle = 0;
        fromOf.resize(current.size());
        for (std::size_t k = 0; k < current.size(); ++k) {
            const int t = current[k];
            fromOf[k] = w.from[t];
            w.mark[t] = 0; w.key[t] = INFINITY; w.from[t] = 0u;
        }
        // process them in parallel: tiles of one colour share no halo
        const int n = static_cast<int>(current.size());
        reports.assign(n, TileReport{});
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : updates)
        for (int k = 0; k < n; ++k) reports[k] = processTileCpu(ctx, current[k] % g.tilesX, current[k] / g.tilesX, fromOf[k], updates);
        activations += n;
        ++phases;
        // activate neighbours across changed edges (in list order: deterministic)
        for (int k = 0; k < n; ++k) {
            const int tx = current[k] % g.tilesX, ty = current[k] / g.tilesX;
            const TileReport& r = reports[k];
            activate(tx + 1, ty, r.key[0], kActivateW);
            activate(tx, ty + 1, r.key[1], kActivateS);
            activate(tx - 1, ty, r.key[2], kActivateE);
            activate(tx, ty - 1, r.key[3], kActivateN);
            activate(tx, ty, r.key[4], 0u);
        }
        colour = 1 - colour;
    }

    EikonalStats st;
    st.iterations = phases;
    st.updates = updates;
    st.tile_activations = activations;
    st.converged = active[0].empty() && active[1].empty();
    st.updates_per_cell = open > 0 ? static_cast<double>(updates) / open : 0.0;
    return st;
}

}  // namespace ccrowd
