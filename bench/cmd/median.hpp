#pragma once
/// @file median.hpp
/// The median the benchmarks report.

#include <vector>

namespace ccrowd::bench {

/// Median of @p v (mean of the two middle values for an even count; 0 when empty).
double median(std::vector<double> v);

}  // namespace ccrowd::bench
