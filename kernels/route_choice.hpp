#pragma once
/// @file route_choice.hpp
/// Route choice stage (seed 004: Nicosia et al., "Automatic High Level
/// Avatar Guidance Based on Affordance of Movement", after Turner & Penn's
/// reading of Gibson's affordances): members of roaming groups walk from
/// junction to junction of the street network. On reaching the junction
/// they walk to, they pick the next among its neighbours, never the one
/// they came from unless it is a dead end: with probability proportional to
/// the walkable area visible toward each (affordance) or uniformly
/// (random, the seed's baseline). They walk there down the walking-distance
/// potential of that junction (one per junction, precomputed in a window
/// around it) at the continuum's speed in that direction, and every arrival
/// counts for the junction and for the road it came along (traffic counts).

#include <math.h>
#include <stdint.h>

#include "atomics.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "grid.hpp"
#include "hash.hpp"
#include "stages.hpp"
#include "walking_speed.hpp"

namespace ccrowd::sim {

/// How a field's members choose (RouteChoiceSpec::Mode as a small integer).
enum RouteMode : std::uint8_t { kRouteFollow = 0, kRouteAffordance = 1, kRouteRandom = 2 };

/// The street network on the Exec's side: junctions, their neighbours in
/// CSR form with the road to each and its affordance weight, and each
/// junction's walking-distance potential over a window of cells.
struct RouteNetView {
    int junctions = 0;
    View1<const float> x, y, radius;      ///< Junction centre and arrival radius. [Units: m] [Size: junctions]
    View1<const int> first;               ///< Neighbours of j: entries first[j] .. first[j + 1]. [Size: junctions + 1]
    View1<const int> nbr, road;           ///< Per entry: the neighbour junction and the road to it.
    View1<const float> weight;            ///< Per entry: visible walkable area toward the neighbour (the viewshed's share inside its view frustum). [Units: m^2] [Limit: >= 0]
    View1<const int> wi0, wj0, wnx, wny;  ///< Per junction: its potential's window of cells (lower-left cell and size).
    View1<const long long> woff;          ///< Per junction: offset of its window in phi.
    View1<const float> phi;               ///< Walking distance to each junction's centre inside its window, rows of wnx. [Units: m] (+inf: not reachable inside the window)

    /// Walking distance [m] from cell (i, j) (grid indices) to junction @p t (+inf outside its window).
    CC_HD float distance(int t, int i, int j) const {
        const int li = i - wi0[t], lj = j - wj0[t];
        if (li < 0 || lj < 0 || li >= wnx[t] || lj >= wny[t]) return INFINITY;
        return phi[woff[t] + li + static_cast<long long>(lj) * wnx[t]];
    }
};

/// Uniform number in [0, 1) for person @p id's decision at step @p step
/// under @p seed (Wellons' "lowbias32" integer hash): the same on every
/// backend and thread count.
CC_HD inline float routeDraw(uint32_t seed, int id, long long step) {
    const uint32_t h = lowbias32(seed ^ (static_cast<uint32_t>(id) * 0x9e3779b9u) ^ (static_cast<uint32_t>(step) * 0x85ebca6bu) ^
                                 (static_cast<uint32_t>(step >> 32) * 0xc2b2ae35u));
    return static_cast<float>(h >> 8) * (1.f / 16777216.f);
}

/// Steepest descent of junction @p t's potential at cell (i, j): the
/// smaller neighbour on each axis (upwind differences, Treuille 2006 §4.3),
/// as a direction of length |grad| (0 where no neighbour is lower).
CC_HD inline void descentAt(const RouteNetView& n, int t, int i, int j, float& dx, float& dy) {
    const float c = n.distance(t, i, j);
    dx = dy = 0.f;
    if (!(c < INFINITY)) return;
    const float e = n.distance(t, i + 1, j), w = n.distance(t, i - 1, j);
    const float no = n.distance(t, i, j + 1), so = n.distance(t, i, j - 1);
    if (fminf(e, w) < c) dx = e < w ? c - e : w - c;
    if (fminf(no, so) < c) dy = no < so ? c - no : so - c;
}

/// Per-agent route choice of the roaming fields (mode[field] != 0): arrival
/// and the next junction, then the preferred velocity toward it.
struct RouteChoiceKernel {
    AgentViews a;
    GridInfo g;
    RouteNetView net;
    View1<const std::uint8_t> mode;          ///< Per field: RouteMode.
    WalkingSpeed walk;                       ///< The continuum's speed in a walking direction (speed stage; faces null: vmax).
    float v0 = 1.34f;                        ///< Speed the speed field is built for. [Units: m/s] [Limit: > 0]
    View1<unsigned long long> junctionCount; ///< Arrivals per junction (cumulative). [Size: junctions]
    View1<unsigned long long> roadCount;     ///< Arrivals along each road (cumulative). [Size: roads]
    uint32_t seed = 0u;                      ///< The scene's seed.
    long long step = 0;                      ///< Steps run before this one.

    /// The junction nearest (walking) to (x, y): the smallest potential of
    /// the windows holding it; the nearest centre when none does.
    CC_HD int nearest(float x, float y) const {
        int i, j;
        g.cellOf(x, y, i, j);
        int best = -1;
        float bd = INFINITY, be = INFINITY;
        int eu = 0;
        for (int t = 0; t < net.junctions; ++t) {
            const float d = net.distance(t, i, j);
            if (d < bd) { bd = d; best = t; }
            const float ex = net.x[t] - x, ey = net.y[t] - y, e2 = ex * ex + ey * ey;
            if (e2 < be) { be = e2; eu = t; }
        }
        return best >= 0 ? best : eu;
    }

    /// Whether adjacency entry @p q of junction @p t may be taken coming
    /// from @p came: not a loop back to t, not back to came unless t has no
    /// other way (@p ways: its neighbours other than itself).
    CC_HD bool candidate(int t, int q, int came, int ways) const {
        const int o = net.nbr[q];
        return o != t && (o != came || ways <= 1);
    }

    /// At junction @p t, coming from @p came: the next junction (the draw
    /// @p u in [0, 1) picks by weight among the candidates; t itself when
    /// it has none).
    CC_HD int choose(int t, int came, bool affordance, float u) const {
        const int b = net.first[t], e = net.first[t + 1];
        int ways = 0;
        for (int q = b; q < e; ++q) ways += net.nbr[q] != t;
        // total weight of the candidates (all equal when none has any)
        float total = 0.f;
        int count = 0;
        for (int q = b; q < e; ++q) {
            if (!candidate(t, q, came, ways)) continue;
            total += affordance ? net.weight[q] : 0.f;
            ++count;
        }
        if (count == 0) return t;
        const bool equal = !(total > 0.f);
        float target = u * (equal ? static_cast<float>(count) : total);
        int last = t;
        for (int q = b; q < e; ++q) {
            if (!candidate(t, q, came, ways)) continue;
            last = net.nbr[q];
            target -= equal ? 1.f : net.weight[q];
            if (target < 0.f) return last;
        }
        return last;
    }

    CC_HD void operator()(int k) const {
        const int f = a.field[k];
        if (f < 0 || f >= mode.n || mode[f] == kRouteFollow) return;
        const float x = a.x[k], y = a.y[k];
        // the first junction: the nearest
        int t = a.junction[k];
        if (t < 0 || t >= net.junctions) {
            t = nearest(x, y);
            a.junction[k] = static_cast<int16_t>(t);
            a.came[k] = -1;
        }
        // arrival (once: came == t after it): counted for the junction and the road, then the next choice
        const float rx = net.x[t] - x, ry = net.y[t] - y, r = net.radius[t];
        const int came = a.came[k];
        if (came != t && rx * rx + ry * ry <= r * r) {
            atomicAddRelaxed(&junctionCount[t], 1ull);
            for (int q = net.first[t]; q < net.first[t + 1]; ++q)
                if (net.nbr[q] == came && came != t) { atomicAddRelaxed(&roadCount[net.road[q]], 1ull); break; }
            const int next = choose(t, came, mode[f] == kRouteAffordance, routeDraw(seed, a.id[k], step));
            a.came[k] = static_cast<int16_t>(t);
            a.junction[k] = static_cast<int16_t>(next);
            t = next;
        }
        // direction: down the junction's potential, bilinear over the stencil's cells
        const Bilinear bl = bilinearAt(g, x, y);
        const float w[4] = {bl.w00, bl.w10, bl.w01, bl.w11};
        float ux = 0.f, uy = 0.f;
        for (int q = 0; q < 4; ++q) {
            float dx, dy;
            descentAt(net, t, bl.i0 + (q & 1), bl.j0 + (q >> 1), dx, dy);
            const float len = sqrtf(dx * dx + dy * dy);
            if (len > 0.f) { ux += w[q] * dx / len; uy += w[q] * dy / len; }
        }
        float len = sqrtf(ux * ux + uy * uy);
        if (!(len > 1e-3f)) {
            // outside the window or at its centre: straight for the junction
            ux = net.x[t] - x;
            uy = net.y[t] - y;
            len = sqrtf(ux * ux + uy * uy);
        }
        if (!(len > 0.f)) { a.px[k] = 0.f; a.py[k] = 0.f; return; }
        ux /= len;
        uy /= len;
        // speed: the continuum's in that direction (Treuille 2006 §4.2; walking_speed.hpp), scaled to the free speed
        int i, j;
        g.cellOf(x, y, i, j);
        const float vmax = a.vmax[k];
        float s = vmax;
        if (g.inside(i, j) && walk.faces.data) {
            const float v = walk(i, j, ux, uy) * vmax / v0;
            if (v > 0.f) s = fminf(v, vmax);
        }
        a.px[k] = s * ux;
        a.py[k] = s * uy;
    }
};

/// Runs RouteChoiceKernel over every agent on @p ex's side.
void routeChoice(const Exec& ex, const RouteChoiceKernel& k);

}  // namespace ccrowd::sim
