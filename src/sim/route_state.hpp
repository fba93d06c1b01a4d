#pragma once
/// @file route_state.hpp
/// Route choice's state (seed 004; the route_choice stage,
/// route_choice_stage.hpp): the precomputed street network, viewsheds and
/// junction potentials (route/route_map.hpp), their copies on the
/// backend's side, each field's mode, and the traffic counts.

#include <cstdint>
#include <memory>
#include <vector>

#include "ccrowd/field.hpp"
#include "ccrowd/scene.hpp"
#include "kernels/route_choice.hpp"
#include "route/route_map.hpp"

namespace ccrowd::sim {

/// Route choice in a scene with roaming groups (map null otherwise).
struct RouteState {
    std::shared_ptr<route::RouteMap> map;   ///< Null: no group roams.
    std::vector<WallSegment> walls;         ///< The wall edges the map was computed on.
    int wallsVersion = 0;                   ///< SimState::wallsVersion the map is for.
    Array<std::uint8_t> mode;               ///< Per field: RouteMode.
    Array<unsigned long long> junctionCount, roadCount;  ///< Arrivals, cumulative (kernels/route_choice.hpp).
    // the map's arrays on the backend's side
    Array<float> x, y, radius, weight, phi;
    Array<int> first, nbr, road, wi0, wj0, wnx, wny;
    Array<long long> woff;

    bool enabled() const { return map != nullptr; }
    /// True when field @p f's members roam (its potential is never solved).
    bool roams(int f) const { return enabled() && f < mode.size() && mode.vector()[static_cast<std::size_t>(f)] != kRouteFollow; }
    /// True when every field's members roam: no potential is solved, so
    /// no unit cost is needed.
    bool allRoam() const {
        if (!enabled()) return false;
        for (std::uint8_t m : mode.vector())
            if (m == kRouteFollow) return false;
        return true;
    }
    /// Puts the map's arrays on @p ex's side (after building or updating it).
    void upload(const Exec& ex);
    /// The network's views on @p ex's side.
    RouteNetView view(const Exec& ex);
};

/// Builds @p r for @p scene (nothing when no group roams): the map, the
/// per-field modes for @p fieldGroup (field -> group), zeroed counts.
void setupRouteState(const Scene& scene, const SceneGrid& grid, const std::vector<int>& fieldGroup, const Exec& ex,
                     RouteState& r);

}  // namespace ccrowd::sim
