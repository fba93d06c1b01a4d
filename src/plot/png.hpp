#pragma once
/// @file png.hpp
/// Saving a Canvas as an 8-bit RGB PNG (stb_image_write).

#include <string>

#include "canvas.hpp"

namespace ccrowd::plot {

/// Writes @p canvas to @p path as PNG, atomically ("<path>.tmp", then rename).
/// Throws InputError (path cannot be created) or Error (encoding, write or
/// rename failed, e.g. a full disk); the message names the path.
void writePng(const std::string& path, const Canvas& canvas);

}  // namespace ccrowd::plot
