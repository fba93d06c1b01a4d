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
    std::vector<std::uint8_t> kind;    ///< FimCellKind per cell. [Size: nx*ny]
    std::vector<unsigned> flags;       ///< FimTileFlag per tile.
    std::vector<std::uint8_t> mark;    ///< Candidate de-duplication per tile.
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
    FimCudaWorkspace cuda;
#endif
};

FimSolver::FimSolver(const Exec& ex) : ex_(ex), ws_(std::make_unique<Workspace>()) {}
FimSolver::~FimSolver() = default;
FimSolver::FimSolver(FimSolver&&) noexcept = default;
FimSolver& FimSolver::operator=(FimSolver&&) noexcept = default;

namespace {

/// Everything a CPU tile worker reads.
struct CpuTileContext {
    FimGrid g;
    float* phi;
    const std::uint8_t* kind;
    const FaceCost* cost;
    int inner;
};

/// One Gauss-Seidel sweep over the tile's cells in the order given by the
/// steps; returns true when a cell dropped by more than the tolerance.
bool sweepTile(const CpuTileContext& c, int i0, int i1, int j0, int j1, bool iUp, bool jUp, long long& updates) {
    bool changed = false;
    const FimGrid& g = c.g;
    for (int jj = j0; jj < j1; ++jj) {
        const int j = jUp ? jj : j1 - 1 - (jj - j0);
        for (int ii = i0; ii < i1; ++ii) {
            const int i = iUp ? ii : i1 - 1 - (ii - i0);
            if (c.kind[g.cell(i, j)] != kCellOpen) continue;
            // Godunov update from the current neighbours (read current, keep the minimum)
            const float nw = fimCellUpdate(c.phi, c.cost, g, i, j);
            ++updates;
            float& old = c.phi[g.padded(i, j)];
            if (nw < old) {
                if (old - nw > eikonalTolerance(nw, g.tol, g.h)) changed = true;
                old = nw;
            }
        }
    }
    return changed;
}

/// Processes tile (tx, ty): up to c.inner sweeps in alternating directions
/// (fast-sweeping orders), then reports which neighbours must run.
unsigned processTileCpu(const CpuTileContext& c, int tx, int ty, long long& updates) {
    const FimGrid& g = c.g;
    const int i0 = tx * kFimTile, i1 = std::min(i0 + kFimTile, g.nx);
    const int j0 = ty * kFimTile, j1 = std::min(j0 + kFimTile, g.ny);
    // remember the edges to detect what the neighbours must see
    float south[kFimTile], north[kFimTile], west[kFimTile], east[kFimTile];
    for (int i = i0; i < i1; ++i) { south[i - i0] = c.phi[g.padded(i, j0)]; north[i - i0] = c.phi[g.padded(i, j1 - 1)]; }
    for (int j = j0; j < j1; ++j) { west[j - j0] = c.phi[g.padded(i0, j)]; east[j - j0] = c.phi[g.padded(i1 - 1, j)]; }
    // sweep until nothing changes or the inner budget is spent
    bool changed = true;
    for (int s = 0; s < c.inner && changed; ++s)
        changed = sweepTile(c, i0, i1, j0, j1, (s & 1) == 0, (s & 2) == 0, updates);
    unsigned flags = changed ? kActivateSelf : 0u;
    // edges that dropped activate the tile across them
    for (int i = i0; i < i1; ++i) {
        if (fimEdgeChanged(south[i - i0], c.phi[g.padded(i, j0)], g)) flags |= kActivateS;
        if (fimEdgeChanged(north[i - i0], c.phi[g.padded(i, j1 - 1)], g)) flags |= kActivateN;
    }
    for (int j = j0; j < j1; ++j) {
        if (fimEdgeChanged(west[j - j0], c.phi[g.padded(i0, j)], g)) flags |= kActivateW;
        if (fimEdgeChanged(east[j - j0], c.phi[g.padded(i1 - 1, j)], g)) flags |= kActivateE;
    }
    return flags;
}

/// Automatic phase cap: generous for any converging problem, finite always.
int phaseCap(const FimGrid& g, const EikonalOptions& opt) {
    if (opt.max_iterations > 0) return opt.max_iterations;
    const long long cap = 8LL * g.tilesX * g.tilesY + 1000;
    return static_cast<int>(std::min<long long>(cap, std::numeric_limits<int>::max()));
}

}  // namespace

/// Fills the padded potentials (+inf, sources at their value) and cell kinds.
static void initWorkspace(const EikonalProblem& p, const FimGrid& g, std::vector<float>& phi,
                          std::vector<std::uint8_t>& kind, int threads) {
    phi.assign(static_cast<std::size_t>(g.pitch) * (g.ny + 2), INFINITY);
    kind.resize(static_cast<std::size_t>(g.nx) * g.ny);
    const std::uint8_t* blocked = p.blocked->host();
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(kind.size());
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::ptrdiff_t k = 0; k < n; ++k) kind[k] = blocked[k] ? kCellBlocked : kCellOpen;
    for (const EikonalSource& s : p.sources) {
        kind[g.cell(s.i, s.j)] = kCellSource;
        float& v = phi[g.padded(s.i, s.j)];
        v = std::min(v, s.value);
    }
}

/// Copies the padded potentials into @p out (nx-by-ny).
static void copyOut(const std::vector<float>& phi, const FimGrid& g, Field<float>& out, int threads) {
    if (out.nx() != g.nx || out.ny() != g.ny) out.assign(g.nx, g.ny, INFINITY);
    float* dst = out.host();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int j = 0; j < g.ny; ++j)
        std::copy_n(&phi[g.padded(0, j)], g.nx, dst + static_cast<std::ptrdiff_t>(j) * g.nx);
}

/// Open cells, for updates per cell.
static long long countOpen(const std::vector<std::uint8_t>& kind) {
    return static_cast<long long>(std::count(kind.begin(), kind.end(), std::uint8_t(kCellOpen)));
}

EikonalStats FimSolver::solve(const EikonalProblem& p, Field<float>& phi, const EikonalOptions& opt) {
    if (opt.validate) validateEikonalProblem(p, opt);
    const FimGrid g = makeFimGrid(p.nx(), p.ny(), p.h, opt.tolerance);
    const int threads = cpuThreads(ex_);
    Workspace& w = *ws_;
    initWorkspace(p, g, w.phi, w.kind, threads);
    EikonalStats st;

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
    if (ex_.backend == Backend::Cuda) {
        st = fimSolveCuda(w.cuda, g, p, w.phi, w.kind, opt, phaseCap(g, opt), phi);
        const long long open = countOpen(w.kind);
        st.updates_per_cell = open > 0 ? static_cast<double>(st.updates) / open : 0.0;
        return st;
    }
#else
    if (ex_.backend == Backend::Cuda)
        throw BackendError("FimSolver: this build has no CUDA backend (rebuild with -DCCROWD_CUDA=ON)");
#endif

    const int ntiles = g.tilesX * g.tilesY;
    w.flags.assign(ntiles, 0u);
    w.mark.assign(ntiles, 0);
    CpuTileContext ctx{g, w.phi.data(), w.kind.data(), p.cost->host(), std::max(1, opt.inner_iterations)};

    // initial active tiles: every tile holding a source, and its neighbours
    std::vector<int> active[2];
    auto push = [&](int tx, int ty) {
        if (tx < 0 || ty < 0 || tx >= g.tilesX || ty >= g.tilesY) return;
        const int t = g.tile(tx, ty);
        if (w.mark[t]) return;
        w.mark[t] = 1;
        active[FimGrid::colour(tx, ty)].push_back(t);
    };
    for (const EikonalSource& s : p.sources) {
        const int tx = s.i / kFimTile, ty = s.j / kFimTile;
        push(tx, ty); push(tx + 1, ty); push(tx - 1, ty); push(tx, ty + 1); push(tx, ty - 1);
    }
    for (int c = 0; c < 2; ++c) std::sort(active[c].begin(), active[c].end());
    std::fill(w.mark.begin(), w.mark.end(), 0);

    const int cap = phaseCap(g, opt);
    std::vector<int> previous;  // tiles processed in the phase before (other colour)
    std::vector<int> candidates;
    int colour = active[0].empty() ? 1 : 0;
    long long updates = 0, activations = 0;
    int phases = 0;
    while ((!active[0].empty() || !active[1].empty()) && phases < cap) {
        std::vector<int> current = std::move(active[colour]);
        active[colour].clear();
        // process this colour's active tiles in parallel: they share no halo
        const int n = static_cast<int>(current.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(+ : updates)
        for (int k = 0; k < n; ++k) {
            const int t = current[k];
            w.flags[t] = processTileCpu(ctx, t % g.tilesX, t / g.tilesX, updates);
        }
        activations += n;
        ++phases;
        // next phase: tiles of the other colour next to a changed edge, or
        // left unconverged two phases ago (same rule as the CUDA launcher)
        const int other = 1 - colour;
        candidates.clear();
        auto candidate = [&](int tx, int ty) {
            if (tx < 0 || ty < 0 || tx >= g.tilesX || ty >= g.tilesY) return;
            const int t = g.tile(tx, ty);
            if (!w.mark[t]) { w.mark[t] = 1; candidates.push_back(t); }
        };
        for (int t : current) {
            const int tx = t % g.tilesX, ty = t / g.tilesX;
            candidate(tx + 1, ty); candidate(tx - 1, ty); candidate(tx, ty + 1); candidate(tx, ty - 1);
        }
        for (int t : previous) candidate(t % g.tilesX, t / g.tilesX);
        for (int t : active[other]) candidate(t % g.tilesX, t / g.tilesX);
        std::sort(candidates.begin(), candidates.end());
        std::vector<int> next;
        for (int t : candidates) {
            w.mark[t] = 0;
            const bool already = std::binary_search(active[other].begin(), active[other].end(), t);
            if (already || fimTileActivated(w.flags.data(), g, t % g.tilesX, t / g.tilesX)) next.push_back(t);
        }
        // the other colour's flags are consumed now
        for (int t : previous) w.flags[t] = 0u;
        active[other] = std::move(next);
        previous = std::move(current);
        colour = other;
    }

    st.iterations = phases;
    st.updates = updates;
    st.tile_activations = activations;
    st.converged = active[0].empty() && active[1].empty();
    const long long open = countOpen(w.kind);
    st.updates_per_cell = open > 0 ? static_cast<double>(updates) / open : 0.0;
    copyOut(w.phi, g, phi, threads);
    return st;
}

}  // namespace ccrowd
