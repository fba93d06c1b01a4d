#pragma once
/// @file pvd.hpp
/// ParaView data collections (.pvd): an XML list of data files with their
/// times, which ParaView opens as one time series. Format: a VTKFile of type
/// "Collection" holding one <DataSet timestep="t" part="0" file="..."/> per
/// file (https://www.paraview.org/Wiki/ParaView/Data_formats#PVD_File_Format).

#include <string>
#include <vector>

namespace ccrowd::io {

/// One file of a collection.
struct PvdEntry {
    double time = 0.0;  ///< Time of the data set. [Units: s] [Limit: finite]
    std::string file;   ///< Path relative to the .pvd file's directory, e.g. "snapshots/frame_000003.vti".
};

/// The .pvd text listing @p entries in order (an empty collection when there
/// are none).
std::string pvdText(const std::vector<PvdEntry>& entries);

/// Writes pvdText(@p entries) to @p path atomically, so a reader never sees
/// a half-written list. Throws InputError / Error naming the path.
void writePvd(const std::string& path, const std::vector<PvdEntry>& entries);

}  // namespace ccrowd::io
