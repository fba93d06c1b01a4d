/// @file case_result.cpp
/// Criteria bookkeeping and number formatting shared by the cases.

#include "case_result.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

namespace ccrowd::validate {

bool CaseResult::passed() const {
    if (criteria.empty()) return false;
    for (const Criterion& c : criteria)
        if (!c.pass) return false;
    for (const Criterion& c : preconditions)
        if (!c.pass) return false;
    return true;
}

bool CaseResult::require(std::string name, std::string measured, std::string allowed, bool pass) {
    preconditions.push_back(Criterion{std::move(name), std::move(measured), std::move(allowed), pass});
    return pass;
}

bool CaseResult::check(std::string name, std::string measured, std::string allowed, bool pass) {
    criteria.push_back(Criterion{std::move(name), std::move(measured), std::move(allowed), pass});
    return pass;
}

std::string formatValue(double v, int decimals, const std::string& unit) {
    // non-finite values (a case that never measured) stay readable
    if (std::isnan(v)) return "n/a";
    char text[64];
    if (std::isinf(v)) std::snprintf(text, sizeof text, "%s", v > 0 ? "inf" : "-inf");
    else std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return unit.empty() ? std::string(text) : std::string(text) + " " + unit;
}

}  // namespace ccrowd::validate
