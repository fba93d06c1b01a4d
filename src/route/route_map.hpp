#pragma once
/// @file route_map.hpp
/// What route choice (seed 004, Nicosia et al.) precomputes on the host:
/// the street network (given in the scene or derived from its walkable
/// geometry), each junction's viewshed and the affordance weight of each
/// neighbour (the viewshed's area inside the view frustum toward it), and
/// each junction's walking-distance potential over a window of cells
/// around it and its roads.

#include <cstdint>
#include <string>
#include <vector>

#include "ccrowd/field.hpp"
#include "ccrowd/scene.hpp"
#include "route/street_network.hpp"
#include "route/viewshed.hpp"

namespace ccrowd::route {

/// A junction's potential window: cells [i0, i0 + nx) x [j0, j0 + ny).
struct Window {
    int i0 = 0, j0 = 0, nx = 0, ny = 0;
    long long offset = 0;  ///< Of its first cell in RouteMap::phi.
};

/// Times of the precomputation. [Units: ms]
struct RouteMapTimes {
    double network = 0.0, viewsheds = 0.0, potentials = 0.0;
};

/// The precomputed route-choice data of a scene.
struct RouteMap {
    StreetNetwork net;
    std::vector<Viewshed> viewsheds;   ///< Per junction, from its centre.
    std::vector<float> weight;         ///< Per adjacency entry (net.nbr): visible area toward the neighbour. [Units: m^2]
    std::vector<Window> windows;       ///< Per junction.
    std::vector<float> phi;            ///< Every window's walking distance to its junction, rows of nx. [Units: m] (+inf: unreachable)
    RouteMapTimes times;
    int stencil = 4;                   ///< The windows' eikonal stencil (model.potential_stencil): 4 or 8.
};

/// Direction [unit vector] in which junction @p j sees the road of
/// adjacency entry @p q: toward the road's polyline point a little way
/// along it (max(2 radius, 10 m), at most its length), the neighbour's
/// centre for a straight road.
void roadDirection(const StreetNetwork& net, int j, int q, float& dx, float& dy);

/// Builds the network (scene.network's junctions and roads, else derived
/// from @p grid's blocked cells), the viewsheds on grid.walls and the
/// weights (frustum scene.network.frustum), and the potential windows.
/// @p threads CPU threads (0: all). Throws InputError naming "network"
/// on a bad network.
RouteMap buildRouteMap(const Scene& scene, const SceneGrid& grid, int threads);

/// Recomputes the viewsheds and weights of the junctions whose viewshed's
/// bounding box meets a wall edge that is in only one of @p before and
/// grid.walls (seed 004: a change affects only the junctions near it), and
/// the potentials whose window meets one (a solve stays in its window, so
/// the others cannot change). Returns how many of each were redone.
struct RouteMapUpdate {
    int viewsheds = 0, potentials = 0;
};
RouteMapUpdate updateRouteMap(RouteMap& map, const Scene& scene, const SceneGrid& grid, const std::vector<WallSegment>& before,
                   int threads);

/// Seed 004's "improvement": @p count positions near the junctions, each
/// at a junction drawn with probability proportional to its viewshed's
/// area, uniformly within walking distance max(2 radius, 6 m) of its
/// centre, on open cells, at least @p minDistance [m] from the others.
/// Deterministic for @p seed. Throws InputError naming @p where when they
/// cannot fit (64 draws per person).
std::vector<Vec2> placeByViewshed(const RouteMap& map, const SceneGrid& grid, int count, float minDistance,
                                  std::uint64_t seed, const std::string& where);

}  // namespace ccrowd::route
