/// @file thread_cpu_time.cpp
#include "io/thread_cpu_time.hpp"

#include <time.h>

namespace ccrowd::io {

double threadCpuSeconds() {
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0.0;
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace ccrowd::io
