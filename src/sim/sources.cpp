/// @file sources.cpp
#include "sim/sources.hpp"

#include <algorithm>
#include <cmath>


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
    : scene_(&scene), grid_(&grid), state_(scene.sources.size()), rng_(scene.params.seed ^ 0x5eed5eedULL),
      waitRng_(scene.params.seed + kPremovementStream) {
    // open cells whose centre lies in each source's region
    for (std::size_t s = 0; s < scene.sources.size(); ++s)
        for (int j = 0; j < grid.ny; ++j)
            for (int i = 0; i < grid.nx; ++i)
                if (!grid.blocked(i, j) &&
                    inside(scene.sources[s].region, grid.origin.x + (i + 0.5f) * grid.h, grid.origin.y + (j + 0.5f) * grid.h))
                    state_[s].cells.push_back(i + j * grid.nx);
    // bounding box of each source's cells (a candidate lies in one of them)
    for (State& st : state_) {
        if (st.cells.empty()) continue;
        int i0 = grid.nx, j0 = grid.ny, i1 = -1, j1 = -1;
        for (int c : st.cells) {
            i0 = std::min(i0, c % grid.nx); i1 = std::max(i1, c % grid.nx);
            j0 = std::min(j0, c / grid.nx); j1 = std::max(j1, c / grid.nx);
        }
        st.x0 = grid.origin.x + i0 * grid.h; st.x1 = grid.origin.x + (i1 + 1) * grid.h;
        st.y0 = grid.origin.y + j0 * grid.h; st.y1 = grid.origin.y + (j1 + 1) * grid.h;
    }
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

std::vector<NewAgent> SourceSpawner::spawn(double t, double dt, const NearbyAgents& nearby, float dMin) {
    std::vector<NewAgent> out;
    if (!scene_ || state_.empty()) return out;
    const float d2 = dMin * dMin;
    // births owed for the part of (t - dt, t] inside [start, end); the box
    // (grown by dMin) of the sources that will try to place one
    float bx0 = INFINITY, by0 = INFINITY, bx1 = -INFINITY, by1 = -INFINITY;
    for (std::size_t s = 0; s < state_.size(); ++s) {
        const SourceSpec& src = scene_->sources[s];
        State& st = state_[s];
        if (st.cells.empty()) continue;
        const double a = std::max(t - dt, static_cast<double>(src.start)), b = std::min(t, static_cast<double>(src.end));
        if (b > a) st.owed += src.rate * (b - a);
        if (st.owed < 1.0 || (src.max_agents >= 0 && st.born >= src.max_agents)) continue;
        bx0 = std::min(bx0, st.x0 - dMin); by0 = std::min(by0, st.y0 - dMin);
        bx1 = std::max(bx1, st.x1 + dMin); by1 = std::max(by1, st.y1 + dMin);  // (+ dMin: no agent closer is left out)
    }
    if (!(bx0 < bx1)) return out;
    // the agents there: every other agent is farther than dMin from any candidate
    std::vector<float> ax, ay;
    nearby(bx0, by0, bx1, by1, ax, ay);
    auto freeAt = [&](float x, float y) {
        for (std::size_t k = 0; k < ax.size(); ++k) {
            const float dx = ax[k] - x, dy = ay[k] - y;
            if (dx * dx + dy * dy < d2) return false;
        }
        for (const NewAgent& e : out)
            if ((e.x - x) * (e.x - x) + (e.y - y) * (e.y - y) < d2) return false;
        return true;
    };
    for (std::size_t s = 0; s < state_.size(); ++s) {
        const SourceSpec& src = scene_->sources[s];
        State& st = state_[s];
        if (st.cells.empty()) continue;
        std::uniform_int_distribution<std::size_t> cell(0, st.cells.size() - 1);
        std::uniform_real_distribution<float> unit(0.f, 1.f);
        while (st.owed >= 1.0 && (src.max_agents < 0 || st.born < src.max_agents)) {
            // up to 20 random places in the region; wait for the next step if none is free
            bool placed = false;
            for (int attempt = 0; attempt < 20 && !placed; ++attempt) {
                const int c = st.cells[cell(rng_)];
                if (grid_->blocked.host()[c]) continue;  // closed by an event (a barrier over the source)
                const float x = grid_->origin.x + (c % grid_->nx + unit(rng_)) * grid_->h;
                const float y = grid_->origin.y + (c / grid_->nx + unit(rng_)) * grid_->h;
                if (!inside(src.region, x, y) || !freeAt(x, y)) continue;
                const int g = [&] {
                    for (std::size_t k = 0; k < scene_->groups.size(); ++k)
                        if (scene_->groups[k].name == src.group) return static_cast<int>(k);
                    return 0;
                }();
                const GroupSpec& spec = scene_->groups[static_cast<std::size_t>(g)];
                out.push_back({x, y, drawSpeed(spec.speed, rng_), g});
                // pre-movement from the birth, on a stream of its own
                if (spec.premovement.enabled()) out.back().start = static_cast<float>(t) + drawPremovement(spec.premovement, waitRng_);
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
