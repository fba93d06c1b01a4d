#pragma once
/// @file potential.hpp
/// Potential stage: tile geometry and activation rules of the block Fast
/// Iterative Method (Jeong & Whitaker 2008, §4 "block FIM"), shared by the CPU
/// and CUDA launchers in potential.cu / potential_cuda.cuh.
///
/// The grid is cut into kFimTile x kFimTile tiles coloured like a checkerboard.
/// A phase processes the active tiles of one colour; tiles of one colour share
/// no halo cells (the 4-neighbour stencil only reaches edge-adjacent tiles), so
/// they run in parallel without races and results do not depend on thread
/// count or scheduling. A processed tile whose edge cells dropped by more than
/// the tolerance activates the neighbour across that edge for the next phase;
/// a tile that did not converge within its inner sweeps stays active.

#include <cstdint>

#include "eikonal_update.hpp"
#include "hd.hpp"

namespace ccrowd {

/// Tile edge in cells on the GPU (a 16x16 thread block).
constexpr int kFimTile = 16;
/// Tile edge in cells on the CPU: a thread sweeps a whole tile, and larger
/// tiles mean fewer activations and phases (measured: 32 is ~15-30% faster
/// than 16 on 1024^2 grids with 2 threads).
constexpr int kFimCpuTile = 32;

/// Cell kinds in the FIM/FMM workspace.
enum FimCellKind : std::uint8_t { kCellOpen = 0, kCellBlocked = 1, kCellSource = 2 };

/// Bits a processed tile reports: which neighbour tiles to activate.
enum FimTileFlag : unsigned {
    kActivateE = 1u,     ///< Tile (tx+1, ty)
    kActivateN = 2u,     ///< Tile (tx, ty+1)
    kActivateW = 4u,     ///< Tile (tx-1, ty)
    kActivateS = 8u,     ///< Tile (tx, ty-1)
    kActivateSelf = 16u  ///< Not converged within the inner sweeps.
};

/// Grid and tiling of one solve. Potentials live in a padded array of
/// (nx + 2) x (ny + 2) floats whose border is +inf, so the local update needs
/// no bounds checks.
struct FimGrid {
    int nx = 0, ny = 0;          ///< Cells. [Limit: >= 1]
    int tileSize = kFimTile;     ///< Tile edge in cells.
    int tilesX = 0, tilesY = 0;  ///< Tiles: ceil(n / tileSize).
    int pitch = 0;               ///< Row length of the padded array: nx + 2.
    float h = 1.f;               ///< Cell size. [Units: m]
    float tol = 1e-6f;           ///< Relative tolerance (eikonalTolerance).

    /// Index of cell (i, j) in the padded potential array.
    CC_HD int padded(int i, int j) const { return (i + 1) + (j + 1) * pitch; }
    /// Index of cell (i, j) in nx-by-ny arrays (costs, kinds).
    CC_HD int cell(int i, int j) const { return i + j * nx; }
    /// Index of tile (tx, ty).
    CC_HD int tile(int tx, int ty) const { return tx + ty * tilesX; }
    /// Checkerboard colour of tile (tx, ty): 0 or 1.
    CC_HD static int colour(int tx, int ty) { return (tx + ty) & 1; }
};

/// Makes the tiling for an nx-by-ny grid with @p tile x @p tile tiles.
inline FimGrid makeFimGrid(int nx, int ny, float h, float tol, int tile = kFimTile) {
    FimGrid g;
    g.nx = nx; g.ny = ny; g.h = h; g.tol = tol;
    g.tileSize = tile;
    g.tilesX = (nx + tile - 1) / tile;
    g.tilesY = (ny + tile - 1) / tile;
    g.pitch = nx + 2;
    return g;
}

/// Local update of open cell (i, j) from the padded potentials.
CC_HD inline float fimCellUpdate(const float* phi, const FaceCost* cost, const FimGrid& g, int i, int j) {
    const int p = g.padded(i, j);
    return eikonalUpdate(phi[p + 1], phi[p - 1], phi[p + g.pitch], phi[p - g.pitch], cost[g.cell(i, j)], g.h);
}

/// True when tile (tx, ty) must run next, given the flags every tile
/// reported in the previous phase (flags[tile], 0 for tiles not processed).
CC_HD inline bool fimTileActivated(const unsigned* flags, const FimGrid& g, int tx, int ty) {
    return (flags[g.tile(tx, ty)] & kActivateSelf) ||
           (tx > 0 && (flags[g.tile(tx - 1, ty)] & kActivateE)) ||
           (tx + 1 < g.tilesX && (flags[g.tile(tx + 1, ty)] & kActivateW)) ||
           (ty > 0 && (flags[g.tile(tx, ty - 1)] & kActivateN)) ||
           (ty + 1 < g.tilesY && (flags[g.tile(tx, ty + 1)] & kActivateS));
}

/// True when an edge cell's drop from @p before to @p after must be passed to
/// the neighbour tile.
CC_HD inline bool fimEdgeChanged(float before, float after, const FimGrid& g) {
    return after < before && before - after > eikonalTolerance(after, g.tol, g.h);
}

}  // namespace ccrowd
