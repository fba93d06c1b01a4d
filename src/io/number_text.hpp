#pragma once
/// @file number_text.hpp
/// The shortest decimal text of a double that reads back as the same double
/// (std::to_chars), for numbers that files keep exactly.

#include <charconv>
#include <string>

namespace ccrowd::io {

/// Shortest round-trip decimal of @p v ("0.1", "1e+20", "inf", "nan").
inline std::string shortestText(double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

}  // namespace ccrowd::io
