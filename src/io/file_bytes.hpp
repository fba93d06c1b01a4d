#pragma once
/// @file file_bytes.hpp
/// Whole-file byte I/O shared by the output writers (.npy, .png): read a file
/// into memory, and write a file atomically ("<path>.tmp", then rename), so a
/// failed write never leaves a half-written file under the final name.

#include <cstddef>
#include <string>
#include <vector>

namespace ccrowd::io {

/// Reads the whole file at @p path.
/// Throws InputError naming the path when it cannot be opened or read.
/// [Limit: the file must fit in memory]
std::vector<unsigned char> readFileBytes(const std::string& path);

/// Writes @p bytes bytes from @p data to @p path atomically: writes
/// "<path>.tmp", checks every fwrite/fflush/fclose, then renames it over
/// @p path. On any failure the temporary file is removed and nothing is left
/// under @p path that was not there before.
/// Throws InputError when the temporary file cannot be created (missing
/// directory, no permission) and Error when writing, closing or renaming
/// fails (e.g. a full disk); both name the path and the system's reason.
/// @param data  First byte. [Size: bytes] (may be null when bytes == 0)
void writeFileAtomic(const std::string& path, const void* data, std::size_t bytes);

}  // namespace ccrowd::io
