#pragma once
/// @file vti.hpp
/// VTK XML ImageData (.vti) files of a SnapshotFrame, for ParaView / VisIt.
///
/// Format: "VTK XML File Formats",
/// https://docs.vtk.org/en/latest/vtk_file_formats/vtkxml_file_format.html
/// (and https://itk.org/Wiki/VTK_XML_Formats for the appended-data headers).
/// One serial ImageData piece, version 1.0, LittleEndian, header_type UInt64.
/// Values are CellData: WholeExtent "0 nx 0 ny 0 0" counts points, so there
/// are nx*ny cells; Origin is the grid's lower-left corner, Spacing "h h h".
/// Every field is a Float32 DataArray in one <AppendedData encoding="raw">
/// block: "_" then, per array, a UInt64 byte count and the values, x fastest.
/// 2-component vectors are written with 3 components (z = 0) so ParaView can
/// glyph them; other component counts are written as they are. The time is
/// stored as FieldData "TimeValue" (the name ParaView reads).

#include <string>
#include <vector>

#include "snapshot_frame.hpp"

namespace ccrowd::io {

/// Components @p components-component fields get in a .vti file (2 -> 3).
int vtiComponents(int components);

/// The complete .vti file of @p frame. Throws Error for an invalid frame
/// (validateSnapshotFrame).
std::vector<unsigned char> encodeVti(const SnapshotFrame& frame);

/// Writes encodeVti(@p frame) to @p path atomically (writeFileAtomic).
/// Throws InputError / Error naming the path when it cannot be written.
void writeVti(const std::string& path, const SnapshotFrame& frame);

}  // namespace ccrowd::io
