/// @file placement.cpp
/// Initial agent positions: a jittered hexagonal lattice clipped to the
/// spawn polygons and open cells, its spacing shrunk until enough points
/// fit; dart throwing fills in when even the tightest lattice is short.

#include "ccrowd/placement.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unordered_map>

#include "ccrowd/error.hpp"
#include "scene_internal.hpp"

namespace ccrowd {

namespace {

using scene_detail::formatNumber;

/// SplitMix64: small, fast, the same on every platform (std distributions are not).
struct Rng {
    std::uint64_t s;
    std::uint64_t next() {
        std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    /// Uniform integer in [0, n).
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(uniform() * static_cast<double>(n)); }
};

struct P2 {
    double x, y;
};

/// Placement of one group.
class Placer {
public:
    Placer(const SceneGrid& grid, const std::vector<Polygon>& spawn, const std::vector<int>& cells,
           std::uint64_t seed, int group, double minDistance)
        : grid_(grid), spawn_(spawn), cells_(cells) {
        // One stream per (seed, group).
        Rng mix{static_cast<std::uint64_t>(group) + 1};
        rng_.s = seed ^ mix.next();
        box_ = geom::bounds(spawn_[0]);
        for (const Polygon& p : spawn_) {
            const geom::Box b = geom::bounds(p);
            box_ = {std::min(box_.x0, b.x0), std::min(box_.y0, b.y0), std::max(box_.x1, b.x1), std::max(box_.y1, b.y1)};
        }
        // Positions end up as floats: keep a margin of a few float ulps.
        const double big = std::max({std::fabs(box_.x0), std::fabs(box_.x1), std::fabs(box_.y0), std::fabs(box_.y1), 1.0});
        d_ = minDistance + 8 * big * 0x1.0p-24;
    }

    /// Rounds to the float the caller will get.
    static P2 toFloat(double x, double y) { return {static_cast<float>(x), static_cast<float>(y)}; }

    /// Inside a spawn polygon and on an open cell.
    bool valid(double x, double y) const {
        const double fi = std::floor((x - grid_.origin.x) / grid_.h), fj = std::floor((y - grid_.origin.y) / grid_.h);
        if (!(fi >= 0 && fj >= 0 && fi < grid_.nx && fj < grid_.ny)) return false;
        if (grid_.blocked.host()[static_cast<std::size_t>(fi) + static_cast<std::size_t>(fj) * grid_.nx]) return false;
        return std::any_of(spawn_.begin(), spawn_.end(), [&](const Polygon& p) { return geom::pointInPolygon(p, x, y); });
    }

    /// Hexagonal lattice points of spacing @p sp (offset fractions ox, oy in
    /// [0, 1)) inside the spawn polygons and on open cells; stops past @p cap.
    std::vector<P2> lattice(double sp, double ox, double oy, std::size_t cap) const {
        std::vector<P2> out;
        std::vector<double> cross;
        std::vector<long long> ks;
        const double dy = sp * std::sqrt(3.0) / 2;
        for (long long r = 0;; ++r) {
            const double y = box_.y0 + (oy + static_cast<double>(r)) * dy;
            if (y > box_.y1 || out.size() > cap) break;
            const double x0 = box_.x0 + (ox + ((r & 1) ? 0.5 : 0.0)) * sp;
            // Lattice columns inside any polygon on this row (pairs of crossings).
            ks.clear();
            for (const Polygon& p : spawn_) {
                geom::rowCrossings(p, y, cross);
                for (std::size_t k = 0; k + 1 < cross.size(); k += 2) {
                    for (long long c = static_cast<long long>(std::ceil((cross[k] - x0) / sp));; ++c) {
                        const double x = x0 + static_cast<double>(c) * sp;
                        if (x >= cross[k + 1]) break;
                        if (x >= cross[k]) ks.push_back(c);
                    }
                }
            }
            std::sort(ks.begin(), ks.end());
            ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
            for (long long c : ks) {
                const P2 p = toFloat(x0 + static_cast<double>(c) * sp, y);
                if (valid(p.x, p.y)) out.push_back(p);
            }
        }
        return out;
    }

    /// @p count positions, or fewer when they cannot fit.
    std::vector<P2> place(std::size_t count, double area) {
        // Start at the spacing that gives the target density, shrink to d.
        const double rho = static_cast<double>(count) / area;
        double sp = std::max(std::sqrt(2.0 / (std::sqrt(3.0) * rho)), d_);
        std::vector<P2> best;
        double bestSp = sp;
        for (int step = 0; step < 60; ++step) {
            for (int attempt = 0; attempt < 4; ++attempt) {
                std::vector<P2> pts = lattice(sp, rng_.uniform(), rng_.uniform(), 4 * count + 1024);
                if (pts.size() > best.size()) { best = std::move(pts); bestSp = sp; }
                if (best.size() >= count) return finish(best, count, bestSp);
            }
            if (sp <= d_) break;
            sp = std::max(sp * 0.97, d_);
        }
        fillIn(best, count);
        return best;
    }

private:
    /// Random subset of @p count points (in lattice order), each jittered
    /// within (sp - d)/2 so pairs stay >= d apart.
    std::vector<P2> finish(std::vector<P2>& pts, std::size_t count, double sp) {
        std::vector<std::size_t> idx(pts.size());
        for (std::size_t k = 0; k < idx.size(); ++k) idx[k] = k;
        for (std::size_t k = 0; k < count; ++k) std::swap(idx[k], idx[k + rng_.below(idx.size() - k)]);
        idx.resize(count);
        std::sort(idx.begin(), idx.end());
        const double amp = std::max(0.0, (sp - d_) / 2) * 0.999;
        std::vector<P2> out;
        out.reserve(count);
        for (std::size_t k : idx) {
            P2 p = pts[k];
            for (int t = 0; t < 4 && amp > 0; ++t) {
                // Uniform in a disc of radius amp.
                const double r = amp * std::sqrt(rng_.uniform()), a = 6.283185307179586 * rng_.uniform();
                const P2 q = toFloat(p.x + r * std::cos(a), p.y + r * std::sin(a));
                if (valid(q.x, q.y)) { p = q; break; }
            }
            out.push_back(p);
        }
        return out;
    }

    /// Dart throwing into random open spawn cells, keeping distance >= d.
    void fillIn(std::vector<P2>& pts, std::size_t count) {
        const double cs = std::max(d_, 1e-3);
        std::unordered_map<long long, std::vector<std::size_t>> hash;
        auto key = [&](long long i, long long j) { return i * 0x100000001ll + j; };
        auto cellOf = [&](const P2& p) {
            return std::pair<long long, long long>{static_cast<long long>(std::floor((p.x - box_.x0) / cs)),
                                                   static_cast<long long>(std::floor((p.y - box_.y0) / cs))};
        };
        for (std::size_t k = 0; k < pts.size(); ++k) {
            const auto [i, j] = cellOf(pts[k]);
            hash[key(i, j)].push_back(k);
        }
        const std::vector<int>& cells = cells_;
        const std::size_t budget = 64 * (count - std::min(count, pts.size())) + 10000;
        for (std::size_t t = 0; t < budget && pts.size() < count && !cells.empty(); ++t) {
            const int c = cells[rng_.below(cells.size())];
            const P2 p = toFloat(grid_.origin.x + (c % grid_.nx + rng_.uniform()) * grid_.h,
                                 grid_.origin.y + (c / grid_.nx + rng_.uniform()) * grid_.h);
            if (!valid(p.x, p.y)) continue;
            const auto [i, j] = cellOf(p);
            bool ok = true;
            for (long long di = -1; di <= 1 && ok; ++di) {
                for (long long dj = -1; dj <= 1 && ok; ++dj) {
                    auto it = hash.find(key(i + di, j + dj));
                    if (it == hash.end()) continue;
                    for (std::size_t q : it->second) {
                        if (std::hypot(pts[q].x - p.x, pts[q].y - p.y) < d_) { ok = false; break; }
                    }
                }
            }
            if (!ok) continue;
            hash[key(i, j)].push_back(pts.size());
            pts.push_back(p);
        }
    }

    const SceneGrid& grid_;
    const std::vector<Polygon>& spawn_;
    const std::vector<int>& cells_;
    double d_ = 0;
    Rng rng_{0};
    geom::Box box_;
};

}  // namespace

float placementDistance(const Scene& scene, int group) {
    return std::max(scene.params.d_min, 2.f * scene.groups.at(static_cast<std::size_t>(group)).radius);
}

double openSpawnArea(const Scene&, const SceneGrid& grid, int group) {
    return static_cast<double>(grid.spawn_cells.at(static_cast<std::size_t>(group)).size()) * grid.h * grid.h;
}

long long spawnCapacity(const Scene& scene, const SceneGrid& grid, int group, float minDistance) {
    // Area times the lower of the UIC limit and the packing density at d.
    double rho = scene.params.rho_limit;
    if (minDistance > 0) {
        const double d = minDistance;
        rho = std::min(rho, kPlacementPackingEfficiency * 2.0 / (std::sqrt(3.0) * d * d));
    }
    return static_cast<long long>(std::floor(openSpawnArea(scene, grid, group) * rho + 1e-9));
}

int resolveGroupCount(const Scene& scene, const SceneGrid& grid, int group) {
    const GroupSpec& g = scene.groups.at(static_cast<std::size_t>(group));
    if (!(g.density > 0)) return g.count;
    const double n = std::round(static_cast<double>(g.density) * openSpawnArea(scene, grid, group));
    return static_cast<int>(std::min(n, static_cast<double>(scene_limits::kMaxAgents) + 1));
}

std::vector<Vec2> placeAgents(const Scene& scene, const SceneGrid& grid, int group, std::uint64_t seed,
                              float minDistance) {
    if (group < 0 || static_cast<std::size_t>(group) >= scene.groups.size() ||
        static_cast<std::size_t>(group) >= grid.spawn_cells.size()) {
        throw std::out_of_range("placeAgents: group " + std::to_string(group) + " out of range");
    }
    if (!(minDistance >= 0) || !std::isfinite(minDistance)) {
        throw InputError("placeAgents: minDistance = " + formatNumber(minDistance) +
                         ": not a finite number >= 0 (allowed: >= 0 [m])");
    }
    const GroupSpec& g = scene.groups[static_cast<std::size_t>(group)];
    const std::size_t count = static_cast<std::size_t>(
        static_cast<std::size_t>(group) < grid.group_count.size() ? grid.group_count[static_cast<std::size_t>(group)]
                                                                    : resolveGroupCount(scene, grid, group));
    if (count == 0) return {};
    const std::string path = "/groups/" + std::to_string(group) + (g.density > 0 ? "/density" : "/count");
    const double area = openSpawnArea(scene, grid, group);
    auto cannotFit = [&](std::size_t placed) {
        scene_detail::failAt(scene.label, path, g.density > 0 ? formatNumber(g.density) : std::to_string(g.count),
                             std::to_string(count) + " agents of group '" + g.name +
                                 "' cannot be placed at least " + formatNumber(minDistance) +
                                 " m apart in the open spawn area of " + formatNumber(area) + " m^2 (placed " +
                                 std::to_string(placed) + ")",
                             "at most about " + std::to_string(spawnCapacity(scene, grid, group, minDistance)) +
                                 " agents for this area and distance");
    };
    if (g.spawn.empty() || !(area > 0)) cannotFit(0);
    // Lattice, then darts; positions in float.
    Placer placer(grid, g.spawn, grid.spawn_cells[static_cast<std::size_t>(group)], seed, group, minDistance);
    const std::vector<P2> pts = placer.place(count, area);
    if (pts.size() < count) cannotFit(pts.size());
    std::vector<Vec2> out;
    out.reserve(count);
    for (const P2& p : pts) out.push_back({static_cast<float>(p.x), static_cast<float>(p.y)});
    return out;
}

}  // namespace ccrowd
