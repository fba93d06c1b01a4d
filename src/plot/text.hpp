#pragma once
/// @file text.hpp
/// Text on a Canvas with stb_easy_font (public-domain vector font built into
/// the binary: no font file at run time). Glyphs are 7 font units from cap top
/// to baseline, descenders reach 9, lines are 12 apart; a unit is @c scale px.
/// Printable ASCII only: other characters are drawn as '?'.

#include <string>

#include "canvas.hpp"

namespace ccrowd::plot {

/// Horizontal anchor: where the anchor point sits along the text.
enum class HAlign { Left, Center, Right };
/// Vertical anchor: cap top, middle of the capitals, baseline, or descender bottom.
enum class VAlign { Top, Middle, Baseline, Bottom };

/// How drawText places and paints text.
struct TextStyle {
    float scale = 2.f;              ///< Pixels per font unit (2 gives 14 px capitals). [Units: px] [Limit: > 0]
    Rgb color{0, 0, 0};             ///< Ink colour.
    HAlign halign = HAlign::Left;   ///< Anchor along the text.
    VAlign valign = VAlign::Top;    ///< Anchor across the text.
    bool vertical = false;          ///< Rotated 90 degrees counter-clockwise (reads bottom to top).
};

/// Draws @p text (may contain '\n') with its anchor at (x, y). Integer scales
/// give crisp glyphs; fractional ones are anti-aliased. [Units: px]
void drawText(Canvas& canvas, float x, float y, const std::string& text, const TextStyle& style);

/// Advance width of the widest line of @p text at @p scale. [Units: px]
float textWidth(const std::string& text, float scale);
/// Height from the first line's cap top to the last line's baseline. [Units: px]
float textHeight(const std::string& text, float scale);

}  // namespace ccrowd::plot
