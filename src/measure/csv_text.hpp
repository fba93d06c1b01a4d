#pragma once
/// @file csv_text.hpp
/// A CSV table kept in memory (RFC 4180: comma-separated, fields with a
/// comma, quote or line break quoted, '\n' line ends) and written whole and
/// atomically, so that rewriting it after every new row keeps the file on
/// disk complete even if the run is killed.

#include <cstddef>
#include <string>
#include <vector>

namespace ccrowd::measure {

class CsvText {
public:
    /// Starts the table with its header row (names with units, e.g. "flow [persons/s]").
    explicit CsvText(const std::vector<std::string>& columns);

    /// Appends one row. [Limit: as many fields as columns]
    void addRow(const std::vector<std::string>& fields);

    /// The whole table, header included.
    const std::string& text() const { return text_; }

    /// Writes the table to @p path atomically (io::writeFileAtomic); throws
    /// InputError / Error naming the path on failure.
    void write(const std::string& path) const;

private:
    std::string text_;
    std::size_t columns_;
};

/// Number as CSV text: 9 significant digits, "" for NaN (a missing value).
std::string csvNumber(double v);

}  // namespace ccrowd::measure
