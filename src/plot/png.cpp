/// @file png.cpp
/// The one translation unit holding stb_image_write's implementation (static,
/// so it cannot clash with another copy). PNG bytes are built in memory and
/// written by io::writeFileAtomic, which checks every write.

#include "png.hpp"

#include <vector>

#include "ccrowd/error.hpp"
#include "../io/file_bytes.hpp"

// (a system include, CMakeLists.txt: its own warnings stay out of -Werror)
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

namespace ccrowd::plot {

namespace {

void appendBytes(void* context, void* data, int size) {
    auto* out = static_cast<std::vector<unsigned char>*>(context);
    const auto* p = static_cast<const unsigned char*>(data);
    out->insert(out->end(), p, p + size);
}

}  // namespace

void writePng(const std::string& path, const Canvas& canvas) {
    std::vector<unsigned char> png;
    if (!stbi_write_png_to_func(appendBytes, &png, canvas.width(), canvas.height(), 3, canvas.data(), canvas.width() * 3)) {
        throw Error("cannot write '" + path + "': PNG encoding of a " + std::to_string(canvas.width()) + "x" +
                    std::to_string(canvas.height()) + " image failed (out of memory?)");
    }
    io::writeFileAtomic(path, png.data(), png.size());
}

}  // namespace ccrowd::plot
