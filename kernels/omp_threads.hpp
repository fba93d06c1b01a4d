#pragma once
/// @file omp_threads.hpp
/// Thrust's OpenMP system (thrust::omp::par) uses OpenMP's default thread
/// count; this scope sets it to the Exec's CPU threads and restores it.

#include <omp.h>

#include "ccrowd/backend.hpp"

namespace ccrowd {

/// Sets omp_set_num_threads(cpuThreads(ex)) for the scope's lifetime.
class OmpThreads {
public:
    explicit OmpThreads(const Exec& ex) : before_(omp_get_max_threads()) { omp_set_num_threads(cpuThreads(ex)); }
    ~OmpThreads() { omp_set_num_threads(before_); }
    OmpThreads(const OmpThreads&) = delete;
    OmpThreads& operator=(const OmpThreads&) = delete;

private:
    int before_;
};

}  // namespace ccrowd
