/// @file route_map.cpp
#include "route/route_map.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <random>
#include <stdexcept>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "ccrowd/agent_columns.hpp"
#include "ccrowd/eikonal.hpp"
#include "ccrowd/error.hpp"
#include "kernels/cost.hpp"

namespace ccrowd::route {

namespace {

/// Most cells of all junction windows together (1 GiB of potentials).
constexpr long long kMaxWindowCells = 1LL << 28;

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// The network the scene gives, or the one its free space's skeleton gives.
StreetNetwork networkOf(const Scene& scene, const SceneGrid& grid) {
    const NetworkSpec& spec = scene.network;
    StreetNetwork net;
    try {
        if (!spec.junctions.empty()) {
            std::vector<float> x, y;
            for (const Vec2& p : spec.junctions) { x.push_back(p.x); y.push_back(p.y); }
            net = givenNetwork(x, y, spec.roads, grid.blocked, grid.info(), spec.min_radius);
        } else {
            NetworkOptions o;
            o.min_branch = spec.min_branch;
            o.min_radius = spec.min_radius;
            net = deriveNetwork(grid.blocked, grid.info(), o);
        }
    } catch (const std::invalid_argument& e) {
        throw InputError(scene.label + ": " + e.what());
    }
    // the agent table keeps a junction in 16 bits
    if (net.junctions.size() > static_cast<std::size_t>(kMaxJunctions))
        throw InputError(scene.label + ": /network: " + std::to_string(net.junctions.size()) +
                         " junctions; allowed: at most " + std::to_string(kMaxJunctions) +
                         (spec.junctions.empty() ? " (derived from the free space: raise network.min_branch or coarsen the cells)" : ""));
    return net;
}

/// Affordance weights: each neighbour's share of the junction's viewshed
/// inside the view frustum toward it (Nicosia et al.: "the part of the
/// viewshed that lies within the view-frustum when looking towards the
/// direction of the specific neighbour").
void weighJunction(RouteMap& m, int j, float frustumRad) {
    const StreetNetwork& n = m.net;
    for (int q = n.first[static_cast<std::size_t>(j)]; q < n.first[static_cast<std::size_t>(j) + 1]; ++q) {
        float dx, dy;
        roadDirection(n, j, q, dx, dy);
        m.weight[static_cast<std::size_t>(q)] = static_cast<float>(wedgeArea(m.viewsheds[static_cast<std::size_t>(j)], dx, dy, frustumRad));
    }
}

/// Junction @p j's window: its centre and its roads' polylines, plus a
/// margin of its radius and 3 m, clipped to the grid.
Window windowOf(const StreetNetwork& n, int j, const GridInfo& g) {
    const Junction& c = n.junctions[static_cast<std::size_t>(j)];
    float x0 = c.x, x1 = c.x, y0 = c.y, y1 = c.y;
    for (int q = n.first[static_cast<std::size_t>(j)]; q < n.first[static_cast<std::size_t>(j) + 1]; ++q) {
        const Road& r = n.roads[static_cast<std::size_t>(n.road[static_cast<std::size_t>(q)])];
        for (std::size_t p = 0; p < r.x.size(); ++p) {
            x0 = std::min(x0, r.x[p]); x1 = std::max(x1, r.x[p]);
            y0 = std::min(y0, r.y[p]); y1 = std::max(y1, r.y[p]);
        }
    }
    const float margin = std::max(c.radius, 3.f) + 2.f * g.h;
    Window w;
    w.i0 = std::max(0, static_cast<int>(std::floor((x0 - margin - g.ox) / g.h)));
    w.j0 = std::max(0, static_cast<int>(std::floor((y0 - margin - g.oy) / g.h)));
    const int i1 = std::min(g.nx, static_cast<int>(std::ceil((x1 + margin - g.ox) / g.h)));
    const int j1 = std::min(g.ny, static_cast<int>(std::ceil((y1 + margin - g.oy) / g.h)));
    w.nx = std::max(1, i1 - w.i0);
    w.ny = std::max(1, j1 - w.j0);
    return w;
}

/// Walking distance [m] to junction @p j's centre cell inside its window:
/// unit cost, blocked cells and closed faces as in the grid, the window's
/// border closed (fast marching, Sethian 1996).
void solveWindow(RouteMap& m, int j, const SceneGrid& grid) {
    const Window& w = m.windows[static_cast<std::size_t>(j)];
    const Junction& c = m.net.junctions[static_cast<std::size_t>(j)];
    Field<std::uint8_t> blocked(w.nx, w.ny, 0);
    Field<FaceCost> cost(w.nx, w.ny, FaceCost{});
    const bool closed = grid.closed_faces.nx() == grid.nx;
    for (int lj = 0; lj < w.ny; ++lj)
        for (int li = 0; li < w.nx; ++li) {
            const int i = w.i0 + li, jj = w.j0 + lj;
            blocked(li, lj) = grid.blocked(i, jj);
            if (closed) sim::closeFaces(cost(li, lj), grid.closed_faces(i, jj));
        }
    // the source: the open cell nearest the centre
    const GridInfo g = grid.info();
    int ci, cj;
    g.cellOf(c.x, c.y, ci, cj);
    ci -= w.i0;
    cj -= w.j0;
    Field<float> phi;
    EikonalProblem p;
    p.h = g.h;
    p.blocked = &blocked;
    p.cost = &cost;
    if (ci >= 0 && cj >= 0 && ci < w.nx && cj < w.ny && !blocked(ci, cj)) p.sources.push_back({ci, cj, 0.f});
    float* out = m.phi.data() + w.offset;
    if (p.sources.empty()) {
        std::fill(out, out + static_cast<std::ptrdiff_t>(w.nx) * w.ny, INFINITY);
        return;
    }
    EikonalOptions opt;
    opt.validate = false;
    opt.stencil = m.stencil;
    solveFmm(p, phi, opt);
    for (int lj = 0; lj < w.ny; ++lj)
        for (int li = 0; li < w.nx; ++li) out[li + static_cast<std::ptrdiff_t>(lj) * w.nx] = phi(li, lj);
}

/// Every junction's window, and room for their potentials.
void layoutWindows(RouteMap& m, const SceneGrid& grid, const std::string& label) {
    const int n = static_cast<int>(m.net.junctions.size());
    m.windows.resize(static_cast<std::size_t>(n));
    long long total = 0;
    for (int j = 0; j < n; ++j) {
        m.windows[static_cast<std::size_t>(j)] = windowOf(m.net, j, grid.info());
        m.windows[static_cast<std::size_t>(j)].offset = total;
        total += static_cast<long long>(m.windows[static_cast<std::size_t>(j)].nx) * m.windows[static_cast<std::size_t>(j)].ny;
    }
    // a bound on the memory (sparse networks with long roads over a large grid)
    if (total > kMaxWindowCells)
        throw InputError(label + ": /network: the " + std::to_string(n) + " junctions' potential windows (each junction with its roads) need " +
                         std::to_string(total) + " cells (" + std::to_string(total * 4 / (1 << 20)) + " MiB); allowed: at most " +
                         std::to_string(kMaxWindowCells) + " cells: fewer junctions, shorter roads, or coarser cells");
    m.phi.assign(static_cast<std::size_t>(total), INFINITY);
}

/// The potentials of junctions @p which, in parallel.
void solvePotentials(RouteMap& m, const SceneGrid& grid, int threads, const std::vector<int>& which) {
    const int n = static_cast<int>(which.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int k = 0; k < n; ++k) solveWindow(m, which[static_cast<std::size_t>(k)], grid);
}

int threadsOf(int threads) {
#ifdef _OPENMP
    return threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
    return 1;
#endif
}

}  // namespace

void roadDirection(const StreetNetwork& net, int j, int q, float& dx, float& dy) {
    const Junction& c = net.junctions[static_cast<std::size_t>(j)];
    const Road& r = net.roads[static_cast<std::size_t>(net.road[static_cast<std::size_t>(q)])];
    const Junction& o = net.junctions[static_cast<std::size_t>(net.nbr[static_cast<std::size_t>(q)])];
    // walk the polyline from j's end to a point max(2 r, 10 m) along it
    const bool forward = r.a == j;
    const float want = std::max(2.f * c.radius, 10.f);
    float tx = o.x, ty = o.y, walked = 0.f;
    const int np = static_cast<int>(r.x.size());
    for (int p = 1; p < np; ++p) {
        const int a = forward ? p - 1 : np - p, b = forward ? p : np - p - 1;
        const float sx = r.x[static_cast<std::size_t>(b)] - r.x[static_cast<std::size_t>(a)];
        const float sy = r.y[static_cast<std::size_t>(b)] - r.y[static_cast<std::size_t>(a)];
        const float len = std::sqrt(sx * sx + sy * sy);
        if (walked + len >= want && len > 0.f) {
            const float t = (want - walked) / len;
            tx = r.x[static_cast<std::size_t>(a)] + t * sx;
            ty = r.y[static_cast<std::size_t>(a)] + t * sy;
            break;
        }
        walked += len;
    }
    dx = tx - c.x;
    dy = ty - c.y;
    const float len = std::sqrt(dx * dx + dy * dy);
    if (len > 0.f) { dx /= len; dy /= len; }
    else { dx = 1.f; dy = 0.f; }
}

RouteMap buildRouteMap(const Scene& scene, const SceneGrid& grid, int threads) {
    const int t = threadsOf(threads);
    RouteMap m;
    m.stencil = scene.params.potential_stencil;
    // the network
    auto t0 = std::chrono::steady_clock::now();
    m.net = networkOf(scene, grid);
    m.times.network = msSince(t0);
    // viewsheds at the junction centres and the affordance weights
    t0 = std::chrono::steady_clock::now();
    const SegmentIndex index(grid.walls, grid.origin.x, grid.origin.y, grid.origin.x + grid.nx * grid.h, grid.origin.y + grid.ny * grid.h);
    std::vector<float> px, py;
    for (const Junction& j : m.net.junctions) { px.push_back(j.x); py.push_back(j.y); }
    m.viewsheds = viewsheds(index, px, py, t);
    m.weight.assign(m.net.nbr.size(), 0.f);
    const float frustum = scene.network.frustum * 3.14159265358979f / 180.f;
    for (int j = 0; j < static_cast<int>(m.net.junctions.size()); ++j) weighJunction(m, j, frustum);
    m.times.viewsheds = msSince(t0);
    // each junction's walking-distance potential
    t0 = std::chrono::steady_clock::now();
    layoutWindows(m, grid, scene.label);
    std::vector<int> all(m.net.junctions.size());
    for (std::size_t j = 0; j < all.size(); ++j) all[j] = static_cast<int>(j);
    solvePotentials(m, grid, t, all);
    m.times.potentials = msSince(t0);
    return m;
}

RouteMapUpdate updateRouteMap(RouteMap& m, const Scene& scene, const SceneGrid& grid, const std::vector<WallSegment>& before,
                   int threads) {
    const int t = threadsOf(threads);
    // the wall edges in only one of the two lists
    auto key = [](const WallSegment& s) { return std::array<float, 4>{s.ax, s.ay, s.bx, s.by}; };
    std::vector<std::array<float, 4>> a, b, changed;
    for (const WallSegment& s : before) a.push_back(key(s));
    for (const WallSegment& s : grid.walls) b.push_back(key(s));
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(changed));
    auto meets = [&](float x0, float y0, float x1, float y1) {
        return std::any_of(changed.begin(), changed.end(), [&](const std::array<float, 4>& s) {
            return std::max(s[0], s[2]) >= x0 && std::min(s[0], s[2]) <= x1 && std::max(s[1], s[3]) >= y0 && std::min(s[1], s[3]) <= y1;
        });
    };
    // junctions whose viewshed's box meets one of them
    std::vector<int> redo;
    for (int j = 0; j < static_cast<int>(m.viewsheds.size()); ++j) {
        const Viewshed& v = m.viewsheds[static_cast<std::size_t>(j)];
        float x0 = v.cx, x1 = v.cx, y0 = v.cy, y1 = v.cy;
        for (std::size_t p = 0; p < v.x.size(); ++p) {
            x0 = std::min(x0, v.x[p]); x1 = std::max(x1, v.x[p]);
            y0 = std::min(y0, v.y[p]); y1 = std::max(y1, v.y[p]);
        }
        if (meets(x0, y0, x1, y1)) redo.push_back(j);
    }
    // their viewsheds and weights again
    if (!redo.empty()) {
        const SegmentIndex index(grid.walls, grid.origin.x, grid.origin.y, grid.origin.x + grid.nx * grid.h, grid.origin.y + grid.ny * grid.h);
        std::vector<float> px, py;
        for (int j : redo) {
            px.push_back(m.net.junctions[static_cast<std::size_t>(j)].x);
            py.push_back(m.net.junctions[static_cast<std::size_t>(j)].y);
        }
        std::vector<Viewshed> v = viewsheds(index, px, py, t);
        const float frustum = scene.network.frustum * 3.14159265358979f / 180.f;
        for (std::size_t k = 0; k < redo.size(); ++k) {
            m.viewsheds[static_cast<std::size_t>(redo[k])] = std::move(v[k]);
            weighJunction(m, redo[k], frustum);
        }
    }
    // the potentials whose window (a cell's margin added) meets one of them: the others cannot change
    std::vector<int> windows;
    const GridInfo g = grid.info();
    for (int j = 0; j < static_cast<int>(m.windows.size()); ++j) {
        const Window& w = m.windows[static_cast<std::size_t>(j)];
        if (meets(g.ox + (w.i0 - 1) * g.h, g.oy + (w.j0 - 1) * g.h, g.ox + (w.i0 + w.nx + 1) * g.h, g.oy + (w.j0 + w.ny + 1) * g.h))
            windows.push_back(j);
    }
    solvePotentials(m, grid, t, windows);
    return {static_cast<int>(redo.size()), static_cast<int>(windows.size())};
}

std::vector<Vec2> placeByViewshed(const RouteMap& m, const SceneGrid& grid, int count, float minDistance,
                                  std::uint64_t seed, const std::string& where) {
    std::vector<Vec2> out;
    const int nj = static_cast<int>(m.net.junctions.size());
    if (count <= 0 || nj == 0) return out;
    // cumulative viewshed areas: the junctions' chances
    std::vector<double> cum;
    double total = 0.0;
    for (const Viewshed& v : m.viewsheds) cum.push_back(total += std::max(0.0, v.area()));
    if (!(total > 0.0)) throw InputError(where + ": no junction sees any walkable area to place people near");
    // placed positions in buckets of minDistance, for the spacing test
    const GridInfo g = grid.info();
    const float b = std::max(minDistance, g.h);
    const int bx = std::max(1, static_cast<int>(std::ceil(g.nx * g.h / b))), by = std::max(1, static_cast<int>(std::ceil(g.ny * g.h / b)));
    std::vector<std::vector<int>> bucket(static_cast<std::size_t>(bx) * static_cast<std::size_t>(by));
    auto bucketOf = [&](float x, float y, int& u, int& v) {
        u = std::clamp(static_cast<int>((x - g.ox) / b), 0, bx - 1);
        v = std::clamp(static_cast<int>((y - g.oy) / b), 0, by - 1);
    };
    auto farEnough = [&](float x, float y) {
        int u, v;
        bucketOf(x, y, u, v);
        for (int q = std::max(0, v - 1); q <= std::min(by - 1, v + 1); ++q)
            for (int p = std::max(0, u - 1); p <= std::min(bx - 1, u + 1); ++p)
                for (int k : bucket[static_cast<std::size_t>(p) + static_cast<std::size_t>(q) * static_cast<std::size_t>(bx)]) {
                    const float dx = out[static_cast<std::size_t>(k)].x - x, dy = out[static_cast<std::size_t>(k)].y - y;
                    if (dx * dx + dy * dy < minDistance * minDistance) return false;
                }
        return true;
    };
    std::mt19937_64 rng(seed ^ 0x5eed004ULL);
    std::uniform_real_distribution<double> uni(0.0, 1.0);
    for (int a = 0; a < count; ++a) {
        bool placed = false;
        for (int attempt = 0; attempt < 64 && !placed; ++attempt) {
            // a junction by its viewshed's area, a point in its disc
            const int j = static_cast<int>(std::upper_bound(cum.begin(), cum.end(), uni(rng) * total) - cum.begin());
            const Junction& c = m.net.junctions[static_cast<std::size_t>(std::min(j, nj - 1))];
            const double reach = std::max(2.0 * c.radius, 6.0), r = reach * std::sqrt(uni(rng)), th = 6.283185307179586 * uni(rng);
            const float x = static_cast<float>(c.x + r * std::cos(th)), y = static_cast<float>(c.y + r * std::sin(th));
            // open, within walking reach (not behind a wall), spaced
            int i, jj;
            g.cellOf(x, y, i, jj);
            if (!g.inside(i, jj) || grid.blocked(i, jj)) continue;
            const Window& w = m.windows[static_cast<std::size_t>(std::min(j, nj - 1))];
            const int li = i - w.i0, lj = jj - w.j0;
            if (li < 0 || lj < 0 || li >= w.nx || lj >= w.ny || !(m.phi[static_cast<std::size_t>(w.offset + li + static_cast<long long>(lj) * w.nx)] <= reach)) continue;
            if (!farEnough(x, y)) continue;
            int u, v;
            bucketOf(x, y, u, v);
            bucket[static_cast<std::size_t>(u) + static_cast<std::size_t>(v) * static_cast<std::size_t>(bx)].push_back(static_cast<int>(out.size()));
            out.push_back({x, y});
            placed = true;
        }
        if (!placed) {
            char gap[32];
            std::snprintf(gap, sizeof gap, "%g", static_cast<double>(minDistance));
            throw InputError(where + " = " + std::to_string(count) + ": only " + std::to_string(a) +
                             " persons fit near the junctions (within max(2 radius, 6 m) of their centres, " + gap +
                             " m apart); allowed: fewer persons, or \"placement\": \"spawn\"");
        }
    }
    return out;
}

}  // namespace ccrowd::route
