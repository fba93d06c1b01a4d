#pragma once
/// @file all_loops_parallel.hpp
/// For tests that compare 1 and 2 CPU threads: below a few thousand items
/// or cells (kernels/launch.hpp; 16,384 cells under OMP_WAIT_POLICY=passive,
/// as CI runs) a loop runs on one thread whatever its Exec says, so on the
/// small scenes of the tests both runs would be single-threaded and the
/// comparison could not fail. In this scope every loop of two or more items
/// runs on all of its Exec's threads.

#include "kernels/launch.hpp"

namespace ccrowd::test {

class AllLoopsParallel {
public:
    AllLoopsParallel() : before_(minParallelOverride().exchange(1)) {}
    ~AllLoopsParallel() { minParallelOverride().store(before_); }
    AllLoopsParallel(const AllLoopsParallel&) = delete;
    AllLoopsParallel& operator=(const AllLoopsParallel&) = delete;

private:
    long long before_;
};

}  // namespace ccrowd::test
