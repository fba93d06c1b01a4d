/// @file snapshot_formats.cpp
#include "snapshot_formats.hpp"

#include <cctype>
#include <utility>

#include "ccrowd/error.hpp"

namespace ccrowd::io {

const char* const kSnapshotFormatNames = "vti, npy, png";

namespace {

[[noreturn]] void bad(const std::string& list, const std::string& problem) {
    throw InputError(fieldMessage("--snapshot-format", "'" + list + "'", problem,
                                  std::string("a comma-separated list of ") + kSnapshotFormatNames));
}

/// @p s without surrounding white space, in lower case.
std::string normalized(const std::string& s) {
    std::size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    std::string out = s.substr(a, b - a);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

SnapshotFormats parseSnapshotFormats(const std::string& list) {
    if (normalized(list).empty()) bad(list, "no format given");
    SnapshotFormats f;
    // One name per comma-separated item; an empty item ("vti,,png") is an error.
    std::size_t start = 0;
    for (;;) {
        const std::size_t comma = list.find(',', start);
        const std::string raw = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        const std::string name = normalized(raw);
        if (name == "vti") f.vti = true;
        else if (name == "npy") f.npy = true;
        else if (name == "png") f.png = true;
        else if (name.empty()) bad(list, "empty format name");
        else bad(list, "unknown format '" + raw + "'");
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return f;
}

std::string toString(const SnapshotFormats& f) {
    std::string out;
    for (const auto& [on, name] : {std::pair{f.vti, "vti"}, std::pair{f.npy, "npy"}, std::pair{f.png, "png"}})
        if (on) out += (out.empty() ? "" : ",") + std::string(name);
    return out;
}

}  // namespace ccrowd::io
