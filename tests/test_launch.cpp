/// @file test_launch.cpp
/// The CPU loops' thread thresholds (kernels/launch.hpp): the wait policy
/// they depend on is read as OpenMP reads it, and the tests' override
/// (all_loops_parallel.hpp) splits small loops.

#include <omp.h>

#include <atomic>
#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "kernels/launch.hpp"

namespace ccrowd {
namespace {

/// Sets OMP_WAIT_POLICY for the scope (unset for null) and restores it.
class WaitPolicy {
public:
    explicit WaitPolicy(const char* value) {
        const char* old = std::getenv("OMP_WAIT_POLICY");
        had_ = old != nullptr;
        if (had_) saved_ = old;
        if (value) setenv("OMP_WAIT_POLICY", value, 1);
        else unsetenv("OMP_WAIT_POLICY");
    }
    ~WaitPolicy() {
        if (had_) setenv("OMP_WAIT_POLICY", saved_.c_str(), 1);
        else unsetenv("OMP_WAIT_POLICY");
    }

private:
    bool had_ = false;
    std::string saved_;
};

TEST(LaunchThreads, TheCellThresholdFollowsTheWaitPolicyOfTheProcess) {
    // read once, from the environment the process started with
    EXPECT_EQ(minParallelCells(), ompWaitPolicyPassive() ? kMinParallelCellsPassive : kMinParallelItems);
    EXPECT_GT(kMinParallelCellsPassive, kMinParallelItems);
}

TEST(LaunchThreads, PassiveIsReadInAnyCaseAndNothingElseIs) {
    for (const char* yes : {"passive", "PASSIVE", "Passive"}) {
        const WaitPolicy p(yes);
        EXPECT_TRUE(ompWaitPolicyPassive()) << yes;
    }
    for (const char* no : {"active", "ACTIVE", "", "pass", "passivex", " passive"}) {
        const WaitPolicy p(no);
        EXPECT_FALSE(ompWaitPolicyPassive()) << "'" << no << "'";
    }
    const WaitPolicy unset(nullptr);
    EXPECT_FALSE(ompWaitPolicyPassive());
}

/// Records the largest OpenMP team that ran a loop's items.
struct TeamSize {
    std::atomic<int>* most;
    void record() const {
        const int n = omp_get_num_threads();
        for (int m = most->load(); n > m && !most->compare_exchange_weak(m, n);) {
        }
    }
    void operator()(int) const { record(); }
    void operator()(int, int) const { record(); }
};

TEST(LaunchThreads, TheTestsOverrideSplitsSmallLoopsAndIsUndoneAfter) {
    const Exec two{Backend::Cpu, 2};
    std::atomic<int> items{0}, cells{0};
    const long long itemsBefore = minParallelItems(), cellsBefore = minParallelCells();
    // 64 items, 8 x 8 cells: below the thresholds, a team of one
    forEachIndex(two, 64, TeamSize{&items});
    forEachCell(two, CellRange{0, 0, 8, 8}, TeamSize{&cells});
    EXPECT_EQ(items.load(), 1);
    EXPECT_EQ(cells.load(), 1);
    {
        const test::AllLoopsParallel parallel;
        EXPECT_EQ(minParallelItems(), 1);
        EXPECT_EQ(minParallelCells(), 1);
        // the same loops in a team of the Exec's two threads
        items = 0, cells = 0;
        forEachIndex(two, 64, TeamSize{&items});
        forEachCell(two, CellRange{0, 0, 8, 8}, TeamSize{&cells});
        EXPECT_EQ(items.load(), 2);
        EXPECT_EQ(cells.load(), 2);
    }
    EXPECT_EQ(minParallelItems(), itemsBefore);
    EXPECT_EQ(minParallelCells(), cellsBefore);
}

}  // namespace
}  // namespace ccrowd
