#pragma once
/// @file face_cost.hpp
/// The unit cost per cell face that the eikonal solvers take
/// (include/ccrowd/eikonal.hpp) and the kernels compute (kernels/cost.hpp).

namespace ccrowd {

/// Unit cost of leaving a cell through each face (Treuille et al. 2006,
/// C(x, theta) on the four directions). Isotropic cost: e = n = w = s.
/// [Units: 1/(m/s), i.e. s per m of path] [Limit: > 0, finite on open cells]
struct alignas(16) FaceCost {
    float e = 1.f;  ///< Towards +x.
    float n = 1.f;  ///< Towards +y.
    float w = 1.f;  ///< Towards -x.
    float s = 1.f;  ///< Towards -y.
};

}  // namespace ccrowd
