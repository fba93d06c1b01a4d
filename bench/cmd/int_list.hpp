#pragma once
/// @file int_list.hpp
/// Comma-separated integer lists of the bench options (--sizes, --agents ...).

#include <string>
#include <vector>

namespace ccrowd::bench {

/// Parses "64,256,1024" into integers within [lo, hi]; throws InputError
/// naming @p field, the bad item and the allowed range.
std::vector<int> parseIntList(const std::string& text, const std::string& field, long lo, long hi);

}  // namespace ccrowd::bench
