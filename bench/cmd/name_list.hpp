#pragma once
/// @file name_list.hpp
/// Comma-separated name lists of the bench options (--local ...).

#include <string>
#include <vector>

namespace ccrowd::bench {

/// Parses "social_force,zones" into names, each one of @p allowed; "" gives
/// an empty list. Throws InputError naming @p field, the bad item and the
/// allowed names.
std::vector<std::string> parseNameList(const std::string& text, const std::string& field,
                                       const std::vector<std::string>& allowed);

}  // namespace ccrowd::bench
