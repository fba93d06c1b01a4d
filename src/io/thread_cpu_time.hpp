#pragma once
/// @file thread_cpu_time.hpp
/// CPU time of the calling thread, for the cost of background writers.

namespace ccrowd::io {

/// CPU time the calling thread has used so far (0 where the system cannot
/// tell). [Units: s]
double threadCpuSeconds();

}  // namespace ccrowd::io
