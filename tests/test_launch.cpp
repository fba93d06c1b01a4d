/// @file test_launch.cpp
/// The CPU loops' thread thresholds (kernels/launch.hpp): the wait policy
/// they depend on is read as OpenMP reads it.

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ccrowd
