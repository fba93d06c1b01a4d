/// @file test_run_pool.cpp
/// The validation's run pool (src/validate/run_pool.hpp): results in run
/// order whatever order the runs end in, each concurrent run on one CPU
/// thread, the lowest failing run's error, and one run at a time on CUDA;
/// and a validation case whose runs go to two threads gives the report it
/// gives on one.

#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "src/validate/cases.hpp"
#include "src/validate/run_pool.hpp"

namespace ccrowd {
namespace {

TEST(RunPool, ResultsComeBackInRunOrderWhenLaterRunsEndFirst) {
    const Exec two{Backend::Cpu, 2};
    std::mutex m;
    std::vector<int> ended;
    std::set<int> threadsSeen;
    const std::vector<int> out = validate::mapRuns<int>(two, 8, [&](const Exec& runEx, int k) {
        // early runs take longest, so the later ones end first
        std::this_thread::sleep_for(std::chrono::milliseconds(5 * (8 - k)));
        const std::lock_guard<std::mutex> lock(m);
        ended.push_back(k);
        threadsSeen.insert(runEx.threads);
        return 10 * k + 1;
    });
    ASSERT_EQ(out.size(), 8u);
    for (int k = 0; k < 8; ++k) EXPECT_EQ(out[k], 10 * k + 1) << "run " << k;
    // the runs did overlap (else they would have ended in order), each on one thread
    EXPECT_NE(ended, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(threadsSeen, (std::set<int>{1}));
}

TEST(RunPool, LowestFailingRunsErrorIsRethrownAfterAllEnded) {
    for (int threads : {1, 2}) {
        std::mutex m;
        int ran = 0;
        try {
            (void)validate::mapRuns<int>(Exec{Backend::Cpu, threads}, 6, [&](const Exec&, int k) {
                {
                    const std::lock_guard<std::mutex> lock(m);
                    ++ran;
                }
                if (k == 4) throw std::runtime_error("run 4");
                if (k == 2) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // ends after 4 has thrown
                    throw std::runtime_error("run 2");
                }
                return k;
            });
            ADD_FAILURE() << "no error with " << threads << " threads";
        } catch (const std::runtime_error& e) {
            EXPECT_EQ(std::string(e.what()), "run 2") << threads << " threads";
        }
        // with one thread the first error ends the loop; with two every run ends first
        EXPECT_EQ(ran, threads == 1 ? 3 : 6) << threads << " threads";
    }
}

TEST(RunPool, OneRunAtATimeOnCudaAndWithOneThread) {
    EXPECT_EQ(validate::concurrentRuns(Exec{Backend::Cuda, 8}, 10), 1);
    EXPECT_EQ(validate::concurrentRuns(Exec{Backend::Cpu, 1}, 10), 1);
    EXPECT_EQ(validate::concurrentRuns(Exec{Backend::Cpu, 4}, 10), 4);
    EXPECT_EQ(validate::concurrentRuns(Exec{Backend::Cpu, 4}, 3), 3);  // no idle threads
    // sequential runs get the caller's Exec and run on the caller's thread
    const std::thread::id caller = std::this_thread::get_id();
    const Exec cuda{Backend::Cuda, 8};
    const std::vector<int> out = validate::mapRuns<int>(cuda, 3, [&](const Exec& runEx, int k) {
        EXPECT_EQ(runEx.backend, Backend::Cuda);
        EXPECT_EQ(runEx.threads, 8);
        EXPECT_EQ(std::this_thread::get_id(), caller);
        return k;
    });
    EXPECT_EQ(out, (std::vector<int>{0, 1, 2}));
}

/// The criteria of @p a and @p b are the same, name by name and value by value.
void expectSameCriteria(const std::vector<validate::Criterion>& a, const std::vector<validate::Criterion>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].name, b[k].name) << k;
        EXPECT_EQ(a[k].measured, b[k].measured) << a[k].name;
        EXPECT_EQ(a[k].allowed, b[k].allowed) << a[k].name;
        EXPECT_EQ(a[k].pass, b[k].pass) << a[k].name;
    }
}

TEST(RunPool, DoorSeriesOnTwoThreadsGivesTheReportOfOne) {
    // two doors, on one grid (the wide ones: the shortest runs)
    const std::vector<double> widths{1.6, 2.4}, cells{0.25};
    const validate::DoorSeriesResult one = validate::doorWidthSeries(Exec{Backend::Cpu, 1}, widths, cells);
    const validate::DoorSeriesResult two = validate::doorWidthSeries(Exec{Backend::Cpu, 2}, widths, cells);
    expectSameCriteria(one.criteria, two.criteria);
    expectSameCriteria(one.preconditions, two.preconditions);
    ASSERT_EQ(one.doors.size(), 2u);
    ASSERT_EQ(two.doors.size(), 2u);
    ASSERT_EQ(one.scenes.size(), two.scenes.size());
    for (std::size_t k = 0; k < 2; ++k) {
        EXPECT_EQ(two.doors[k].width, widths[k]);
        EXPECT_EQ(one.doors[k].persons, two.doors[k].persons) << widths[k] << " m door";
        EXPECT_EQ(one.doors[k].end_time, two.doors[k].end_time) << widths[k] << " m door";
        EXPECT_EQ(one.scenes[k].name, two.scenes[k].name);
        EXPECT_EQ(one.scenes[k].json, two.scenes[k].json);
    }
    // the doors differ, so a run's result in another run's place would show
    EXPECT_LT(one.doors[0].persons, one.doors[1].persons);
}

}  // namespace
}  // namespace ccrowd
