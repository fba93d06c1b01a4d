#pragma once
/// @file scan.hpp
/// Exclusive prefix sums of int counts on the Exec's side (Thrust: OpenMP
/// system on the CPU, CUDA on the GPU): the exits' compaction slots and the
/// neighbour lists' first entries. Integer sums: the same result for any
/// thread count.

#include "stages.hpp"

namespace ccrowd::sim {

/// out[k] = in[0] + ... + in[k-1] for k < @p n (device pointers on CUDA;
/// in and out may be the same). @p stage names the caller in errors.
/// [Limit: the total fits an int]
void exclusiveScan(const Exec& ex, const int* in, int* out, int n, const char* stage);

}  // namespace ccrowd::sim
