/// @file agent_instances.cpp
#include "viewer/agent_instances.hpp"

#include <algorithm>
#include <cmath>

#include "plot/colormap.hpp"

namespace ccrowd::viewer {

void AgentInstances::clear() {
    records_.clear();
    slotOfId_.clear();
    speed_.clear();
    pressure_.clear();
}

void AgentInstances::update(const Simulation& sim, ColourBy colour) {
    const AgentSnapshot a = sim.agents();
    const int n = a.size();
    std::vector<AgentInstance> next(static_cast<std::size_t>(n));
    speed_.assign(static_cast<std::size_t>(n), 0.f);
    pressure_.assign(static_cast<std::size_t>(n), 0.f);
    const Field<float>& p = sim.pressure();
    const SceneGrid& g = sim.grid();
    int maxId = -1;
    for (int k = 0; k < n; ++k) maxId = std::max(maxId, a.id[k]);
    std::vector<int> slots(static_cast<std::size_t>(maxId + 1), -1);
    for (int k = 0; k < n; ++k) {
        AgentInstance& r = next[k];
        r.x = a.x[k];
        r.y = a.y[k];
        r.radius = a.radius[k];
        const int id = a.id[k];
        const int old = id >= 0 && id < static_cast<int>(slotOfId_.size()) ? slotOfId_[id] : -1;
        const float v = std::hypot(a.vx[k], a.vy[k]);
        if (old >= 0) {
            r.prev_x = records_[old].x;
            r.prev_y = records_[old].y;
            r.heading = records_[old].heading;
        } else {
            r.prev_x = r.x;
            r.prev_y = r.y;
        }
        // keep the old heading while standing (atan2 of noise would spin the marker)
        if (v > 1e-3f) r.heading = std::atan2(a.vy[k], a.vx[k]);
        speed_[k] = a.vmax[k] > 0.f ? v / a.vmax[k] : 0.f;
        int i = 0, j = 0;
        g.cellOf(a.x[k], a.y[k], i, j);
        pressure_[k] = p.size() == static_cast<std::size_t>(g.nx) * g.ny ? p.host()[i + j * g.nx] : 0.f;
        // group colour by default; recolour() below handles the other modes
        const int grp = std::clamp(a.group[k], 0, static_cast<int>(sim.scene().groups.size()) - 1);
        const auto& c = sim.scene().groups[grp].colour;
        r.rgba[0] = c[0];
        r.rgba[1] = c[1];
        r.rgba[2] = c[2];
        r.rgba[3] = 255;
        if (id >= 0) slots[id] = k;
    }
    records_ = std::move(next);
    slotOfId_ = std::move(slots);
    if (colour != ColourBy::Group) recolour(sim, colour);
}

void AgentInstances::recolour(const Simulation& sim, ColourBy colour) {
    if (colour == ColourBy::Group) {
        // group colours come from a fresh update (the records do not keep the group)
        const AgentSnapshot a = sim.agents();
        for (int k = 0; k < count() && k < a.size(); ++k) {
            const int grp = std::clamp(a.group[k], 0, static_cast<int>(sim.scene().groups.size()) - 1);
            const auto& c = sim.scene().groups[grp].colour;
            records_[k].rgba[0] = c[0];
            records_[k].rgba[1] = c[1];
            records_[k].rgba[2] = c[2];
        }
        return;
    }
    // pressure: scale by the largest agent pressure this step
    float pmax = 0.f;
    if (colour == ColourBy::Pressure)
        for (float v : pressure_) pmax = std::max(pmax, v);
    for (int k = 0; k < count(); ++k) {
        const float t = colour == ColourBy::Speed ? speed_[k] : (pmax > 0.f ? pressure_[k] / pmax : 0.f);
        const plot::Rgb c = plot::viridis(t);
        records_[k].rgba[0] = c.r;
        records_[k].rgba[1] = c.g;
        records_[k].rgba[2] = c.b;
    }
}

}  // namespace ccrowd::viewer
