/// @file sim_state.cpp
/// The simulation state's set-up: the grid layers, one potential field per
/// (group, route step), the agent table with the groups' initial agents.

#include "sim/sim_state.hpp"

#include "kernels/social.hpp"
#include "kernels/walking_speed.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "ccrowd/placement.hpp"
#include "sim/premovement_stage.hpp"

namespace ccrowd::sim {

namespace {

/// One potential field per (group, route step): goals change along a
/// route; a group's set_route events in the file add its other routes' fields.
FieldTable setupFieldTable(const Scene& scene) {
    FieldTable fields;
    for (std::size_t g = 0; g < scene.groups.size(); ++g)
        fields.addRoute(static_cast<int>(g), routeGoals(scene, scene.groups[g].route, "groups[" + std::to_string(g) + "].route"));
    // each route a set_route event will give, then each group's route of now again
    for (std::size_t k = 0; k < scene.events.size(); ++k) {
        const EventSpec& e = scene.events[k];
        if (e.action != EventAction::SetRoute) continue;
        const auto group = std::find_if(scene.groups.begin(), scene.groups.end(), [&](const GroupSpec& x) { return x.name == e.target; });
        if (group == scene.groups.end()) continue;  // (parseEvent checked it)
        fields.addRoute(static_cast<int>(group - scene.groups.begin()), routeGoals(scene, e.route, "events[" + std::to_string(k) + "].route"));
    }
    for (std::size_t g = 0; g < scene.groups.size(); ++g)
        fields.addRoute(static_cast<int>(g), routeGoals(scene, scene.groups[g].route, "groups[" + std::to_string(g) + "].route"));
    return fields;
}

}  // namespace

void setGoalSources(const Scene& scene, const SceneGrid& grid, int goal, EikonalProblem& prob) {
    // the goal's cells are the eikonal sources, at its potential (Treuille 2006 eq. 5)
    const float value = scene.goals[static_cast<std::size_t>(goal)].potential;
    prob.sources.clear();
    for (int c : grid.goal_cells[static_cast<std::size_t>(goal)]) prob.sources.push_back({c % grid.nx, c / grid.nx, value});
}

SimState::SimState(Scene s, const Exec& e) : scene(std::move(s)), ex(e), solver(e) {
    grid = rasterizeScene(scene, ex.threads);
    gi = grid.info();
    groups.resize(scene.groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) groups[g].name = scene.groups[g].name;
    // grid fields, zeroed, and the static layers: on the backend's side from now on (CUDA: uploaded)
    const int nx = grid.nx, ny = grid.ny;
    density.assign(nx, ny, 0.f);
    pressure.assign(nx, ny, 0.f);
    perceivedDensity.assign(nx, ny, 0.f);
    meanVelocity.assign(nx, ny, Vel2{});
    perceivedVelocity.assign(nx, ny, Vel2{});
    speed.assign(nx, ny, Face4{});
    cost.assign(nx, ny, FaceCost{});
    fieldsRead.assign(nx, ny, 0u);
    uploadEnvironment();
    for (Field<float>* f : {&density, &pressure, &perceivedDensity}) f->toDevice(ex);
    for (Field<Vel2>* f : {&meanVelocity, &perceivedVelocity}) f->toDevice(ex);
    speed.toDevice(ex); cost.toDevice(ex); fieldsRead.toDevice(ex);
    // one potential and desired velocity per (group, route step)
    fields = setupFieldTable(scene);
    addFields();
    // roaming groups: the street network, viewsheds and junction potentials (seed 004)
    setupRouteState(scene, grid, fields.group, ex, route);
    // the agent table with each group's initial agents, free speeds drawn per group
    agents = AgentStore(fields, scene, grid, ex);
    std::vector<NewAgent> placed;
    const float dMin = scene.params.d_min;
    for (std::size_t g = 0; g < scene.groups.size(); ++g) {
        const GroupSpec& spec = scene.groups[g];
        const float spacing = std::max(dMin, placementDistance(scene, static_cast<int>(g)));
        // roaming groups may start near the junctions, by their viewsheds' areas (seed 004)
        const std::vector<Vec2> pos =
            spec.route_choice.place_by_viewshed
                ? route::placeByViewshed(*route.map, grid, grid.group_count[g], spacing, scene.params.seed + g,
                                         scene.label + ": /groups/" + std::to_string(g) + (spec.density > 0 ? "/density" : "/count"))
                : placeAgents(scene, grid, static_cast<int>(g), scene.params.seed, spacing);
        std::mt19937_64 rng(scene.params.seed * 1000003ULL + g);
        const std::size_t first = placed.size();
        for (const Vec2& p : pos) placed.push_back({p.x, p.y, drawSpeed(spec.speed, rng), static_cast<int>(g)});
        // pre-movement: each start time from a stream of its own (the other draws stay as they were)
        if (spec.premovement.enabled()) {
            std::mt19937_64 wait(scene.params.seed * 1000003ULL + g + kPremovementStream);
            for (std::size_t k = first; k < placed.size(); ++k) {
                placed[k].start = drawPremovement(spec.premovement, wait);
                recordPremovement(groups[g], placed[k].start);
            }
        }
        groups[g].spawned += static_cast<long long>(pos.size());
        groups[g].remaining += static_cast<long long>(pos.size());
        // social units: who walks with whom, starting in a circle (seed 000)
        if (spec.social.enabled()) {
            const int before = social.count;
            formUnits(scene, grid, static_cast<int>(g), std::max(dMin, placementDistance(scene, static_cast<int>(g))), rng, placed, social);
            groups[g].units = social.count - before;
        }
    }
    if (social.count > 0) {
        social.spread.toDevice(ex);
        social.cohesion.toDevice(ex);
        social.sums.vector().assign(static_cast<std::size_t>(kUnitSums) * static_cast<std::size_t>(social.count), 0ull);
        social.sums.toDevice(ex);
        social.waitStart.assign(static_cast<std::size_t>(social.count), -1.0);
        social.sums_.resize(scene.groups.size());
        agents.setUnits(social.count);
    }
    if (hasPremovement(scene)) agents.setPremovement();
    agents.append(placed);
    agents.recordFields(splatWs.sort);
    spawner = SourceSpawner(scene, grid);
    // the active region: the whole grid until its stage places it; its goals and spawners
    region.cells = {0, 0, grid.nx, grid.ny};
    if (scene.active_region.enabled()) {
        for (int g = 0; g < 5; ++g) region.goals[g] = goalIndex(scene, kRegionGoalNames[g], "the active region");
        region.owed.assign(scene.active_region.spawn.size(), 0.0);
        region.rng.seed(scene.params.seed ^ 0xac71e5e6ULL);
    }
}

void SimState::addFields() {
    for (int k = static_cast<int>(problems.size()); k < fields.size(); ++k) {
        // the goal's cells as sources, on the unit cost
        EikonalProblem prob;
        prob.h = grid.h;
        prob.blocked = &grid.blocked;
        prob.cost = &cost;
        setGoalSources(scene, grid, fields.goal[static_cast<std::size_t>(k)], prob);
        problems.push_back(std::move(prob));
        // +inf on both sides until solved: a field nobody follows yet is read
        // too (readers, StateView), and a device copy is never left unwritten
        potential.emplace_back(grid.nx, grid.ny, INFINITY);
        potential.back().toDevice(ex);
        desired.emplace_back(grid.nx, grid.ny, Vel2{});
        desired.back().toDevice(ex);
    }
}

void SimState::uploadEnvironment() {
    grid.blocked.toDevice(ex); grid.terrain.toDevice(ex); grid.discomfort.toDevice(ex);
    grid.open_fraction.toDevice(ex); grid.aperture_x.toDevice(ex); grid.aperture_y.toDevice(ex);
    grid.closed_faces.toDevice(ex);
    // the wall edges near each cell, for bodies of the largest radius (walls.hpp)
    buildWallIndex(ex, grid.walls, gi, largestBodyRadius(scene) + grid.h, walls);
}

SpeedParams SimState::speedParams() const {
    const ModelParams& mp = scene.params;
    // Treuille 2006 eq. 10 with the flow's direction, read half a perception radius ahead (kernels/speed.hpp)
    SpeedParams sp;
    sp.rho_min = mp.rho_min;
    sp.rho_max = mp.rho_max;
    sp.v0 = mp.v0;
    sp.rho_jam = mp.rho_jam;
    sp.gamma_fd = mp.gamma_fd;
    sp.ahead = aheadCells(mp.perception_radius, grid.h);
    return sp;
}

WalkingSpeed SimState::walkingSpeed() {
    return WalkingSpeed{gi, speedParams(), speed.view(ex), perceivedDensity.view(ex), perceivedVelocity.view(ex),
                        grid.terrain.view(ex), grid.blocked.view(ex), grid.closed_faces.view(ex)};
}

}  // namespace ccrowd::sim
