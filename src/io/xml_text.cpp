/// @file xml_text.cpp
#include "xml_text.hpp"

#include <cstdio>
#include <cstdlib>

namespace ccrowd::io {

std::string formatDouble(double v) {
    char buf[32];
    // Try 1..17 significant digits; 17 always round-trips a double.
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

std::string formatFloat(float v) {
    char buf[32];
    // Try 1..9 significant digits; 9 always round-trips a float.
    for (int digits = 1; digits <= 9; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, static_cast<double>(v));
        if (std::strtof(buf, nullptr) == v) break;
    }
    return buf;
}

std::string xmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out += c;
        }
    }
    return out;
}

}  // namespace ccrowd::io
