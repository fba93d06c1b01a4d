/// @file text.cpp
/// Renders stb_easy_font's quads (axis-aligned rectangles in font units) as
/// anti-aliased rectangles, scaled and optionally rotated by 90 degrees.

#include "text.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb/stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace ccrowd::plot {

namespace {

constexpr float kCap = 7.f;      // cap top to baseline, font units
constexpr float kDescent = 9.f;  // cap top to descender bottom
constexpr float kLine = 12.f;    // line pitch

/// Copy stb_easy_font can index: printable ASCII and '\n' only.
std::vector<char> sanitize(const std::string& text) {
    std::vector<char> s;
    s.reserve(text.size() + 1);
    for (char c : text) s.push_back(c == '\n' || (c >= 32 && c < 127) ? c : '?');
    s.push_back('\0');
    return s;
}

/// Widest line minus the 1-unit gap that stb_easy_font counts after the last glyph.
float inkWidthUnits(std::vector<char>& s) {
    const int w = stb_easy_font_width(s.data());
    return w > 0 ? static_cast<float>(w - 1) : 0.f;
}

int lineCount(const std::string& text) { return 1 + static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

float textWidth(const std::string& text, float scale) {
    std::vector<char> s = sanitize(text);
    return inkWidthUnits(s) * scale;
}

float textHeight(const std::string& text, float scale) { return ((lineCount(text) - 1) * kLine + kCap) * scale; }

void drawText(Canvas& canvas, float x, float y, const std::string& text, const TextStyle& st) {
    if (text.empty() || !(st.scale > 0.f)) return;
    std::vector<char> s = sanitize(text);
    const float width = inkWidthUnits(s);
    const float extra = (lineCount(text) - 1) * kLine;  // multi-line block height above the last line
    // Offset (font units) of the anchor inside the text block.
    const float au = st.halign == HAlign::Left ? 0.f : st.halign == HAlign::Center ? 0.5f * width : width;
    const float av = st.valign == VAlign::Top        ? 0.f
                     : st.valign == VAlign::Middle   ? 0.5f * (extra + kCap)
                     : st.valign == VAlign::Baseline ? extra + kCap
                                                     : extra + kDescent;
    // Snap the origin to whole pixels so integer scales stay crisp.
    const float s0 = st.scale;
    const float ox = std::round(st.vertical ? x - av * s0 : x - au * s0);
    const float oy = std::round(st.vertical ? y + au * s0 : y - av * s0);

    std::vector<char> buf(s.size() * 1200 + 1024);
    const int quads = stb_easy_font_print(0.f, 0.f, s.data(), nullptr, buf.data(), static_cast<int>(buf.size()));
    for (int q = 0; q < quads; ++q) {
        // 4 vertices of 16 bytes: x, y, z floats then RGBA.
        float u0 = 1e30f, u1 = -1e30f, v0 = 1e30f, v1 = -1e30f;
        for (int k = 0; k < 4; ++k) {
            float v[2];
            std::copy_n(buf.data() + (4 * q + k) * 16, sizeof v, reinterpret_cast<char*>(v));
            u0 = std::min(u0, v[0]); u1 = std::max(u1, v[0]);
            v0 = std::min(v0, v[1]); v1 = std::max(v1, v[1]);
        }
        if (st.vertical) canvas.fillRectAA(ox + v0 * s0, oy - u1 * s0, ox + v1 * s0, oy - u0 * s0, st.color);
        else canvas.fillRectAA(ox + u0 * s0, oy + v0 * s0, ox + u1 * s0, oy + v1 * s0, st.color);
    }
}

}  // namespace ccrowd::plot
