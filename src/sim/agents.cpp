/// @file agents.cpp
#include "sim/agents.hpp"

#include <algorithm>
#include <cmath>

#include "ccrowd/error.hpp"

namespace ccrowd::sim {

int goalIndex(const Scene& scene, int group, int routeStep) {
    const std::string& name = scene.groups[static_cast<std::size_t>(group)].route[static_cast<std::size_t>(routeStep)];
    for (std::size_t k = 0; k < scene.goals.size(); ++k)
        if (scene.goals[k].name == name) return static_cast<int>(k);
    throw InputError("groups[" + std::to_string(group) + "].route[" + std::to_string(routeStep) + "] = '" + name +
                     "': no goal of that name");
}

float drawSpeed(const SpeedDistribution& d, std::mt19937_64& rng) {
    std::normal_distribution<float> normal(d.mean, d.sd > 0.f ? d.sd : 1e-9f);
    return std::min(d.max, std::max(d.min, d.sd > 0.f ? normal(rng) : d.mean));
}

void AgentStore::add(float x, float y, float vmax, int group) {
    x_.vector().push_back(x);
    y_.vector().push_back(y);
    vx_.vector().push_back(0.f);
    vy_.vector().push_back(0.f);
    px_.vector().push_back(0.f);
    py_.vector().push_back(0.f);
    vmax_.vector().push_back(vmax);
    field_.vector().push_back(table_.fieldOf.at(static_cast<std::size_t>(group)).at(0));
    id_.vector().push_back(nextId_++);
    deviceCurrent_ = false;
}

AgentViews AgentStore::views(const Exec& ex) {
    AgentViews v;
    v.n = size();
    // one upload per change of the host copy (a step and the viewer's publish
    // share it); the CPU moves nothing but asks the same (transfer ledger)
    if (!deviceCurrent_ && size() > 0) {
        for (Array<float>* a : {&x_, &y_, &vx_, &vy_, &px_, &py_, &vmax_}) a->toDevice(ex);
        for (Array<int>* a : {&field_, &id_}) a->toDevice(ex);
    }
    deviceCurrent_ = true;
    v.x = x_.view(ex); v.y = y_.view(ex);
    v.vx = vx_.view(ex); v.vy = vy_.view(ex);
    v.px = px_.view(ex); v.py = py_.view(ex);
    v.vmax = vmax_.view(ex);
    v.field = field_.view(ex); v.id = id_.view(ex);
    return v;
}

void AgentStore::download(const Exec& ex) {
    if (size() == 0) return;
    // the splat stores the agents sorted by cell: every array changed (CUDA
    // downloads; the CPU moves nothing but asks the same, for the ledger)
    for (Array<float>* a : {&x_, &y_, &vx_, &vy_, &px_, &py_, &vmax_}) a->toHost(ex);
    for (Array<int>* a : {&field_, &id_}) a->toHost(ex);
    deviceCurrent_ = true;
}

std::vector<int> AgentStore::fieldsInUse(int fieldCount) const {
    std::vector<int> used(static_cast<std::size_t>(fieldCount), 0);
    for (int f : field_.vector()) used[static_cast<std::size_t>(f)] = 1;
    return used;
}

std::vector<ExitEvent> AgentStore::advanceRoutes(const Scene& scene, const SceneGrid& grid,
                                                 const std::vector<Field<std::uint8_t>>& goalMask) {
    std::vector<ExitEvent> left;
    const int n = size();
    int kept = 0;
    bool advanced = false;  // someone moved on to the next route step
    for (int k = 0; k < n; ++k) {
        const int g = table_.group[static_cast<std::size_t>(field_[k])];
        const int step = table_.step[static_cast<std::size_t>(field_[k])];
        const GroupSpec& spec = scene.groups[static_cast<std::size_t>(g)];
        int field = field_[k];
        // inside the current goal: next route step, or leave at a final exit
        int i = 0, j = 0;
        grid.cellOf(x_[k], y_[k], i, j);
        const int goal = table_.routeGoal[static_cast<std::size_t>(g)][static_cast<std::size_t>(step)];
        if (goalMask[static_cast<std::size_t>(goal)](i, j)) {
            if (step + 1 < static_cast<int>(spec.route.size())) {
                field = table_.fieldOf[static_cast<std::size_t>(g)][static_cast<std::size_t>(step + 1)];
                advanced = true;
            } else if (scene.goals[static_cast<std::size_t>(goal)].exit) {
                left.push_back({id_[k], g, x_[k], y_[k]});
                continue;
            }
        }
        // compact in place, keeping order (deterministic)
        x_[kept] = x_[k]; y_[kept] = y_[k]; vx_[kept] = vx_[k]; vy_[kept] = vy_[k];
        px_[kept] = px_[k]; py_[kept] = py_[k]; vmax_[kept] = vmax_[k];
        id_[kept] = id_[k]; field_[kept] = field;
        ++kept;
    }
    // the host copy changed only when someone left or moved on: only then
    // does the device copy need the host's again
    if (kept == n && !advanced) return left;
    for (Array<float>* a : {&x_, &y_, &vx_, &vy_, &px_, &py_, &vmax_}) a->resize(kept);
    for (Array<int>* a : {&field_, &id_}) a->resize(kept);
    deviceCurrent_ = false;
    return left;
}

AgentSnapshot AgentStore::snapshot(const Scene& scene) const {
    AgentSnapshot s;
    s.x = x_.vector(); s.y = y_.vector(); s.vx = vx_.vector(); s.vy = vy_.vector();
    s.vmax = vmax_.vector(); s.id = id_.vector();
    // group, route step and radius from each agent's field
    for (int f : field_.vector()) {
        const int g = table_.group[static_cast<std::size_t>(f)];
        s.group.push_back(g);
        s.route_step.push_back(table_.step[static_cast<std::size_t>(f)]);
        s.radius.push_back(scene.groups[static_cast<std::size_t>(g)].radius);
    }
    return s;
}

std::size_t AgentStore::bytesPerAgent() const { return 7 * sizeof(float) + 2 * sizeof(int); }

}  // namespace ccrowd::sim
