#pragma once
/// @file snapshot_index.hpp
/// snapshots.json: the machine-readable index of a snapshot series. It names
/// the format and version, the grid (size, cell size, origin, array layout),
/// every field (units, components, .npy shape) and, per written frame, its
/// time, step and files (paths relative to the index's directory).
///
/// Example (one frame, formats vti and npy):
///   {"format": "ccrowd-snapshots", "version": 1, "formats": ["vti", "npy"],
///    "grid": {"nx": 4, "ny": 3, "cell_size_m": 0.5, "origin_m": [0, 0], ...},
///    "fields": [{"name": "density", "units": "1/m^2", "components": 1,
///                "npy_shape": [3, 4], "dtype": "<f4"}],
///    "frames": [{"index": 0, "time_s": 0.5, "step": 10,
///                "files": {"vti": "snapshots/frame_000000.vti",
///                          "npy": {"density": "snapshots/frame_000000_density.npy"}}}]}

#include <map>
#include <string>
#include <vector>

#include "snapshot_formats.hpp"
#include "snapshot_frame.hpp"

namespace ccrowd::io {

/// Name in the index's "format" member.
extern const char* const kSnapshotIndexFormat;
/// Version in the index's "version" member; raised on incompatible changes.
constexpr int kSnapshotIndexVersion = 1;

/// The files of one written frame.
struct SnapshotRecord {
    long long index = 0;   ///< Frame number, from 0.
    double time = 0.0;     ///< [Units: s]
    long long step = 0;
    std::string vti;                           ///< .vti file (empty without vti).
    std::map<std::string, std::string> npy;    ///< Field name -> .npy file.
    std::map<std::string, std::string> png;    ///< Field name -> .png file.
};

/// The index text (JSON, 2-space indented).
/// @param layout  Grid and field list (data unused); null before the first
///                frame: then "grid" is null and "fields" and "frames" are empty.
std::string snapshotIndexJson(const SnapshotFormats& formats, const SnapshotFrame* layout,
                              const std::vector<SnapshotRecord>& frames);

}  // namespace ccrowd::io
