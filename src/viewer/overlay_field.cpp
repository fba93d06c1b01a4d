/// @file overlay_field.cpp
#include "viewer/overlay_field.hpp"

#include <algorithm>
#include <cmath>

namespace ccrowd::viewer {

const char* overlayName(Overlay o) { return kOverlayNames[static_cast<int>(o)]; }

std::vector<float> potentialArrows(const Simulation& sim, int field) {
    const SceneGrid& g = sim.grid();
    const std::vector<float> v = sim.desiredVelocity(field);
    const int stride = std::max(1, std::max(g.nx, g.ny) / 64);
    const float vmax = std::max(sim.scene().params.v0, 1e-3f);
    const float len = 0.9f * stride * g.h;  // an arrow at free speed spans its block
    std::vector<float> out;
    for (int j = stride / 2; j < g.ny; j += stride)
        for (int i = stride / 2; i < g.nx; i += stride) {
            const int c = i + j * g.nx;
            if (g.blocked.host()[c]) continue;
            const float vx = v[2 * c], vy = v[2 * c + 1];
            const float s = std::hypot(vx, vy);
            if (!(s > 1e-4f)) continue;
            const float l = len * std::min(s / vmax, 1.f);
            const float ux = vx / s, uy = vy / s;
            const float x0 = g.origin.x + (i + 0.5f) * g.h - 0.5f * l * ux, y0 = g.origin.y + (j + 0.5f) * g.h - 0.5f * l * uy;
            const float x1 = x0 + l * ux, y1 = y0 + l * uy;
            const float hx = 0.3f * l, hy = 0.3f * l * 0.6f;  // head length, half-width
            out.insert(out.end(), {x0, y0, x1, y1});
            out.insert(out.end(), {x1, y1, x1 - hx * ux - hy * uy, y1 - hx * uy + hy * ux});
            out.insert(out.end(), {x1, y1, x1 - hx * ux + hy * uy, y1 - hx * uy - hy * ux});
        }
    return out;
}

}  // namespace ccrowd::viewer
