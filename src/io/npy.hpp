#pragma once
/// @file npy.hpp
/// NumPy .npy files (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
/// writers produce format version 1.0, little-endian, C order; readers accept
/// versions 1.0, 2.0 and 3.0 and validate magic, header, dtype, order and size.
///
/// 2-D arrays map to Field<T> as shape (ny, nx): row j of the array is grid
/// row y = j, element [j, i] is cell (i, j). Writes are atomic ("<path>.tmp"
/// then rename). Errors name the file path and what was wrong: InputError for
/// a bad or unreadable file or path, Error for a failed write (e.g. disk full).

#include <cstdint>
#include <string>
#include <vector>

#include "ccrowd/field.hpp"

namespace ccrowd::io {

/// Writes @p f as a 2-D '<f4' array of shape (ny, nx).
void writeNpy(const std::string& path, const Field<float>& f);
/// Writes @p f as a 2-D '<f8' array of shape (ny, nx).
void writeNpy(const std::string& path, const Field<double>& f);
/// Writes @p f as a 2-D '|u1' array of shape (ny, nx) (e.g. a blocked mask).
void writeNpy(const std::string& path, const Field<std::uint8_t>& f);
/// Writes @p v as a 1-D '<f8' array of shape (n,).
void writeNpy1(const std::string& path, const std::vector<double>& v);
/// Writes a row-major grid of @p components floats per cell as a '<f4' array
/// of shape (ny, nx) when components == 1, else (ny, nx, components):
/// element [j, i, c] is component c of cell (i, j).
/// Throws Error for a negative size or components outside 1..64.
/// @param data Cell (i, j) component c at (j*nx + i)*components + c. [Size: nx*ny*components]
void writeNpyGrid(const std::string& path, const float* data, int nx, int ny, int components);

/// An N-D float array as read from a .npy file.
struct NpyFloatArray {
    std::vector<long long> shape;  ///< Dimensions, outermost first (C order).
    std::vector<float> data;       ///< Elements in C order. [Size: product of shape]
};

/// Reads a 2-D '<f4' or '<f8' (converted to float: values beyond float range
/// become +-inf) C-order array of shape (ny, nx). [Limit: nx, ny <= INT_MAX]
Field<float> readNpyFloat(const std::string& path);
/// Reads a 2-D '|u1' C-order array of shape (ny, nx).
Field<std::uint8_t> readNpyU8(const std::string& path);
/// Reads a 1-D '<f8' or '<f4' (converted) array of shape (n,).
std::vector<double> readNpyDoubles(const std::string& path);
/// Reads a '<f4' or '<f8' (converted to float like readNpyFloat) C-order
/// array of any rank, e.g. the (ny, nx, c) grids of writeNpyGrid.
/// [Limit: every dimension <= INT_MAX]
NpyFloatArray readNpyFloatArray(const std::string& path);

}  // namespace ccrowd::io
