/// @file street_network.cpp
/// Street network from the free space (Nicosia et al. 2012): distance
/// transform (Felzenszwalb & Huttenlocher 2012), distance-ordered homotopic
/// thinning (Pudney 1998; simple points by Yokoi's 8-connectivity number),
/// skeleton graph, spur pruning, junctions and roads.
#include "route/street_network.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

namespace ccrowd::route {

namespace {

/// Squared distances along one line (Felzenszwalb & Huttenlocher 2012, §2):
/// d[q] = min over sites p of (q - p)^2 + f[p], sites being the finite f.
/// @p v, @p z are scratch of size n and n + 1.
void distance1d(const double* f, int n, double* d, int* v, double* z) {
    const double inf = std::numeric_limits<double>::infinity();
    // lower envelope of the parabolas rooted at the finite sites
    int k = -1;
    for (int q = 0; q < n; ++q) {
        if (f[q] == inf) continue;
        double s = -inf;
        while (k >= 0) {
            const int p = v[k];
            s = ((f[q] + double(q) * q) - (f[p] + double(p) * p)) / (2.0 * (q - p));
            if (s > z[k]) break;
            --k;
        }
        if (k < 0) s = -inf;
        ++k;
        v[k] = q;
        z[k] = s;
        z[k + 1] = inf;
    }
    // no site on this line: everything infinitely far
    if (k < 0) {
        std::fill(d, d + n, inf);
        return;
    }
    // read the envelope off left to right
    int j = 0;
    for (int q = 0; q < n; ++q) {
        while (z[j + 1] < q) ++j;
        const double t = q - v[j];
        d[q] = t * t + f[v[j]];
    }
}

/// Squared distances [cells^2] on the grid padded by one blocked ring
/// ((nx+2) x (ny+2), row-major): 0 at blocked cells and the ring.
std::vector<int> squaredDistance(const Field<std::uint8_t>& blocked, int nx, int ny) {
    const int W = nx + 2, H = ny + 2;
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> g(static_cast<std::size_t>(W) * H);
    // sites: the ring and the blocked cells
    for (int j = 0; j < H; ++j)
        for (int i = 0; i < W; ++i) {
            const bool ring = i == 0 || j == 0 || i == W - 1 || j == H - 1;
            g[i + static_cast<std::size_t>(j) * W] = (ring || blocked(i - 1, j - 1)) ? 0.0 : inf;
        }
    const int m = std::max(W, H);
    std::vector<double> f(m), d(m), z(m + 1);
    std::vector<int> v(m);
    // columns, then rows (the transform is separable)
    for (int i = 0; i < W; ++i) {
        for (int j = 0; j < H; ++j) f[j] = g[i + static_cast<std::size_t>(j) * W];
        distance1d(f.data(), H, d.data(), v.data(), z.data());
        for (int j = 0; j < H; ++j) g[i + static_cast<std::size_t>(j) * W] = d[j];
    }
    std::vector<int> out(g.size());
    for (int j = 0; j < H; ++j) {
        double* row = g.data() + static_cast<std::size_t>(j) * W;
        distance1d(row, W, d.data(), v.data(), z.data());
        for (int i = 0; i < W; ++i) out[i + static_cast<std::size_t>(j) * W] = static_cast<int>(d[i]);
    }
    return out;
}

void checkInput(const Field<std::uint8_t>& blocked, const GridInfo& g) {
    if (!(g.h > 0.f))
        throw std::invalid_argument("network: the grid's cell size h must be > 0 (got " + std::to_string(g.h) + ")");
    if (blocked.nx() != g.nx || blocked.ny() != g.ny || g.nx < 0 || g.ny < 0)
        throw std::invalid_argument("network: the walkability raster is " + std::to_string(blocked.nx()) + " x " +
                                    std::to_string(blocked.ny()) + " cells but the grid is " + std::to_string(g.nx) +
                                    " x " + std::to_string(g.ny));
}

/// Yokoi's 8-connectivity number of every 3x3 neighbourhood, bit k = the
/// neighbour at angle 45k degrees (E, NE, N, NW, W, SW, S, SE): a pixel is
/// simple (removable without changing the topology, 8-connected
/// foreground) iff it is 1.
std::array<std::uint8_t, 256> simpleTable() {
    std::array<std::uint8_t, 256> t{};
    for (int m = 0; m < 256; ++m) {
        int n = 0;
        for (int k = 0; k < 8; k += 2) {
            const int a = !((m >> k) & 1), b = !((m >> ((k + 1) & 7)) & 1), c = !((m >> ((k + 2) & 7)) & 1);
            n += a - a * b * c;
        }
        t[m] = n == 1;
    }
    return t;
}

int popcount8(unsigned m) {
    int n = 0;
    for (; m; m &= m - 1) ++n;
    return n;
}

struct GNode {
    std::vector<int> pix;  ///< Padded-grid pixels, the first one the seed.
    bool alive = true;
};
struct GEdge {
    int a = 0, b = 0;
    std::vector<int> path;  ///< Pixels from a pixel of a to a pixel of b.
    bool alive = true;
};

/// The skeleton graph and the operations that clean it.
class Graph {
public:
    Graph(int W, const std::vector<float>& clear, float h) : W_(W), clear_(clear), h_(h) {}

    std::vector<GNode> nodes;
    std::vector<GEdge> edges;
    std::vector<std::vector<int>> inc;  ///< Edge ids at each node (a loop twice; dead ones skipped).

    int addNode(std::vector<int> pix) {
        nodes.push_back({std::move(pix), true});
        inc.emplace_back();
        return static_cast<int>(nodes.size()) - 1;
    }
    void addEdge(int a, int b, std::vector<int> path) {
        const int e = static_cast<int>(edges.size());
        edges.push_back({a, b, std::move(path), true});
        inc[a].push_back(e);
        inc[b].push_back(e);
    }
    int degree(int n) const {
        int d = 0;
        for (int e : inc[n]) d += edges[e].alive;
        return d;
    }
    /// Largest clearance of the node's pixels. [Units: m]
    float nodeClear(int n) const {
        float c = 0;
        for (int p : nodes[n].pix) c = std::max(c, clear_[p]);
        return c;
    }
    /// Length of a pixel path (steps of 1 or sqrt 2 cells). [Units: m]
    float pathLength(const std::vector<int>& path) const {
        double s = 0;
        for (std::size_t k = 1; k < path.size(); ++k) {
            const int d = std::abs(path[k] - path[k - 1]);
            s += (d == 1 || d == W_) ? 1.0 : (d == 0 ? 0.0 : std::sqrt(2.0));
        }
        return static_cast<float>(s * h_);
    }

    /// Removes spurs (an edge from a dead end to a node of degree >= 3)
    /// shorter than max(min_branch, 2 x the join's clearance); where every
    /// edge at a node qualifies, the longest stays. True if any removed.
    bool pruneSpurs(float minBranch) {
        const int nn = static_cast<int>(nodes.size());
        std::vector<int> deg(nn);
        for (int n = 0; n < nn; ++n) deg[n] = nodes[n].alive ? degree(n) : 0;
        // candidates per join node, judged on the graph before this pass
        std::vector<std::vector<int>> cand(nn);
        for (int e = 0; e < static_cast<int>(edges.size()); ++e) {
            const GEdge& E = edges[e];
            if (!E.alive || E.a == E.b) continue;
            int tip = -1, join = -1;
            if (deg[E.a] == 1 && deg[E.b] >= 3) tip = E.a, join = E.b;
            else if (deg[E.b] == 1 && deg[E.a] >= 3) tip = E.b, join = E.a;
            if (tip < 0) continue;
            if (pathLength(E.path) < std::max(minBranch, 2.f * nodeClear(join))) cand[join].push_back(e);
        }
        bool changed = false;
        for (int n = 0; n < nn; ++n) {
            auto& c = cand[n];
            if (c.empty()) continue;
            // keep the longest when all would go
            if (static_cast<int>(c.size()) == deg[n]) {
                auto longest = std::max_element(c.begin(), c.end(), [&](int p, int q) {
                    return pathLength(edges[p].path) < pathLength(edges[q].path);
                });
                c.erase(longest);
            }
            for (int e : c) {
                edges[e].alive = false;
                nodes[edges[e].a == n ? edges[e].b : edges[e].a].alive = false;
                changed = true;
            }
        }
        return changed;
    }

    /// Joins the two edges at every node of degree 2 (a skeleton point with
    /// two branches is not a junction). True if any joined.
    bool dissolveDegreeTwo() {
        bool changed = false;
        for (int n = 0; n < static_cast<int>(nodes.size()); ++n) {
            if (!nodes[n].alive) continue;
            int e1 = -1, e2 = -1, d = 0;
            for (int e : inc[n]) {
                if (!edges[e].alive) continue;
                (d == 0 ? e1 : e2) = e;
                if (++d > 2) break;
            }
            if (d != 2 || e1 == e2) continue;  // a loop's only node stays
            GEdge& A = edges[e1];
            GEdge& B = edges[e2];
            // orient A to end at n and B to start at n, then concatenate
            if (A.b != n) { std::reverse(A.path.begin(), A.path.end()); std::swap(A.a, A.b); }
            if (B.a != n) { std::reverse(B.path.begin(), B.path.end()); std::swap(B.a, B.b); }
            std::size_t skip = (!A.path.empty() && !B.path.empty() && A.path.back() == B.path.front()) ? 1 : 0;
            A.path.insert(A.path.end(), B.path.begin() + static_cast<std::ptrdiff_t>(skip), B.path.end());
            A.b = B.b;
            B.alive = false;
            inc[A.b].push_back(e1);
            nodes[n].alive = false;
            changed = true;
        }
        return changed;
    }

    /// Merges junctions (degree >= 3) that are one place: joined by an edge
    /// shorter than the larger clearance (one centre inside the other's
    /// disc), or, for clearances within a factor 2 of each other, shorter
    /// than their sum (overlapping discs: the two branch points of an oblique
    /// crossing). A small junction at the rim of a square's disc stays (the
    /// square's entrance). True if any merged.
    bool contractShort() {
        bool changed = false;
        for (int e = 0; e < static_cast<int>(edges.size()); ++e) {
            GEdge& E = edges[e];
            if (!E.alive || E.a == E.b) continue;
            const int a = E.a, b = E.b;
            if (degree(a) < 3 || degree(b) < 3) continue;
            const float ca = nodeClear(a), cb = nodeClear(b), len = pathLength(E.path);
            const bool inside = len < std::max(ca, cb);
            const bool overlap = len < ca + cb && 2.f * std::min(ca, cb) >= std::max(ca, cb);
            if (!inside && !overlap) continue;
            // b and the edge's inner pixels join a
            E.alive = false;
            for (std::size_t k = 1; k + 1 < E.path.size(); ++k) nodes[a].pix.push_back(E.path[k]);
            nodes[a].pix.insert(nodes[a].pix.end(), nodes[b].pix.begin(), nodes[b].pix.end());
            for (int f : inc[b]) {
                if (!edges[f].alive) continue;
                if (edges[f].a == b) edges[f].a = a;
                if (edges[f].b == b) edges[f].b = a;
                inc[a].push_back(f);
            }
            inc[b].clear();
            nodes[b].alive = false;
            changed = true;
        }
        return changed;
    }

    /// Drops loops shorter than the circumference of their junction's disc.
    bool dropSmallLoops() {
        bool changed = false;
        for (GEdge& E : edges) {
            if (!E.alive || E.a != E.b) continue;
            if (pathLength(E.path) < 2.f * 3.14159265f * nodeClear(E.a)) {
                E.alive = false;
                changed = true;
            }
        }
        return changed;
    }

private:
    int W_;
    const std::vector<float>& clear_;
    float h_;
};

/// Distance from point p to segment ab. [Units: as given]
double segmentDistance(double px, double py, double ax, double ay, double bx, double by) {
    const double dx = bx - ax, dy = by - ay, L2 = dx * dx + dy * dy;
    double t = L2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / L2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/// Douglas-Peucker simplification (keeps the end points): marks kept points.
void simplify(const std::vector<float>& x, const std::vector<float>& y, std::size_t lo, std::size_t hi, double eps,
              std::vector<char>& keep) {
    if (hi <= lo + 1) return;
    double worst = -1;
    std::size_t at = lo;
    for (std::size_t k = lo + 1; k < hi; ++k) {
        const double d = segmentDistance(x[k], y[k], x[lo], y[lo], x[hi], y[hi]);
        if (d > worst) worst = d, at = k;
    }
    if (worst <= eps) return;
    keep[at] = 1;
    simplify(x, y, lo, at, eps, keep);
    simplify(x, y, at, hi, eps, keep);
}

float polylineLength(const std::vector<float>& x, const std::vector<float>& y) {
    double s = 0;
    for (std::size_t k = 1; k < x.size(); ++k) s += std::hypot(double(x[k]) - x[k - 1], double(y[k]) - y[k - 1]);
    return static_cast<float>(s);
}

/// Clearance [m] at a point, from the cell containing it (0 outside the grid).
float clearanceAt(const std::vector<float>& clear, const GridInfo& g, float x, float y) {
    int i, j;
    g.cellOf(x, y, i, j);
    return g.inside(i, j) ? clear[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * g.nx] : 0.f;
}

}  // namespace

void StreetNetwork::buildAdjacency() {
    const int n = static_cast<int>(junctions.size());
    first.assign(n + 1, 0);
    // count, prefix-sum, fill (a loop listed once)
    for (const Road& r : roads) {
        ++first[r.a + 1];
        if (r.b != r.a) ++first[r.b + 1];
    }
    for (int j = 0; j < n; ++j) first[j + 1] += first[j];
    nbr.assign(first[n], 0);
    road.assign(first[n], 0);
    std::vector<int> at(first.begin(), first.end() - 1);
    for (int k = 0; k < static_cast<int>(roads.size()); ++k) {
        const Road& r = roads[k];
        nbr[at[r.a]] = r.b, road[at[r.a]++] = k;
        if (r.b != r.a) nbr[at[r.b]] = r.a, road[at[r.b]++] = k;
    }
}

int StreetNetwork::degree(int j) const {
    int d = 0;
    for (const Road& r : roads) d += (r.a == j) + (r.b == j);
    return d;
}

std::vector<float> clearance(const Field<std::uint8_t>& blocked, const GridInfo& g) {
    checkInput(blocked, g);
    const int W = g.nx + 2;
    const std::vector<int> d2 = squaredDistance(blocked, g.nx, g.ny);
    std::vector<float> out(static_cast<std::size_t>(g.nx) * g.ny);
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i)
            out[i + static_cast<std::size_t>(j) * g.nx] =
                std::sqrt(static_cast<float>(d2[(i + 1) + static_cast<std::size_t>(j + 1) * W])) * g.h;
    return out;
}

StreetNetwork deriveNetwork(const Field<std::uint8_t>& blocked, const GridInfo& g, const NetworkOptions& o) {
    checkInput(blocked, g);
    if (!(o.min_branch >= 0.f) || !(o.min_radius >= 0.f))
        throw std::invalid_argument("network: min_branch and min_radius must be >= 0 m (got " +
                                    std::to_string(o.min_branch) + ", " + std::to_string(o.min_radius) + ")");
    const int W = g.nx + 2, H = g.ny + 2;
    const std::size_t N = static_cast<std::size_t>(W) * H;
    const int off[8] = {1, 1 + W, W, -1 + W, -1, -1 - W, -W, 1 - W};  // E NE N NW W SW S SE

    // 1. distance transform on the padded grid (Felzenszwalb & Huttenlocher 2012)
    const std::vector<int> d2 = squaredDistance(blocked, g.nx, g.ny);
    std::vector<float> clear(N);
    int maxD2 = 0;
    std::size_t nFree = 0;
    for (std::size_t p = 0; p < N; ++p) {
        clear[p] = std::sqrt(static_cast<float>(d2[p])) * g.h;
        maxD2 = std::max(maxD2, d2[p]);
        nFree += d2[p] > 0;
    }
    if (nFree == 0) throw std::invalid_argument("network: the free space has no skeleton (no walkable cell)");

    // 2. distance-ordered homotopic thinning (Pudney 1998): free pixels by
    //    increasing distance (counting sort, index order within a level);
    //    within a level, sweeps that delete only border pixels facing N, S,
    //    E, W in turn (as in directional parallel thinning, Rosenfeld 1975,
    //    so a two-pixel-wide line keeps one row instead of being eaten from
    //    its end), until a round deletes nothing; a deleted pixel's kept
    //    neighbours at or below the level are checked again
    std::vector<std::uint8_t> skel(N);
    for (std::size_t p = 0; p < N; ++p) skel[p] = d2[p] > 0;
    std::vector<int> start(static_cast<std::size_t>(maxD2) + 2, 0);
    for (std::size_t p = 0; p < N; ++p)
        if (d2[p] > 0) ++start[d2[p] + 1];
    for (int l = 0; l <= maxD2; ++l) start[l + 1] += start[l];
    std::vector<int> order(nFree);
    {
        std::vector<int> at(start.begin(), start.end() - 1);
        for (std::size_t p = 0; p < N; ++p)
            if (d2[p] > 0) order[at[d2[p]]++] = static_cast<int>(p);
    }
    const auto simple = simpleTable();
    auto mask = [&](int p) {
        unsigned m = 0;
        for (int k = 0; k < 8; ++k) m |= unsigned(skel[p + off[k]]) << k;
        return m;
    };
    // an end point stays only on a ridge of the distance: no neighbour
    // farther from the walls by half its step or more (so a line ends where
    // a street ends, not in a right-angled corner of the free space)
    auto ridgeEnd = [&](int p) {
        const double dp = std::sqrt(static_cast<double>(d2[p]));
        for (int k = 0; k < 8; ++k) {
            const double rise = std::sqrt(static_cast<double>(d2[p + off[k]])) - dp;
            if (rise >= 0.5 * ((k & 1) ? std::sqrt(2.0) : 1.0)) return false;
        }
        return true;
    };
    std::vector<int> active, cand;
    std::vector<std::uint8_t> inActive(N, 0);
    const int sweepDir[4] = {2, 6, 0, 4};  // N, S, E, W
    for (int l = 1; l <= maxD2; ++l) {
        if (start[l] == start[l + 1]) continue;
        active.assign(order.begin() + start[l], order.begin() + start[l + 1]);
        for (int p : active) inActive[p] = 1;
        for (bool any = true; any;) {
            any = false;
            for (int dir : sweepDir) {
                // candidates: border pixels facing dir when the sweep starts
                cand.clear();
                for (int p : active)
                    if (skel[p] && !skel[p + off[dir]]) cand.push_back(p);
                for (int p : cand) {
                    const unsigned m = mask(p);
                    if (!simple[m] || (popcount8(m) == 1 && ridgeEnd(p))) continue;
                    skel[p] = 0;
                    any = true;
                    for (int k = 0; k < 8; ++k) {
                        const int r = p + off[k];
                        if (skel[r] && d2[r] <= l && !inActive[r]) inActive[r] = 1, active.push_back(r);
                    }
                }
            }
        }
        for (int p : active) inActive[p] = 0;
    }

    // 3. skeleton graph: nodes = 8-connected clusters of pixels with != 2
    //    skeleton neighbours, edges = chains of 2-neighbour pixels
    std::vector<std::uint8_t> deg(N, 0);
    for (std::size_t p = 0; p < N; ++p)
        if (skel[p]) deg[p] = static_cast<std::uint8_t>(popcount8(mask(static_cast<int>(p))));
    Graph G(W, clear, g.h);
    std::vector<int> nodeOf(N, -1);
    std::vector<int> stack;
    for (std::size_t s = 0; s < N; ++s) {
        if (!skel[s] || deg[s] == 2 || nodeOf[s] >= 0) continue;
        const int n = G.addNode({});
        stack.assign(1, static_cast<int>(s));
        nodeOf[s] = n;
        while (!stack.empty()) {
            const int p = stack.back();
            stack.pop_back();
            G.nodes[n].pix.push_back(p);
            for (int k = 0; k < 8; ++k) {
                const int r = p + off[k];
                if (skel[r] && deg[r] != 2 && nodeOf[r] < 0) nodeOf[r] = n, stack.push_back(r);
            }
        }
        std::sort(G.nodes[n].pix.begin(), G.nodes[n].pix.end());
    }
    std::vector<std::uint8_t> visited(N, 0);
    // trace the chains leaving node n
    auto traceFrom = [&](int n) {
        for (std::size_t pi = 0; pi < G.nodes[n].pix.size(); ++pi) {
            const int c = G.nodes[n].pix[pi];
            for (int k = 0; k < 8; ++k) {
                const int q = c + off[k];
                if (!skel[q] || nodeOf[q] >= 0 || visited[q]) continue;
                std::vector<int> path{c, q};
                visited[q] = 1;
                int prev = c, cur = q, to = -1;
                for (;;) {
                    int next = -1;
                    for (int t = 0; t < 8 && next < 0; ++t) {
                        const int r = cur + off[t];
                        if (skel[r] && r != prev) next = r;
                    }
                    if (next < 0 || (nodeOf[next] < 0 && visited[next])) break;  // not a chain (cannot happen after thinning)
                    path.push_back(next);
                    if (nodeOf[next] >= 0) { to = nodeOf[next]; break; }
                    visited[next] = 1;
                    prev = cur, cur = next;
                }
                if (to >= 0) G.addEdge(n, to, std::move(path));
            }
        }
    };
    for (int n = 0; n < static_cast<int>(G.nodes.size()); ++n) traceFrom(n);
    // cycles with no node: one node at the cycle's widest pixel
    for (std::size_t s = 0; s < N; ++s) {
        if (!skel[s] || nodeOf[s] >= 0 || visited[s]) continue;
        int best = static_cast<int>(s), prev = -1, cur = static_cast<int>(s);
        for (std::size_t steps = 0; steps < N; ++steps) {
            int next = -1;
            for (int t = 0; t < 8 && next < 0; ++t) {
                const int r = cur + off[t];
                if (skel[r] && r != prev) next = r;
            }
            if (next < 0 || next == static_cast<int>(s)) break;
            if (clear[next] > clear[best] || (clear[next] == clear[best] && next < best)) best = next;
            prev = cur, cur = next;
        }
        const int n = G.addNode({best});
        nodeOf[best] = n;
        traceFrom(n);
    }

    // 4. clean: prune spurs, join degree-2 chains, merge junctions whose discs overlap,
    //    drop tiny loops, until nothing changes
    for (int guard = 0; guard < 1000; ++guard) {
        bool changed = G.pruneSpurs(o.min_branch);
        changed |= G.dissolveDegreeTwo();
        changed |= G.contractShort();
        changed |= G.dropSmallLoops();
        changed |= G.dissolveDegreeTwo();
        if (!changed) break;
    }

    // 5. junctions: surviving nodes, at the clearance-weighted centre of their pixels
    StreetNetwork net;
    std::vector<int> jOf(G.nodes.size(), -1);
    const float minR = std::max(o.min_radius, 1.5f * g.h);
    auto px = [&](int p) { return g.ox + (static_cast<float>(p % W) - 0.5f) * g.h; };
    auto py = [&](int p) { return g.oy + (static_cast<float>(p / W) - 0.5f) * g.h; };
    for (int n = 0; n < static_cast<int>(G.nodes.size()); ++n) {
        if (!G.nodes[n].alive) continue;
        double sw = 0, sx = 0, sy = 0;
        for (int p : G.nodes[n].pix) sw += clear[p], sx += clear[p] * px(p), sy += clear[p] * py(p);
        Junction J;
        J.x = static_cast<float>(sx / sw);
        J.y = static_cast<float>(sy / sw);
        J.radius = std::max(G.nodeClear(n), minR);
        jOf[n] = static_cast<int>(net.junctions.size());
        net.junctions.push_back(J);
    }
    if (net.junctions.empty()) throw std::invalid_argument("network: the free space has no skeleton");

    // 6. roads: the path outside both discs between the two centres, simplified (Douglas-Peucker, one cell)
    for (const GEdge& E : G.edges) {
        if (!E.alive) continue;
        Road R;
        R.a = jOf[E.a];
        R.b = jOf[E.b];
        const Junction& A = net.junctions[R.a];
        const Junction& B = net.junctions[R.b];
        std::size_t lo = 0, hi = E.path.size();
        while (lo < hi && std::hypot(px(E.path[lo]) - A.x, py(E.path[lo]) - A.y) < A.radius) ++lo;
        while (hi > lo && std::hypot(px(E.path[hi - 1]) - B.x, py(E.path[hi - 1]) - B.y) < B.radius) --hi;
        std::vector<float> x{A.x}, y{A.y};
        double sc = 0;
        for (std::size_t k = lo; k < hi; ++k) x.push_back(px(E.path[k])), y.push_back(py(E.path[k])), sc += clear[E.path[k]];
        x.push_back(B.x), y.push_back(B.y);
        if (hi > lo) {
            R.width = static_cast<float>(2.0 * sc / static_cast<double>(hi - lo));
        } else {
            for (int p : E.path) sc += clear[p];
            R.width = static_cast<float>(2.0 * sc / static_cast<double>(E.path.size()));
        }
        std::vector<char> keep(x.size(), 0);
        keep.front() = keep.back() = 1;
        simplify(x, y, 0, x.size() - 1, g.h, keep);
        for (std::size_t k = 0; k < x.size(); ++k)
            if (keep[k]) R.x.push_back(x[k]), R.y.push_back(y[k]);
        R.length = polylineLength(R.x, R.y);
        net.roads.push_back(std::move(R));
    }
    net.buildAdjacency();
    return net;
}

StreetNetwork givenNetwork(const std::vector<float>& x, const std::vector<float>& y,
                           const std::vector<std::array<int, 2>>& roads, const Field<std::uint8_t>& blocked,
                           const GridInfo& g, float min_radius) {
    checkInput(blocked, g);
    if (x.size() != y.size())
        throw std::invalid_argument("network.junctions: " + std::to_string(x.size()) + " x but " +
                                    std::to_string(y.size()) + " y coordinates");
    const std::vector<float> clear = clearance(blocked, g);
    const int n = static_cast<int>(x.size());
    StreetNetwork net;
    // junctions: centre in a walkable cell, radius from its clearance
    for (int k = 0; k < n; ++k) {
        int i, j;
        g.cellOf(x[k], y[k], i, j);
        const std::string at = "network.junctions[" + std::to_string(k) + "] (" + std::to_string(x[k]) + ", " +
                               std::to_string(y[k]) + " m)";
        if (!g.inside(i, j)) throw std::invalid_argument(at + " is outside the grid");
        if (blocked(i, j)) throw std::invalid_argument(at + " is in a blocked cell");
        net.junctions.push_back({x[k], y[k], std::max({clearanceAt(clear, g, x[k], y[k]), 1.5f * g.h, min_radius})});
    }
    // roads: valid, distinct, straight; width from clearance sampled every cell outside the discs
    std::set<std::pair<int, int>> seen;
    for (int k = 0; k < static_cast<int>(roads.size()); ++k) {
        const int a = roads[k][0], b = roads[k][1];
        const std::string at = "network.roads[" + std::to_string(k) + "] (" + std::to_string(a) + ", " +
                               std::to_string(b) + ")";
        if (a < 0 || a >= n || b < 0 || b >= n)
            throw std::invalid_argument(at + ": junction index out of range 0.." + std::to_string(n - 1));
        if (a == b) throw std::invalid_argument(at + ": a road must join two different junctions");
        if (!seen.insert({std::min(a, b), std::max(a, b)}).second)
            throw std::invalid_argument(at + ": duplicate road");
        Road R;
        R.a = a, R.b = b;
        R.x = {x[a], x[b]};
        R.y = {y[a], y[b]};
        R.length = polylineLength(R.x, R.y);
        const Junction& A = net.junctions[a];
        const Junction& B = net.junctions[b];
        const int steps = std::max(1, static_cast<int>(std::ceil(R.length / g.h)));
        double sIn = 0, sAll = 0;
        int nIn = 0;
        for (int s = 0; s <= steps; ++s) {
            const float t = static_cast<float>(s) / steps;
            const float qx = x[a] + t * (x[b] - x[a]), qy = y[a] + t * (y[b] - y[a]);
            const float c = clearanceAt(clear, g, qx, qy);
            sAll += c;
            if (std::hypot(qx - A.x, qy - A.y) >= A.radius && std::hypot(qx - B.x, qy - B.y) >= B.radius) sIn += c, ++nIn;
        }
        R.width = static_cast<float>(2.0 * (nIn > 0 ? sIn / nIn : sAll / (steps + 1)));
        net.roads.push_back(std::move(R));
    }
    net.buildAdjacency();
    return net;
}

}  // namespace ccrowd::route
