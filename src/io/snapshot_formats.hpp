#pragma once
/// @file snapshot_formats.hpp
/// Which files a SnapshotWriter produces, and the parser of the
/// --snapshot-format list ("vti,npy,png").

#include <string>

namespace ccrowd::io {

/// The snapshot file formats, any combination.
struct SnapshotFormats {
    bool vti = false;  ///< VTK XML ImageData per frame + snapshots.pvd (ParaView).
    bool npy = false;  ///< NumPy .npy per field per frame.
    bool png = false;  ///< Heat map PNG per field per frame.

    bool any() const { return vti || npy || png; }
    bool operator==(const SnapshotFormats& o) const { return vti == o.vti && npy == o.npy && png == o.png; }
};

/// The accepted format names, for messages: "vti, npy, png".
extern const char* const kSnapshotFormatNames;

/// Parses a comma-separated list such as "vti,npy,png" or "png". Names are
/// case-insensitive, spaces around them are ignored, repeats are allowed.
/// Throws InputError naming --snapshot-format, the bad value and the allowed
/// names for an unknown or empty name, or an empty list.
SnapshotFormats parseSnapshotFormats(const std::string& list);

/// The chosen formats as a list parseSnapshotFormats accepts, e.g. "vti,png".
std::string toString(const SnapshotFormats& formats);

}  // namespace ccrowd::io
