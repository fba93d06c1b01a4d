/// @file overlay_field.cpp
#include "viewer/overlay_field.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ccrowd/error.hpp"

namespace ccrowd::viewer {

const char* overlayName(Overlay o) { return kOverlayNames[static_cast<int>(o)]; }

namespace {

/// Largest finite value (0 when none).
float finiteMax(const std::vector<float>& v) {
    float m = 0.f;
    for (float x : v)
        if (std::isfinite(x)) m = std::max(m, x);
    return m;
}

/// Desired-velocity arrows of field @p k, one per block of cells.
std::vector<float> arrowsOf(const Simulation& sim, int k) {
    const SceneGrid& g = sim.grid();
    const std::vector<float> v = sim.desiredVelocity(k);
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

}  // namespace

OverlayField readOverlay(const Simulation& sim, Overlay overlay, int field) {
    OverlayField o;
    const ModelParams& mp = sim.scene().params;
    switch (overlay) {
    case Overlay::None:
        return o;
    case Overlay::Density: {
        const Field<float>& d = sim.density();
        o.values.assign(d.host(), d.host() + d.size());
        o.hi = mp.rho_limit;
        break;
    }
    case Overlay::Speed: {
        const std::vector<float> v = sim.meanVelocity();
        o.values.resize(v.size() / 2);
        for (std::size_t c = 0; c < o.values.size(); ++c) o.values[c] = std::hypot(v[2 * c], v[2 * c + 1]);
        o.hi = std::max(mp.v0, finiteMax(o.values));
        break;
    }
    case Overlay::Pressure: {
        const Field<float>& p = sim.pressure();
        o.values.assign(p.host(), p.host() + p.size());
        o.hi = finiteMax(o.values);
        break;
    }
    case Overlay::Potential: {
        if (field < 0 || field >= sim.fieldCount())
            throw InputError(fieldMessage("--field", std::to_string(field), "no such potential field",
                                          "0.." + std::to_string(sim.fieldCount() - 1) + " (one per group and route step)"));
        const Field<float>& p = sim.potential(field);
        o.values.assign(p.host(), p.host() + p.size());
        o.hi = finiteMax(o.values);
        o.arrows = arrowsOf(sim, field);
        break;
    }
    }
    // unreachable cells (+inf) at the top of the map; the texture needs finite values
    for (float& x : o.values)
        if (!std::isfinite(x)) x = o.hi;
    if (!(o.hi > o.lo)) o.hi = o.lo + 1.f;
    return o;
}

}  // namespace ccrowd::viewer
