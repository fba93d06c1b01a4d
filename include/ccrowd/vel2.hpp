#pragma once
/// @file vel2.hpp
/// A 2-vector per grid cell (velocities of the fields of DESIGN.md §2),
/// shared by the kernels and the public state view.

namespace ccrowd {

/// A 2-vector per cell. [Units: m/s for velocities]
struct alignas(8) Vel2 {
    float x = 0.f;  ///< Along +x.
    float y = 0.f;  ///< Along +y.
};

}  // namespace ccrowd
