#pragma once
/// @file direction_error.hpp
/// Directional bias of the eikonal solution (issue 12, Deliver 3): how far
/// a point-source solve on open ground at unit cost deviates from the
/// Euclidean distance along a ray. The Godunov update of
/// kernels/eikonal_update.hpp is exact along the axes and overestimates in
/// between (most along the diagonal), by an error that grows like log r
/// away from the source.

#include "ccrowd/field.hpp"

namespace ccrowd::bench {

/// Deviation of a point-source potential along one ray.
struct DirectionError {
    double angle = 0;          ///< Ray angle from +x. [Units: degrees]
    int radius = 0;            ///< Last sampled distance (cells). [Units: cells]
    double rel_at_radius = 0;  ///< phi / distance - 1 at the last sample. [Units: 1]
    double max_abs = 0;        ///< Largest |phi - distance| over the samples. [Units: cells]
    double max_rel = 0;        ///< Largest |phi / distance - 1| over the samples (near the source). [Units: 1]
};

/// Samples the cells nearest the ray from source cell (@p ci, @p cj) at
/// @p angleDeg for distances 4 .. @p radius cells and compares @p phi
/// (unit cost, source value 0, cell size @p h [m]) with the Euclidean
/// distance between the cell centres. Throws InputError when the ray
/// leaves the grid before @p radius or meets a non-finite potential.
DirectionError directionError(const Field<float>& phi, int ci, int cj, float h, double angleDeg, int radius);

}  // namespace ccrowd::bench
