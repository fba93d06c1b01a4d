#pragma once
/// @file trajectory_text.hpp
/// Agent trajectories as a plain-text file in the format PedPy's
/// load_trajectory_from_txt reads (also JuPedSim's and JPSreport's "plain"
/// format): '#' comment lines first, among them the frame rate
/// ("#framerate: 20") and the unit ("x/m"), then one whitespace-separated
/// row per agent and frame:
/// @code
///   #description: ccrowd trajectories
///   #framerate: 20
///   #ID: agent id, FR: frame (time = FR / frame rate)
///   #X, Y, Z: position in metres (x/m y/m z/m); Z is always 0
///   #ID	FR	X	Y	Z
///   17	0	12.3400	5.0000	0
/// @endcode
/// Positions are printed with 4 decimals (0.1 mm). The file is written as
/// "<path>.tmp" and renamed to @p path by close(); destroying the writer
/// without close() removes the temporary file.

#include <cstdio>
#include <string>

namespace ccrowd::io {

/// Streams frames of agents into a PedPy text trajectory file.
class TextTrajectoryWriter {
public:
    /// Creates "<path>.tmp" and writes the header.
    /// @param fps  Frames per second of the frame numbers. [Units: 1/s] [Limit: finite, > 0]
    /// Throws InputError for a bad fps or when the file cannot be created
    /// (naming @p path and the system's reason), Error when writing fails.
    TextTrajectoryWriter(std::string path, double fps);
    /// Without close(): removes the temporary file.
    ~TextTrajectoryWriter();
    TextTrajectoryWriter(const TextTrajectoryWriter&) = delete;
    TextTrajectoryWriter& operator=(const TextTrajectoryWriter&) = delete;

    /// Appends @p n rows "id frame x y 0" (arrays may be null when n == 0).
    /// @param frame  Frame number. [Limit: >= 0, greater than the previous frame]
    /// @param x,y    Positions. [Units: m] [Limit: finite]
    /// Throws InputError for a bad frame, n < 0 or a non-finite position
    /// (naming the frame and agent id), Error when writing fails (e.g. disk full).
    void writeFrame(long long frame, int n, const int* id, const float* x, const float* y);

    /// Flushes, closes and renames the file to its final path. Idempotent.
    /// Throws Error naming the path and the system's reason on failure.
    void close();

    const std::string& path() const { return path_; }  ///< Final path.
    long long rows() const { return rows_; }            ///< Rows written so far.

private:
    void fail(const char* step, int err);

    std::string path_, tmp_;
    std::FILE* file_ = nullptr;
    std::string line_;  ///< Text of the frame being written.
    long long lastFrame_ = -1, rows_ = 0;
    bool closed_ = false;
};

}  // namespace ccrowd::io
