/// @file npy.cpp
/// .npy writer and validating reader. Byte order is handled explicitly, so
/// the code is correct on any host; the data is always little-endian.

#include "npy.hpp"

#include <cctype>
#include <climits>
#include <cstring>
#include <initializer_list>
#include <limits>

#include "ccrowd/error.hpp"
#include "file_bytes.hpp"

namespace ccrowd::io {

namespace {

constexpr unsigned char kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

// ---- writing ---------------------------------------------------------------

/// Magic, version 1.0, header length and the header dict padded with spaces
/// and '\n' so the data starts at a multiple of 64 bytes.
std::vector<unsigned char> npyHeader(const std::string& descr, const std::string& shape) {
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    const std::size_t unpadded = sizeof kMagic + 2 + 2 + dict.size() + 1;
    dict.append((64 - unpadded % 64) % 64, ' ');
    dict.push_back('\n');
    std::vector<unsigned char> out(kMagic, kMagic + sizeof kMagic);
    out.push_back(1);
    out.push_back(0);
    out.push_back(static_cast<unsigned char>(dict.size() & 0xff));
    out.push_back(static_cast<unsigned char>(dict.size() >> 8));
    out.insert(out.end(), dict.begin(), dict.end());
    return out;
}

std::string shape2(int nx, int ny) { return "(" + std::to_string(ny) + ", " + std::to_string(nx) + ")"; }

template <class U>
void putLE(std::vector<unsigned char>& out, U bits) {
    for (std::size_t b = 0; b < sizeof(U); ++b) out.push_back(static_cast<unsigned char>(bits >> (8 * b)));
}

void appendData(std::vector<unsigned char>& out, const float* p, std::size_t n) {
    out.reserve(out.size() + 4 * n);
    for (std::size_t k = 0; k < n; ++k) { std::uint32_t u; std::memcpy(&u, p + k, 4); putLE(out, u); }
}
void appendData(std::vector<unsigned char>& out, const double* p, std::size_t n) {
    out.reserve(out.size() + 8 * n);
    for (std::size_t k = 0; k < n; ++k) { std::uint64_t u; std::memcpy(&u, p + k, 8); putLE(out, u); }
}
void appendData(std::vector<unsigned char>& out, const std::uint8_t* p, std::size_t n) { out.insert(out.end(), p, p + n); }

template <class T>
void writeField(const std::string& path, const Field<T>& f, const char* descr) {
    std::vector<unsigned char> out = npyHeader(descr, shape2(f.nx(), f.ny()));
    appendData(out, f.host(), f.size());
    writeFileAtomic(path, out.data(), out.size());
}

// ---- reading ---------------------------------------------------------------

/// What a validated header says.
struct NpyHeader {
    std::string descr;
    std::vector<long long> shape;
    std::size_t data_offset = 0;  ///< Byte offset of the first element.
};

[[noreturn]] void bad(const std::string& path, const std::string& what) {
    throw InputError("invalid .npy file '" + path + "': " + what);
}

/// Parser of the header's Python dict literal, e.g.
/// {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class DictParser {
public:
    DictParser(const std::string& path, const std::string& s) : path_(path), s_(s) {}

    NpyHeader parse() {
        NpyHeader h;
        bool have_descr = false, have_order = false, have_shape = false;
        expect('{');
        while (!peekIs('}')) {
            const std::string key = string();
            expect(':');
            if (key == "descr") { h.descr = string(); have_descr = true; }
            else if (key == "fortran_order") {
                if (word() != "False") bad(path_, "fortran_order is True: only C-order arrays are supported (use numpy.ascontiguousarray before saving)");
                have_order = true;
            } else if (key == "shape") { h.shape = tuple(); have_shape = true; }
            else bad(path_, "unexpected header key '" + key + "' in " + s_);
            if (!peekIs(',')) break;
            expect(',');
        }
        expect('}');
        skipSpace();
        if (pos_ != s_.size()) bad(path_, "trailing characters after the header dict: " + s_);
        if (!have_descr || !have_order || !have_shape) bad(path_, "header lacks 'descr', 'fortran_order' or 'shape': " + s_);
        return h;
    }

private:
    void skipSpace() { while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_; }
    bool peekIs(char c) { skipSpace(); return pos_ < s_.size() && s_[pos_] == c; }
    void expect(char c) {
        if (!peekIs(c)) bad(path_, std::string("malformed header (expected '") + c + "' at offset " + std::to_string(pos_) + "): " + s_);
        ++pos_;
    }
    std::string string() {
        skipSpace();
        if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) bad(path_, "malformed header (expected a quoted string at offset " + std::to_string(pos_) + "): " + s_);
        const char q = s_[pos_++];
        const std::size_t end = s_.find(q, pos_);
        if (end == std::string::npos) bad(path_, "malformed header (unterminated string): " + s_);
        std::string out = s_.substr(pos_, end - pos_);
        pos_ = end + 1;
        return out;
    }
    std::string word() {
        skipSpace();
        const std::size_t start = pos_;
        while (pos_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[pos_]))) ++pos_;
        return s_.substr(start, pos_ - start);
    }
    std::vector<long long> tuple() {
        std::vector<long long> dims;
        expect('(');
        while (!peekIs(')')) {
            skipSpace();
            const std::size_t start = pos_;
            long long v = 0;
            while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
                if (v > (LLONG_MAX - 9) / 10) bad(path_, "shape dimension too large: " + s_);
                v = v * 10 + (s_[pos_++] - '0');
            }
            if (pos_ == start) bad(path_, "malformed shape (expected a non-negative integer at offset " + std::to_string(pos_) + "): " + s_);
            dims.push_back(v);
            if (!peekIs(',')) break;
            expect(',');
        }
        expect(')');
        return dims;
    }

    const std::string& path_;
    const std::string& s_;
    std::size_t pos_ = 0;
};

NpyHeader parseHeader(const std::string& path, const std::vector<unsigned char>& b) {
    if (b.size() < 10 || std::memcmp(b.data(), kMagic, sizeof kMagic) != 0) {
        bad(path, b.size() < 10 ? "file too short (" + std::to_string(b.size()) + " bytes) to hold the .npy magic and header"
                                : "missing the .npy magic \"\\x93NUMPY\" (not a NumPy .npy file)");
    }
    const int major = b[6], minor = b[7];
    std::size_t len_bytes = 0;
    if (major == 1) len_bytes = 2;
    else if (major == 2 || major == 3) len_bytes = 4;
    else bad(path, "unsupported format version " + std::to_string(major) + "." + std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
    if (b.size() < 8 + len_bytes) bad(path, "truncated header length field");
    std::size_t hlen = 0;
    for (std::size_t k = 0; k < len_bytes; ++k) hlen |= static_cast<std::size_t>(b[8 + k]) << (8 * k);
    const std::size_t start = 8 + len_bytes;
    if (b.size() < start + hlen) bad(path, "truncated header: it declares " + std::to_string(hlen) + " bytes, the file holds " + std::to_string(b.size() - start));
    const std::string text(reinterpret_cast<const char*>(b.data() + start), hlen);
    if (hlen == 0 || text.back() != '\n') bad(path, "header does not end with a newline: " + text);
    NpyHeader h = DictParser(path, text).parse();
    h.data_offset = start + hlen;
    return h;
}

/// Element size of an accepted dtype, or 0.
std::size_t itemSize(const std::string& descr) {
    if (descr == "<f4") return 4;
    if (descr == "<f8") return 8;
    if (descr == "|u1" || descr == "<u1" || descr == ">u1") return 1;
    return 0;
}

/// Rank argument of load() that accepts arrays of any rank.
constexpr std::size_t kAnyRank = 0;

/// Reads, validates dtype (one of @p allowed), rank (any when @p rank is
/// kAnyRank) and size; returns bytes and header.
NpyHeader load(const std::string& path, std::vector<unsigned char>& bytes, std::size_t rank,
               std::initializer_list<const char*> allowed, const char* allowed_text) {
    bytes = readFileBytes(path);
    NpyHeader h = parseHeader(path, bytes);
    bool ok = false;
    for (const char* a : allowed) ok = ok || h.descr == a;
    if (!ok) bad(path, "dtype '" + h.descr + "' is not supported here (allowed: " + allowed_text + ")");
    if (rank != kAnyRank && h.shape.size() != rank) {
        bad(path, "array has " + std::to_string(h.shape.size()) + " dimension(s), expected " + std::to_string(rank) +
                      (rank == 2 ? " (shape (ny, nx))" : " (shape (n,))"));
    }
    std::size_t count = 1;
    for (long long d : h.shape) {
        if (d > INT_MAX) bad(path, "dimension " + std::to_string(d) + " exceeds the grid limit " + std::to_string(INT_MAX));
        if (d > 0 && count > std::numeric_limits<std::size_t>::max() / 8 / static_cast<std::size_t>(d)) bad(path, "array too large");
        count *= static_cast<std::size_t>(d);
    }
    const std::size_t want = count * itemSize(h.descr);
    const std::size_t have = bytes.size() - h.data_offset;
    if (have < want) bad(path, "truncated data: expected " + std::to_string(want) + " bytes, found " + std::to_string(have));
    if (have > want) bad(path, std::to_string(have - want) + " unexpected bytes after the " + std::to_string(want) + " data bytes");
    return h;
}

template <class U>
U getLE(const unsigned char* p) {
    U v = 0;
    for (std::size_t b = 0; b < sizeof(U); ++b) v |= static_cast<U>(p[b]) << (8 * b);
    return v;
}

/// Element k of float data as double.
double floatAt(const NpyHeader& h, const unsigned char* data, std::size_t k) {
    if (h.descr == "<f4") {
        const std::uint32_t u = getLE<std::uint32_t>(data + 4 * k);
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }
    const std::uint64_t u = getLE<std::uint64_t>(data + 8 * k);
    double d;
    std::memcpy(&d, &u, 8);
    return d;
}

/// double -> float without undefined behaviour: out-of-range values become +-inf.
float toFloat(double d) {
    constexpr double kMax = std::numeric_limits<float>::max();
    if (d > kMax) return std::numeric_limits<float>::infinity();
    if (d < -kMax) return -std::numeric_limits<float>::infinity();
    return static_cast<float>(d);  // NaN and in-range values
}

}  // namespace

void writeNpy(const std::string& path, const Field<float>& f) { writeField(path, f, "<f4"); }
void writeNpy(const std::string& path, const Field<double>& f) { writeField(path, f, "<f8"); }
void writeNpy(const std::string& path, const Field<std::uint8_t>& f) { writeField(path, f, "|u1"); }

void writeNpy1(const std::string& path, const std::vector<double>& v) {
    std::vector<unsigned char> out = npyHeader("<f8", "(" + std::to_string(v.size()) + ",)");
    appendData(out, v.data(), v.size());
    writeFileAtomic(path, out.data(), out.size());
}

void writeNpyGrid(const std::string& path, const float* data, int nx, int ny, int components) {
    if (nx < 0 || ny < 0 || components < 1 || components > 64) {
        throw Error("cannot write '" + path + "': invalid grid shape nx = " + std::to_string(nx) + ", ny = " +
                    std::to_string(ny) + ", components = " + std::to_string(components) +
                    " (allowed: nx, ny >= 0, components 1..64)");
    }
    // Shape (ny, nx) for scalars, (ny, nx, c) otherwise.
    std::string shape = shape2(nx, ny);
    if (components > 1) shape.insert(shape.size() - 1, ", " + std::to_string(components));
    std::vector<unsigned char> out = npyHeader("<f4", shape);
    appendData(out, data, static_cast<std::size_t>(nx) * ny * components);
    writeFileAtomic(path, out.data(), out.size());
}

Field<float> readNpyFloat(const std::string& path) {
    std::vector<unsigned char> bytes;
    const NpyHeader h = load(path, bytes, 2, {"<f4", "<f8"}, "'<f4' float32 or '<f8' float64, little-endian");
    Field<float> f(static_cast<int>(h.shape[1]), static_cast<int>(h.shape[0]));
    const unsigned char* data = bytes.data() + h.data_offset;
    for (std::size_t k = 0; k < f.size(); ++k) f.host()[k] = toFloat(floatAt(h, data, k));
    return f;
}

Field<std::uint8_t> readNpyU8(const std::string& path) {
    std::vector<unsigned char> bytes;
    const NpyHeader h = load(path, bytes, 2, {"|u1", "<u1", ">u1"}, "'|u1' uint8");
    Field<std::uint8_t> f(static_cast<int>(h.shape[1]), static_cast<int>(h.shape[0]));
    if (f.size() > 0) std::memcpy(f.host(), bytes.data() + h.data_offset, f.size());
    return f;
}

std::vector<double> readNpyDoubles(const std::string& path) {
    std::vector<unsigned char> bytes;
    const NpyHeader h = load(path, bytes, 1, {"<f8", "<f4"}, "'<f8' float64 or '<f4' float32, little-endian");
    std::vector<double> v(static_cast<std::size_t>(h.shape[0]));
    const unsigned char* data = bytes.data() + h.data_offset;
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = floatAt(h, data, k);
    return v;
}

NpyFloatArray readNpyFloatArray(const std::string& path) {
    std::vector<unsigned char> bytes;
    const NpyHeader h = load(path, bytes, kAnyRank, {"<f4", "<f8"}, "'<f4' float32 or '<f8' float64, little-endian");
    NpyFloatArray a;
    a.shape = h.shape;
    std::size_t count = 1;
    for (long long d : h.shape) count *= static_cast<std::size_t>(d);
    a.data.resize(count);
    const unsigned char* data = bytes.data() + h.data_offset;
    for (std::size_t k = 0; k < count; ++k) a.data[k] = toFloat(floatAt(h, data, k));
    return a;
}

}  // namespace ccrowd::io
