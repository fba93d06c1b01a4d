#pragma once
/// @file orca.hpp
/// ORCA operational model (van den Berg, Guy, Lin & Manocha, "Reciprocal
/// n-body collision avoidance", Robotics Research, STAR 70, 2011; the RVO2
/// library). Every person i is a disc of radius r_i that picks, each step,
/// the velocity nearest to its preferred one (agents.preferred: the
/// continuum's desired velocity, Narain 2009 §6) inside the disc |v| <= vmax
/// and on the permitted side of one half-plane per neighbour and per nearby
/// wall segment:
///
///  - agent j (§5.1, eq. 5): ORCA_ij = {v | (v - (v_i + u/2)) . n >= 0},
///    u the smallest change of the relative velocity v_i - v_j that leaves
///    the truncated velocity obstacle VO^tau_ij (cone of apex 0 towards
///    p_j - p_i, legs tangent to the disc of radius r_i + r_j, cut off by
///    the disc of that radius / tau centred at (p_j - p_i) / tau), n the
///    outward normal there; each agent takes half the responsibility (u/2).
///    Overlapping agents use the time step instead of tau (RVO2's collision
///    case), so they separate within a step;
///  - wall segment (§6, as RVO2 builds obstacle lines): the truncated
///    velocity obstacle of the segment (legs tangent to the discs of radius
///    r_i about its ends, cut off at tau_obst), the half-plane tangent to it
///    nearest to v_i, with full responsibility (walls do not move)
///    (orcaSegmentLine).
///
/// Walls are the scene's wall edges (walls.hpp: the walkable region's
/// boundary, exact from its polygons, so a straight wall is one segment and
/// walking along it is free), those whose open side holds the agent,
/// nearest first. The
/// program is solved by orca_lp.hpp (RVO2's linearProgram2, and
/// linearProgram3 when it is infeasible). Jacobi: every agent reads the old
/// positions and velocities, writes its new velocity; advection (agents.hpp)
/// follows. Host+device; launched by orca.cu.

#include <cstdint>

#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "agents.hpp"
#include "walls.hpp"
#include "grid.hpp"
#include "neighbour_grid.hpp"
#include "orca_lp.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Most neighbours an agent takes into account (the compile-time cap of
/// max_neighbours: the fixed arrays of the kernel).
constexpr int kOrcaMaxNeighbours = 32;
/// Most wall segments (half-planes) per agent, nearest first.
constexpr int kOrcaMaxWallLines = 16;
/// Most half-planes per agent.
constexpr int kOrcaMaxLines = kOrcaMaxNeighbours + kOrcaMaxWallLines;

/// ORCA parameters (RVO2's agent defaults, in pedestrian units).
struct OrcaParams {
    float time_horizon = 2.f;       ///< tau: agents avoid collisions with agents this far ahead. [Units: s] [Limit: > 0]
    float time_horizon_obst = 1.f;  ///< tau_obst: the same for walls. [Units: s] [Limit: > 0]
    float neighbour_dist = 2.f;     ///< Centre distance within which agents are neighbours. [Units: m] [Limit: > 0]
    int max_neighbours = 10;        ///< Nearest neighbours taken into account. [Limit: 1..kOrcaMaxNeighbours]
};

/// RVO2's agent ORCA line (§5.1) of agent i against j: relative position
/// @p rp = p_j - p_i [m], relative velocity @p rv = v_i - v_j and i's
/// velocity @p vi [m/s], radius sum @p R [m], horizon @p tau and step @p dt
/// [s]; @p away is the unit vector from j to i used when the pair is
/// coincident and at rest (no direction otherwise).
CC_HD inline OrcaLine orcaAgentLine(OrcaVec rp, OrcaVec rv, OrcaVec vi, float R, float tau, float dt, OrcaVec away) {
    OrcaLine line;
    OrcaVec u;
    const float dist2 = dot(rp, rp), R2 = R * R;
    if (dist2 > R2) {
        // apart: w from the centre of the cut-off disc (radius R / tau at rp / tau) to the relative velocity
        const float inv = 1.f / tau;
        const OrcaVec w = rv - inv * rp;
        const float w2 = dot(w, w), wr = dot(w, rp);
        if (wr < 0.f && wr * wr > R2 * w2) {
            // nearest boundary point is on the cut-off disc
            const float wl = sqrtf(w2);
            const OrcaVec uw = (1.f / wl) * w;
            line.direction = OrcaVec{uw.y, -uw.x};
            u = (R * inv - wl) * uw;
        } else {
            // nearest boundary point is on a leg (the tangent from 0 to the disc of radius R at rp)
            const float leg = sqrtf(dist2 - R2);
            if (det(rp, w) > 0.f) {
                line.direction = (1.f / dist2) * OrcaVec{rp.x * leg - rp.y * R, rp.x * R + rp.y * leg};
            } else {
                line.direction = (-1.f / dist2) * OrcaVec{rp.x * leg + rp.y * R, -rp.x * R + rp.y * leg};
            }
            u = dot(rv, line.direction) * line.direction - rv;
        }
    } else {
        // overlapping: leave the disc of radius R / dt at rp / dt within this step
        const float inv = 1.f / dt;
        const OrcaVec w = rv - inv * rp;
        const float wl = sqrtf(dot(w, w));
        const OrcaVec uw = wl > 1e-6f ? (1.f / wl) * w : away;
        line.direction = OrcaVec{uw.y, -uw.x};
        u = (R * inv - wl) * uw;
    }
    // reciprocity: i takes half of the change (eq. 5)
    line.point = vi + 0.5f * u;
    return line;
}

/// RVO2's obstacle ORCA line (van den Berg 2011 §6; RVO2's
/// Agent::computeNewVelocity, obstacle part) for one wall segment from @p a
/// to @p b, given relative to the agent (endpoint minus position) [m] and
/// oriented with the agent on its right (det(b - a, -a) < 0), for the
/// agent's velocity @p v [m/s], radius @p r [m] and horizon @p tau [s].
/// The truncated velocity obstacle is the cone between the left leg
/// (tangent from the agent to the disc of radius r about a) and the right
/// leg (about b), cut off by the segment's capsule scaled by 1/tau; seen
/// edge-on (the agent within r of the segment's line beyond an end), both
/// legs come from the near end. The line is the boundary's tangent nearest
/// to v, with the obstacle taking no share (full responsibility). A body
/// already within r: no velocity towards the segment (RVO2's collision
/// lines). Every end is taken as a convex vertex (RVO2's non-convex and
/// foreign-leg cases, which need the neighbouring segments, are not made:
/// this only widens the cone at a concave corner).
CC_HD inline OrcaLine orcaSegmentLine(OrcaVec a, OrcaVec b, OrcaVec v, float r, float tau) {
    OrcaLine line;
    const float r2 = r * r, inv = 1.f / tau;
    const OrcaVec seg = b - a;
    const float segLen2 = dot(seg, seg);
    const float d1 = dot(a, a), d2 = dot(b, b);
    // where the agent (the origin) projects on the segment, and its squared distance to the segment's line
    const float s = segLen2 > 0.f ? -dot(a, seg) / segLen2 : 0.f;
    const OrcaVec off = (-1.f) * a - s * seg;
    const float dLine = dot(off, off);
    const OrcaVec unit = segLen2 > 0.f ? (1.f / sqrtf(segLen2)) * seg : OrcaVec{1.f, 0.f};
    // collision with an end or the segment: no velocity towards it
    if (s < 0.f && d1 <= r2) {
        line.direction = (1.f / sqrtf(d1 > 0.f ? d1 : 1.f)) * OrcaVec{-a.y, a.x};
        return line;
    }
    if (s > 1.f && d2 <= r2) {
        line.direction = (1.f / sqrtf(d2 > 0.f ? d2 : 1.f)) * OrcaVec{-b.y, b.x};
        return line;
    }
    if (s >= 0.f && s <= 1.f && dLine <= r2) {
        line.direction = (-1.f) * unit;
        return line;
    }
    // the legs: tangents from the agent to the discs about the ends (both about one end when seen edge-on)
    OrcaVec left = a, right = b;
    if (s < 0.f && dLine <= r2) right = a;
    else if (s > 1.f && dLine <= r2) left = b;
    const float ll = dot(left, left), lr = dot(right, right);
    const float legL = sqrtf(ll - r2), legR = sqrtf(lr - r2);
    const OrcaVec leftLeg = (1.f / ll) * OrcaVec{left.x * legL - left.y * r, left.x * r + left.y * legL};
    const OrcaVec rightLeg = (1.f / lr) * OrcaVec{right.x * legR + right.y * r, -right.x * r + right.y * legR};
    // the cut-off: the capsule about the segment scaled by 1/tau
    const OrcaVec lc = inv * left, rc = inv * right, cut = rc - lc;
    const bool oneEnd = left.x == right.x && left.y == right.y;
    const float t = oneEnd ? 0.5f : dot(v - lc, cut) / dot(cut, cut);
    const float tL = dot(v - lc, leftLeg), tR = dot(v - rc, rightLeg);
    const float rt = r * inv;
    // v projects on the left end's cut-off circle, or the right end's
    if ((t < 0.f && tL < 0.f) || (oneEnd && tL < 0.f && tR < 0.f) || (t > 1.f && tR < 0.f)) {
        const OrcaVec c = (t > 1.f && tR < 0.f && !oneEnd) ? rc : lc;
        const OrcaVec w = v - c;
        const float wl = sqrtf(dot(w, w));
        const OrcaVec uw = wl > 1e-6f ? (1.f / wl) * w : (-1.f / sqrtf(dot(c, c))) * c;
        line.direction = OrcaVec{uw.y, -uw.x};
        line.point = c + rt * uw;
        return line;
    }
    // else on the nearest of the cut-off's straight side and the two legs
    const float big = INFINITY;
    const OrcaVec pc = lc + t * cut, pl = lc + tL * leftLeg, pr = rc + tR * rightLeg;
    const float dc = (t < 0.f || t > 1.f || oneEnd) ? big : dot(v - pc, v - pc);
    const float dl = tL < 0.f ? big : dot(v - pl, v - pl);
    const float dr = tR < 0.f ? big : dot(v - pr, v - pr);
    if (dc <= dl && dc <= dr) {
        line.direction = (-1.f) * unit;
        line.point = lc + rt * OrcaVec{-line.direction.y, line.direction.x};
    } else if (dl <= dr) {
        line.direction = leftLeg;
        line.point = lc + rt * OrcaVec{-line.direction.y, line.direction.x};
    } else {
        line.direction = (-1.f) * rightLeg;
        line.point = rc + rt * OrcaVec{-line.direction.y, line.direction.x};
    }
    return line;
}

/// Wall segments near one agent, nearest first (at most kOrcaMaxWallLines).
struct OrcaWalls {
    OrcaVec a[kOrcaMaxWallLines], b[kOrcaMaxWallLines];  ///< Ends. [Units: m]
    float d[kOrcaMaxWallLines];                          ///< Distance from the agent. [Units: m]
    int count = 0;

    /// Keeps the segment from (ax, ay) to (bx, by) [m] when it lies within
    /// @p range [m] of (px, py); drops the furthest when full (a tie keeps
    /// the earlier one).
    CC_HD void add(float px, float py, float ax, float ay, float bx, float by, float range) {
        // nearest point of the segment
        const float ex = bx - ax, ey = by - ay, len2 = ex * ex + ey * ey;
        float t = len2 > 0.f ? ((px - ax) * ex + (py - ay) * ey) / len2 : 0.f;
        t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
        const float dx = px - (ax + t * ex), dy = py - (ay + t * ey);
        const float dist = sqrtf(dx * dx + dy * dy);
        if (!(dist < range)) return;
        if (count == kOrcaMaxWallLines && !(dist < d[count - 1])) return;
        // insertion by distance
        int s = count < kOrcaMaxWallLines ? count++ : count - 1;
        for (; s > 0 && dist < d[s - 1]; --s) { d[s] = d[s - 1]; a[s] = a[s - 1]; b[s] = b[s - 1]; }
        d[s] = dist;
        a[s] = OrcaVec{ax, ay};
        b[s] = OrcaVec{bx, by};
    }
};

/// Collects into @p w the wall edges within @p range [m] of (px, py) whose
/// open side (left) holds it: the edges in the row of its cell (the index's
/// reach must cover the range: orcaWallReach), in the row's fixed order.
CC_HD inline void orcaGatherWalls(const WallView& walls, float px, float py, float range, OrcaWalls& w) {
    int b, e;
    walls.rowOf(px, py, b, e);
    for (int k = b; k < e; ++k) {
        const WallSegment s = walls.seg[walls.list[k]];
        // the agent on the edge's open side
        if (!((s.bx - s.ax) * (py - s.ay) - (s.by - s.ay) * (px - s.ax) > 0.f)) continue;
        w.add(px, py, s.ax, s.ay, s.bx, s.by, range);
    }
}

/// New velocity of agent k by ORCA: up to max_neighbours nearest neighbours
/// within neighbour_dist (ties by index: the same set for any scan order),
/// the wall segments within tau_obst vmax + r_k, RVO2's linear programs.
/// Reads the old state, writes vxOut / vyOut (Jacobi: deterministic).
struct OrcaVelocityKernel {
    View1<const float> x, y, vx, vy;  ///< Old state. [Units: m, m/s]
    View1<const float> px, py;        ///< Preferred velocity (agents.preferred). [Units: m/s]
    View1<const float> vmax;          ///< Free speed: the speed disc's radius. [Units: m/s]
    View1<const int> field;           ///< Field per agent (indexes radiusOf).
    View1<const float> radiusOf;      ///< Body radius per field. [Units: m]
    NeighbourView nb;                 ///< Cells >= neighbour_dist / span.
    WallView walls;                   ///< Wall edges, reach >= orcaWallReach(); cells with none skip the wall scan.
    OrcaParams p;
    float dt = 0.f;                   ///< Step. [Units: s] [Limit: > 0]
    View1<float> vxOut, vyOut;        ///< New velocity. [Units: m/s]

    CC_HD void operator()(int k) const {
        const float xi = x[k], yi = y[k];
        const float vm = vmax[k] > 0.f ? vmax[k] : 0.f;
        const float ri = radiusOf[field[k]];
        // the nearest max_neighbours within neighbour_dist, sorted by (distance, index)
        float nd[kOrcaMaxNeighbours] = {};
        int ni[kOrcaMaxNeighbours] = {};
        int nc = 0;
        const int cap = p.max_neighbours;
        const float range2 = p.neighbour_dist * p.neighbour_dist;
        nb.forEachNeighbour(k, xi, yi, [&](int o) {
            const float dx = x[o] - xi, dy = y[o] - yi;
            const float d2 = dx * dx + dy * dy;
            if (!(d2 < range2)) return;
            if (nc == cap && !(d2 < nd[nc - 1] || (d2 == nd[nc - 1] && o < ni[nc - 1]))) return;
            int s = nc < cap ? nc++ : nc - 1;
            for (; s > 0 && (d2 < nd[s - 1] || (d2 == nd[s - 1] && o < ni[s - 1])); --s) {
                nd[s] = nd[s - 1];
                ni[s] = ni[s - 1];
            }
            nd[s] = d2;
            ni[s] = o;
        });
        OrcaLine lines[kOrcaMaxLines];
        int n = 0;
        // wall half-planes first (they stay hard in the 3D program, as RVO2's obstacle lines)
        const float wallRange = p.time_horizon_obst * vm + ri;
        if (!walls.clearAt(xi, yi)) {
            OrcaWalls w;
            orcaGatherWalls(walls, xi, yi, wallRange, w);
            const OrcaVec pi{xi, yi};
            for (int s = 0; s < w.count; ++s) {
                // relative ends, oriented with the agent on the right (RVO2's convention)
                OrcaVec wa = w.a[s] - pi, wb = w.b[s] - pi;
                if (det(wb - wa, (-1.f) * wa) > 0.f) { const OrcaVec t = wa; wa = wb; wb = t; }
                lines[n++] = orcaSegmentLine(wa, wb, OrcaVec{vx[k], vy[k]}, ri, p.time_horizon_obst);
            }
        }
        const int wallLines = n;
        // one reciprocal half-plane per neighbour, nearest first
        const OrcaVec vi{vx[k], vy[k]};
        for (int s = 0; s < nc; ++s) {
            const int o = ni[s];
            const OrcaVec rp{x[o] - xi, y[o] - yi};
            OrcaVec away;
            pairDirection(k, o, -rp.x, -rp.y, sqrtf(nd[s]), 1e-6f, away.x, away.y);
            lines[n++] = orcaAgentLine(rp, vi - OrcaVec{vx[o], vy[o]}, vi, ri + radiusOf[field[o]], p.time_horizon,
                                       dt, away);
        }
        // the velocity nearest the preferred one; the least-violation program when none satisfies every line
        const OrcaVec pref{px[k], py[k]};
        OrcaVec v;
        const int fail = orcaProgram2(lines, n, vm, pref, false, v);
        if (fail < n) {
            OrcaLine scratch[kOrcaMaxLines];
            orcaProgram3(lines, n, wallLines, fail, vm, scratch, v);
        }
        if (!(fabsf(v.x) < INFINITY) || !(fabsf(v.y) < INFINITY)) v = OrcaVec{};
        vxOut[k] = v.x;
        vyOut[k] = v.y;
    }
};

/// Reusable buffers of ORCA.
struct OrcaWorkspace {
    Array<float> vx, vy;        ///< New velocities (Jacobi). [Units: m/s] [Size: agents]
    NeighbourGridBuffers grid;  ///< The shared neighbour grid's first-slot table.
};

/// Reach of the wall index ORCA needs: every wall within tau_obst times
/// the free speed (at most @p maxSpeed [m/s]) plus the body radius (at
/// most @p maxRadius [m]) of an agent. [Units: m]
float orcaWallReach(const OrcaParams& p, float maxSpeed, float maxRadius);

/// ORCA velocity stage: builds the shared neighbour grid (cells >=
/// neighbour_dist / 2, 5x5 scanned) and writes every agent's new velocity
/// (a.vx, a.vy) from the old state; positions are unchanged (advect
/// follows). @p g: the grid the neighbour search is laid on; @p radiusOf:
/// body radius per field [Size: fields]; @p walls: the wall edges with a
/// reach of at least orcaWallReach() for the agents' free speeds and radii;
/// @p dt the step [s]. Throws InputError for parameters out of range.
void orcaVelocity(const Exec& ex, const AgentViews& a, const GridInfo& g, const WallView& walls, const OrcaParams& p,
                  View1<const float> radiusOf, float dt, AgentSortBuffers& sort, OrcaWorkspace& ws);

}  // namespace ccrowd::sim
