/// @file median.cpp
#include "cmd/median.hpp"

#include <algorithm>

namespace ccrowd::bench {

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace ccrowd::bench
