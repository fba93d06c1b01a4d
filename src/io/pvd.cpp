/// @file pvd.cpp
#include "pvd.hpp"

#include "file_bytes.hpp"
#include "xml_text.hpp"

namespace ccrowd::io {

std::string pvdText(const std::vector<PvdEntry>& entries) {
    std::string x = "<?xml version=\"1.0\"?>\n"
                    "<VTKFile type=\"Collection\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n"
                    "  <Collection>\n";
    for (const PvdEntry& e : entries)
        x += "    <DataSet timestep=\"" + formatDouble(e.time) + "\" group=\"\" part=\"0\" file=\"" + xmlEscape(e.file) + "\"/>\n";
    x += "  </Collection>\n</VTKFile>\n";
    return x;
}

void writePvd(const std::string& path, const std::vector<PvdEntry>& entries) {
    const std::string text = pvdText(entries);
    writeFileAtomic(path, text.data(), text.size());
}

}  // namespace ccrowd::io
