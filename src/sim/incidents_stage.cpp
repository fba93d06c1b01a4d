/// @file incidents_stage.cpp
/// Incidents: their start, the layers and goal potentials they set, the
/// behaviour switches, and the escape and hide fields' cost (seed 002 §4.3,
/// eqs. 4.7-4.9). See incidents_stage.hpp.

#include "sim/incidents_stage.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "ccrowd/eikonal.hpp"
#include "ccrowd/error.hpp"
#include "kernels/incident.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

bool scaledBehaviour(Behaviour b) { return b == Behaviour::Escape || b == Behaviour::Hide; }

/// A number in [0, 1) drawn from the scene's seed, the incident, the rule
/// and the agent's id (splitmix64): the same on every backend and thread count.
double draw(std::uint64_t seed, int incident, int rule, int id) {
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(incident) * 0xBF58476D1CE4E5B9ULL +
                      static_cast<std::uint64_t>(rule) * 0x94D049BB133111EBULL + static_cast<std::uint64_t>(id) + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
}

/// Per cell, the distance-cost T from the started incidents [s]: eq. 4.7
/// (one incident: offset + C_p x Euclidean distance from its centre) or
/// eq. 4.8 (several: fast marching from their centre cells at the constant
/// cost C_p, each starting at its offset). +inf where no incident reaches.
std::vector<double> incidentDistanceCost(const SimState& s) {
    const ModelParams& mp = s.scene.params;
    const double cp = mp.alpha + mp.beta / mp.v0;  // eq. 4.8: C_p = alpha + beta / (average free speed)
    const GridInfo& g = s.gi;
    std::vector<double> t(static_cast<std::size_t>(g.nx) * g.ny, std::numeric_limits<double>::infinity());
    const std::vector<int>& started = s.incidents.started;
    if (started.size() == 1) {
        const IncidentSpec& in = s.scene.incidents[static_cast<std::size_t>(started[0])];
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i)
                t[static_cast<std::size_t>(g.index(i, j))] =
                    in.offset + cp * std::hypot(g.centreX(i) - in.position.x, g.centreY(j) - in.position.y);
        return t;
    }
    // several: one fast-marching solve from all of them over the open cells
    Field<FaceCost> cost(g.nx, g.ny, FaceCost{static_cast<float>(cp), static_cast<float>(cp), static_cast<float>(cp),
                                              static_cast<float>(cp)});
    EikonalProblem p;
    p.h = g.h;
    p.blocked = &s.grid.blocked;
    p.cost = &cost;
    for (int k : started) {
        const IncidentSpec& in = s.scene.incidents[static_cast<std::size_t>(k)];
        int i, j;
        g.cellOf(in.position.x, in.position.y, i, j);
        i = std::clamp(i, 0, g.nx - 1);
        j = std::clamp(j, 0, g.ny - 1);
        if (!s.grid.blocked(i, j)) p.sources.push_back({i, j, in.offset});
    }
    if (p.sources.empty()) return t;
    Field<float> phi(g.nx, g.ny, INFINITY);
    EikonalOptions opt;
    opt.validate = false;
    opt.stencil = s.scene.params.potential_stencil;
    solveFmm(p, phi, opt);
    for (std::size_t c = 0; c < t.size(); ++c) t[c] = phi.host()[c];
    return t;
}

/// The escape and hide fields' goal potentials from the distance to the
/// incidents (incidentGoalValue): farther goals are lower, so the crowd
/// runs outward rather than through the incident (seed 002 Fig. 4.5).
void setGoalValues(SimState& s) {
    const std::vector<double> t = incidentDistanceCost(s);
    for (int k : s.incidents.scaledFields) {
        std::vector<EikonalSource>& src = s.problems[static_cast<std::size_t>(k)].sources;
        double tMax = 0.0;
        for (const EikonalSource& e : src) {
            const double v = t[static_cast<std::size_t>(s.gi.index(e.i, e.j))];
            if (std::isfinite(v)) tMax = std::max(tMax, v);
        }
        // a goal no incident reaches is as good as the farthest
        for (EikonalSource& e : src) {
            const double v = t[static_cast<std::size_t>(s.gi.index(e.i, e.j))];
            e.value = incidentGoalValue(std::isfinite(v) ? v : tMax, tMax);
        }
    }
}

/// Distance and weight layers from the started incidents, on the backend's side.
void updateLayers(SimState& s) {
    const GridInfo& g = s.gi;
    IncidentLayers& L = s.incidents;
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) {
            // signed distance to the nearest harm region's edge (< 0 inside)
            float best = INFINITY, w = 1.f;
            for (int k : L.started) {
                const IncidentSpec& in = s.scene.incidents[static_cast<std::size_t>(k)];
                const float d = std::hypot(g.centreX(i) - in.position.x, g.centreY(j) - in.position.y) - in.radius;
                if (d < best) { best = d; w = in.weight; }
            }
            L.distance(i, j) = best;
            L.weight(i, j) = w;
        }
    L.distance.toDevice(s.ex);
    L.weight.toDevice(s.ex);
}

/// Incident @p idx's switch rules, in order: agents of `from` within reach
/// join `to` (its first route step) with probability `fraction`.
void switchAgents(SimState& s, int idx) {
    const IncidentSpec& in = s.scene.incidents[static_cast<std::size_t>(idx)];
    auto groupIndex = [&](const std::string& name) {
        for (std::size_t g = 0; g < s.scene.groups.size(); ++g)
            if (s.scene.groups[g].name == name) return static_cast<int>(g);
        return -1;
    };
    for (std::size_t r = 0; r < in.switches.size(); ++r) {
        const SwitchRule& rule = in.switches[r];
        const int from = groupIndex(rule.from), to = groupIndex(rule.to);
        const int toField = s.fields.fieldOf[static_cast<std::size_t>(to)][0];
        const double within2 = static_cast<double>(rule.within) * rule.within;
        const long long moved = s.agents.reassignFields(
            [&](int field, int id, float x, float y) {
                if (s.fields.group[static_cast<std::size_t>(field)] != from) return field;
                const double dx = x - in.position.x, dy = y - in.position.y;
                if (!(dx * dx + dy * dy <= within2)) return field;
                return draw(s.scene.params.seed, idx, static_cast<int>(r), id) < rule.fraction ? toField : field;
            },
            s.splatWs.sort);
        // persons conserved: the groups' counts move with them
        s.groups[static_cast<std::size_t>(from)].remaining -= moved;
        s.groups[static_cast<std::size_t>(from)].switched_out += moved;
        s.groups[static_cast<std::size_t>(to)].remaining += moved;
        s.groups[static_cast<std::size_t>(to)].switched_in += moved;
        s.incidents.switched[static_cast<std::size_t>(idx)] += moved;
    }
}

/// Starts the incidents whose time has come; after an event changed the
/// walls (and so the goals' sources), sets the goal potentials again.
void runIncidents(SimState& s) {
    IncidentLayers& L = s.incidents;
    std::vector<int> now;
    while (L.next < L.order.size() && s.scene.incidents[static_cast<std::size_t>(L.order[L.next])].start <= s.time + 1e-9) {
        const int idx = L.order[L.next++];
        L.started.push_back(idx);
        L.startedAt[static_cast<std::size_t>(idx)] = s.time;
        now.push_back(idx);
    }
    if (!now.empty()) {
        updateLayers(s);
        setGoalValues(s);
        for (int idx : now) switchAgents(s, idx);
        // costs and goals changed outside the crowd: this step's fields on the whole grid, from scratch
        s.environmentChanged = true;
    } else if (s.environmentChanged && !L.started.empty()) {
        setGoalValues(s);
    }
}

/// Eq. 4.9 on the escape and hide fields' cost, when some agent follows one of them.
void runIncidentCost(SimState& s) {
    IncidentLayers& L = s.incidents;
    const std::vector<int>& used = s.agents.fieldsInUse();
    if (std::none_of(L.scaledFields.begin(), L.scaledFields.end(), [&](int k) { return used[static_cast<std::size_t>(k)] != 0; }))
        return;
    incidentCost(s.ex, s.gi, s.cost.view(s.ex), L.distance.view(s.ex), L.weight.view(s.ex), L.cost.view(s.ex));
}

}  // namespace

bool hasIncidents(const Scene& scene) {
    if (!scene.incidents.empty()) return true;
    for (const GroupSpec& g : scene.groups)
        if (g.behaviour != Behaviour::Walk) return true;
    return false;
}

void addIncident(SimState& s, const IncidentSpec& in) {
    if (!hasIncidents(s.scene))
        throw InputError(fieldMessage("incident", "'" + in.name + "'", "the scene has no incidents and no behaviour groups",
                                      "a scene with \"incidents\" or a group whose \"behaviour\" is escape, hide or approach"));
    if (!(in.start >= s.time - 1e-9))
        throw InputError(fieldMessage("incident start", std::to_string(in.start), "before the simulation's time",
                                      ">= " + std::to_string(s.time) + " s"));
    for (const IncidentSpec& other : s.scene.incidents)
        if (other.name == in.name)
            throw InputError(fieldMessage("incident name", "'" + in.name + "'", "taken by another incident", "a new name"));
    // appended to the scene; among those not started, in start order (ties: the order added)
    IncidentLayers& L = s.incidents;
    s.scene.incidents.push_back(in);
    const int idx = static_cast<int>(s.scene.incidents.size()) - 1;
    L.startedAt.push_back(-1.0);
    L.switched.push_back(0);
    auto at = std::upper_bound(L.order.begin() + static_cast<std::ptrdiff_t>(L.next), L.order.end(), in.start,
                               [&](double t, int k) { return t < s.scene.incidents[static_cast<std::size_t>(k)].start; });
    L.order.insert(at, idx);
}

void setupIncidents(SimState& s) {
    IncidentLayers& L = s.incidents;
    const Scene& sc = s.scene;
    // the timeline: by start time, ties in file order
    L.order.resize(sc.incidents.size());
    std::iota(L.order.begin(), L.order.end(), 0);
    std::stable_sort(L.order.begin(), L.order.end(), [&](int a, int b) {
        return sc.incidents[static_cast<std::size_t>(a)].start < sc.incidents[static_cast<std::size_t>(b)].start;
    });
    L.startedAt.assign(sc.incidents.size(), -1.0);
    L.switched.assign(sc.incidents.size(), 0);
    // the layers: no incident yet (S = 1 everywhere)
    L.distance.assign(s.gi.nx, s.gi.ny, INFINITY);
    L.weight.assign(s.gi.nx, s.gi.ny, 1.f);
    L.cost.assign(s.gi.nx, s.gi.ny, FaceCost{});
    L.distance.toDevice(s.ex);
    L.weight.toDevice(s.ex);
    L.cost.toDevice(s.ex);
    setupIncidentFields(s, 0);
}

void setupIncidentFields(SimState& s, int first) {
    if (!hasIncidents(s.scene)) return;
    // the escape and hide fields solve on the incident cost
    for (std::size_t k = static_cast<std::size_t>(first); k < s.problems.size(); ++k) {
        const int g = s.fields.group[k];
        if (!scaledBehaviour(s.scene.groups[static_cast<std::size_t>(g)].behaviour)) continue;
        s.incidents.scaledFields.push_back(static_cast<int>(k));
        s.problems[k].cost = &s.incidents.cost;
    }
}

void incidentsStartedEarly(SimState& s) {
    // the ones not started, in start order again (ties: as they were)
    IncidentLayers& L = s.incidents;
    std::stable_sort(L.order.begin() + static_cast<std::ptrdiff_t>(L.next), L.order.end(), [&](int a, int b) {
        return s.scene.incidents[static_cast<std::size_t>(a)].start < s.scene.incidents[static_cast<std::size_t>(b)].start;
    });
}

Stage incidentsStage() {
    return {"incidents", StagePhase::Fields, {"agents.position", "agents.field", "goals"},
            {"incident_layers", "goals", "agents.field"}, runIncidents};
}

Stage incidentCostStage() {
    return {"incident_cost", StagePhase::Fields, {"cost", "incident_layers"}, {"cost"}, runIncidentCost};
}

}  // namespace ccrowd::sim
