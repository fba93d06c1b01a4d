#pragma once
/// @file snapshot_frame.hpp
/// One snapshot of grid fields as plain data, independent of the Simulation
/// class: what the snapshot writers (.vti, .npy, .png) take as input.
///
/// Grid convention (as Field<T>): nx-by-ny cells of size h, row-major, cell
/// (i, j) centred at origin + (i + 0.5, j + 0.5) h, x to the right, y up.

#include <cstdint>
#include <string>
#include <vector>

namespace ccrowd::io {

/// One named per-cell field of a snapshot.
struct SnapshotField {
    /// Name used in file names and as the array name, e.g. "density".
    /// [Limit: 1..64 characters from A-Z a-z 0-9 _ -; unique within a frame]
    std::string name;
    /// Units for indexes and plot titles, e.g. "1/m^2", "m/s", "s" (may be empty). ASCII.
    std::string units;
    /// Values per cell: 1 = scalar, 2 = vector (x, y), 4 = per-face values
    /// (east, north, west, south). [Limit: 1..4]
    int components = 1;
    /// Component c of cell (i, j) at (j*nx + i)*components + c. May hold
    /// +-inf and NaN (e.g. an unreachable potential). [Size: nx*ny*components]
    std::vector<float> data;
};

/// A set of fields on one grid at one instant.
struct SnapshotFrame {
    double time = 0.0;           ///< Simulated time. [Units: s] [Limit: finite]
    long long step = 0;          ///< Step count at @c time. [Limit: >= 0]
    int nx = 0;                  ///< Cells along x. [Limit: >= 1]
    int ny = 0;                  ///< Cells along y. [Limit: >= 1]
    float h = 1.f;               ///< Cell size. [Units: m] [Limit: finite, > 0]
    float origin_x = 0.f;        ///< x of the grid's lower-left corner. [Units: m] [Limit: finite]
    float origin_y = 0.f;        ///< y of the grid's lower-left corner. [Units: m] [Limit: finite]
    std::vector<SnapshotField> fields;  ///< Fields, written in this order. [Limit: >= 1]
    /// Wall mask for drawing walls in heat maps: 1 = wall, 0 = open; null
    /// when there are none. Not copied: must outlive the write. [Size: nx*ny]
    const std::uint8_t* blocked = nullptr;
};

/// Throws Error, naming the frame's step and the offending field, when
/// @p frame breaks a limit above: grid size, cell size, origin, time, step,
/// field names (characters, length, duplicates), components, or a data size
/// other than nx*ny*components.
void validateSnapshotFrame(const SnapshotFrame& frame);

/// Empty when @p a and @p b have the same grid (nx, ny, h, origin) and the
/// same fields (names, units, components, in order); otherwise what differs,
/// e.g. "nx 64 != 32". Data, time and step are not compared.
std::string snapshotLayoutDifference(const SnapshotFrame& a, const SnapshotFrame& b);

}  // namespace ccrowd::io
