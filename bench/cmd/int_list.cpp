/// @file int_list.cpp
#include "cmd/int_list.hpp"

#include <sstream>

#include "ccrowd/error.hpp"

namespace ccrowd::bench {

std::vector<int> parseIntList(const std::string& text, const std::string& field, long lo, long hi) {
    std::vector<int> v;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        std::size_t used = 0;
        long x = 0;
        try { x = std::stol(item, &used); } catch (const std::exception&) { used = 0; }
        if (item.empty() || used != item.size() || x < lo || x > hi)
            throw InputError(fieldMessage(field, "'" + item + "'", "not an allowed value",
                                          "comma-separated integers " + std::to_string(lo) + ".." + std::to_string(hi)));
        v.push_back(static_cast<int>(x));
    }
    if (v.empty()) throw InputError(fieldMessage(field, "''", "empty list", "comma-separated integers"));
    return v;
}

}  // namespace ccrowd::bench
