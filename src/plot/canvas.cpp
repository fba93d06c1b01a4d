/// @file canvas.cpp
/// Anti-aliasing by coverage: a pixel takes the fraction of its area (or, for
/// strokes and discs, 1 px minus its centre's signed distance past the edge)
/// covered by the shape, blended over what is there.

#include "canvas.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ccrowd/error.hpp"

namespace ccrowd::plot {

namespace {

float clamp01(float v) { return v < 0.f ? 0.f : (v > 1.f ? 1.f : v); }

/// Distance from (px, py) to the segment (ax, ay)-(bx, by).
float segmentDistance(float px, float py, float ax, float ay, float bx, float by) {
    const float dx = bx - ax, dy = by - ay;
    const float len2 = dx * dx + dy * dy;
    float t = len2 > 0.f ? ((px - ax) * dx + (py - ay) * dy) / len2 : 0.f;
    t = clamp01(t);
    const float qx = ax + t * dx - px, qy = ay + t * dy - py;
    return std::sqrt(qx * qx + qy * qy);
}

/// Overlap length of [a0, a1) with the pixel span [p, p+1).
float overlap(float a0, float a1, int p) {
    return std::max(0.f, std::min(a1, static_cast<float>(p + 1)) - std::max(a0, static_cast<float>(p)));
}

}  // namespace

Canvas::Canvas(int width, int height, Rgb background) : w_(width), h_(height) {
    if (width < 1 || height < 1 || width > kMaxSide || height > kMaxSide) {
        throw InputError(fieldMessage("canvas size", std::to_string(width) + "x" + std::to_string(height),
                                      "invalid raster size", "1.." + std::to_string(kMaxSide) + " px per side"));
    }
    px_.resize(static_cast<std::size_t>(w_) * h_ * 3);
    fill(background);
    resetClip();
}

Rgb Canvas::get(int x, int y) const {
    if (x < 0 || y < 0 || x >= w_ || y >= h_) return {};
    const std::uint8_t* p = &px_[(static_cast<std::size_t>(y) * w_ + x) * 3];
    return {p[0], p[1], p[2]};
}

void Canvas::set(int x, int y, Rgb c) {
    if (x < cx0_ || y < cy0_ || x >= cx1_ || y >= cy1_) return;
    std::uint8_t* p = &px_[(static_cast<std::size_t>(y) * w_ + x) * 3];
    p[0] = c.r; p[1] = c.g; p[2] = c.b;
}

void Canvas::blend(int x, int y, Rgb c, float alpha) {
    if (x < cx0_ || y < cy0_ || x >= cx1_ || y >= cy1_) return;
    const float a = clamp01(alpha);
    if (a <= 0.f) return;
    std::uint8_t* p = &px_[(static_cast<std::size_t>(y) * w_ + x) * 3];
    const std::uint8_t src[3] = {c.r, c.g, c.b};
    for (int k = 0; k < 3; ++k) p[k] = static_cast<std::uint8_t>(std::lround(p[k] + a * (src[k] - p[k])));
}

void Canvas::fill(Rgb c) {
    for (std::size_t k = 0; k < px_.size(); k += 3) { px_[k] = c.r; px_[k + 1] = c.g; px_[k + 2] = c.b; }
}

void Canvas::setClip(int x0, int y0, int x1, int y1) {
    cx0_ = std::clamp(x0, 0, w_); cx1_ = std::clamp(x1, 0, w_);
    cy0_ = std::clamp(y0, 0, h_); cy1_ = std::clamp(y1, 0, h_);
}

void Canvas::resetClip() { setClip(0, 0, w_, h_); }

void Canvas::fillRect(int x0, int y0, int x1, int y1, Rgb c) {
    x0 = std::max(x0, cx0_); y0 = std::max(y0, cy0_);
    x1 = std::min(x1, cx1_); y1 = std::min(y1, cy1_);
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) set(x, y, c);
}

void Canvas::fillRectAA(float x0, float y0, float x1, float y1, Rgb c, float alpha) {
    if (!(x1 > x0 && y1 > y0)) return;
    const int ix0 = std::max(static_cast<int>(std::floor(x0)), cx0_), ix1 = std::min(static_cast<int>(std::ceil(x1)), cx1_);
    const int iy0 = std::max(static_cast<int>(std::floor(y0)), cy0_), iy1 = std::min(static_cast<int>(std::ceil(y1)), cy1_);
    for (int y = iy0; y < iy1; ++y) {
        const float oy = overlap(y0, y1, y);
        for (int x = ix0; x < ix1; ++x) blend(x, y, c, alpha * oy * overlap(x0, x1, x));
    }
}

void Canvas::strokeRect(int x0, int y0, int x1, int y1, Rgb c, int thickness) {
    fillRect(x0, y0, x1, y0 + thickness, c);
    fillRect(x0, y1 - thickness, x1, y1, c);
    fillRect(x0, y0, x0 + thickness, y1, c);
    fillRect(x1 - thickness, y0, x1, y1, c);
}

template <class Coverage>
void Canvas::paint(float x0, float y0, float x1, float y1, Rgb c, Coverage coverage) {
    if (!(std::isfinite(x0) && std::isfinite(y0) && std::isfinite(x1) && std::isfinite(y1))) return;
    const int ix0 = std::max(static_cast<int>(std::floor(std::max(x0, -1.f))), cx0_);
    const int iy0 = std::max(static_cast<int>(std::floor(std::max(y0, -1.f))), cy0_);
    const int ix1 = std::min(static_cast<int>(std::ceil(std::min(x1, static_cast<float>(w_ + 1)))), cx1_ - 1);
    const int iy1 = std::min(static_cast<int>(std::ceil(std::min(y1, static_cast<float>(h_ + 1)))), cy1_ - 1);
    for (int y = iy0; y <= iy1; ++y)
        for (int x = ix0; x <= ix1; ++x) blend(x, y, c, coverage(x + 0.5f, y + 0.5f));
}

void Canvas::line(float x0, float y0, float x1, float y1, Rgb c, float width) {
    const float r = 0.5f * width;
    paint(std::min(x0, x1) - r - 1, std::min(y0, y1) - r - 1, std::max(x0, x1) + r + 1, std::max(y0, y1) + r + 1, c,
          [&](float px, float py) { return clamp01(r + 0.5f - segmentDistance(px, py, x0, y0, x1, y1)); });
}

void Canvas::polyline(const std::vector<PointF>& pts, Rgb c, float width) {
    if (pts.size() == 1) fillCircle(pts[0].first, pts[0].second, 0.5f * width, c);
    for (std::size_t k = 1; k < pts.size(); ++k) line(pts[k - 1].first, pts[k - 1].second, pts[k].first, pts[k].second, c, width);
}

void Canvas::fillCircle(float cx, float cy, float radius, Rgb c) {
    paint(cx - radius - 1, cy - radius - 1, cx + radius + 1, cy + radius + 1, c, [&](float px, float py) {
        return clamp01(radius + 0.5f - std::hypot(px - cx, py - cy));
    });
}

void Canvas::strokeCircle(float cx, float cy, float radius, Rgb c, float width) {
    const float r = radius + 0.5f * width;
    paint(cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1, c, [&](float px, float py) {
        return clamp01(0.5f * width + 0.5f - std::fabs(std::hypot(px - cx, py - cy) - radius));
    });
}

void Canvas::fillPolygon(const std::vector<PointF>& pts, Rgb c) {
    if (pts.size() < 3) return;
    float x0 = pts[0].first, x1 = x0, y0 = pts[0].second, y1 = y0;
    for (const PointF& p : pts) {
        x0 = std::min(x0, p.first); x1 = std::max(x1, p.first);
        y0 = std::min(y0, p.second); y1 = std::max(y1, p.second);
    }
    // Even-odd point-in-polygon test at 16 sub-samples per pixel.
    auto inside = [&](float px, float py) {
        bool in = false;
        for (std::size_t a = 0, b = pts.size() - 1; a < pts.size(); b = a++) {
            const float ya = pts[a].second, yb = pts[b].second;
            if ((ya > py) != (yb > py) &&
                px < (pts[b].first - pts[a].first) * (py - ya) / (yb - ya) + pts[a].first) in = !in;
        }
        return in;
    };
    paint(x0 - 1, y0 - 1, x1 + 1, y1 + 1, c, [&](float px, float py) {
        int n = 0;
        for (int sy = 0; sy < 4; ++sy)
            for (int sx = 0; sx < 4; ++sx) n += inside(px - 0.375f + 0.25f * sx, py - 0.375f + 0.25f * sy);
        return n / 16.f;
    });
}

}  // namespace ccrowd::plot
