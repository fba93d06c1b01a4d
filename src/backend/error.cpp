/// @file error.cpp
#include "ccrowd/error.hpp"

namespace ccrowd {

std::string fieldMessage(const std::string& field, const std::string& value, const std::string& problem,
                         const std::string& allowed) {
    return field + " = " + value + ": " + problem + " (allowed: " + allowed + ")";
}

}  // namespace ccrowd
