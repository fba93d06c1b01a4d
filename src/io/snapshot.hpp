#pragma once
/// @file snapshot.hpp
/// SnapshotWriter: writes a series of field snapshots (SnapshotFrame) into
/// an output directory, in any of three formats:
///
///   <dir>/snapshots.pvd                      ParaView collection (vti)
///   <dir>/snapshots.json                     index of every file (always)
///   <dir>/snapshots/frame_000012.vti         all fields of frame 12 (vti)
///   <dir>/snapshots/frame_000012_<field>.npy one array per field (npy)
///   <dir>/snapshots/frame_000012_<field>.png one heat map per field (png)
///
/// Every file is written atomically (temporary name, then rename), and the
/// two indexes are rewritten after each frame's files are complete, so a
/// killed run leaves valid indexes listing every complete frame.
/// Formats: vti.hpp (VTK XML ImageData), pvd.hpp, npy.hpp, snapshot_index.hpp,
/// ../plot/heatmap.hpp.

#include <string>
#include <vector>

#include "snapshot_formats.hpp"
#include "snapshot_frame.hpp"
#include "snapshot_index.hpp"

namespace ccrowd::io {

/// Writes numbered snapshot frames into one output directory.
class SnapshotWriter {
public:
    /// Subdirectory of the output directory that holds the frame files.
    static constexpr const char* kFrameDir = "snapshots";
    /// ParaView collection file name (vti format).
    static constexpr const char* kPvdName = "snapshots.pvd";
    /// Index file name.
    static constexpr const char* kIndexName = "snapshots.json";

    /// Creates <@p outDir>/snapshots if missing (@p outDir itself must exist)
    /// and writes empty indexes, replacing those of an earlier run in the
    /// same directory (its frame files are overwritten frame by frame, not
    /// deleted). Throws InputError naming the path and the system's reason
    /// when the directory cannot be created or written, and InputError when
    /// @p formats selects nothing.
    SnapshotWriter(std::string outDir, SnapshotFormats formats);

    /// Writes @p frame as frame framesWritten(), then rewrites the indexes.
    /// Every frame must have the first frame's grid and fields (names, units,
    /// components). Throws Error for an invalid frame or a different layout
    /// (nothing written), and InputError / Error naming the path when a file
    /// cannot be written (e.g. a full disk); the frame is then not listed.
    /// @param frame Its blocked mask, when set, draws walls in the PNGs.
    void write(const SnapshotFrame& frame);

    /// Frames written so far.
    int framesWritten() const { return static_cast<int>(records_.size()); }
    /// The output directory given at construction.
    const std::string& outDir() const { return dir_; }
    /// The chosen formats.
    const SnapshotFormats& formats() const { return formats_; }
    /// The files of every frame written so far, as listed in snapshots.json.
    const std::vector<SnapshotRecord>& records() const { return records_; }

private:
    /// Rewrites snapshots.pvd (vti) and snapshots.json.
    void writeIndexes() const;
    /// <dir>/<relative>.
    std::string full(const std::string& relative) const;

    std::string dir_;
    SnapshotFormats formats_;
    SnapshotFrame layout_;     ///< First frame without data: the layout all frames share.
    bool have_layout_ = false;
    std::vector<SnapshotRecord> records_;
};

}  // namespace ccrowd::io
