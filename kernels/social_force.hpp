#pragma once
/// @file social_force.hpp
/// Social force operational model (Helbing, Farkas & Vicsek, "Simulating
/// dynamical features of escape panic", Nature 407:487, 2000; seed 001).
/// Every person i is a disc of radius r_i and mass m obeying (eq. 1)
///
///   m dv_i/dt = m (v0_i e_i - v_i)/tau + sum_j f_ij + sum_w f_iw
///
/// with the pair force (eq. 2)
///
///   f_ij = {A exp((r_ij - d_ij)/B) + k g(r_ij - d_ij)} n_ij
///          + kappa g(r_ij - d_ij) dv^t_ji t_ij,
///
/// r_ij = r_i + r_j, d_ij the centre distance, n_ij = (x_i - x_j)/d_ij,
/// t_ij = (-n_ij.y, n_ij.x), dv^t_ji = (v_j - v_i).t_ij, g(x) = max(x, 0),
/// and the wall force (eq. 3)
///
///   f_iw = {A exp((r_i - d_iw)/B) + k g(r_i - d_iw)} n_iw
///          - kappa g(r_i - d_iw) (v_i.t_iw) t_iw.
///
/// The desired velocity v0_i e_i is the continuum's preferred velocity
/// (agents.preferred: speed and direction from the potential, Narain 2009
/// §6, seed 003; under this model the potential's cost carries a boundary
/// layer along walls, ModelParams::wall_clearance, so that it leads bodies,
/// not points, past door jambs), mixed with the mean of the neighbours' desired
/// directions by the panic parameter p (the herding rule of the paper:
/// e_i = Norm[(1 - p) e_i + p <e_j^0>_i]). The wall w is the nearest wall edge (walls.hpp: the scene's
/// true walls, exact from its polygons). Integrated by multiple time
/// stepping: outer kicks of the slow part, semi-implicit Euler sub-steps of
/// the contact forces (SocialForcePart; socialForce() in social_force.cu).
/// Host+device.

#include <cstddef>
#include <cstdint>

#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "walls.hpp"
#include "grid.hpp"
#include "neighbour_grid.hpp"
#include "neighbour_list.hpp"
#include "portable_math.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Parameters of the social force (Helbing 2000's defaults).
struct SocialForceParams {
    float A = 2000.f;          ///< Psychological repulsion strength. [Units: N] [Limit: >= 0]
    float B = 0.08f;           ///< Psychological repulsion range. [Units: m] [Limit: > 0]
    float k = 1.2e5f;          ///< Body compression. [Units: kg/s^2] [Limit: >= 0]
    float kappa = 2.4e5f;      ///< Sliding friction. [Units: kg/(m s)] [Limit: >= 0]
    float tau = 0.5f;          ///< Relaxation (acceleration) time. [Units: s] [Limit: > 0]
    float mass = 80.f;         ///< Mass of a person. [Units: kg] [Limit: > 0]
    /// Gap between bodies (d - r_ij, and d_iw - r_i for walls) beyond which
    /// the forces are cut off: A exp(-range/B) is 1.1 N at the defaults, 0.5%
    /// of the driving force of a person at 1.34 m/s. [Units: m] [Limit: > 0]
    float range = 0.6f;
    float panic_radius = 1.f;  ///< Radius R_i of the neighbours whose mean direction panic mixes in. [Units: m] [Limit: > 0]
    float max_speed = 5.f;     ///< Physical speed cap of the integrator. [Units: m/s] [Limit: > 0]
    /// Injury (Helbing 2000): a person whose summed body compression
    /// k g(r_ij - d_ij) (from persons and the wall) per body circumference
    /// 2 pi r_i exceeds this becomes an obstacle: vmax is set to 0 and the
    /// person stops for good, still pushing back on others. The paper's
    /// value is 1600 N/m; 0 = off. [Units: N/m] [Limit: >= 0]
    float injury_threshold = 0.f;
    /// Factor on the automatic outer step and sub-step
    /// (socialForceMaxOuterStep, socialForceMaxSubstep). [Limit: 0.01..1]
    float step_scale = 1.f;
};

/// A pair's force on i: total (fx, fy) and the magnitude of its radial
/// (normal) part. [Units: N]
struct PairForce {
    float fx = 0.f, fy = 0.f;
    float radial = 0.f;
};

/// The parts of eqs. 2 and 3 that the multiple time stepping of
/// socialForce() integrates at different rates (social_force.cu). Their
/// sum is the whole force; each is continuous in the distance. Every
/// contact force is fast: with A's 2000 N of a contact in the outer kicks,
/// the faster-is-slower room took 118.6 s at 5 m/s where the plain
/// integration converges to 101-103 s; with this split, 101.0 s
/// (bench/results/social_force_mts_2026-12-03_cpu2.md).
enum class SocialForcePart : int {
    All = 0,   ///< The whole force.
    /// A exp((r - d)/B) w(r - d): the psychological repulsion times a
    /// smoothstep w from 1 at a gap d - r of B to 0 at contact. Stiffness
    /// <= 2.5 A/B (A/B from the exponential, 1.5 A/B from w'). Integrated
    /// at the outer step.
    Slow = 1,
    /// The rest: the repulsion within a gap of B, (1 - w) A exp((r - d)/B),
    /// and in contact the body compression k g(r - d) and the sliding
    /// friction. Zero at gaps above B. Integrated at the inner step.
    Fast = 2,
};

/// The radial magnitude of eqs. 2-3's part @p part for the overlap
/// r - d [m]: A exp((r - d)/B) + k g(r - d) in all. [Units: N]
CC_HD inline float socialRadial(const SocialForceParams& p, float overlap, SocialForcePart part) {
    const float g = overlap > 0.f ? overlap : 0.f;  // g(x) = max(x, 0)
    const float rep = p.A * portableExpInline(overlap / p.B);
    if (part == SocialForcePart::All) return rep + p.k * g;
    // the slow part: the repulsion times a smoothstep w from 1 at a gap of B to 0 at contact
    const float t = (overlap + p.B) / p.B;  // 0 at a gap of B, 1 at contact
    const float w = t <= 0.f ? 1.f : (t >= 1.f ? 0.f : 1.f - t * t * (3.f - 2.f * t));
    if (part == SocialForcePart::Slow) return rep * w;
    return t > 0.f ? rep * (1.f - w) + p.k * g : 0.f;
}

/// Helbing 2000 eq. 2 (the part @p part of it): force of j on i for centre
/// offset (dx, dy) = x_i - x_j [m], radius sum @p rij [m] and velocity
/// difference (dvx, dvy) = v_j - v_i [m/s]. Coincident centres (d < 1e-6 m)
/// use the unit normal (nx, ny) given by the caller.
CC_HD inline PairForce socialPairForce(const SocialForceParams& p, float dx, float dy, float rij, float dvx, float dvy,
                                       float nxCoincident = 1.f, float nyCoincident = 0.f,
                                       SocialForcePart part = SocialForcePart::All) {
    PairForce f;
    const float d = sqrtf(dx * dx + dy * dy);
    // n_ij points from j to i; t_ij = (-n2, n1)
    const float nx = d > 1e-6f ? dx / d : nxCoincident, ny = d > 1e-6f ? dy / d : nyCoincident;
    const float tx = -ny, ty = nx;
    const float overlap = rij - d;                     // r_ij - d_ij
    const float g = overlap > 0.f ? overlap : 0.f;     // g(x) = max(x, 0)
    // psychological repulsion A exp((r_ij - d_ij)/B) plus body compression k g(r_ij - d_ij)
    const float radial = socialRadial(p, overlap, part);
    // sliding friction kappa g(r_ij - d_ij) dv^t_ji t_ij (fast)
    const float dvt = dvx * tx + dvy * ty;
    const float tang = part == SocialForcePart::Slow ? 0.f : p.kappa * g * dvt;
    f.fx = radial * nx + tang * tx;
    f.fy = radial * ny + tang * ty;
    f.radial = radial;
    return f;
}

/// Helbing 2000 eq. 3 (the part @p part of it): force of a wall on i, for
/// (dx, dy) = x_i - (the nearest wall point) [m], body radius @p ri [m] and
/// velocity (vx, vy) [m/s]. Zero for a centre on the wall (d < 1e-6 m).
CC_HD inline PairForce socialWallForce(const SocialForceParams& p, float dx, float dy, float ri, float vx, float vy,
                                       SocialForcePart part = SocialForcePart::All) {
    PairForce f;
    const float d = sqrtf(dx * dx + dy * dy);
    if (!(d > 1e-6f)) return f;
    const float nx = dx / d, ny = dy / d, tx = -ny, ty = nx;
    const float overlap = ri - d;                      // r_i - d_iw
    const float g = overlap > 0.f ? overlap : 0.f;
    // {A exp((r_i - d_iw)/B) + k g(r_i - d_iw)} n_iw
    const float radial = socialRadial(p, overlap, part);
    // - kappa g(r_i - d_iw) (v_i . t_iw) t_iw (fast)
    const float tang = part == SocialForcePart::Slow ? 0.f : -p.kappa * g * (vx * tx + vy * ty);
    f.fx = radial * nx + tang * tx;
    f.fy = radial * ny + tang * ty;
    f.radial = radial;
    return f;
}

/// Helbing 2000's herding rule: e = Norm[(1 - p) e + p <e_j>] for the
/// desired direction (ex, ey) (unit or 0), the neighbours' summed unit
/// directions (sx, sy) over @p count > 0 of them, panic @p p in [0, 1].
/// Leaves e when count is 0 or the mix is 0.
CC_HD inline void panicDirection(float p, float sx, float sy, int count, float& ex, float& ey) {
    if (count <= 0 || !(p > 0.f)) return;
    const float mx = (1.f - p) * ex + p * sx / count, my = (1.f - p) * ey + p * sy / count;
    const float m = sqrtf(mx * mx + my * my);
    if (!(m > 1e-6f)) return;
    ex = mx / m;
    ey = my / m;
}

/// One agent's columns in sorted slot order (the neighbour grid's: slot q
/// holds agent[q]), so the pair loop reads its partners contiguously and
/// without the permutation; gathered at every neighbour-grid build and
/// scattered back to the agent table before the next and at the end.
struct SocialForceSlots {
    View1<float> x, y, vx, vy;  ///< Position and velocity. [Units: m, m/s]
    View1<float> px, py;        ///< Preferred velocity (agents.preferred). [Units: m/s]
    View1<float> vmax;          ///< Free speed; 0 marks an injured person. [Units: m/s]
    View1<int> field;           ///< Field (indexes the per-field tables).
    View1<int> agent;           ///< Agent index (in the agent table) per slot.
};

/// Copies the agents' columns into slot order: slot q gets agent
/// order[q], and agent[q] = order[q]; the positions also go to (xb, yb),
/// the lists' build positions.
struct SocialForceGatherKernel {
    View1<const int> order;  ///< Agent per sorted slot (the neighbour grid's). [Size: agents]
    AgentViews a;
    SocialForceSlots s;
    View1<float> xb, yb;     ///< Build position per slot. [Units: m]
    CC_HD void operator()(int q) const {
        const int k = order[q];
        s.x[q] = a.x[k]; s.y[q] = a.y[k]; s.vx[q] = a.vx[k]; s.vy[q] = a.vy[k];
        s.px[q] = a.px[k]; s.py[q] = a.py[k]; s.vmax[q] = a.vmax[k]; s.field[q] = a.field[k];
        s.agent[q] = k;
        xb[q] = a.x[k]; yb[q] = a.y[k];
    }
};

/// Squared distance of slot k from its build position, for the Verlet
/// lists' rebuild test (Verlet 1967: rebuild before anyone can have moved
/// a skin). [Units: m^2]
struct SocialForceMovedKernel {
    View1<const float> x, y, xb, yb;
    View1<float> moved2;
    CC_HD void operator()(int k) const {
        const float dx = x[k] - xb[k], dy = y[k] - yb[k];
        moved2[k] = dx * dx + dy * dy;
    }
};

/// Writes the columns the social force changes (position, velocity, free
/// speed) from slot order back to the agents.
struct SocialForceScatterKernel {
    SocialForceSlots s;
    AgentViews a;
    CC_HD void operator()(int q) const {
        const int k = s.agent[q];
        a.x[k] = s.x[q]; a.y[k] = s.y[q]; a.vx[k] = s.vx[q]; a.vy[k] = s.vy[q]; a.vmax[k] = s.vmax[q];
    }
};

/// The outer kick of the multiple time stepping for the agent in sorted
/// slot k: v += H F_slow / m, in place (F_slow reads the positions and
/// the agent's own velocity only, so no other slot reads what it writes:
/// race-free, deterministic). F_slow: the slow part of eq. 2 from every
/// neighbour whose body gap is below params.range (its Verlet list) and of
/// eq. 3 from the nearest wall, and eq. 1's driving force
/// m (v0 e - v)/tau toward the (panic-mixed) preferred velocity. An injured
/// agent (vmax 0) keeps its velocity (0). The kick also partitions the
/// slot's Verlet list in place (only this slot reads or writes its entries:
/// race-free, the same order on every backend and thread count): the
/// partners the outer step's sub-steps can meet within B of contact come
/// first, nearCount of them (the slot's near list).
struct SocialForceKickKernel {
    View1<const float> x, y;          ///< Positions per slot. [Units: m]
    View1<float> vx, vy;              ///< Velocities per slot, kicked in place. [Units: m/s]
    View1<const float> px, py;        ///< Preferred velocity per slot. [Units: m/s]
    View1<const int> field;           ///< Field per slot (indexes the tables below).
    View1<const float> vmax;          ///< Free speed per slot; 0: injured. [Units: m/s]
    View1<const float> radiusOf;      ///< Body radius per field. [Units: m]
    View1<const float> panicOf;       ///< Panic p per field. [Limit: 0..1]
    /// The Verlet lists: every partner within the force's reach (and the
    /// panic radius when some field panics) until the next build, cutoff =
    /// that reach + 2 skins (social_force.cu); slot k's entries are
    /// partner[start[k]] .. partner[start[k + 1] - 1], partitioned here.
    View1<const int> start;           ///< First entry per slot. [Size: slots + 1]
    View1<int> partner;               ///< Partner slots. [Size: start[slots]]
    WallView walls;                   ///< Wall edges, reach >= socialForceWallReach().
    SocialForceParams p;
    /// Largest centre distance that matters: 2 max radius + the larger of
    /// range and B + nearMargin (the panic radius is checked apart). [Units: m]
    float maxReach = 0.f;
    bool panics = false;              ///< Some field has panic > 0 (else the neighbours' directions are not gathered).
    float dt = 0.f;                   ///< Outer step H. [Units: s] [Limit: > 0]
    /// How much closer two persons can come in the outer step (twice the
    /// farthest move, max_speed H). [Units: m]
    float nearMargin = 0.f;
    View1<int> nearCount;             ///< Near list length per slot (written). [Size: slots]

    CC_HD void operator()(int k) const {
        // an injured person is an obstacle: no kick, no sub-steps
        if (!(vmax[k] > 0.f)) { nearCount[k] = 0; return; }
        const float xi = x[k], yi = y[k], vxi = vx[k], vyi = vy[k];
        const float ri = radiusOf[field[k]];
        const float panic = panics ? panicOf[field[k]] : 0.f;
        float fx = 0.f, fy = 0.f;
        float sx = 0.f, sy = 0.f;
        int count = 0;
        const float pr2 = p.panic_radius * p.panic_radius;
        // slow pair forces (eq. 2) and the neighbours' directions, over the slot's Verlet list
        const int e0 = start[k], e1 = start[k + 1];
        int nearEnd = e0;
        for (int e = e0; e < e1; ++e) {
            const int o = partner[e];
            const float dx = xi - x[o], dy = yi - y[o];
            const float d2 = dx * dx + dy * dy;
            // cheap rejection before reading the partner's radius
            if (!(d2 < maxReach * maxReach) && !(panic > 0.f && d2 < pr2)) continue;
            // the neighbours' desired directions e_j^0 (Helbing 2000: <e_j^0(t)>_i)
            if (panic > 0.f && d2 < pr2) {
                const float s = sqrtf(px[o] * px[o] + py[o] * py[o]);
                if (s > 1e-3f) { sx += px[o] / s; sy += py[o] / s; ++count; }
            }
            const float rij = ri + radiusOf[field[o]];
            // a partner that can come within B of contact before the next kick goes to the near list
            const float near = rij + p.B + nearMargin;
            // (swapped with the first entry not near, which this loop has passed)
            if (d2 < near * near) {
                if (e != nearEnd) { partner[e] = partner[nearEnd]; partner[nearEnd] = o; }
                ++nearEnd;
            }
            const float reach = rij + p.range;
            if (!(d2 < reach * reach)) continue;
            // in contact (coincident centres included) the slow part is 0: all of the pair's force is fast
            if (d2 <= rij * rij) continue;
            const PairForce f = socialPairForce(p, dx, dy, rij, 0.f, 0.f, 1.f, 0.f, SocialForcePart::Slow);
            fx += f.fx;
            fy += f.fy;
        }
        // desired direction e_i and speed v0_i from the continuum; herding (panic p)
        const float v0 = sqrtf(px[k] * px[k] + py[k] * py[k]);
        float ex = v0 > 0.f ? px[k] / v0 : 0.f, ey = v0 > 0.f ? py[k] / v0 : 0.f;
        if (v0 > 0.f) panicDirection(panic, sx, sy, count, ex, ey);
        // driving force m (v0 e - v)/tau (eq. 1)
        fx += p.mass * (v0 * ex - vxi) / p.tau;
        fy += p.mass * (v0 * ey - vyi) / p.tau;
        // the nearest wall edge's slow part (eq. 3), from the open side (none within reach of a clear cell)
        const WallNear wn = walls.clearAt(xi, yi) ? WallNear{} : nearestWall(walls, xi, yi);
        if (!wn.inside && wn.d < ri + p.range) {
            const PairForce f = socialWallForce(p, xi - wn.qx, yi - wn.qy, ri, vxi, vyi, SocialForcePart::Slow);
            fx += f.fx;
            fy += f.fy;
        }
        vx[k] = vxi + dt * fx / p.mass;
        vy[k] = vyi + dt * fy / p.mass;
        nearCount[k] = nearEnd - e0;
    }
};

/// One inner semi-implicit Euler sub-step of the multiple time stepping for
/// the agent in sorted slot k (reads the old slot columns, writes the new:
/// Jacobi, deterministic; a slot writes only its own vmax, when it is
/// injured): the fast part of eq. 2 from every neighbour less than B apart
/// (its near list) and of eq. 3 from the nearest wall; v += h
/// F_fast/m, capped at max_speed; x += h v, the centre never across a wall
/// (walls.hpp: a wall met stops the velocity's part into it), skipped for
/// an agent whose cell has no wall edge within the index's reach and whose
/// move is shorter than a cell (it cannot reach a wall). The body may press
/// into a wall: eq. 3's forces push it back. A hard clearance at the radius
/// would leave eq. 3's compression and friction, an arch's footing at a
/// door, almost always zero (no faster-is-slower then,
/// bench/results/social_force_substep_2026-12-02_cpu2.md). An injured agent
/// (vmax 0) stays put with velocity 0.
struct SocialForceStepKernel {
    View1<const float> x, y, vx, vy;  ///< Old state per slot. [Units: m, m/s]
    View1<const int> field;           ///< Field per slot (indexes radiusOf).
    View1<const int> agent;           ///< Agent index per slot (a coincident pair's fixed direction).
    View1<const float> radiusOf;      ///< Body radius per field. [Units: m]
    /// The near lists of the outer step's kick: slot k's partners are
    /// partner[start[k]] .. partner[start[k] + nearCount[k] - 1].
    View1<const int> start, nearCount, partner;
    GridInfo g;
    WallView walls;                   ///< Wall edges, reach >= socialForceWallReach().
    SocialForceParams p;
    float maxContact = 0.f;           ///< Largest centre distance with a fast force: 2 max radius + B. [Units: m]
    float dt = 0.f;                   ///< Inner sub-step h. [Units: s] [Limit: > 0]
    View1<float> xOut, yOut, vxOut, vyOut;
    View1<float> vmax;                ///< Free speed per slot; 0 marks an injured person (an obstacle). [Units: m/s]

    CC_HD void operator()(int k) const {
        const float xi = x[k], yi = y[k], vxi = vx[k], vyi = vy[k];
        // an injured person is an obstacle: it stays where it is
        if (!(vmax[k] > 0.f)) {
            xOut[k] = xi;
            yOut[k] = yi;
            vxOut[k] = 0.f;
            vyOut[k] = 0.f;
            return;
        }
        const float ri = radiusOf[field[k]];
        float fx = 0.f, fy = 0.f;
        float compression = 0.f;          // sum of k g(r_ij - d_ij) [N], for the injury test
        // fast pair forces (eq. 2) of the bodies less than B apart, over the slot's near list
        const int e0 = start[k], e1 = e0 + nearCount[k];
        for (int e = e0; e < e1; ++e) {
            const int o = partner[e];
            const float dx = xi - x[o], dy = yi - y[o];
            const float d2 = dx * dx + dy * dy;
            // cheap rejection before reading the partner's radius
            if (!(d2 < maxContact * maxContact)) continue;
            const float rij = ri + radiusOf[field[o]];
            const float near = rij + p.B;
            if (!(d2 < near * near)) continue;
            // the pair's fixed direction, used by socialPairForce when coincident
            float ux = 1.f, uy = 0.f;
            if (d2 < 1e-12f) pairDirection(agent[k], agent[o], dx, dy, 0.f, 1.f, ux, uy);
            const PairForce f = socialPairForce(p, dx, dy, rij, vx[o] - vxi, vy[o] - vyi, ux, uy, SocialForcePart::Fast);
            fx += f.fx;
            fy += f.fy;
            if (d2 < rij * rij) compression += p.k * (rij - sqrtf(d2));
        }
        // the nearest wall edge's fast part (eq. 3), from the open side (none within reach of a clear cell)
        const bool clear = walls.clearAt(xi, yi);
        const WallNear wn = clear ? WallNear{} : nearestWall(walls, xi, yi);
        if (!wn.inside && wn.d < ri + p.B) {
            const PairForce f = socialWallForce(p, xi - wn.qx, yi - wn.qy, ri, vxi, vyi, SocialForcePart::Fast);
            fx += f.fx;
            fy += f.fy;
            if (wn.d < ri) compression += p.k * (ri - wn.d);
        }
        // injury (Helbing 2000): compression per circumference above the threshold makes an obstacle
        if (p.injury_threshold > 0.f && compression > p.injury_threshold * 6.2831853f * ri) {
            vmax[k] = 0.f;
            xOut[k] = xi;
            yOut[k] = yi;
            vxOut[k] = 0.f;
            vyOut[k] = 0.f;
            return;
        }
        // semi-implicit Euler: velocity first, capped at the physical maximum
        float nvx = vxi + dt * fx / p.mass, nvy = vyi + dt * fy / p.mass;
        const float sp = sqrtf(nvx * nvx + nvy * nvy);
        if (sp > p.max_speed) { nvx *= p.max_speed / sp; nvy *= p.max_speed / sp; }
        if (!(sp < INFINITY)) { nvx = 0.f; nvy = 0.f; }
        // far from every wall (no edge within the index's reach of the cell) a move shorter than a cell meets none
        const float mx = dt * nvx, my = dt * nvy;
        int ci0, cj0;
        g.cellOf(xi, yi, ci0, cj0);
        if (g.inside(ci0, cj0) && clear && fabsf(mx) < g.h && fabsf(my) < g.h) {
            xOut[k] = xi + mx;
            yOut[k] = yi + my;
            vxOut[k] = nvx;
            vyOut[k] = nvy;
            return;
        }
        // then the position with the new velocity, never into a wall
        float xs = xi, ys = yi;
        escapeWalls(walls, xs, ys);
        const ConfinedMove m = moveConfined(walls, xs, ys, mx, my);
        const float into = nvx * m.nx + nvy * m.ny;
        if (m.hit && into < 0.f) { nvx -= into * m.nx; nvy -= into * m.ny; }
        // no hard clearance: eq. 3's compression and friction hold the body
        // off the wall, and they are what an arch at a door stands on
        xOut[k] = m.x;
        yOut[k] = m.y;
        vxOut[k] = nvx;
        vyOut[k] = nvy;
    }
};

/// Reusable buffers of the social force.
struct SocialForceWorkspace {
    /// Slot-order columns: two states (Jacobi sub-steps ping-pong between
    /// them) and the columns the sub-steps only read. [Size: agents each]
    Array<float> x[2], y[2], vx[2], vy[2];
    Array<float> px, py, vmax;
    Array<int> field, agent;
    Array<float> xb, yb;        ///< The lists' build position per slot. [Units: m] [Size: agents]
    Array<float> moved2;        ///< Squared move since the build per slot (the rebuild test). [Units: m^2]
    Array<int> nearCount;       ///< Near list length per slot (SocialForceKickKernel). [Size: agents]
    NeighbourGridBuffers grid;  ///< The shared neighbour grid's first-slot table.
    /// The slots' Verlet lists, built on the grid; the kicks partition each
    /// slot's entries (near partners first), so they are ascending only
    /// until the first kick after a build.
    NeighbourListBuffers list;
    int outer = 0;              ///< Outer steps of the last call.
    int substeps = 0;           ///< Inner sub-steps of the last call.
    int rebuilds = 0;           ///< Neighbour-grid builds of the last call.
    /// Bytes of the slot columns (the model's own per-agent state).
    std::size_t bytes() const {
        std::size_t floats = px.vector().capacity() + py.vector().capacity() + vmax.vector().capacity() +
                             xb.vector().capacity() + yb.vector().capacity() + moved2.vector().capacity();
        for (int b = 0; b < 2; ++b)
            floats += x[b].vector().capacity() + y[b].vector().capacity() + vx[b].vector().capacity() +
                      vy[b].vector().capacity();
        return floats * sizeof(float) +
               (field.vector().capacity() + agent.vector().capacity() + nearCount.vector().capacity()) * sizeof(int) +
               list.bytes();
    }
};

/// Largest inner sub-step of the social force: 0.1 sqrt(m/k) (symplectic
/// Euler is stable below 2 sqrt(m/k_eff) even with tens of contacts, but at
/// 0.2 sqrt(m/k) doors jammed for good at 4-5 m/s; at 0.1 the
/// faster-is-slower room's times agree with 0.05 and 0.025: measured
/// convergence, bench/results/social_force_substep_2026-12-02_cpu2.md), or
/// tau/10 without a spring (k = 0); times params.step_scale. [Units: s]
float socialForceMaxSubstep(const SocialForceParams& p);

/// Largest outer step of the social force: 0.4 sqrt(m B/(2.5 A)), 0.4 of
/// the time scale of the slow part's stiffest spring (2.5 A/B,
/// SocialForcePart::Slow: 14.3 ms at Helbing's values, 4 outer steps of 5
/// sub-steps per 0.05 s step; the faster-is-slower room's times over 24
/// seeds agree with 0.2, 0.6 and 0.05 of it,
/// bench/results/social_force_outer_step_2026-12-03_cpu2.md), and tau/10
/// (the driving relaxation); times params.step_scale. [Units: s]
float socialForceMaxOuterStep(const SocialForceParams& p);

/// Social force stage: advances the agents (positions and velocities, on
/// the Exec's side) by @p dt [s] by multiple time stepping (impulse
/// r-RESPA: Tuckerman, Berne & Martyna, J. Chem. Phys. 97:1990, 1992): in
/// ceil(dt / socialForceMaxOuterStep) equal outer steps H, each a kick
/// v += H F_slow/m (SocialForceKickKernel) and then ceil(H /
/// socialForceMaxSubstep) equal semi-implicit Euler sub-steps of the fast
/// part, which acts only between bodies less than B apart
/// (SocialForceStepKernel).
/// Agents work in the neighbour grid's slot order; the grid (cells >= the
/// list cutoff / 2) and the Verlet lists (cutoff: 2 @p maxRadius + range, or
/// the panic radius, plus twice a skin) are built at the first outer step
/// and rebuilt at a later one when the largest move since the build plus
/// max_speed times the outer step could exceed the skin (one float to the
/// host per outer step), so every partner within reach is always found. @p radiusOf /
/// @p panicOf are per-field tables [Size: fields]; @p anyPanic says whether
/// some entry of panicOf is > 0 (the neighbours' directions are gathered
/// only then); @p walls: the wall edges with a reach of at least
/// socialForceWallReach(). Throws InputError for parameters out of range.
void socialForce(const Exec& ex, const AgentViews& a, const GridInfo& g, const WallView& walls,
                 const SocialForceParams& p, View1<const float> radiusOf, View1<const float> panicOf, bool anyPanic,
                 float maxRadius, float dt, AgentSortBuffers& sort, SocialForceWorkspace& ws);

/// Reach of the wall index the social force needs: the body radius
/// @p maxRadius plus the force range plus a cell of @p h (so an agent whose
/// cell has no edge within it can move up to a cell and keep its body clear
/// without a check). [Units: m]
float socialForceWallReach(float maxRadius, const SocialForceParams& p, float h);

}  // namespace ccrowd::sim
