/// @file test_npy.cpp
/// .npy writer/reader (src/io/npy.hpp): round trips, the on-disk layout
/// NumPy expects, and a clear error (naming the file) for each kind of
/// malformed file or unwritable path.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "temp_dir.hpp"

#include "ccrowd/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/npy.hpp"

namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;

/// A fresh temporary directory per test, removed afterwards.
class NpyTest : public ::ccrowd::test::TempDirTest {
protected:
    /// Writes raw bytes (for malformed files).
    std::string raw(const std::string& name, const std::string& bytes) const {
        std::ofstream(path(name), std::ios::binary) << bytes;
        return path(name);
    }
    /// A valid v1.0 file with the given header dict (padded) and data bytes.
    std::string npy(const std::string& name, std::string dict, const std::string& data, int major = 1) const {
        const std::size_t pre = major == 1 ? 10 : 12;
        while ((pre + dict.size() + 1) % 64 != 0) dict.push_back(' ');
        dict.push_back('\n');
        std::string b = "\x93NUMPY";
        b.push_back(static_cast<char>(major));
        b.push_back('\0');
        b.push_back(static_cast<char>(dict.size() & 0xff));
        b.push_back(static_cast<char>(dict.size() >> 8));
        if (major != 1) b.append(2, '\0');
        return raw(name, b + dict + data);
    }

};

/// Expects @p fn to throw InputError whose message names @p file and contains @p what.
template <class Fn>
void expectInputError(Fn fn, const std::string& file, const std::string& what) {
    try {
        fn();
        ADD_FAILURE() << "no error for " << file << " (expected: " << what << ")";
    } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(file), std::string::npos) << msg;
        EXPECT_NE(msg.find(what), std::string::npos) << msg;
    }
}

Field<float> sampleFloat() {
    Field<float> f(5, 3);
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 5; ++i) f(i, j) = static_cast<float>(i) + 10.f * j + 0.25f;
    f(4, 2) = std::numeric_limits<float>::infinity();
    f(3, 2) = -0.f;
    return f;
}

TEST_F(NpyTest, FloatRoundTripKeepsShapeOrderAndValues) {
    const Field<float> f = sampleFloat();
    io::writeNpy(path("f.npy"), f);
    const Field<float> g = io::readNpyFloat(path("f.npy"));
    ASSERT_EQ(g.nx(), 5);
    ASSERT_EQ(g.ny(), 3);
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 5; ++i) EXPECT_EQ(g(i, j), f(i, j)) << i << "," << j;
    EXPECT_TRUE(std::signbit(g(3, 2)));
    EXPECT_FALSE(fs::exists(path("f.npy.tmp")));
}

TEST_F(NpyTest, FileLayoutIsNumpyV1LittleEndianCOrder) {
    io::writeNpy(path("f.npy"), sampleFloat());
    const std::vector<unsigned char> b = io::readFileBytes(path("f.npy"));
    ASSERT_GE(b.size(), 10u);
    EXPECT_EQ(std::string(b.begin(), b.begin() + 6), "\x93NUMPY");
    EXPECT_EQ(b[6], 1);
    EXPECT_EQ(b[7], 0);
    const std::size_t hlen = b[8] | (b[9] << 8);
    EXPECT_EQ((10 + hlen) % 64, 0u) << "data must start 64-byte aligned";
    const std::string header(b.begin() + 10, b.begin() + 10 + hlen);
    EXPECT_NE(header.find("'descr': '<f4'"), std::string::npos) << header;
    EXPECT_NE(header.find("'fortran_order': False"), std::string::npos) << header;
    EXPECT_NE(header.find("'shape': (3, 5)"), std::string::npos) << header;
    EXPECT_EQ(header.back(), '\n');
    ASSERT_EQ(b.size(), 10 + hlen + 15 * 4);
    // Element [0, 1] = cell (1, 0) = 1.25f = 0x3FA00000, little-endian.
    const unsigned char* e = b.data() + 10 + hlen + 4;
    EXPECT_EQ(e[0], 0x00); EXPECT_EQ(e[1], 0x00); EXPECT_EQ(e[2], 0xA0); EXPECT_EQ(e[3], 0x3F);
}

TEST_F(NpyTest, DoubleFieldIsReadBackAsFloat) {
    Field<double> d(2, 4);
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 2; ++i) d(i, j) = i + 0.5 * j;
    d(1, 3) = 1e300;  // beyond float: becomes +inf
    io::writeNpy(path("d.npy"), d);
    const Field<float> g = io::readNpyFloat(path("d.npy"));
    ASSERT_EQ(g.nx(), 2);
    ASSERT_EQ(g.ny(), 4);
    EXPECT_FLOAT_EQ(g(1, 2), 2.f);
    EXPECT_EQ(g(1, 3), std::numeric_limits<float>::infinity());
}

TEST_F(NpyTest, Uint8RoundTrip) {
    Field<std::uint8_t> m(3, 2, 0);
    m(2, 1) = 1;
    m(0, 1) = 255;
    io::writeNpy(path("m.npy"), m);
    const Field<std::uint8_t> g = io::readNpyU8(path("m.npy"));
    ASSERT_EQ(g.nx(), 3);
    ASSERT_EQ(g.ny(), 2);
    for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i) EXPECT_EQ(g(i, j), m(i, j));
    EXPECT_FALSE(fs::exists(path("m.npy.tmp")));
}

TEST_F(NpyTest, VectorRoundTripIncludingEmpty) {
    const std::vector<double> v{1.5, -2.0, 1e300, 0.0};
    io::writeNpy1(path("v.npy"), v);
    EXPECT_EQ(io::readNpyDoubles(path("v.npy")), v);
    io::writeNpy1(path("e.npy"), {});
    EXPECT_TRUE(io::readNpyDoubles(path("e.npy")).empty());
    EXPECT_FALSE(fs::exists(path("v.npy.tmp")));
}

TEST_F(NpyTest, AcceptsVersion2AndFloat32Vectors) {
    const std::string f4(8, '\0');  // two float32 zeros
    EXPECT_EQ(io::readNpyDoubles(npy("v4.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", f4)),
              (std::vector<double>{0.0, 0.0}));
    const Field<float> g = io::readNpyFloat(npy("v2.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }",
                                                std::string(16, '\0'), 2));
    EXPECT_EQ(g.nx(), 2);
    EXPECT_EQ(g.ny(), 1);
}

TEST_F(NpyTest, MissingFileNamesThePath) {
    expectInputError([&] { io::readNpyFloat(path("none.npy")); }, path("none.npy"), "cannot open");
}

TEST_F(NpyTest, BadMagic) {
    const std::string p = raw("bad.npy", "PK\x03\x04 this is a zip file, not npy");
    expectInputError([&] { io::readNpyFloat(p); }, p, "magic");
}

TEST_F(NpyTest, TooShortForAHeader) {
    const std::string p = raw("short.npy", "\x93NUM");
    expectInputError([&] { io::readNpyFloat(p); }, p, "too short");
}

TEST_F(NpyTest, TruncatedHeader) {
    io::writeNpy(path("f.npy"), sampleFloat());
    std::vector<unsigned char> b = io::readFileBytes(path("f.npy"));
    const std::string p = raw("cut.npy", std::string(b.begin(), b.begin() + 40));
    expectInputError([&] { io::readNpyFloat(p); }, p, "truncated header");
}

TEST_F(NpyTest, TruncatedData) {
    io::writeNpy(path("f.npy"), sampleFloat());
    std::vector<unsigned char> b = io::readFileBytes(path("f.npy"));
    const std::string p = raw("cut.npy", std::string(b.begin(), b.end() - 1));
    expectInputError([&] { io::readNpyFloat(p); }, p, "truncated data");
}

TEST_F(NpyTest, TrailingBytes) {
    io::writeNpy(path("f.npy"), sampleFloat());
    std::vector<unsigned char> b = io::readFileBytes(path("f.npy"));
    const std::string p = raw("long.npy", std::string(b.begin(), b.end()) + "xx");
    expectInputError([&] { io::readNpyFloat(p); }, p, "unexpected bytes");
}

TEST_F(NpyTest, WrongDtype) {
    const std::string i4 = npy("i4.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (1, 1), }", std::string(4, '\0'));
    expectInputError([&] { io::readNpyFloat(i4); }, i4, "dtype '<i4'");
    const std::string be = npy("be.npy", "{'descr': '>f4', 'fortran_order': False, 'shape': (1, 1), }", std::string(4, '\0'));
    expectInputError([&] { io::readNpyFloat(be); }, be, "dtype '>f4'");
    const std::string f4 = npy("f4.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1), }", std::string(4, '\0'));
    expectInputError([&] { io::readNpyU8(f4); }, f4, "dtype '<f4'");
}

TEST_F(NpyTest, FortranOrder) {
    const std::string p = npy("fo.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", std::string(16, '\0'));
    expectInputError([&] { io::readNpyFloat(p); }, p, "fortran_order");
}

TEST_F(NpyTest, WrongRank) {
    const std::string v = npy("v.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", std::string(16, '\0'));
    expectInputError([&] { io::readNpyFloat(v); }, v, "expected 2");
    const std::string m = npy("m.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }", std::string(16, '\0'));
    expectInputError([&] { io::readNpyDoubles(m); }, m, "expected 1");
    const std::string s = npy("s.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", std::string(8, '\0'));
    expectInputError([&] { io::readNpyDoubles(s); }, s, "expected 1");
}

TEST_F(NpyTest, UnsupportedVersion) {
    const std::string p = npy("v9.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1), }", std::string(4, '\0'), 9);
    expectInputError([&] { io::readNpyFloat(p); }, p, "version 9.0");
}

TEST_F(NpyTest, MalformedHeaderDict) {
    const std::string a = npy("a.npy", "{'descr': '<f4', 'shape': (1, 1), }", std::string(4, '\0'));
    expectInputError([&] { io::readNpyFloat(a); }, a, "header lacks");
    const std::string b = npy("b.npy", "{'descr': '<f4' 'fortran_order': False, 'shape': (1, 1)}", std::string(4, '\0'));
    expectInputError([&] { io::readNpyFloat(b); }, b, "malformed header");
    const std::string c = npy("c.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1, -1), }", std::string(4, '\0'));
    expectInputError([&] { io::readNpyFloat(c); }, c, "malformed shape");
    const std::string d = npy("d.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (3000000000, 1), }", std::string(4, '\0'));
    expectInputError([&] { io::readNpyFloat(d); }, d, "exceeds");
}

TEST_F(NpyTest, UnwritablePathNamesThePathAndLeavesNothing) {
    const std::string p = path("no-such-dir/f.npy");
    expectInputError([&] { io::writeNpy(p, sampleFloat()); }, p, "cannot write");
    EXPECT_FALSE(fs::exists(p));
    EXPECT_FALSE(fs::exists(p + ".tmp"));
}

TEST_F(NpyTest, FailedRenameRemovesTheTemporaryFile) {
    // The target is a non-empty directory: the data is written, the rename fails.
    const std::string p = path("target");
    fs::create_directories(fs::path(p) / "inside");
    try {
        io::writeNpy1(p, {1.0, 2.0});
        ADD_FAILURE() << "no error when renaming over a directory";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
    EXPECT_TRUE(fs::is_directory(p));
    EXPECT_FALSE(fs::exists(p + ".tmp"));
}

TEST_F(NpyTest, FullDiskIsAnError) {
    // /dev/full accepts the open but fails every write with ENOSPC; the
    // temporary name "<path>.tmp" makes it unreachable, so use a symlink.
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this system";
    const std::string p = path("full.npy");
    fs::create_symlink("/dev/full", p + ".tmp");
    try {
        io::writeNpy(p, sampleFloat());
        ADD_FAILURE() << "no error on a full device";
    } catch (const Error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(p), std::string::npos) << msg;
        EXPECT_NE(msg.find("failed"), std::string::npos) << msg;
    }
    EXPECT_FALSE(fs::exists(p));
}

}  // namespace
}  // namespace ccrowd::test
