#pragma once
/// @file potential.hpp
/// Potential stage: the eikonal solve per goal set, by the block Fast
/// Iterative Method whose one scheduler (both backends) is fim_schedule.hpp.
/// This header adds the per-cell copy of a solved field out of the padded
/// workspace; the launchers are potential.cu (CPU, OpenMP) and
/// potential_cuda.cuh (CUDA, included by potential.cu under nvcc).

#include "ccrowd/field.hpp"
#include "fim_schedule.hpp"

namespace ccrowd {

/// Copies field f's padded potentials into an nx-by-ny view (forEachCell).
struct FimCopyOut {
    FimSchedView v;
    int f;             ///< Field index.
    View2<float> out;  ///< [Size: nx*ny]
    CC_HD void operator()(int i, int j) const { out(i, j) = v.phiOf(f)[v.g.padded(i, j)]; }
};

}  // namespace ccrowd
