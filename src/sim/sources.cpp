/// @file sources.cpp
#include "sim/sources.hpp"

#include <algorithm>
#include <cmath>

#include "sim/agents.hpp"

namespace ccrowd::sim {

namespace {

/// Even-odd point-in-polygon test.
bool inside(const Polygon& poly, float x, float y) {
    bool in = false;
    for (std::size_t a = 0, b = poly.size() - 1; a < poly.size(); b = a++) {
        const Vec2 &p = poly[a], &q = poly[b];
        if ((p.y > y) != (q.y > y) && x < (q.x - p.x) * (y - p.y) / (q.y - p.y) + p.x) in = !in;
    }
    return in;
}

}  // namespace

SourceSpawner::SourceSpawner(const Scene& scene, const SceneGrid& grid)
    : scene_(&scene), grid_(&grid), state_(scene.sources.size()), rng_(scene.params.seed ^ 0x5eed5eedULL) {
    // open cells whose centre lies in each source's region
    for (std::size_t s = 0; s < scene.sources.size(); ++s)
        for (int j = 0; j < grid.ny; ++j)
            for (int i = 0; i < grid.nx; ++i)
                if (!grid.blocked(i, j) &&
                    inside(scene.sources[s].region, grid.origin.x + (i + 0.5f) * grid.h, grid.origin.y + (j + 0.5f) * grid.h))
                    state_[s].cells.push_back(i + j * grid.nx);
}

bool SourceSpawner::pending(double t) const {
    if (!scene_) return false;
    for (std::size_t s = 0; s < state_.size(); ++s) {
        const SourceSpec& src = scene_->sources[s];
        const bool capped = src.max_agents >= 0 && state_[s].born >= src.max_agents;
        if (!capped && !state_[s].cells.empty() && (t < src.end || state_[s].owed >= 1.0)) return true;
    }
    return false;
}

std::vector<SpawnEvent> SourceSpawner::spawn(double t, double dt, const AgentStore& agents, float dMin) {
    std::vector<SpawnEvent> out;
    if (!scene_ || state_.empty()) return out;
    const float d2 = dMin * dMin;
    // agents near a candidate: brute force over the store, fine for source rates
    auto freeAt = [&](float x, float y) {
        const std::vector<float>& ax = agents.xs();
        const std::vector<float>& ay = agents.ys();
        for (std::size_t k = 0; k < ax.size(); ++k) {
            const float dx = ax[k] - x, dy = ay[k] - y;
            if (dx * dx + dy * dy < d2) return false;
        }
        for (const SpawnEvent& e : out)
            if ((e.x - x) * (e.x - x) + (e.y - y) * (e.y - y) < d2) return false;
        return true;
    };
    for (std::size_t s = 0; s < state_.size(); ++s) {
        const SourceSpec& src = scene_->sources[s];
        State& st = state_[s];
        if (st.cells.empty()) continue;
        // births owed for the part of (t - dt, t] inside [start, end)
        const double a = std::max(t - dt, static_cast<double>(src.start)), b = std::min(t, static_cast<double>(src.end));
        if (b > a) st.owed += src.rate * (b - a);
        std::uniform_int_distribution<std::size_t> cell(0, st.cells.size() - 1);
        std::uniform_real_distribution<float> unit(0.f, 1.f);
        while (st.owed >= 1.0 && (src.max_agents < 0 || st.born < src.max_agents)) {
            // up to 20 random places in the region; wait for the next step if none is free
            bool placed = false;
            for (int attempt = 0; attempt < 20 && !placed; ++attempt) {
                const int c = st.cells[cell(rng_)];
                const float x = grid_->origin.x + (c % grid_->nx + unit(rng_)) * grid_->h;
                const float y = grid_->origin.y + (c / grid_->nx + unit(rng_)) * grid_->h;
                if (!inside(src.region, x, y) || !freeAt(x, y)) continue;
                const int g = [&] {
                    for (std::size_t k = 0; k < scene_->groups.size(); ++k)
                        if (scene_->groups[k].name == src.group) return static_cast<int>(k);
                    return 0;
                }();
                out.push_back({x, y, drawSpeed(scene_->groups[static_cast<std::size_t>(g)].speed, rng_), g});
                placed = true;
            }
            if (!placed) break;
            st.owed -= 1.0;
            ++st.born;
        }
    }
    return out;
}

}  // namespace ccrowd::sim
