#pragma once
/// @file zones.hpp
/// Zone-repulsion operational model (seed 000, Beltrami 2010, §4.6.3): three
/// concentric zones around every person, d1 < d2 < d3 (eq. 4.4), with
/// repulsion strengths f1 > f2 > f3 (eq. 4.5), piecewise linear in the
/// centre distance d (listing 4.8): f1 at d = 0 falling to f2 at d1, to f3 at
/// d2 and to 0 at d3. Each neighbour j within d3, of the same group or
/// another (the seed applies it within and between groups), adds
/// strength(d_ij) n_ij (eqs. 4.9-4.11, listing 4.7; n_ij the unit vector
/// from j to i) to i's preferred velocity (the continuum's, in place of the
/// seed's attraction to a destination, listing 4.6), the summed repulsion
/// capped at push_cap times the preferred speed (ccrowd's addition); the
/// result is clamped to the preferred speed (ccrowd's addition: the
/// continuum's walking speed at the density ahead, at most the free speed)
/// and advected (agents.hpp). Repulsion thus turns and slows a person but
/// never makes them walk faster than they would: clamped to the free speed
/// instead, the crowd behind pushed those in room_exit's 1 m door forward at
/// up to 1.75 times their preferred speed, 2.79 persons/(m s) against the
/// 1.0-2.0 of door experiments (1.69 with this clamp).
/// Strengths are velocities here. The continuum's preferred velocity
/// ignores the body radius, so a person whose body touches a wall is first
/// made to slide along it (slideAlongWalls, walls.hpp): without that, at a
/// 1 m door (room_exit) the last two persons rest against the door's two
/// corners, pushed into them, and their mutual repulsion (about 0.5 m/s at
/// 1.07 m) outweighs the small component of the preferred velocity that
/// would take them round the corner. Host+device; launched by zones.cu.

#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "neighbour_grid.hpp"
#include "walls.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// The seed's zones and strengths (defaults of seed 000, figure 4.15 and
/// eqs. 4.12-4.13: slopes -8, -0.514286, -0.04).
struct ZonesParams {
    float d1 = 0.25f, d2 = 2.f, d3 = 4.5f;  ///< Zone radii. [Units: m] [Limit: 0 < d1 < d2 < d3]
    float f1 = 3.f, f2 = 1.f, f3 = 0.1f;    ///< Strengths at d = 0, d1, d2 (0 at d3). [Units: m/s] [Limit: f1 >= f2 >= f3 >= 0]
    /// Largest summed repulsion as a fraction of the preferred speed
    /// (ccrowd's addition to the seed): below 1 the velocity keeps a
    /// component along the preferred direction, so two persons cannot hold
    /// each other off in a stable standstill (without it, two persons at the
    /// corners of room_exit's door do). [Limit: >= 0]
    float push_cap = 0.75f;
};

/// Repulsion strength at centre distance @p d [m] (seed 000 listing 4.8;
/// listing 4.9's shortcut applies the outer slope inside d1, a slip this
/// follows 4.8 on). [Units: m/s]
CC_HD inline float zoneStrength(const ZonesParams& z, float d) {
    if (d <= z.d1) return z.f1 + (z.f2 - z.f1) * (d / z.d1);               // inner zone: f1 -> f2
    if (d <= z.d2) return z.f2 + (z.f3 - z.f2) * ((d - z.d1) / (z.d2 - z.d1));  // middle zone: f2 -> f3
    if (d <= z.d3) return z.f3 * ((z.d3 - d) / (z.d3 - z.d2));             // outer zone: f3 -> 0
    return 0.f;
}

/// Velocity of agent k: preferred velocity (sliding along a wall its body
/// touches) plus the zone repulsions of every neighbour within d3 (5x5
/// neighbour cells of size >= d3 / 2, sorted order: deterministic), their
/// sum capped at push_cap times the preferred speed, clamped to the
/// preferred speed (at most the agent's free speed vmax).
struct ZonesVelocityKernel {
    AgentViews a;
    NeighbourView nb;
    ZonesParams z;
    WallView walls;         ///< The scene's wall edges.
    float clearance = 0.f;  ///< Body radius kept from walls (advect's). [Units: m] [Limit: >= 0]

    CC_HD void operator()(int k) const {
        const float xi = a.x[k], yi = a.y[k];
        float rx = 0.f, ry = 0.f;
        nb.forEachNeighbour(k, xi, yi, [&](int o) {
            const float dx = xi - a.x[o], dy = yi - a.y[o];
            const float d2 = dx * dx + dy * dy;
            if (!(d2 <= z.d3 * z.d3)) return;
            // direction from j to i (eqs. 4.10-4.11; coincident: a fixed direction per pair)
            const float d = sqrtf(d2);
            float ux, uy;
            pairDirection(k, o, dx, dy, d, 1e-6f, ux, uy);
            // strength by zone (listing 4.8), summed (listing 4.7)
            const float s = zoneStrength(z, d);
            rx += s * ux;
            ry += s * uy;
        });
        // the preferred velocity, sliding along a wall the body touches
        float pvx = a.px[k], pvy = a.py[k];
        slideAlongWalls(walls, clearance, xi, yi, pvx, pvy);
        // the repulsion capped at push_cap times the preferred speed
        const float pref = sqrtf(pvx * pvx + pvy * pvy);
        const float rs = sqrtf(rx * rx + ry * ry), cap = z.push_cap * pref;
        if (rs > cap) { rx *= cap / rs; ry *= cap / rs; }
        // preferred velocity plus repulsion, clamped to the preferred speed (at most the free speed)
        float vx = pvx + rx, vy = pvy + ry;
        const float freeSpeed = a.vmax[k] > 0.f ? a.vmax[k] : 0.f, vmax = pref < freeSpeed ? pref : freeSpeed;
        const float sp = sqrtf(vx * vx + vy * vy);
        if (sp > vmax) { vx *= vmax / sp; vy *= vmax / sp; }
        a.vx[k] = vx;
        a.vy[k] = vy;
    }
};

/// Zone velocity stage: builds the shared neighbour grid (cells >= d3 / 2, 5x5 scanned, laid on @p g) over
/// the agents' positions and writes every agent's velocity (a.vx, a.vy),
/// bodies of radius @p clearance [m] sliding along the wall edges of
/// @p walls; positions are unchanged (advect follows). Throws InputError
/// for zones out of range.
void zonesVelocity(const Exec& ex, const AgentViews& a, const GridInfo& g, const WallView& walls, float clearance,
                   const ZonesParams& z, AgentSortBuffers& sort, NeighbourGridBuffers& ws);

}  // namespace ccrowd::sim
