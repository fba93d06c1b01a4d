#pragma once
/// @file json_reader.hpp
/// Checked access to a JSON document for the scene loader. Every failure is
/// an InputError "<file>: <JSON path> = <value>: <problem> (allowed: ...)",
/// the path in RFC 6901 form (/groups/2/speed/mean).

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

namespace ccrowd::scene_detail {

using json = nlohmann::json;

/// Parses JSON text into a DOM with a SAX handler that knows the path of
/// every value, so errors say where: syntax errors (line, column and path),
/// number overflow (1e400), duplicate keys, nesting deeper than
/// scene_limits::kMaxNesting. Throws InputError naming @p label.
json parseJsonText(const std::string& text, const std::string& label);

/// Throws InputError "<label>: <path> = <value>: <problem> (allowed: <allowed>)";
/// "= <value>" is left out when @p value is empty.
[[noreturn]] void failAt(const std::string& label, const std::string& path, const std::string& value,
                         const std::string& problem, const std::string& allowed);

/// Short text of a value for messages (strings quoted, containers summarised).
std::string describe(const json& j);

/// RFC 6901 escaping of one path segment ("~" -> "~0", "/" -> "~1").
std::string escapePointer(const std::string& key);

/// Formats a number the shortest way that reads back the same (for messages).
std::string formatNumber(double v);
/// Same at float precision (5.4f prints as 5.4).
std::string formatNumber(float v);

/// An allowed numeric range, with a unit for messages.
struct Range {
    double lo = 0, hi = 0;
    bool loOpen = false, hiOpen = false;  ///< Exclusive bounds.
    const char* unit = "";                ///< e.g. "m/s" ("" for none).
    bool contains(double v) const;
    std::string text() const;             ///< e.g. "a number > 0 and <= 10 [m/s]"
};
/// [lo, hi]
Range closed(double lo, double hi, const char* unit = "");
/// (lo, hi]
Range openClosed(double lo, double hi, const char* unit = "");

/// A value at a path in a document.
class Node {
public:
    Node(const json& value, std::string path, const std::string& label)
        : value_(&value), path_(std::move(path)), label_(&label) {}

    const json& value() const { return *value_; }
    const std::string& path() const { return path_; }
    const std::string& label() const { return *label_; }

    /// Throws the error for this value.
    [[noreturn]] void fail(const std::string& problem, const std::string& allowed) const;

    /// Checks that this is an object whose keys are all in @p keys.
    void object(std::initializer_list<const char*> keys) const;
    bool has(const char* key) const;
    /// Member @p key; throws "missing required key" (with @p allowed) when absent.
    Node get(const char* key, const std::string& allowed) const;

    /// Checks that this is an array of minSize..maxSize items; returns the size.
    std::size_t array(std::size_t minSize, std::size_t maxSize, const std::string& items) const;
    /// Item @p i of an array (after array()).
    Node at(std::size_t i) const;

    /// A finite number within @p r.
    double number(const Range& r) const;
    float numberF(const Range& r) const { return static_cast<float>(number(r)); }
    /// An integer (integral JSON number) within [lo, hi]; @p allowed overrides the range text.
    long long integer(long long lo, long long hi, const std::string& allowed = "") const;
    /// An unsigned 64-bit integer.
    std::uint64_t uint64() const;
    /// A string of 1..maxLength bytes (0.. when @p allowEmpty).
    std::string string(bool allowEmpty = false, std::size_t maxLength = 256) const;
    bool boolean() const;

private:
    [[noreturn]] void wrongType(const char* expected) const;
    const json* value_;
    std::string path_;
    const std::string* label_;
};

/// Calls @p f on member @p key of @p n when present.
template <class F>
void optional(const Node& n, const char* key, F f) {
    if (n.has(key)) f(n.get(key, ""));
}

}  // namespace ccrowd::scene_detail
