/// @file social_units.cpp
#include "sim/social_units.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ccrowd::sim {

namespace {

/// Positions hashed by cells of the minimum distance: is a point clear of all others but some?
class PointHash {
public:
    PointHash(float cell) : cell_(cell) {}
    void add(float x, float y, int owner) { at(key(x, y)).push_back({x, y, owner}); }
    void remove(int owner, float x, float y) {
        std::vector<Point>& v = at(key(x, y));
        v.erase(std::remove_if(v.begin(), v.end(), [&](const Point& p) { return p.owner == owner && p.x == x && p.y == y; }), v.end());
    }
    /// True when no point other than @p owner's lies within the cell size of (x, y).
    bool clear(float x, float y, int owner) const {
        const long long ci = cellIndex(x), cj = cellIndex(y);
        for (long long dj = -1; dj <= 1; ++dj)
            for (long long di = -1; di <= 1; ++di) {
                const auto it = map_.find(pack(ci + di, cj + dj));
                if (it == map_.end()) continue;
                for (const Point& p : it->second)
                    if (p.owner != owner && (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y) < cell_ * cell_) return false;
            }
        return true;
    }

private:
    struct Point { float x, y; int owner; };
    long long cellIndex(float v) const { return static_cast<long long>(std::floor(v / cell_)); }
    static long long pack(long long i, long long j) { return i * 4000037LL + j; }
    long long key(float x, float y) const { return pack(cellIndex(x), cellIndex(y)); }
    std::vector<Point>& at(long long k) { return map_[k]; }
    float cell_;
    std::unordered_map<long long, std::vector<Point>> map_;
};

}  // namespace

void formUnits(const Scene& scene, const SceneGrid& grid, int g, float minDistance, std::mt19937_64& rng,
               std::vector<NewAgent>& placed, SocialUnits& units) {
    const GroupSpec& spec = scene.groups[static_cast<std::size_t>(g)];
    const std::vector<float>& share = spec.social.sizes;
    // the group's agents in rows of 2 m, west to east (neighbours in space next to each other)
    std::vector<int> order;
    for (int k = 0; k < static_cast<int>(placed.size()); ++k)
        if (placed[static_cast<std::size_t>(k)].group == g) order.push_back(k);
    auto row = [&](int k) { return std::floor(placed[static_cast<std::size_t>(k)].y / 2.f); };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const float ra = row(a), rb = row(b);
        if (ra != rb) return ra < rb;
        // serpentine: alternate rows run east and west, so a row's end and the next row's start are close
        const bool east = static_cast<long long>(ra) % 2 == 0;
        return east ? placed[static_cast<std::size_t>(a)].x < placed[static_cast<std::size_t>(b)].x
                    : placed[static_cast<std::size_t>(a)].x > placed[static_cast<std::size_t>(b)].x;
    });
    // unit sizes: k with probability share_k / k, the last one cut to the persons left
    std::vector<double> weight;
    for (std::size_t k = 0; k < share.size(); ++k) weight.push_back(share[k] / static_cast<double>(k + 1));
    std::discrete_distribution<int> draw(weight.begin(), weight.end());
    PointHash hash(minDistance);
    for (int k : order) hash.add(placed[static_cast<std::size_t>(k)].x, placed[static_cast<std::size_t>(k)].y, k);
    std::uniform_real_distribution<float> turn(0.f, 6.2831853f);
    for (std::size_t at = 0; at < order.size();) {
        const int size = std::min<int>(draw(rng) + 1, static_cast<int>(order.size() - at));
        const int u = units.count++;
        units.group.push_back(g);
        units.size.push_back(size);
        units.spread.vector().push_back(spec.social.spread);
        units.cohesion.vector().push_back(spec.social.cohesion);
        std::vector<int> members(order.begin() + static_cast<std::ptrdiff_t>(at), order.begin() + static_cast<std::ptrdiff_t>(at + size));
        at += static_cast<std::size_t>(size);
        for (int k : members) placed[static_cast<std::size_t>(k)].unit = u;
        if (size < 2 || spec.social.spacing < minDistance) continue;
        // seed 000's starting circle around the first member's place, neighbours `spacing` apart
        const float r = spec.social.spacing / (2.f * std::sin(3.14159265f / static_cast<float>(size)));
        const float cx = placed[static_cast<std::size_t>(members[0])].x, cy = placed[static_cast<std::size_t>(members[0])].y;
        const float a0 = turn(rng);
        std::vector<Vec2> circle;
        bool fits = true;
        for (int m = 0; m < size && fits; ++m) {
            const float a = a0 + 6.2831853f * static_cast<float>(m) / static_cast<float>(size);
            const Vec2 p{cx + r * std::cos(a), cy + r * std::sin(a)};
            int i = 0, j = 0;
            grid.cellOf(p.x, p.y, i, j);
            const bool inside = p.x >= grid.origin.x && p.y >= grid.origin.y && p.x < grid.origin.x + grid.nx * grid.h &&
                                p.y < grid.origin.y + grid.ny * grid.h;
            bool clear = inside && !grid.blocked(i, j);
            // clear of everyone but this unit's own places
            if (clear) {
                for (int k : members) hash.remove(k, placed[static_cast<std::size_t>(k)].x, placed[static_cast<std::size_t>(k)].y);
                clear = hash.clear(p.x, p.y, -1);
                for (int k : members) hash.add(placed[static_cast<std::size_t>(k)].x, placed[static_cast<std::size_t>(k)].y, k);
            }
            fits = clear;
            circle.push_back(p);
        }
        if (!fits) continue;  // no room for the circle here: they start where they were placed, side by side
        for (int m = 0; m < size; ++m) {
            NewAgent& a = placed[static_cast<std::size_t>(members[static_cast<std::size_t>(m)])];
            hash.remove(members[static_cast<std::size_t>(m)], a.x, a.y);
            a.x = circle[static_cast<std::size_t>(m)].x;
            a.y = circle[static_cast<std::size_t>(m)].y;
            hash.add(a.x, a.y, -2 - u);
        }
    }
}

}  // namespace ccrowd::sim
