#pragma once
/// @file search.hpp
/// Search stage: people in smoke who cannot see the way to their goal
/// (Helbing, Farkas & Vicsek, "Simulating dynamical features of escape
/// panic", Nature 407, 2000, Fig. 3: exits found by chance, or by following
/// the others). Beyond their group's visibility (a walking distance to the
/// goal) a person's desired direction e_i is its own: the way it walks now,
/// along the wall it touches (the part into the wall removed: people in
/// smoke follow walls), away from it when it walks straight into it or into
/// a corner, and a new random heading when it stands still. The panic p of
/// the operational model then mixes e_i with the neighbours' mean direction
/// (herding). Within the visibility the continuum's preferred velocity
/// stands.

#include <math.h>
#include <stdint.h>

#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "grid.hpp"
#include "hash.hpp"
#include "portable_math.hpp"
#include "stages.hpp"
#include "walls.hpp"

namespace ccrowd::sim {

/// Below this share of its free speed a searching person counts as stopped
/// and takes a new heading.
constexpr float kSearchStopped = 0.25f;

/// A pseudo-random unit vector for person @p id's draw @p draw under
/// @p seed (a 32-bit integer hash, Wellons' "lowbias32"), the same on every
/// backend and thread count.
CC_HD inline void searchHeading(uint32_t seed, int id, int draw, float& ux, float& uy) {
    const uint32_t h = lowbias32(seed ^ (static_cast<uint32_t>(id) * 0x9e3779b9u) ^ (static_cast<uint32_t>(draw) * 0x85ebca6bu));
    portableUnitVector(static_cast<float>(h >> 8) * (1.f / 16777216.f), ux, uy);
}

/// A share of the heading below which nothing is left to slide along a
/// wall (the person walks into it nearly head-on).
constexpr float kSearchSlide = 0.3f;

/// A searcher's heading (ux, uy) at (x, y) [m] against every wall edge
/// within @p touch [m] (on its open side): the parts into them removed, so
/// it slides along a wall; when less than kSearchSlide is left (head-on, a
/// corner) the unit draw (dx, dy) instead, mirrored away from each of them.
/// Unchanged away from walls.
CC_HD inline void searchAlongWalls(const WallView& w, float x, float y, float touch, float dx, float dy, float& ux,
                                   float& uy) {
    int b, e;
    w.rowOf(x, y, b, e);
    float tx = ux, ty = uy, mx = dx, my = dy;
    bool touched = false;
    for (int k = b; k < e; ++k) {
        // nearest point of the edge, within touch and seen from its open side
        float qx, qy, sx, sy;
        if (!wallEdgePoint(w.seg[w.list[k]], x, y, qx, qy, sx, sy)) continue;
        const float px = x - qx, py = y - qy;
        const float d = sqrtf(px * px + py * py);
        if (!(d < touch) || !(d > 0.f) || px * sx + py * sy < 0.f) continue;
        const float ox = px / d, oy = py / d;
        touched = true;
        // the heading's part into it removed; the draw mirrored out of it
        const float in = tx * ox + ty * oy;
        if (in < 0.f) { tx -= in * ox; ty -= in * oy; }
        const float back = mx * ox + my * oy;
        if (back < 0.f) { mx -= 2.f * back * ox; my -= 2.f * back * oy; }
    }
    if (!touched) return;
    const float tl = sqrtf(tx * tx + ty * ty), ml = sqrtf(mx * mx + my * my);
    if (tl >= kSearchSlide) { ux = tx / tl; uy = ty / tl; }
    else if (ml > 0.f) { ux = mx / ml; uy = my / ml; }
}

/// Per-agent search of one field's searchers (fieldIndex): agents farther
/// than @p visibility from the field's goal (distance, walking metres) get
/// the preferred velocity s e_i, s the continuum's preferred speed (the free
/// speed where it gives none). e_i is their velocity's direction (the
/// velocity walked: separation adds its pushes, so a searcher pressed into
/// a corner reads as stopped), or, when slower than kSearchStopped x free
/// speed, searchHeading's draw
/// floor(time / redraw); at walls within the body's radius plus a quarter
/// cell, searchAlongWalls.
struct SearchKernel {
    AgentViews a;
    GridInfo g;
    WallView walls;               ///< Wall edges (walls.hpp).
    float radius = 0.2f;          ///< Body radius of the field's group. [Units: m]
    View2<const float> distance;  ///< Walking distance to the field's goal. [Units: m] (+inf: none)
    int fieldIndex = 0;           ///< This pass's field.
    float visibility = 0.f;       ///< [Units: m] [Limit: > 0]
    float time = 0.f;             ///< Simulated time. [Units: s]
    float redraw = 2.f;           ///< Period of a stopped person's new headings. [Units: s] [Limit: > 0]
    uint32_t seed = 0u;           ///< The scene's seed.

    CC_HD void operator()(int k) const {
        if (a.field[k] != fieldIndex) return;
        // within sight of the goal: the continuum's way stands
        int i, j;
        g.cellOf(a.x[k], a.y[k], i, j);
        if (g.inside(i, j) && distance(i, j) <= visibility) return;
        // speed: the continuum's (density slows searchers too), else free
        const float vmax = a.vmax[k];
        const float ps = sqrtf(a.px[k] * a.px[k] + a.py[k] * a.py[k]);
        const float s = ps > 0.f ? ps : vmax;
        // own heading: the way it walks, or a new draw when stopped
        const float vx = a.vx[k], vy = a.vy[k], v = sqrtf(vx * vx + vy * vy);
        float ux, uy, dx, dy;
        searchHeading(seed, a.id[k], static_cast<int>(floorf(time / redraw)), dx, dy);
        if (v >= kSearchStopped * vmax && v > 0.f) {
            ux = vx / v;
            uy = vy / v;
        } else {
            ux = dx;
            uy = dy;
        }
        // at walls: along them, or away when nothing is left to slide along
        searchAlongWalls(walls, a.x[k], a.y[k], radius + 0.25f * g.h, dx, dy, ux, uy);
        a.px[k] = s * ux;
        a.py[k] = s * uy;
    }
};

/// Runs SearchKernel for field @p fieldIndex on @p ex's side.
void search(const Exec& ex, const AgentViews& a, const GridInfo& g, const WallView& walls, float radius,
            View2<const float> distance, int fieldIndex, float visibility, float time, uint32_t seed);

}  // namespace ccrowd::sim
