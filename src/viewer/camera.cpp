/// @file camera.cpp
#include "viewer/camera.hpp"

#include <algorithm>

namespace ccrowd::viewer {

void Camera::fit(float x0, float y0, float w, float h, int fbWidth, int fbHeight) {
    width = std::max(fbWidth, 1);
    height = std::max(fbHeight, 1);
    cx = x0 + 0.5f * w;
    cy = y0 + 0.5f * h;
    ppm = std::min(width / std::max(w, 1e-6f), height / std::max(h, 1e-6f));
}

void Camera::worldToPixel(float x, float y, float& px, float& py) const {
    px = 0.5f * width + (x - cx) * ppm;
    py = 0.5f * height - (y - cy) * ppm;
}

void Camera::pixelToWorld(float px, float py, float& x, float& y) const {
    x = cx + (px - 0.5f * width) / ppm;
    y = cy - (py - 0.5f * height) / ppm;
}

void Camera::pan(float dx, float dy) {
    cx -= dx / ppm;
    cy += dy / ppm;
}

void Camera::zoomAbout(float px, float py, float factor) {
    float wx = 0, wy = 0;
    pixelToWorld(px, py, wx, wy);
    ppm = std::clamp(ppm * factor, 1e-3f, 1e6f);
    // move the centre so (wx, wy) is under (px, py) again
    cx = wx - (px - 0.5f * width) / ppm;
    cy = wy + (py - 0.5f * height) / ppm;
}

void Camera::ndcTransform(float out[4]) const {
    out[0] = 2.f * ppm / width;
    out[1] = 2.f * ppm / height;
    out[2] = -cx * out[0];
    out[3] = -cy * out[1];
}

}  // namespace ccrowd::viewer
