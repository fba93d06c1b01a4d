/// @file test_backends.cpp
/// What the per-backend instantiation covers on this machine.

#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "backends.hpp"

namespace ccrowd::test {
namespace {

TEST(Backends, CpuAlwaysInstantiatedWithOneAndTwoThreads) {
    const std::vector<Exec> ex = testExecs();
    auto has = [&](Backend b, int t) {
        return std::any_of(ex.begin(), ex.end(), [&](const Exec& e) { return e.backend == b && e.threads == t; });
    };
    EXPECT_TRUE(has(Backend::Cpu, 1));
    EXPECT_TRUE(has(Backend::Cpu, 2));
}

TEST(Backends, CudaInstantiatedExactlyWhenUsable) {
    std::string why;
    const bool usable = cudaUsable(&why);
    const std::vector<Exec> ex = testExecs();
    const bool listed = std::any_of(ex.begin(), ex.end(), [](const Exec& e) { return e.backend == Backend::Cuda; });
    EXPECT_EQ(listed, usable);
    if (!usable) {
        EXPECT_FALSE(why.empty()) << "cudaUsable() must say why the GPU is unusable";
        // Reported as skipped, so a CPU-only run never reads as "CUDA passed".
        GTEST_SKIP() << "no CUDA instances of the per-backend tests: " << why;
    }
}

}  // namespace
}  // namespace ccrowd::test
