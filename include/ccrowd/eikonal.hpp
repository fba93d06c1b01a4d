#pragma once
/// @file eikonal.hpp
/// Eikonal solvers for the potential stage: |grad phi| = C with anisotropic
/// unit cost per face (Treuille et al. 2006, eq. 4-5), discretised with the
/// Godunov upwind local solver shared by every solver (kernels/eikonal_update.hpp).
///
/// - FimSolver: block Fast Iterative Method (Jeong & Whitaker 2008) with one
///   scheduler for both backends (kernels/fim_schedule.hpp): CPU (a tile per
///   OpenMP thread) and CUDA (a tile per warp, the whole solve one kernel).
/// - solveFmm: Fast Marching (Sethian 1996), CPU, binary heap.
///
/// Sources are Dirichlet cells: they keep their given value. Blocked and
/// unreachable cells get +inf.

#include <cstdint>
#include <optional>
#include <vector>

#include "ccrowd/backend.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/face_cost.hpp"

namespace ccrowd {

/// A source (goal) cell with its fixed potential.
struct EikonalSource {
    int i = 0;          ///< Cell column. [Limit: 0 <= i < nx]
    int j = 0;          ///< Cell row. [Limit: 0 <= j < ny]
    float value = 0.f;  ///< Potential at the source. [Units: s (cost x m)] [Limit: finite]
};

/// Input of one eikonal solve. Holds pointers to fields owned by the caller.
struct EikonalProblem {
    float h = 1.f;                                 ///< Cell size. [Units: m] [Limit: > 0, finite]
    const Field<std::uint8_t>* blocked = nullptr;  ///< 1 = blocked cell, 0 = open. [Size: nx*ny]
    const Field<FaceCost>* cost = nullptr;         ///< Unit cost per face of open cells; +inf closes a face (a wall on it). [Units: 1/(m/s)] [Limit: > 0 on open cells]
    std::vector<EikonalSource> sources;            ///< Goal cells. [Limit: >= 1, open, inside]

    int nx() const { return cost ? cost->nx() : 0; }
    int ny() const { return cost ? cost->ny() : 0; }
};

/// The cells whose potentials a caller will read (EikonalOptions::needed).
/// With it, FimSolver may stop a problem as soon as those cells are final:
/// once the lowest potential still propagating (the FIM's lowest active key)
/// lies above every needed cell's value, no later update can lower them (an
/// update never gives less than the neighbour that triggered it), so they,
/// and every cell below them, already hold the complete solve's values,
/// bitwise. The other cells hold upper bounds until FimSolver::finish().
/// Dijkstra's stopping rule, applied to the FIM's value-ordered tiles.
struct EikonalNeeded {
    /// The bits bits[k] of mask(i, j) mark cell (i, j) for problem k of
    /// solveMany (null: every cell is needed, no early stop).
    const Field<std::uint32_t>* mask = nullptr;
    /// Per problem: the bits of mask that mark its cells (0: every cell
    /// needed). [Size: problems, or empty: no early stop]
    std::vector<std::uint32_t> bits;
    /// Only mask's cells [i0, i1) x [j0, j1) are read (clamped to the grid).
    int i0 = 0, j0 = 0, i1 = 1 << 30, j1 = 1 << 30;
};

/// Solver controls.
struct EikonalOptions {
    /// Convergence tolerance, relative: a change of potential p counts when it
    /// exceeds tolerance * (|p| + h). [Limit: > 0, < 1]
    float tolerance = 1e-9f;
    /// Cap on FIM phases (a phase processes the active tiles of one colour).
    /// 0 = automatic (large enough for any converging problem). [Limit: >= 0]
    int max_iterations = 0;
    /// Most Gauss-Seidel sweeps (in the four diagonal orders) per tile
    /// activation, on both backends. Empty: the backend's default, 8 on the
    /// CPU (the least work) and 6 on CUDA (a GPU phase lasts as long as its
    /// slowest tile: fewer sweeps per activation shorten it). [Limit: >= 1]
    std::optional<int> inner_iterations;
    /// Value-ordered tile scheduling (both backends). A phase runs only active tiles
    /// whose incoming potential is within band_tiles x (tile width x lowest
    /// cost) of the lowest one, a coarse fast-marching order that keeps tiles
    /// from running before their upwind side settled. 0 = plain FIM (all
    /// active tiles every phase). Empty: the backend's default, 4 on the CPU
    /// (the least work) and 16 on CUDA (a GPU phase lasts as long as its
    /// slowest tile and the GPU has warps to spare: a wider band needs
    /// fewer phases and critical sweeps, EikonalStats). [Limit: finite, >= 0]
    std::optional<float> band_tiles;
    /// Most fronts (the diagonals a GPU warp walks, EikonalStats::critical_fronts)
    /// a tile's sweeps may walk per activation, on both backends: the tile
    /// stops after the sweep that reaches it and keeps its dirty cells for
    /// a later activation. 0 = none (the sweep budget alone). Empty: the
    /// backend's default, none on the CPU (the least work) and on CUDA 150
    /// with 4 neighbours, 300 with 8 (a GPU phase lasts as long as its
    /// slowest tile, a tile as long as the fronts it walks). [Limit: 0..1e6]
    std::optional<int> front_budget;
    /// Neighbours the local update reads, the same for FIM (both backends)
    /// and FMM: 4 (the Godunov update; exact along the axes, 1.2% high along
    /// the diagonals 126 cells from a point source) or 8 (plus the triangles
    /// of the diagonals, Tsitsiklis 1995: exact along axes and diagonals,
    /// 0.3% high at 22.5 degrees; about 1.1x the updates and 1.3-2.2x the
    /// CPU time of a solve, bench/results/fim_stencil_2026-11-28_cpu2.md).
    /// [Limit: 4 or 8]
    int stencil = 4;
    /// Validate the problem before solving (costs one pass over the cells).
    bool validate = true;
    /// FIM: start from the previous solve of the same problems (solveMany
    /// with the same problem objects in the same order, on the same grid,
    /// with unchanged blocked cells and sources) when it converged; else
    /// solve cold. The previous potentials are first raised where the new
    /// costs no longer support them, then lowered (kernels/fim_schedule.hpp):
    /// the result is a cold solve's within the tolerance.
    bool warm_start = false;
    /// With warm_start: the cells [changed_i0, changed_i1) x [changed_j0,
    /// changed_j1) whose costs may differ from the previous solve's (the
    /// costs outside must be the same). Default: the whole grid. Clamped to
    /// the grid. [Limit: changed_i0, changed_j0 >= 0]
    int changed_i0 = 0, changed_j0 = 0;
    int changed_i1 = 1 << 30, changed_j1 = 1 << 30;
    /// CUDA: also fill the host copy of the result (false: only its device
    /// copy is written; the caller downloads when it reads). The CPU backend
    /// always writes the host copy.
    bool download = true;
    /// FIM, both backends: stop each problem once the cells it names are
    /// final (EikonalNeeded; EikonalStats::complete false until
    /// FimSolver::finish()). On CUDA the mask is read from its device copy
    /// when it has one (else uploaded).
    EikonalNeeded needed;
    /// CUDA: time the parts of the solve kernel's phases on the device
    /// (EikonalStats::gpu_profile; a few clock reads and atomics per tile,
    /// results unchanged). Ignored by the CPU backend.
    bool profile = false;
};

/// Where a CUDA FIM solve's time went (EikonalOptions::profile): the solve
/// kernel's first thread reads the global timer around each phase's two
/// passes, and each tile's warp its cycle counter around the tile's parts.
/// All zero on the CPU backend and without profile.
struct EikonalGpuProfile {
    double kernel_us = 0;         ///< The solve kernel (both passes of a warm start), start to end. [Units: us]
    double select_us = 0;         ///< Sum over the phases: the select pass, the end test and the barrier after them. [Units: us]
    double process_us = 0;        ///< Sum over the phases: the process pass and the barrier after it. [Units: us]
    double slowest_tiles_us = 0;  ///< Sum over the phases of each phase's slowest tile, staging to report. [Units: us]
    long long tiles = 0;          ///< Tiles processed, all problems.
    double stage_us = 0;          ///< Per tile: staging the tile, its halo and costs in shared memory. [Units: us]
    double sweep_us = 0;          ///< Per sweep of a tile. [Units: us]
    double front_ns = 0;          ///< Per front a sweep walked (EikonalStats::critical_fronts' unit). [Units: ns]
    double tail_us = 0;           ///< Per tile: write-back, the lanes' reduction, the report. [Units: us]
    double clock_ghz = 0;         ///< SM clock during the kernel (cycles over global time), which converts the per-tile parts. [Units: GHz]
};

/// What a solve did.
struct EikonalStats {
    int iterations = 0;           ///< FIM: phases run. FMM: cells frozen.
    long long updates = 0;        ///< Local solver calls.
    double updates_per_cell = 0;  ///< updates / open cells.
    long long tile_activations = 0;  ///< FIM: tiles processed (0 for FMM).
    /// FIM: the sum over the solve's phases of the most sweeps one tile ran
    /// in that phase, on every backend (the same for every problem of a
    /// solveMany; 0 for FMM). A GPU phase lasts as long as its slowest
    /// tile, so with `iterations` it models the GPU solve's latency.
    long long critical_sweeps = 0;
    /// FIM: the same sum for the fronts one tile's sweeps walked (a GPU
    /// warp sweeps a tile front by front and walks only the fronts between
    /// the first and the last that hold a cell to update), on every
    /// backend: what a GPU phase's sweep time follows more closely than its
    /// sweeps. 0 for FMM.
    long long critical_fronts = 0;
    bool converged = false;       ///< False when max_iterations was reached.
    /// False when the solve stopped once the needed cells were final
    /// (EikonalOptions::needed): exact there and below, upper bounds above.
    bool complete = true;
    bool warm = false;            ///< FIM: started from the previous solve (EikonalOptions::warm_start).
    /// CUDA with EikonalOptions::profile: the solve kernel's parts (the same
    /// for every problem of a solveMany).
    EikonalGpuProfile gpu_profile;
};

/// Throws InputError for: non-positive or non-finite h; empty grid; missing
/// or mismatched fields; no sources; a source outside the grid, on a blocked
/// cell or with a non-finite value; a non-positive, NaN or infinite cost on an
/// open cell. The message names the field, cell and allowed values.
void validateEikonalProblem(const EikonalProblem& p, const EikonalOptions& opt = {});

/// The checks of validateEikonalProblem except the scan of the costs (for
/// solvers that scan the costs in a pass of their own).
void validateEikonalSetup(const EikonalProblem& p, const EikonalOptions& opt = {});

/// Throws the InputError of validateEikonalProblem for the bad cost of cell
/// index @p k (i + j*nx).
[[noreturn]] void throwBadEikonalCost(const EikonalProblem& p, std::ptrdiff_t k);

/// Block Fast Iterative Method. Keeps its workspace between solves, so one
/// solver per group and grid size avoids reallocations.
class FimSolver {
public:
    /// @param ex Backend and CPU threads.
    explicit FimSolver(const Exec& ex);
    ~FimSolver();
    FimSolver(FimSolver&&) noexcept;
    FimSolver& operator=(FimSolver&&) noexcept;

    /// Solves @p p into @p phi (resized to nx-by-ny; host values valid on
    /// return, and the device copy too on the CUDA backend).
    EikonalStats solve(const EikonalProblem& p, Field<float>& phi, const EikonalOptions& opt = {});

    /// Solves several problems on one grid together: their tiles share the
    /// phases of one scheduler (on CUDA one kernel launch for all of them),
    /// so k goal sets cost one solve's latency, not k. Results equal k
    /// separate solves exactly.
    /// @param problems Problems with the same grid size, cell size and
    ///                 blocked field (their costs and sources may differ). [Limit: >= 1]
    /// @param phi      One output per problem, resized to nx-by-ny.
    /// @return One EikonalStats per problem (iterations: phases until that
    ///         problem had nothing left to do).
    /// Throws InputError when sizes differ or a problem is invalid.
    std::vector<EikonalStats> solveMany(const std::vector<const EikonalProblem*>& problems,
                                        const std::vector<Field<float>*>& phi, const EikonalOptions& opt = {});

    /// Completes the problems of the last solveMany that stopped early
    /// (EikonalStats::complete false): their phases go on where they
    /// stopped, and the outputs passed to solveMany (which must still
    /// exist) receive the potentials of a solve without
    /// EikonalOptions::needed, within the tolerance (the phases ran in
    /// another order; the needed cells and those below them keep their
    /// values). Returns whether there was anything to do.
    bool finish();

    const Exec& exec() const { return ex_; }

    /// Times each tile of problem @p k was processed in the last solve, per
    /// tile (tx + ty * tilesX, tiles of 32x32 cells): where the solver
    /// worked. Throws InputError when the last solve had no problem @p k.
    std::vector<std::uint32_t> lastTileRuns(int k) const;

    /// Host bytes held by the workspace (for memory reports).
    std::size_t workspaceBytes() const;

private:
    struct Workspace;
    Exec ex_;
    std::unique_ptr<Workspace> ws_;
};

/// Fast Marching Method (Sethian 1996) on the CPU with a binary heap.
EikonalStats solveFmm(const EikonalProblem& p, Field<float>& phi, const EikonalOptions& opt = {});

}  // namespace ccrowd
