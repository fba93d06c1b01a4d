/// @file name_list.cpp
#include "cmd/name_list.hpp"

#include <algorithm>
#include <sstream>

#include "ccrowd/error.hpp"

namespace ccrowd::bench {

std::vector<std::string> parseNameList(const std::string& text, const std::string& field,
                                       const std::vector<std::string>& allowed) {
    std::vector<std::string> v;
    if (text.empty()) return v;
    std::string names;
    for (const std::string& a : allowed) names += (names.empty() ? "" : ", ") + a;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (std::find(allowed.begin(), allowed.end(), item) == allowed.end())
            throw InputError(fieldMessage(field, "'" + item + "'", "not an allowed value", "comma-separated names of: " + names));
        v.push_back(item);
    }
    return v;
}

}  // namespace ccrowd::bench
