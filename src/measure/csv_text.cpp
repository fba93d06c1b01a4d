/// @file csv_text.cpp
#include "csv_text.hpp"

#include <cmath>
#include <cstdio>

#include "ccrowd/error.hpp"
#include "io/file_bytes.hpp"

namespace ccrowd::measure {

namespace {

/// Appends @p f, quoted when it holds a separator, quote or line break.
void appendField(std::string& out, const std::string& f) {
    if (f.find_first_of(",\"\r\n") == std::string::npos) {
        out += f;
        return;
    }
    out += '"';
    for (char c : f) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

}  // namespace

CsvText::CsvText(const std::vector<std::string>& columns) : columns_(columns.size()) { addRow(columns); }

void CsvText::addRow(const std::vector<std::string>& fields) {
    if (fields.size() != columns_)
        throw Error("CSV row has " + std::to_string(fields.size()) + " fields, the header " + std::to_string(columns_));
    for (std::size_t k = 0; k < fields.size(); ++k) {
        if (k) text_ += ',';
        appendField(text_, fields[k]);
    }
    text_ += '\n';
}

void CsvText::write(const std::string& path) const { io::writeFileAtomic(path, text_.data(), text_.size()); }

std::string csvNumber(double v) {
    if (std::isnan(v)) return "";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

}  // namespace ccrowd::measure
