/// @file test_sort_by_key.cpp
/// sortByKey, per backend: the unique stable sort (by key, then agent
/// index) for every size and key range, including the CPU radix sort's
/// edges (one pass, several passes, an odd number of passes, chunks smaller
/// than the thread count's), and a clear error for an empty key range.

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "backends.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/field.hpp"
#include "kernels/sort_by_key.hpp"

namespace ccrowd::test {
namespace {

class SortByKey : public ::testing::TestWithParam<Exec> {};

/// Sorts @p keys (with order = identity) on @p ex; the keys and order after.
void sortOn(const Exec& ex, std::vector<int>& keys, std::vector<int>& order, int keyCount) {
    Array<int> k, o;
    k.vector() = keys;
    o.vector().resize(keys.size());
    std::iota(o.vector().begin(), o.vector().end(), 0);
    if (ex.backend == Backend::Cuda) { k.upload(); o.upload(); }
    sim::sortByKey(ex, k.view(ex).data, o.view(ex).data, static_cast<int>(keys.size()), keyCount, "test");
    if (ex.backend == Backend::Cuda) { k.download(); o.download(); }
    keys = k.vector();
    order = o.vector();
}

TEST_P(SortByKey, EqualsTheStableSortForEverySizeAndKeyRange) {
    std::mt19937 rng(7);
    // key ranges of 1 to 3 radix passes (11 bits each), the splat's nx*ny + 1 at 4096^2 among them
    for (int keyCount : {1, 2, 2048, 2049, 1 << 22, (1 << 24) + 1}) {
        for (int n : {0, 1, 2, 3, 100, 5000, 100000}) {
            std::vector<int> keys(static_cast<std::size_t>(n));
            // half the runs nearly sorted (agents after the splat), half random
            for (int q = 0; q < n; ++q)
                keys[static_cast<std::size_t>(q)] =
                    n % 2 ? static_cast<int>(static_cast<long long>(q) * (keyCount - 1) / std::max(n - 1, 1)) ^ (q & 3) % keyCount
                          : static_cast<int>(rng() % static_cast<unsigned>(keyCount));
            for (int& k : keys) k = std::min(std::max(k, 0), keyCount - 1);
            // expected: indices stably sorted by key
            std::vector<int> want(static_cast<std::size_t>(n));
            std::iota(want.begin(), want.end(), 0);
            std::stable_sort(want.begin(), want.end(), [&](int a, int b) { return keys[a] < keys[b]; });
            std::vector<int> got = keys, order;
            sortOn(GetParam(), got, order, keyCount);
            ASSERT_EQ(order, want) << "n " << n << ", keys " << keyCount;
            for (int q = 0; q < n; ++q) ASSERT_EQ(got[q], keys[want[q]]) << q;
        }
    }
}

TEST_P(SortByKey, AnEmptyKeyRangeIsRefusedNamingTheStage) {
    std::vector<int> keys{0, 0}, order;
    try {
        sortOn(GetParam(), keys, order, 0);
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("test sort keys"), std::string::npos) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(PerBackend, SortByKey, ::testing::ValuesIn(testExecs()), ExecParamName());

}  // namespace
}  // namespace ccrowd::test
