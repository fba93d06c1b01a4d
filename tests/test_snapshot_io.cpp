/// @file test_snapshot_io.cpp
/// Field snapshots (src/io/snapshot.hpp): each format written by
/// SnapshotWriter is read back independently and compared with what was
/// written: .vti by a small reader of the XML header and the raw appended
/// block (bitwise), .pvd and snapshots.json by parsing, .npy with the npy
/// readers (and NumPy when python3 has it), .png with stb_image. Also the
/// format-list parser, frame validation and unwritable directories.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "png_image.hpp"
#include "temp_dir.hpp"

#include "ccrowd/error.hpp"
#include "src/io/file_bytes.hpp"
#include "src/io/npy.hpp"
#include "src/io/pvd.hpp"
#include "src/io/snapshot.hpp"
#include "src/io/vti.hpp"
#include "src/io/xml_text.hpp"
#include "src/plot/colormap.hpp"
#include "src/plot/heatmap.hpp"


namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;
using io::SnapshotField;
using io::SnapshotFormats;
using io::SnapshotFrame;
using io::SnapshotWriter;
using plot::Rgb;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr int kNx = 5, kNy = 3;

/// A fresh temporary directory per test, removed afterwards.
class SnapshotTest : public ::ccrowd::test::TempDirTest {
protected:
    /// Relative file names in the directory, recursively, sorted.
    std::vector<std::string> listing() const {
        std::vector<std::string> out;
        for (const auto& e : fs::recursive_directory_iterator(dir_)) out.push_back(fs::relative(e.path(), dir_).string());
        std::sort(out.begin(), out.end());
        return out;
    }
    /// True when some file in the directory ends with ".tmp".
    bool anyTemp() const {
        for (const std::string& f : listing())
            if (f.size() > 4 && f.compare(f.size() - 4, 4, ".tmp") == 0) return true;
        return false;
    }
};

/// Bit pattern of a float (NaN-safe comparison).
std::uint32_t bits(float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    return u;
}

/// A 5x3 frame whose values depend on @p k: density (scalar), velocity
/// (vector), speed_faces (4 per cell) and potential with inf and NaN cells.
SnapshotFrame sampleFrame(int k) {
    SnapshotFrame f;
    f.time = 0.1 * (k + 1);  // not exactly representable: checks round trips
    f.step = 7 * k;
    f.nx = kNx;
    f.ny = kNy;
    f.h = 0.25f;
    f.origin_x = 1.5f;
    f.origin_y = -2.f;
    const std::size_t cells = kNx * kNy;
    SnapshotField density{"density", "1/m^2", 1, std::vector<float>(cells)};
    SnapshotField velocity{"velocity", "m/s", 2, std::vector<float>(2 * cells)};
    SnapshotField faces{"speed_faces", "m/s", 4, std::vector<float>(4 * cells)};
    SnapshotField potential{"potential", "s", 1, std::vector<float>(cells)};
    for (int j = 0; j < kNy; ++j)
        for (int i = 0; i < kNx; ++i) {
            const std::size_t c = static_cast<std::size_t>(j) * kNx + i;
            density.data[c] = 0.5f * i + 2.f * j + k;  // quarter multiples: exact sums
            velocity.data[2 * c] = 0.25f * i - 0.5f;
            velocity.data[2 * c + 1] = -0.75f * j + 0.125f * k;
            for (int m = 0; m < 4; ++m) faces.data[4 * c + m] = 1.f + 0.5f * m + 0.25f * i;
            potential.data[c] = 10.f * i + j + 1.f / 3.f;
        }
    potential.data[2] = kInf;  // cell (2, 0)
    potential.data[3] = std::numeric_limits<float>::quiet_NaN();
    f.fields = {density, velocity, faces, potential};
    return f;
}

// ---- a small .vti reader -----------------------------------------------------

/// Value of attribute @p name in the XML tag text @p tag ("" when absent).
std::string attr(const std::string& tag, const std::string& name) {
    const std::string key = name + "=\"";
    for (std::size_t at = tag.find(key); at != std::string::npos; at = tag.find(key, at + 1)) {
        if (at == 0 || !std::isspace(static_cast<unsigned char>(tag[at - 1]))) continue;
        const std::size_t v0 = at + key.size(), v1 = tag.find('"', v0);
        return v1 == std::string::npos ? "" : tag.substr(v0, v1 - v0);
    }
    return "";
}

/// Every tag named @p name in @p xml ("<name ...>" or "<name>"), in order.
std::vector<std::string> tags(const std::string& xml, const std::string& name) {
    std::vector<std::string> out;
    const std::string open = "<" + name;
    for (std::size_t at = xml.find(open); at != std::string::npos; at = xml.find(open, at + 1)) {
        const std::size_t after = at + open.size();
        if (after >= xml.size() || (xml[after] != '>' && !std::isspace(static_cast<unsigned char>(xml[after])))) continue;
        const std::size_t end = xml.find('>', after);
        if (end == std::string::npos) break;
        out.push_back(xml.substr(at, end + 1 - at));
    }
    return out;
}

/// Text of the first tag named @p name in @p xml ("" when absent).
std::string tag(const std::string& xml, const std::string& name) {
    const std::vector<std::string> all = tags(xml, name);
    return all.empty() ? "" : all.front();
}

struct VtiArray {
    std::string name, type;
    int components = 0;
    std::vector<float> values;
};

struct Vti {
    std::string xml;  ///< The text before the appended data.
    std::string file_tag, image_tag, piece_tag;
    double time = NAN;
    std::vector<VtiArray> arrays;
};

/// Parses the header, then reads each CellData array at its offset: a UInt64
/// byte count, then the little-endian Float32 values.
Vti readVti(const std::string& path) {
    Vti v;
    const std::vector<unsigned char> b = io::readFileBytes(path);
    const std::string all(b.begin(), b.end());
    const std::string marker = "<AppendedData encoding=\"raw\">";
    const std::size_t at = all.find(marker);
    EXPECT_NE(at, std::string::npos) << path;
    if (at == std::string::npos) return v;
    const std::size_t base = all.find('_', at + marker.size()) + 1;
    v.xml = all.substr(0, base);
    v.file_tag = tag(v.xml, "VTKFile");
    v.image_tag = tag(v.xml, "ImageData");
    v.piece_tag = tag(v.xml, "Piece");
    // The TimeValue array's text: <DataArray ... Name="TimeValue" ...>t</DataArray>.
    const std::size_t tv = v.xml.find("Name=\"TimeValue\"");
    const std::size_t tv0 = tv == std::string::npos ? tv : v.xml.find('>', tv);
    const std::size_t tv1 = tv0 == std::string::npos ? tv0 : v.xml.find('<', tv0);
    if (tv1 != std::string::npos && v.xml.compare(tv1, 12, "</DataArray>") == 0)
        v.time = std::stod(v.xml.substr(tv0 + 1, tv1 - tv0 - 1));
    const std::size_t cd0 = v.xml.find("<CellData"), cd1 = v.xml.find("</CellData>");
    EXPECT_NE(cd0, std::string::npos);
    EXPECT_NE(cd1, std::string::npos);
    const std::string cell = v.xml.substr(cd0, cd1 - cd0);
    for (const std::string& t : tags(cell, "DataArray")) {
        VtiArray a;
        a.name = attr(t, "Name");
        a.type = attr(t, "type");
        a.components = std::stoi(attr(t, "NumberOfComponents"));
        EXPECT_EQ(attr(t, "format"), "appended") << t;
        const std::size_t off = base + std::stoull(attr(t, "offset"));
        EXPECT_LE(off + 8, b.size()) << t;
        if (off + 8 > b.size()) continue;
        std::uint64_t n = 0;
        for (int k = 0; k < 8; ++k) n |= static_cast<std::uint64_t>(b[off + k]) << (8 * k);
        EXPECT_LE(off + 8 + n, b.size()) << t;
        if (off + 8 + n > b.size()) continue;
        a.values.resize(n / 4);
        for (std::size_t k = 0; k < a.values.size(); ++k) {
            std::uint32_t u = 0;
            for (int q = 0; q < 4; ++q) u |= static_cast<std::uint32_t>(b[off + 8 + 4 * k + q]) << (8 * q);
            std::memcpy(&a.values[k], &u, 4);
        }
        v.arrays.push_back(std::move(a));
    }
    return v;
}

/// Expects the .vti array @p a to hold field @p fd bitwise (vectors padded with z = 0).
void expectArrayMatches(const VtiArray& a, const SnapshotField& fd) {
    EXPECT_EQ(a.name, fd.name);
    EXPECT_EQ(a.type, "Float32");
    const int c = fd.components == 2 ? 3 : fd.components;
    ASSERT_EQ(a.components, c) << fd.name;
    ASSERT_EQ(a.values.size(), static_cast<std::size_t>(kNx * kNy * c)) << fd.name;
    for (std::size_t cell = 0; cell < static_cast<std::size_t>(kNx * kNy); ++cell)
        for (int m = 0; m < c; ++m) {
            const float want = m < fd.components ? fd.data[cell * fd.components + m] : 0.f;
            EXPECT_EQ(bits(a.values[cell * c + m]), bits(want)) << fd.name << " cell " << cell << " component " << m;
        }
}

// ---- .pvd parsing ---------------------------------------------------------------

struct PvdItem {
    double time;
    std::string file;
};

std::vector<PvdItem> readPvd(const std::string& path) {
    const std::vector<unsigned char> b = io::readFileBytes(path);
    const std::string text(b.begin(), b.end());
    EXPECT_NE(text.find("<VTKFile type=\"Collection\""), std::string::npos) << text;
    EXPECT_NE(text.find("</Collection>\n</VTKFile>"), std::string::npos) << text;
    std::vector<PvdItem> out;
    for (const std::string& t : tags(text, "DataSet")) {
        EXPECT_EQ(t.substr(t.size() - 2), "/>") << t;
        out.push_back({std::stod(attr(t, "timestep")), attr(t, "file")});
    }
    return out;
}

nlohmann::json readJson(const std::string& path) {
    const std::vector<unsigned char> b = io::readFileBytes(path);
    return nlohmann::json::parse(b.begin(), b.end());
}

// ---- PNG decoding ---------------------------------------------------------------

using Image = PngImage;  // tests/png_image.hpp

std::string show(Rgb c) { return std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b); }

/// Expects @p fn to throw E with a message containing every string in @p parts.
template <class E, class Fn>
void expectError(Fn fn, const std::vector<std::string>& parts) {
    try {
        fn();
        ADD_FAILURE() << "no exception (expected one mentioning '" << parts.front() << "')";
    } catch (const E& e) {
        const std::string msg = e.what();
        for (const std::string& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
    }
}

// ---- format list ------------------------------------------------------------------

TEST(SnapshotFormatList, ParsesNamesCaseAndSpaces) {
    const SnapshotFormats all = io::parseSnapshotFormats("vti,npy,png");
    EXPECT_TRUE(all.vti && all.npy && all.png);
    const SnapshotFormats two = io::parseSnapshotFormats(" PNG , vti,png");
    EXPECT_TRUE(two.vti);
    EXPECT_FALSE(two.npy);
    EXPECT_TRUE(two.png);
    EXPECT_EQ(io::toString(two), "vti,png");
    EXPECT_EQ(io::parseSnapshotFormats(io::toString(all)), all);
}

TEST(SnapshotFormatList, BadNamesAreInputErrorsNamingOptionValueAndAllowed) {
    expectError<InputError>([] { io::parseSnapshotFormats("vti,vtk"); },
                            {"--snapshot-format", "'vti,vtk'", "unknown format 'vtk'", "vti, npy, png"});
    expectError<InputError>([] { io::parseSnapshotFormats(""); }, {"--snapshot-format", "no format", "vti, npy, png"});
    expectError<InputError>([] { io::parseSnapshotFormats("vti,,png"); }, {"--snapshot-format", "empty format name"});
    expectError<InputError>([] { io::parseSnapshotFormats("vti;png"); }, {"unknown format 'vti;png'"});
}

// ---- text helpers -------------------------------------------------------------------

TEST(SnapshotXmlText, NumbersReadBackExactlyAndShort) {
    for (double v : {0.0, 0.1, 0.30000000000000004, 12.5, -1e-7, 1e300, 632.45})
        EXPECT_EQ(std::strtod(io::formatDouble(v).c_str(), nullptr), v) << io::formatDouble(v);
    EXPECT_EQ(io::formatDouble(0.1), "0.1");
    EXPECT_EQ(io::formatFloat(0.1f), "0.1");
    EXPECT_EQ(std::strtof(io::formatFloat(1.f / 3.f).c_str(), nullptr), 1.f / 3.f);
    EXPECT_EQ(io::xmlEscape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
}

// ---- vti + pvd --------------------------------------------------------------------------

TEST_F(SnapshotTest, VtiFilesHoldEveryFieldBitwiseWithGridGeometry) {
    SnapshotWriter w(dir_.string(), io::parseSnapshotFormats("vti"));
    std::vector<SnapshotFrame> frames;
    for (int k = 0; k < 3; ++k) {
        frames.push_back(sampleFrame(k));
        w.write(frames.back());
    }
    EXPECT_EQ(w.framesWritten(), 3);
    for (int k = 0; k < 3; ++k) {
        char name[64];
        std::snprintf(name, sizeof name, "snapshots/frame_%06d.vti", k);
        const Vti v = readVti(path(name));
        EXPECT_EQ(attr(v.file_tag, "type"), "ImageData");
        EXPECT_EQ(attr(v.file_tag, "version"), "1.0");
        EXPECT_EQ(attr(v.file_tag, "byte_order"), "LittleEndian");
        EXPECT_EQ(attr(v.file_tag, "header_type"), "UInt64");
        EXPECT_EQ(attr(v.image_tag, "WholeExtent"), "0 5 0 3 0 0");
        EXPECT_EQ(attr(v.piece_tag, "Extent"), "0 5 0 3 0 0");
        EXPECT_EQ(attr(v.image_tag, "Origin"), "1.5 -2 0");
        EXPECT_EQ(attr(v.image_tag, "Spacing"), "0.25 0.25 0.25");
        EXPECT_EQ(v.time, frames[k].time) << "TimeValue must read back exactly";
        EXPECT_NE(v.xml.find("<CellData Scalars=\"density\" Vectors=\"velocity\">"), std::string::npos) << v.xml;
        ASSERT_EQ(v.arrays.size(), frames[k].fields.size());
        for (std::size_t a = 0; a < v.arrays.size(); ++a) expectArrayMatches(v.arrays[a], frames[k].fields[a]);
        const std::vector<unsigned char> b = io::readFileBytes(path(name));
        const std::string end = "\n  </AppendedData>\n</VTKFile>\n";
        ASSERT_GE(b.size(), end.size());
        EXPECT_EQ(std::string(b.end() - static_cast<std::ptrdiff_t>(end.size()), b.end()), end) << "file must close its XML";
    }
    EXPECT_FALSE(anyTemp());
}

TEST_F(SnapshotTest, PvdListsEveryCompleteFrameAfterEachWrite) {
    SnapshotWriter w(dir_.string(), io::parseSnapshotFormats("vti"));
    // A valid, empty collection before the first frame.
    EXPECT_TRUE(readPvd(path("snapshots.pvd")).empty());
    for (int k = 0; k < 4; ++k) {
        const SnapshotFrame f = sampleFrame(k);
        w.write(f);
        // After every write (a run killed now), the .pvd lists frames 0..k with their times.
        const std::vector<PvdItem> items = readPvd(path("snapshots.pvd"));
        ASSERT_EQ(items.size(), static_cast<std::size_t>(k + 1));
        for (int q = 0; q <= k; ++q) {
            EXPECT_EQ(items[q].time, sampleFrame(q).time) << "frame " << q;
            char name[64];
            std::snprintf(name, sizeof name, "snapshots/frame_%06d.vti", q);
            EXPECT_EQ(items[q].file, name);
            EXPECT_TRUE(fs::exists(path(items[q].file))) << items[q].file;
        }
    }
    EXPECT_FALSE(fs::exists(path("snapshots.json.tmp")));
    EXPECT_FALSE(anyTemp());
}

TEST(SnapshotPvd, TextEscapesFileNames) {
    const std::string t = io::pvdText({{1.5, "a&b.vti"}});
    EXPECT_NE(t.find("<DataSet timestep=\"1.5\" group=\"\" part=\"0\" file=\"a&amp;b.vti\"/>"), std::string::npos) << t;
}

// ---- npy + json index ----------------------------------------------------------------------

TEST_F(SnapshotTest, NpyFilesReadBackBitwiseWithGridShapes) {
    SnapshotWriter w(dir_.string(), io::parseSnapshotFormats("npy"));
    const SnapshotFrame f0 = sampleFrame(0), f1 = sampleFrame(1);
    w.write(f0);
    w.write(f1);
    const SnapshotFrame& f = f1;
    // Scalars: 2-D (ny, nx), through the existing Field reader.
    const Field<float> d = io::readNpyFloat(path("snapshots/frame_000001_density.npy"));
    ASSERT_EQ(d.nx(), kNx);
    ASSERT_EQ(d.ny(), kNy);
    for (int j = 0; j < kNy; ++j)
        for (int i = 0; i < kNx; ++i) EXPECT_EQ(bits(d(i, j)), bits(f.fields[0].data[j * kNx + i])) << i << "," << j;
    // Every field through the N-D reader: shape (ny, nx[, c]) and values.
    for (const SnapshotField& fd : f.fields) {
        const io::NpyFloatArray a = io::readNpyFloatArray(path("snapshots/frame_000001_" + fd.name + ".npy"));
        std::vector<long long> shape{kNy, kNx};
        if (fd.components > 1) shape.push_back(fd.components);
        EXPECT_EQ(a.shape, shape) << fd.name;
        ASSERT_EQ(a.data.size(), fd.data.size()) << fd.name;
        for (std::size_t k = 0; k < a.data.size(); ++k) EXPECT_EQ(bits(a.data[k]), bits(fd.data[k])) << fd.name << " " << k;
    }
    // Frame 0 is still there and different.
    const io::NpyFloatArray a0 = io::readNpyFloatArray(path("snapshots/frame_000000_density.npy"));
    EXPECT_EQ(a0.data[0], f0.fields[0].data[0]);
    EXPECT_NE(a0.data[0], f1.fields[0].data[0]);
    EXPECT_FALSE(anyTemp());
}

TEST_F(SnapshotTest, JsonIndexDescribesGridFieldsAndEveryFrame) {
    SnapshotWriter w(dir_.string(), io::parseSnapshotFormats("npy,vti"));
    // Before any frame: valid, no frames.
    nlohmann::json j = readJson(path("snapshots.json"));
    EXPECT_EQ(j["format"], "ccrowd-snapshots");
    EXPECT_TRUE(j["frames"].empty());
    for (int k = 0; k < 2; ++k) w.write(sampleFrame(k));
    j = readJson(path("snapshots.json"));
    EXPECT_EQ(j["format"], io::kSnapshotIndexFormat);
    EXPECT_EQ(j["version"], io::kSnapshotIndexVersion);
    EXPECT_EQ(j["formats"], nlohmann::json({"vti", "npy"}));
    EXPECT_EQ(j["grid"]["nx"], kNx);
    EXPECT_EQ(j["grid"]["ny"], kNy);
    EXPECT_EQ(j["grid"]["cell_size_m"].get<double>(), 0.25);
    EXPECT_EQ(j["grid"]["origin_m"], nlohmann::json({1.5, -2.0}));
    const SnapshotFrame f = sampleFrame(0);
    ASSERT_EQ(j["fields"].size(), f.fields.size());
    for (std::size_t k = 0; k < f.fields.size(); ++k) {
        const nlohmann::json& fj = j["fields"][k];
        EXPECT_EQ(fj["name"], f.fields[k].name);
        EXPECT_EQ(fj["units"], f.fields[k].units);
        EXPECT_EQ(fj["components"], f.fields[k].components);
        nlohmann::json shape = {kNy, kNx};
        if (f.fields[k].components > 1) shape.push_back(f.fields[k].components);
        EXPECT_EQ(fj["npy_shape"], shape);
        EXPECT_EQ(fj["dtype"], "<f4");
    }
    ASSERT_EQ(j["frames"].size(), 2u);
    for (int k = 0; k < 2; ++k) {
        const nlohmann::json& fr = j["frames"][k];
        EXPECT_EQ(fr["index"], k);
        EXPECT_EQ(fr["time_s"].get<double>(), sampleFrame(k).time);
        EXPECT_EQ(fr["step"], sampleFrame(k).step);
        EXPECT_TRUE(fs::exists(path(fr["files"]["vti"].get<std::string>())));
        ASSERT_EQ(fr["files"]["npy"].size(), f.fields.size());
        for (const SnapshotField& fd : f.fields) {
            const std::string file = fr["files"]["npy"][fd.name];
            EXPECT_TRUE(fs::exists(path(file))) << file;
        }
        EXPECT_FALSE(fr["files"].contains("png"));
    }
}

/// Runs @p cmd with the shell and returns its standard output.
std::string capture(const std::string& cmd) {
    std::string out;
    std::FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char buf[256];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
    return out;
}

TEST_F(SnapshotTest, NumpyLoadsTheArraysWithTheSameSums) {
    if (std::system("python3 -c 'import numpy' >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3 with numpy not available";
    SnapshotWriter w(dir_.string(), io::parseSnapshotFormats("npy"));
    const SnapshotFrame f = sampleFrame(2);
    w.write(f);
    // Sums of quarter multiples are exact in float64, so they compare exactly.
    double dsum = 0, vsum = 0;
    for (float v : f.fields[0].data) dsum += v;
    for (float v : f.fields[1].data) vsum += v;
    const std::string script =
        "import numpy as np; d = np.load('" + path("snapshots/frame_000000_density.npy") + "'); v = np.load('" +
        path("snapshots/frame_000000_velocity.npy") +
        "'); print(d.dtype.str, v.dtype.str, *d.shape, *v.shape, repr(float(d.astype(np.float64).sum())), "
        "repr(float(v.astype(np.float64).sum())), repr(float(v[2, 4, 1])), repr(float(d[1, 3])))";
    const std::string out = capture("python3 -c \"" + script + "\" 2>&1");
    std::istringstream in(out);
    std::string ddtype, vdtype;
    int dny = 0, dnx = 0, vny = 0, vnx = 0, vc = 0;
    double dsum_np = NAN, vsum_np = NAN, v241 = NAN, d13 = NAN;
    in >> ddtype >> vdtype >> dny >> dnx >> vny >> vnx >> vc >> dsum_np >> vsum_np >> v241 >> d13;
    ASSERT_FALSE(in.fail()) << "unexpected python output: " << out;
    EXPECT_EQ(ddtype, "<f4");
    EXPECT_EQ(vdtype, "<f4");
    EXPECT_EQ(std::vector<int>({dny, dnx, vny, vnx, vc}), std::vector<int>({kNy, kNx, kNy, kNx, 2}));
    EXPECT_EQ(dsum_np, dsum);
    EXPECT_EQ(vsum_np, vsum);
    // Element [j, i, c] is component c of cell (i, j).
    EXPECT_EQ(v241, f.fields[1].data[(2 * kNx + 4) * 2 + 1]);
    EXPECT_EQ(d13, f.fields[0].data[1 * kNx + 3]);
}

// ---- png -----------------------------------------------------------------------------------------

TEST_F(SnapshotTest, PngHeatMapsHaveLayoutSizeWallsAndRangeColours) {
    SnapshotWriter w(dir_.string(), io::parseSnapshotFormats("png"));
    SnapshotFrame f = sampleFrame(0);
    std::vector<std::uint8_t> blocked(kNx * kNy, 0);
    blocked[1 * kNx + 0] = 1;  // cell (0, 1)
    blocked[2 * kNx + 4] = 1;  // cell (4, 2)
    f.blocked = blocked.data();
    w.write(f);
    for (const SnapshotField& fd : f.fields) EXPECT_TRUE(fs::exists(path("snapshots/frame_000000_" + fd.name + ".png"))) << fd.name;

    // Potential: walls dark grey, inf/NaN light grey, range over the finite open cells.
    const Image img = loadPng(path("snapshots/frame_000000_potential.png"));
    ASSERT_TRUE(img.px);
    plot::HeatMap hm;
    hm.nx = kNx;
    hm.ny = kNy;
    hm.values = f.fields[3].data.data();
    hm.blocked = f.blocked;
    hm.title = "potential [s]   t = 0.10 s, step 0";
    const plot::HeatMapLayout L = plot::heatMapLayout(hm);
    EXPECT_EQ(img.w, L.width);
    EXPECT_EQ(img.h, L.height);
    EXPECT_EQ(L.map_w, kNx * (640 / kNx)) << "small grids get whole pixels per cell";
    auto cell = [&](int i, int j) { return img.at(L.pixelX(i), L.pixelY(j)); };
    EXPECT_EQ(cell(0, 1), plot::kHeatMapWall) << show(cell(0, 1));
    EXPECT_EQ(cell(4, 2), plot::kHeatMapWall) << show(cell(4, 2));
    EXPECT_EQ(cell(2, 0), plot::kHeatMapNoValue) << "inf: " << show(cell(2, 0));
    EXPECT_EQ(cell(3, 0), plot::kHeatMapNoValue) << "NaN: " << show(cell(3, 0));
    // Potential = 10 i + j + 1/3: min at open cell (0, 0), max at open cell (4, 1) (4, 2 is a wall).
    EXPECT_EQ(cell(0, 0), plot::viridis(0.f)) << show(cell(0, 0));
    EXPECT_EQ(cell(4, 1), plot::viridis(1.f)) << show(cell(4, 1));
    EXPECT_NE(cell(1, 0), plot::viridis(0.f));
    // Colour bar: max colour at its top, min at its bottom.
    EXPECT_EQ(img.at(L.bar_x + L.bar_w / 2, L.bar_y), plot::viridis(1.f - 0.5f / L.bar_h));
    EXPECT_EQ(img.at(L.bar_x + L.bar_w / 2, L.bar_y + L.bar_h - 1), plot::viridis(0.5f / L.bar_h));

    // Velocity: its magnitude, largest at (0, 2) = |(-0.5, -1.5)|, smallest at (2, 0) = |(0, 0)|.
    const Image vel = loadPng(path("snapshots/frame_000000_velocity.png"));
    ASSERT_TRUE(vel.px);
    EXPECT_EQ(vel.at(L.pixelX(0), L.pixelY(2)), plot::viridis(1.f)) << show(vel.at(L.pixelX(0), L.pixelY(2)));
    EXPECT_EQ(vel.at(L.pixelX(2), L.pixelY(0)), plot::viridis(0.f)) << show(vel.at(L.pixelX(2), L.pixelY(0)));
    EXPECT_EQ(vel.at(L.pixelX(0), L.pixelY(1)), plot::kHeatMapWall);
    EXPECT_FALSE(anyTemp());
}

TEST(SnapshotHeatMap, LargeGridsShrinkAndEmptyRangesStillRender) {
    // A grid larger than the map: shrunk to map_size on its longer side.
    std::vector<float> v(2000 * 500, kInf);
    plot::HeatMap hm;
    hm.nx = 2000;
    hm.ny = 500;
    hm.values = v.data();
    const plot::HeatMapLayout L = plot::heatMapLayout(hm);
    EXPECT_EQ(L.map_w, 640);
    EXPECT_EQ(L.map_h, 160);
    EXPECT_FALSE(plot::heatMapRange(hm).any);
    // All values inf: every map pixel shows "no value".
    const plot::Canvas c = plot::renderHeatMap(hm);
    EXPECT_EQ(c.get(L.map_x, L.map_y), plot::kHeatMapNoValue);
    EXPECT_EQ(c.get(L.map_x + L.map_w - 1, L.map_y + L.map_h - 1), plot::kHeatMapNoValue);
    hm.map_size = 8;
    EXPECT_THROW(plot::heatMapLayout(hm), InputError);
    hm.map_size = 640;
    hm.values = nullptr;
    EXPECT_THROW(plot::renderHeatMap(hm), InputError);
}

TEST(SnapshotHeatMap, ViridisEndsAndMonotoneLightness) {
    EXPECT_EQ(plot::viridis(0.f), (Rgb{68, 1, 84}));
    EXPECT_EQ(plot::viridis(1.f), (Rgb{253, 231, 37}));
    EXPECT_EQ(plot::viridis(-3.f), plot::viridis(0.f));
    EXPECT_EQ(plot::viridis(7.f), plot::viridis(1.f));
    EXPECT_EQ(plot::viridis(NAN), plot::viridis(0.f));
    // Perceptual: luma rises steadily from 0 to 1.
    auto luma = [](Rgb c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b; };
    for (int k = 1; k <= 64; ++k) EXPECT_GT(luma(plot::viridis(k / 64.f)), luma(plot::viridis((k - 1) / 64.f))) << k;
}

// ---- validation and errors ---------------------------------------------------------------------------

TEST_F(SnapshotTest, InvalidFramesAreErrorsAndWriteNothing) {
    SnapshotWriter w(dir_.string(), io::parseSnapshotFormats("vti,npy,png"));
    const std::vector<std::string> before = listing();
    SnapshotFrame f = sampleFrame(0);
    f.fields[1].data.pop_back();
    expectError<Error>([&] { w.write(f); }, {"velocity", "29 values", "expected nx*ny*components = 5*3*2 = 30"});
    f = sampleFrame(0);
    f.fields[0].name = "../x";
    expectError<Error>([&] { w.write(f); }, {"'../x'", "allowed: A-Z a-z 0-9 _ -"});
    f = sampleFrame(0);
    f.fields[2].name = "density";
    expectError<Error>([&] { w.write(f); }, {"duplicate"});
    f = sampleFrame(0);
    f.fields[0].components = 5;
    expectError<Error>([&] { w.write(f); }, {"components = 5", "1..4"});
    f = sampleFrame(0);
    f.h = 0.f;
    expectError<Error>([&] { w.write(f); }, {"cell size"});
    f = sampleFrame(0);
    f.time = NAN;
    expectError<Error>([&] { w.write(f); }, {"time"});
    EXPECT_EQ(w.framesWritten(), 0);
    EXPECT_EQ(listing(), before) << "a rejected frame must not leave files";
}

TEST_F(SnapshotTest, LaterFramesMustKeepTheFirstLayout) {
    SnapshotWriter w(dir_.string(), io::parseSnapshotFormats("npy"));
    w.write(sampleFrame(0));
    SnapshotFrame f = sampleFrame(1);
    f.fields[1].units = "km/h";
    expectError<Error>([&] { w.write(f); }, {"first frame", "velocity", "km/h"});
    f = sampleFrame(1);
    f.fields.pop_back();
    expectError<Error>([&] { w.write(f); }, {"3 fields != 4"});
    EXPECT_EQ(w.framesWritten(), 1);
    EXPECT_FALSE(fs::exists(path("snapshots/frame_000001_density.npy")));
    w.write(sampleFrame(2));
    EXPECT_EQ(w.framesWritten(), 2);
}

TEST_F(SnapshotTest, MissingOutputDirectoryIsAnInputErrorNamingThePath) {
    const std::string missing = path("no/such/dir");
    expectError<InputError>([&] { (void)SnapshotWriter(missing, io::parseSnapshotFormats("vti")); },
                            {missing + "/snapshots", "No such file or directory"});
    EXPECT_FALSE(fs::exists(path("no")));
    // A file where the frame directory should be.
    write("snapshots", "not a directory");
    expectError<InputError>([&] { (void)SnapshotWriter(dir_.string(), io::parseSnapshotFormats("npy")); },
                            {path("snapshots"), "a file of that name exists"});
    EXPECT_EQ(listing(), std::vector<std::string>{"snapshots"});
    expectError<InputError>([&] { (void)SnapshotWriter(path("x"), SnapshotFormats{}); }, {"no format selected"});
}

TEST_F(SnapshotTest, DirectoryRemovedMidRunGivesAnErrorNamingThePathAndNoPartialFile) {
    SnapshotWriter w(dir_.string(), io::parseSnapshotFormats("vti,npy,png"));
    w.write(sampleFrame(0));
    fs::remove_all(path("snapshots"));
    const std::string vti = path("snapshots/frame_000001.vti");
    expectError<Error>([&] { w.write(sampleFrame(1)); }, {vti});
    EXPECT_EQ(w.framesWritten(), 1);
    EXPECT_FALSE(anyTemp());
    EXPECT_FALSE(fs::exists(vti));
    // The indexes still list exactly the one complete frame.
    EXPECT_EQ(readPvd(path("snapshots.pvd")).size(), 1u);
    EXPECT_EQ(readJson(path("snapshots.json"))["frames"].size(), 1u);
}

TEST_F(SnapshotTest, ReadOnlyDirectoryGivesAnErrorNamingThePath) {
    const std::string ro = path("ro");
    fs::create_directory(ro);
    ::chmod(ro.c_str(), 0555);
    if (::access(ro.c_str(), W_OK) == 0) {
        ::chmod(ro.c_str(), 0755);
        GTEST_SKIP() << "permissions are not enforced for this user (root?)";
    }
    expectError<InputError>([&] { (void)SnapshotWriter(ro, io::parseSnapshotFormats("png")); }, {ro + "/snapshots", "Permission denied"});
    // A writable snapshots/ directory made read-only after start: the frame write fails, nothing partial.
    ::chmod(ro.c_str(), 0755);
    SnapshotWriter w(ro, io::parseSnapshotFormats("npy"));
    ::chmod((ro + "/snapshots").c_str(), 0555);
    expectError<InputError>([&] { w.write(sampleFrame(0)); }, {ro + "/snapshots/frame_000000_density.npy", "Permission denied"});
    ::chmod((ro + "/snapshots").c_str(), 0755);
    EXPECT_TRUE(fs::is_empty(ro + "/snapshots"));
}

}  // namespace
}  // namespace ccrowd::test
