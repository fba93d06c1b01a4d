/// @file background_thread.cpp
#include "io/background_thread.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

namespace ccrowd::io {

bool runOnIdleCores() {
#if defined(__linux__) && defined(SCHED_IDLE)
    // SCHED_IDLE: scheduled only when no normal thread wants the core (no privilege needed).
    sched_param none{};
    if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &none) == 0) return true;
    // Fallback: nice 19 for this thread only (Linux setpriority takes a thread id).
    const auto tid = static_cast<id_t>(syscall(SYS_gettid));
    return setpriority(PRIO_PROCESS, tid, 19) == 0;
#else
    return false;
#endif
}

double threadCpuSeconds() {
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0.0;
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace ccrowd::io
