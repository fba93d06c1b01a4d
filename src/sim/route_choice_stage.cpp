/// @file route_choice_stage.cpp
#include "sim/route_choice_stage.hpp"

#include <algorithm>

#include "kernels/route_choice.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

/// Copies @p v into @p a and puts it on @p ex's side.
template <class T>
void put(Array<T>& a, const std::vector<T>& v, const Exec& ex) {
    a.vector() = v;
    a.toDevice(ex);
}

/// The walls changed (events): the map near the change again.
void followWalls(SimState& s) {
    RouteState& r = s.route;
    if (r.wallsVersion == s.wallsVersion) return;
    route::updateRouteMap(*r.map, s.scene, s.grid, r.walls, s.ex.threads);
    r.walls = s.grid.walls;
    r.wallsVersion = s.wallsVersion;
    r.upload(s.ex);
}

}  // namespace

void RouteState::upload(const Exec& ex) {
    const route::RouteMap& m = *map;
    std::vector<float> jx, jy, jr;
    for (const route::Junction& j : m.net.junctions) { jx.push_back(j.x); jy.push_back(j.y); jr.push_back(j.radius); }
    std::vector<int> i0, j0, nx, ny;
    std::vector<long long> off;
    for (const route::Window& w : m.windows) {
        i0.push_back(w.i0); j0.push_back(w.j0); nx.push_back(w.nx); ny.push_back(w.ny); off.push_back(w.offset);
    }
    put(x, jx, ex); put(y, jy, ex); put(radius, jr, ex);
    put(first, m.net.first, ex); put(nbr, m.net.nbr, ex); put(road, m.net.road, ex); put(weight, m.weight, ex);
    put(wi0, i0, ex); put(wj0, j0, ex); put(wnx, nx, ex); put(wny, ny, ex); put(woff, off, ex);
    put(phi, m.phi, ex);
}

RouteNetView RouteState::view(const Exec& ex) {
    RouteNetView v;
    v.junctions = x.size();
    v.x = x.view(ex); v.y = y.view(ex); v.radius = radius.view(ex);
    v.first = first.view(ex); v.nbr = nbr.view(ex); v.road = road.view(ex); v.weight = weight.view(ex);
    v.wi0 = wi0.view(ex); v.wj0 = wj0.view(ex); v.wnx = wnx.view(ex); v.wny = wny.view(ex); v.woff = woff.view(ex);
    v.phi = phi.view(ex);
    return v;
}

void setupRouteState(const Scene& scene, const SceneGrid& grid, const std::vector<int>& fieldGroup, const Exec& ex,
                     RouteState& r) {
    if (!hasRouteChoice(scene)) return;
    // the network, viewsheds, weights and junction potentials (host), then on the backend's side
    r.map = std::make_shared<route::RouteMap>(route::buildRouteMap(scene, grid, ex.threads));
    r.walls = grid.walls;
    r.upload(ex);
    // each field's mode
    std::vector<std::uint8_t> mode;
    for (int g : fieldGroup) {
        const RouteChoiceSpec::Mode m = scene.groups[static_cast<std::size_t>(g)].route_choice.mode;
        mode.push_back(m == RouteChoiceSpec::Mode::Affordance ? kRouteAffordance : m == RouteChoiceSpec::Mode::Random ? kRouteRandom : kRouteFollow);
    }
    put(r.mode, mode, ex);
    // the counts, zero
    put(r.junctionCount, std::vector<unsigned long long>(r.map->net.junctions.size(), 0ull), ex);
    put(r.roadCount, std::vector<unsigned long long>(r.map->net.roads.size(), 0ull), ex);
}

bool hasRouteChoice(const Scene& scene) {
    return std::any_of(scene.groups.begin(), scene.groups.end(), [](const GroupSpec& g) { return g.route_choice.enabled(); });
}

Stage routeChoiceStage() {
    auto run = [](SimState& s) {
        followWalls(s);
        RouteChoiceKernel k;
        k.a = s.agents.views();
        k.g = s.gi;
        k.net = s.route.view(s.ex);
        k.mode = s.route.mode.view(s.ex);
        k.walk = s.walkingSpeed();
        k.v0 = s.scene.params.v0;
        k.junctionCount = s.route.junctionCount.view(s.ex);
        k.roadCount = s.route.roadCount.view(s.ex);
        k.seed = static_cast<uint32_t>(s.scene.params.seed ^ (s.scene.params.seed >> 32));
        k.step = s.steps;
        routeChoice(s.ex, k);
        s.agents.changed();
    };
    return {"route_choice",
            StagePhase::Fields,
            {"agents.position", "agents.field", "agents.vmax", "speed", "perceived_density", "perceived_velocity", "walls",
             "agents.preferred"},
            {"agents.preferred", "agents.route"},
            run};
}

}  // namespace ccrowd::sim
