#pragma once
/// @file png_image.hpp
/// PNG files read back in tests (stb_image, Debian's libstb-dev): a decoded
/// RGB image with pixel access and colour counts.

#include <cstddef>
#include <memory>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "src/plot/canvas.hpp"

// (a system include, CMakeLists.txt: its own warnings stay out of -Werror)
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>

namespace ccrowd::plot {
/// Writes a colour as "(r, g, b)" (test failure messages).
inline std::ostream& operator<<(std::ostream& os, const Rgb& c) {
    return os << "(" << int(c.r) << ", " << int(c.g) << ", " << int(c.b) << ")";
}
}  // namespace ccrowd::plot

namespace ccrowd::test {

/// A decoded RGB PNG; empty (px null) when it could not be read.
struct PngImage {
    int w = 0, h = 0;  ///< [Units: px]
    std::unique_ptr<unsigned char, void (*)(void*)> px{nullptr, stbi_image_free};

    /// Colour of pixel (x, y), y down from the top row.
    plot::Rgb at(int x, int y) const {
        const unsigned char* p = px.get() + (static_cast<std::size_t>(y) * w + x) * 3;
        return {p[0], p[1], p[2]};
    }
    /// Pixels of colour @p c in [x0, x1) x [y0, y1).
    int count(plot::Rgb c, int x0, int y0, int x1, int y1) const {
        int n = 0;
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) n += at(x, y) == c;
        return n;
    }
    /// Pixels of colour @p c in the whole image.
    int count(plot::Rgb c) const { return count(c, 0, 0, w, h); }
};

/// Decodes the PNG at @p path as RGB; a failure is a test failure naming the path.
inline PngImage loadPng(const std::string& path) {
    PngImage img;
    int comp = 0;
    img.px.reset(stbi_load(path.c_str(), &img.w, &img.h, &comp, 3));
    EXPECT_TRUE(img.px) << "stb_image cannot read " << path << ": " << stbi_failure_reason();
    return img;
}

}  // namespace ccrowd::test
