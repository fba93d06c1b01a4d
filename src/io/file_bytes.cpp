/// @file file_bytes.cpp
#include "file_bytes.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "ccrowd/error.hpp"

namespace ccrowd::io {

namespace {

std::string sysReason(int err) { return std::strerror(err); }

/// Closes the FILE on scope exit unless released.
struct FileCloser {
    std::FILE* f;
    ~FileCloser() { if (f) std::fclose(f); }
};

}  // namespace

std::vector<unsigned char> readFileBytes(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw InputError("cannot open '" + path + "' for reading: " + sysReason(errno));
    FileCloser closer{f};
    std::vector<unsigned char> bytes;
    unsigned char buf[1 << 16];
    // Read in chunks: works for pipes and files whose size changes.
    for (;;) {
        std::size_t n = std::fread(buf, 1, sizeof buf, f);
        bytes.insert(bytes.end(), buf, buf + n);
        if (n < sizeof buf) break;
    }
    if (std::ferror(f)) throw InputError("error reading '" + path + "': " + sysReason(errno));
    return bytes;
}

void writeFileAtomic(const std::string& path, const void* data, std::size_t bytes) {
    const std::string tmp = path + ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) {
        throw InputError("cannot write '" + path + "': cannot create temporary file '" + tmp + "': " +
                         sysReason(errno));
    }
    // Each step keeps the first failure's errno; the temp file is removed on failure.
    const char* step = nullptr;
    int err = 0;
    if (bytes > 0 && std::fwrite(data, 1, bytes, f) != bytes) { step = "fwrite"; err = errno; }
    if (!step && std::fflush(f) != 0) { step = "fflush"; err = errno; }
    if (std::fclose(f) != 0 && !step) { step = "fclose"; err = errno; }
    if (!step && std::rename(tmp.c_str(), path.c_str()) != 0) { step = "rename"; err = errno; }
    if (step) {
        std::remove(tmp.c_str());
        throw Error("cannot write '" + path + "' (" + std::to_string(bytes) + " bytes): " + step + " failed: " +
                    sysReason(err));
    }
}

}  // namespace ccrowd::io
