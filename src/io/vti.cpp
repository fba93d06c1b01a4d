/// @file vti.cpp
/// The XML header is text with the array offsets precomputed; the binary
/// block follows it. Byte order is handled explicitly (little-endian output
/// on any host).

#include "vti.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "file_bytes.hpp"
#include "xml_text.hpp"

namespace ccrowd::io {

namespace {

/// Stores @p v little-endian at @p p; returns the byte after it.
unsigned char* storeU64(unsigned char* p, std::uint64_t v) {
    for (int b = 0; b < 8; ++b) *p++ = static_cast<unsigned char>(v >> (8 * b));
    return p;
}

unsigned char* storeF32(unsigned char* p, float v) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    for (int b = 0; b < 4; ++b) *p++ = static_cast<unsigned char>(u >> (8 * b));
    return p;
}

/// Bytes of one field's array in the appended block (values only).
std::uint64_t arrayBytes(const SnapshotFrame& f, const SnapshotField& fd) {
    return static_cast<std::uint64_t>(f.nx) * static_cast<std::uint64_t>(f.ny) *
           static_cast<std::uint64_t>(vtiComponents(fd.components)) * 4u;
}

/// The XML up to and including the "_" that starts the appended data.
std::string header(const SnapshotFrame& f) {
    const std::string extent = "0 " + std::to_string(f.nx) + " 0 " + std::to_string(f.ny) + " 0 0";
    const std::string h = formatFloat(f.h);
    std::ostringstream x;
    x << "<?xml version=\"1.0\"?>\n"
      << "<VTKFile type=\"ImageData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
      << "  <ImageData WholeExtent=\"" << extent << "\" Origin=\"" << formatFloat(f.origin_x) << ' '
      << formatFloat(f.origin_y) << " 0\" Spacing=\"" << h << ' ' << h << ' ' << h << "\">\n"
      << "    <FieldData>\n"
      << "      <DataArray type=\"Float64\" Name=\"TimeValue\" NumberOfTuples=\"1\" format=\"ascii\">"
      << formatDouble(f.time) << "</DataArray>\n"
      << "    </FieldData>\n"
      << "    <Piece Extent=\"" << extent << "\">\n";
    // The first scalar and first vector field become the active attributes.
    std::string scalars, vectors;
    for (const SnapshotField& fd : f.fields) {
        if (fd.components == 1 && scalars.empty()) scalars = fd.name;
        if (fd.components == 2 && vectors.empty()) vectors = fd.name;
    }
    x << "      <CellData";
    if (!scalars.empty()) x << " Scalars=\"" << xmlEscape(scalars) << '"';
    if (!vectors.empty()) x << " Vectors=\"" << xmlEscape(vectors) << '"';
    x << ">\n";
    // One DataArray per field; offsets count the UInt64 size headers.
    std::uint64_t offset = 0;
    for (const SnapshotField& fd : f.fields) {
        x << "        <DataArray type=\"Float32\" Name=\"" << xmlEscape(fd.name) << "\" NumberOfComponents=\""
          << vtiComponents(fd.components) << "\" format=\"appended\" offset=\"" << offset << "\"/>\n";
        offset += 8 + arrayBytes(f, fd);
    }
    x << "      </CellData>\n"
      << "    </Piece>\n"
      << "  </ImageData>\n"
      << "  <AppendedData encoding=\"raw\">\n"
      << "   _";
    return x.str();
}

}  // namespace

int vtiComponents(int components) { return components == 2 ? 3 : components; }

std::vector<unsigned char> encodeVti(const SnapshotFrame& f) {
    validateSnapshotFrame(f);
    const std::string head = header(f);
    const std::string tail = "\n  </AppendedData>\n</VTKFile>\n";
    // Size the buffer once: header, arrays with their size words, closing tags.
    std::size_t total = head.size() + tail.size();
    for (const SnapshotField& fd : f.fields) total += 8 + static_cast<std::size_t>(arrayBytes(f, fd));
    std::vector<unsigned char> out(total);
    unsigned char* p = std::copy(head.begin(), head.end(), out.data());
    const std::size_t cells = static_cast<std::size_t>(f.nx) * static_cast<std::size_t>(f.ny);
    for (const SnapshotField& fd : f.fields) {
        p = storeU64(p, arrayBytes(f, fd));
        const std::size_t c = static_cast<std::size_t>(fd.components);
        for (std::size_t k = 0; k < cells; ++k) {
            for (std::size_t m = 0; m < c; ++m) p = storeF32(p, fd.data[k * c + m]);
            if (c == 2) p = storeF32(p, 0.f);  // z of a 2-D vector
        }
    }
    std::copy(tail.begin(), tail.end(), p);
    return out;
}

void writeVti(const std::string& path, const SnapshotFrame& frame) {
    const std::vector<unsigned char> bytes = encodeVti(frame);
    writeFileAtomic(path, bytes.data(), bytes.size());
}

}  // namespace ccrowd::io
