#pragma once
/// @file reduce.hpp
/// The largest of a float array on the Exec's side (Thrust: OpenMP system
/// on the CPU, CUDA on the GPU), one float back to the host: the pressure's
/// residual, the density grid's peak, the social force's largest move since
/// its lists were built. A max of non-NaN values: the same result for any
/// thread count and order.

#include "stages.hpp"

namespace ccrowd::sim {

/// max(0, d[0], ..., d[n-1]) (device pointer on CUDA; 0 for n <= 0). NaNs
/// are not allowed (the result would depend on the order). On CUDA the
/// result's 4 bytes are counted as a copy to the host (device::countCopy).
/// @p stage names the caller in errors.
float maxOf(const Exec& ex, const float* d, int n, const char* stage);

}  // namespace ccrowd::sim
