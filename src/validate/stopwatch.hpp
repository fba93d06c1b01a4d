#pragma once
/// @file stopwatch.hpp
/// Wall time of a validation case.

#include <chrono>

namespace ccrowd::validate {

/// Starts when constructed.
class Stopwatch {
public:
    /// Wall time since construction. [Units: s]
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace ccrowd::validate
