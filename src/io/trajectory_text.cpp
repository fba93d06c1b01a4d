/// @file trajectory_text.cpp
#include "trajectory_text.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <utility>

#include "ccrowd/error.hpp"
#include "io/number_text.hpp"

namespace ccrowd::io {

namespace {

/// Output buffer of the FILE stream. [Units: bytes]
constexpr std::size_t kBufferBytes = 1 << 20;

}  // namespace

TextTrajectoryWriter::TextTrajectoryWriter(std::string path, double fps) : path_(std::move(path)), tmp_(path_ + ".tmp") {
    if (!std::isfinite(fps) || fps <= 0)
        throw InputError("trajectory file '" + path_ + "': " +
                         fieldMessage("fps", shortestText(fps), "not a positive frame rate", "finite, > 0"));
    // Create the temporary file with a large buffer: frames are written in big chunks.
    file_ = std::fopen(tmp_.c_str(), "wb");
    if (!file_) {
        throw InputError("cannot write '" + path_ + "': cannot create temporary file '" + tmp_ + "': " +
                         std::strerror(errno));
    }
    std::setvbuf(file_, nullptr, _IOFBF, kBufferBytes);
    // Header: PedPy takes the first number on the "framerate" line and the unit from "x/m".
    const std::string header = "#description: ccrowd trajectories (continuum crowds simulation)\n"
                               "#framerate: " + shortestText(fps) + "\n"
                               "#ID: agent id, FR: frame (time = FR / frame rate)\n"
                               "#X, Y, Z: position in metres (x/m y/m z/m); Z is always 0\n"
                               "#ID\tFR\tX\tY\tZ\n";
    if (std::fwrite(header.data(), 1, header.size(), file_) != header.size()) fail("fwrite", errno);
}

TextTrajectoryWriter::~TextTrajectoryWriter() {
    if (closed_) return;
    if (file_) std::fclose(file_);
    std::remove(tmp_.c_str());
}

void TextTrajectoryWriter::fail(const char* step, int err) {
    // Leave nothing behind: the temporary file is incomplete.
    if (file_) std::fclose(file_);
    file_ = nullptr;
    std::remove(tmp_.c_str());
    throw Error("cannot write '" + path_ + "': " + step + " failed on '" + tmp_ + "': " + std::strerror(err));
}

void TextTrajectoryWriter::writeFrame(long long frame, int n, const int* id, const float* x, const float* y) {
    if (closed_ || !file_) throw Error("trajectory file '" + path_ + "': writeFrame after close() or a write error");
    // Arguments: frame order, sizes, finite positions.
    const std::string where = "trajectory file '" + path_ + "', frame " + std::to_string(frame);
    if (frame < 0 || frame <= lastFrame_)
        throw InputError(where + ": " + fieldMessage("frame", std::to_string(frame), "frames must increase",
                                                     "> " + std::to_string(lastFrame_) + " and >= 0"));
    if (n < 0) throw InputError(where + ": " + fieldMessage("n", std::to_string(n), "negative agent count", ">= 0"));
    if (n > 0 && (!id || !x || !y)) throw InputError(where + ": null agent array with n = " + std::to_string(n));
    for (int k = 0; k < n; ++k) {
        if (!std::isfinite(x[k]) || !std::isfinite(y[k]))
            throw InputError(where + ": agent id " + std::to_string(id[k]) + " has a non-finite position (allowed: finite values)");
    }
    // Format the whole frame, then write it at once.
    char frameText[24];
    const auto fr = std::to_chars(frameText, frameText + sizeof frameText, frame);
    const std::size_t frameLen = static_cast<std::size_t>(fr.ptr - frameText);
    line_.resize(static_cast<std::size_t>(n) * (16 + frameLen + 2 * 48 + 8));  // longest id, frame, finite floats
    char* p = line_.data();
    char* const end = p + line_.size();
    for (int k = 0; k < n; ++k) {
        p = std::to_chars(p, end, id[k]).ptr;
        *p++ = '\t';
        p = std::copy(frameText, frameText + frameLen, p);
        *p++ = '\t';
        p = std::to_chars(p, end, x[k], std::chars_format::fixed, 4).ptr;
        *p++ = '\t';
        p = std::to_chars(p, end, y[k], std::chars_format::fixed, 4).ptr;
        *p++ = '\t';
        *p++ = '0';
        *p++ = '\n';
    }
    const std::size_t bytes = static_cast<std::size_t>(p - line_.data());
    if (bytes > 0 && std::fwrite(line_.data(), 1, bytes, file_) != bytes) fail("fwrite", errno);
    lastFrame_ = frame;
    rows_ += n;
}

void TextTrajectoryWriter::close() {
    if (closed_) return;
    if (!file_) throw Error("trajectory file '" + path_ + "': close after a write error");
    // Flush and close, checking each step; then the atomic rename.
    if (std::fflush(file_) != 0) fail("fflush", errno);
    std::FILE* f = std::exchange(file_, nullptr);
    if (std::fclose(f) != 0) fail("fclose", errno);
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) fail("rename", errno);
    closed_ = true;
}

}  // namespace ccrowd::io
