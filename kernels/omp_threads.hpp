#pragma once
/// @file omp_threads.hpp
/// Thrust's OpenMP system (thrust::omp::par) uses OpenMP's default thread
/// count; this scope sets it to the Exec's CPU threads (one below
/// minParallelItems() items, launch.hpp) and restores it.

#include <omp.h>

#include "ccrowd/backend.hpp"
#include "launch.hpp"

namespace ccrowd {

/// Sets omp_set_num_threads(cpuThreads(ex)) for the scope's lifetime, or 1
/// when the work has fewer than minParallelItems() @p items.
class OmpThreads {
public:
    OmpThreads(const Exec& ex, long long items) : before_(omp_get_max_threads()) {
        omp_set_num_threads(items >= minParallelItems() ? cpuThreads(ex) : 1);
    }
    ~OmpThreads() { omp_set_num_threads(before_); }
    OmpThreads(const OmpThreads&) = delete;
    OmpThreads& operator=(const OmpThreads&) = delete;

private:
    int before_;
};

}  // namespace ccrowd
