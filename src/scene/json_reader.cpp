/// @file json_reader.cpp
/// JSON text -> DOM with paths in errors, and checked typed access (Node).

#include "json_reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"

namespace ccrowd::scene_detail {

namespace {

/// SAX handler building the DOM while tracking the path of the next value.
class PathSax : public nlohmann::json_sax<json> {
public:
    PathSax(json& root, const std::string& text, const std::string& label)
        : root_(root), text_(text), label_(label) {}

    bool null() override { put(json(nullptr)); return true; }
    bool boolean(bool v) override { put(json(v)); return true; }
    bool number_integer(number_integer_t v) override { put(json(v)); return true; }
    bool number_unsigned(number_unsigned_t v) override { put(json(v)); return true; }
    bool number_float(number_float_t v, const string_t&) override { put(json(v)); return true; }
    bool string(string_t& v) override { put(json(std::move(v))); return true; }
    bool binary(binary_t&) override { put(json()); return true; }

    bool start_object(std::size_t) override { open(json::object()); return true; }
    bool end_object() override { close(); return true; }
    bool start_array(std::size_t) override { open(json::array()); return true; }
    bool end_array() override { close(); return true; }

    bool key(string_t& k) override {
        // Duplicate keys would silently keep the last value: reject them.
        if (stack_.back().value->contains(k)) {
            failAt(label_, path() + "/" + escapePointer(k), "", "duplicate key in one object",
                   "each key at most once per object");
        }
        key_ = k;
        keyPending_ = true;
        return true;
    }

    bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) override {
        // Line and column of the byte where parsing stopped.
        const std::size_t idx = std::min(position > 0 ? position - 1 : 0, text_.size());
        std::size_t line = 1, lineStart = 0;
        for (std::size_t k = 0; k < idx; ++k) {
            if (text_[k] == '\n') { ++line; lineStart = k + 1; }
        }
        const std::size_t column = idx - lineStart + 1;
        std::string what = ex.what();
        const auto close = what.find("] ");
        if (what.rfind("[json.exception.", 0) == 0 && close != std::string::npos) what = what.substr(close + 2);
        // The path of the value being read: with its key or array index.
        std::string at = path();
        if (!stack_.empty() && (stack_.back().value->is_array() || keyPending_)) at += "/" + nextSegment();
        if (at.empty()) at = "/";
        throw InputError(label_ + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                         " (JSON path " + at + "): not valid JSON: " + what +
                         " (allowed: JSON text, RFC 8259; numbers within double range)");
    }

private:
    struct Frame {
        json* value;
        std::string segment;  ///< Path segment of this container.
    };

    /// Path of the container being filled, e.g. /groups/2.
    std::string path() const {
        std::string p;
        for (std::size_t k = 1; k < stack_.size(); ++k) p += "/" + stack_[k].segment;
        return p;
    }

    /// Segment the next value gets in the current container.
    std::string nextSegment() const {
        if (stack_.empty()) return "";
        const json& top = *stack_.back().value;
        return top.is_array() ? std::to_string(top.size()) : escapePointer(key_);
    }

    json* put(json&& v) {
        if (stack_.empty()) { root_ = std::move(v); return &root_; }
        json& top = *stack_.back().value;
        if (top.is_array()) { top.push_back(std::move(v)); return &top.back(); }
        json& slot = top[key_];
        slot = std::move(v);
        keyPending_ = false;
        return &slot;
    }

    void open(json&& container) {
        // Bound the depth: deep nesting only wastes stack in later passes.
        if (static_cast<int>(stack_.size()) >= scene_limits::kMaxNesting) {
            failAt(label_, path() + "/" + nextSegment(), "", "JSON nested too deeply",
                   "at most " + std::to_string(scene_limits::kMaxNesting) + " levels");
        }
        std::string seg = stack_.empty() ? std::string() : nextSegment();
        json* p = put(std::move(container));
        stack_.push_back({p, std::move(seg)});
    }

    void close() { stack_.pop_back(); }

    json& root_;
    const std::string& text_;
    const std::string& label_;
    std::vector<Frame> stack_;
    std::string key_;
    bool keyPending_ = false;  ///< A key was read and its value not yet.
};

const char* typeName(const json& j) {
    switch (j.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return "a boolean";
        case json::value_t::string: return "a string";
        case json::value_t::array: return "an array";
        case json::value_t::object: return "an object";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
        case json::value_t::number_float: return "a number";
        default: return "an unsupported value";
    }
}

/// Levenshtein distance, for "did you mean" hints.
std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

}  // namespace

json parseJsonText(const std::string& text, const std::string& label) {
    json root;
    PathSax sax(root, text, label);
    json::sax_parse(text, &sax, json::input_format_t::json, true, false);
    return root;
}

void failAt(const std::string& label, const std::string& path, const std::string& value, const std::string& problem,
            const std::string& allowed) {
    const std::string at = path.empty() ? "/" : path;
    if (value.empty()) throw InputError(label + ": " + at + ": " + problem + " (allowed: " + allowed + ")");
    throw InputError(label + ": " + fieldMessage(at, value, problem, allowed));
}

std::string describe(const json& j) {
    if (j.is_array()) return "[...] (" + std::to_string(j.size()) + " items)";
    if (j.is_object()) return "{...} (" + std::to_string(j.size()) + " keys)";
    if (j.is_number_float()) return formatNumber(j.get<double>());
    if (j.is_string()) {
        // Quote, escape control characters, cut long strings.
        const std::string& s = j.get_ref<const std::string&>();
        std::string out = "\"";
        for (std::size_t k = 0; k < s.size() && k < 60; ++k) {
            const unsigned char c = static_cast<unsigned char>(s[k]);
            if (c < 0x20 || c == 0x7f) {
                char buf[8];
                std::snprintf(buf, sizeof buf, "\\x%02x", c);
                out += buf;
            } else if (c == '"' || c == '\\') {
                out += '\\';
                out += static_cast<char>(c);
            } else {
                out += static_cast<char>(c);
            }
        }
        if (s.size() > 60) out += "...";
        return out + "\"";
    }
    return j.dump();
}

std::string escapePointer(const std::string& key) {
    std::string out;
    for (char c : key) {
        if (c == '~') out += "~0";
        else if (c == '/') out += "~1";
        else out += c;
    }
    return out;
}

std::string formatNumber(double v) {
    char buf[64];
    for (int prec = 6; prec <= 17; ++prec) {
        std::snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

std::string formatNumber(float v) {
    char buf[64];
    for (int prec = 6; prec <= 9; ++prec) {
        std::snprintf(buf, sizeof buf, "%.*g", prec, static_cast<double>(v));
        if (std::strtof(buf, nullptr) == v) break;
    }
    return buf;
}

bool Range::contains(double v) const {
    if (!(loOpen ? v > lo : v >= lo)) return false;
    return hiOpen ? v < hi : v <= hi;
}

std::string Range::text() const {
    std::string t = std::string("a number ") + (loOpen ? "> " : ">= ") + formatNumber(lo) + " and " +
                    (hiOpen ? "< " : "<= ") + formatNumber(hi);
    if (unit[0]) t += std::string(" [") + unit + "]";
    return t;
}

Range closed(double lo, double hi, const char* unit) { return Range{lo, hi, false, false, unit}; }
Range openClosed(double lo, double hi, const char* unit) { return Range{lo, hi, true, false, unit}; }

void Node::fail(const std::string& problem, const std::string& allowed) const {
    failAt(label(), path_, describe(*value_), problem, allowed);
}

void Node::wrongType(const char* expected) const {
    fail(std::string("expected ") + expected + ", got " + typeName(*value_), expected);
}

void Node::object(std::initializer_list<const char*> keys) const {
    if (!value_->is_object()) wrongType("an object");
    for (auto it = value_->begin(); it != value_->end(); ++it) {
        const std::string& k = it.key();
        if (std::any_of(keys.begin(), keys.end(), [&](const char* a) { return k == a; })) continue;
        // Unknown key: list the allowed ones and the closest, to catch typos.
        std::string list, best;
        std::size_t bestD = 3;
        for (const char* a : keys) {
            list += (list.empty() ? "" : ", ") + std::string(a);
            const std::size_t d = editDistance(k, a);
            if (d < bestD) { bestD = d; best = a; }
        }
        std::string problem = "unknown key";
        if (!best.empty()) problem += " (did you mean '" + best + "'?)";
        failAt(label(), path_ + "/" + escapePointer(k), "", problem, "keys " + list);
    }
}

bool Node::has(const char* key) const { return value_->is_object() && value_->contains(key); }

Node Node::get(const char* key, const std::string& allowed) const {
    if (!value_->is_object()) wrongType("an object");
    auto it = value_->find(key);
    if (it == value_->end()) failAt(label(), path_ + "/" + escapePointer(key), "", "missing required key", allowed);
    return Node(*it, path_ + "/" + escapePointer(key), label());
}

std::size_t Node::array(std::size_t minSize, std::size_t maxSize, const std::string& items) const {
    if (!value_->is_array()) wrongType(("an array of " + items).c_str());
    const std::size_t n = value_->size();
    if (n < minSize || n > maxSize) {
        fail("has " + std::to_string(n) + " items",
             "an array of " + std::to_string(minSize) + ".." + std::to_string(maxSize) + " " + items);
    }
    return n;
}

Node Node::at(std::size_t i) const { return Node((*value_)[i], path_ + "/" + std::to_string(i), label()); }

double Node::number(const Range& r) const {
    if (!value_->is_number()) wrongType(r.text().c_str());
    const double v = value_->get<double>();
    if (!std::isfinite(v)) fail("not a finite number", r.text());
    if (!r.contains(v)) fail("out of range", r.text());
    return v;
}

long long Node::integer(long long lo, long long hi, const std::string& allowed) const {
    const std::string range =
        allowed.empty() ? "an integer >= " + std::to_string(lo) + " and <= " + std::to_string(hi) : allowed;
    if (!value_->is_number()) wrongType(range.c_str());
    if (value_->is_number_float()) {
        // 12.0 is an integer (as in JSON Schema); 12.5 is not.
        const double d = value_->get<double>();
        if (!std::isfinite(d) || std::floor(d) != d) fail("not an integer", range);
        if (d < static_cast<double>(lo) || d > static_cast<double>(hi)) fail("out of range", range);
        return static_cast<long long>(d);
    }
    if (value_->is_number_unsigned() && value_->get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) {
        fail("out of range", range);
    }
    const long long v = value_->get<long long>();
    if (v < lo || v > hi) fail("out of range", range);
    return v;
}

std::uint64_t Node::uint64() const {
    const char* range = "an integer >= 0 and <= 18446744073709551615";
    if (value_->is_number_unsigned()) return value_->get<std::uint64_t>();
    if (value_->is_number_integer()) {
        if (value_->get<long long>() < 0) fail("out of range", range);
        return static_cast<std::uint64_t>(value_->get<long long>());
    }
    if (value_->is_number_float()) {
        const double d = value_->get<double>();
        if (!std::isfinite(d) || std::floor(d) != d) fail("not an integer", range);
        if (d < 0 || d >= 18446744073709551616.0) fail("out of range", range);
        return static_cast<std::uint64_t>(d);
    }
    wrongType(range);
}

std::string Node::string(bool allowEmpty, std::size_t maxLength) const {
    const std::string allowed = std::string("a string of ") + (allowEmpty ? "0" : "1") + ".." +
                                std::to_string(maxLength) + " bytes";
    if (!value_->is_string()) wrongType(allowed.c_str());
    const std::string& s = value_->get_ref<const std::string&>();
    if ((s.empty() && !allowEmpty) || s.size() > maxLength) fail(s.empty() ? "empty" : "too long", allowed);
    return s;
}

bool Node::boolean() const {
    if (!value_->is_boolean()) wrongType("true or false");
    return value_->get<bool>();
}

}  // namespace ccrowd::scene_detail
