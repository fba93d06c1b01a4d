#pragma once
/// @file run_pool.hpp
/// A validation case's independent simulation runs (seeds, angles, doors,
/// densities), several at once on the CPU backend: each run on one thread,
/// as many runs at a time as the case's Exec has threads. Every run is
/// deterministic and the results come back in run order, so the report is
/// the same for any thread count (tests/test_run_pool.cpp,
/// RunPool.DoorSeriesOnTwoThreadsGivesTheReportOfOne). These scenes are
/// small (200-1000 persons): one thread per run keeps both cores busy,
/// where two threads in one run spent most of their time waiting.

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

#include "ccrowd/backend.hpp"

namespace ccrowd::validate {

/// Runs at once for @p ex: its CPU threads on the CPU backend (at most
/// @p runs), 1 on CUDA (one device; its runs take turns).
inline int concurrentRuns(const Exec& ex, int runs) {
    if (ex.backend != Backend::Cpu) return 1;
    return std::max(1, std::min(cpuThreads(ex), runs));
}

/// The Exec of a run that has the CPU to itself but is small (a lone
/// walker, 20 persons): one CPU thread, or @p ex on CUDA.
inline Exec loneRun(const Exec& ex) { return ex.backend == Backend::Cpu ? Exec{Backend::Cpu, 1} : ex; }

/// Calls @p task(runEx, k) for k = 0 .. @p runs - 1 and returns the results
/// in that order. With concurrentRuns(ex, runs) > 1 the calls run on that
/// many threads, each with runEx = {Cpu, 1 thread}; otherwise one after
/// another with runEx = @p ex. When calls throw, the one with the lowest k
/// is rethrown after every call has ended. T must be default-constructible.
template <class T, class Task>
std::vector<T> mapRuns(const Exec& ex, int runs, const Task& task) {
    std::vector<T> out(static_cast<std::size_t>(std::max(runs, 0)));
    const int workers = concurrentRuns(ex, runs);
    if (workers <= 1) {
        for (int k = 0; k < runs; ++k) out[k] = task(ex, k);
        return out;
    }
    const Exec one{Backend::Cpu, 1};
    std::vector<std::exception_ptr> errors(out.size());
    std::atomic<int> next{0};
    // each worker takes the next run until none is left
    auto work = [&] {
        for (int k = next++; k < runs; k = next++) {
            try {
                out[k] = task(one, k);
            } catch (...) {
                errors[k] = std::current_exception();
            }
        }
    };
    std::vector<std::thread> pool;
    try {
        for (int w = 1; w < workers; ++w) pool.emplace_back(work);
    } catch (const std::system_error&) {
        // no more threads to be had: the ones started and this one share the runs
    }
    work();
    for (std::thread& t : pool) t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
    return out;
}

}  // namespace ccrowd::validate
