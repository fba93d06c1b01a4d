#pragma once
/// @file scene_internal.hpp
/// Steps of scene loading shared between the files of src/scene/.

#include <string>

#include "ccrowd/scene.hpp"
#include "json_reader.hpp"
#include "polygon.hpp"

namespace ccrowd::scene_detail {

/// Document -> Scene: keys, types and ranges of every field (scene_parse.cpp).
Scene parseDocument(const json& doc, const std::string& label);

/// "model": {...} -> ModelParams, defaults for absent keys (scene_model.cpp).
ModelParams parseModel(const Node& n);

/// Cross-field checks on a parsed scene: unique names, routes and sources
/// naming existing goals and groups, spawn and source regions inside the
/// domain, densities within rho_limit, agent totals (scene_validate.cpp).
void validateScene(const Scene& scene);

/// Cells along x and y for a domain: ceil(size / cell) (tolerating float
/// rounding of exact multiples).
int cellsAlong(double size, double cell);

/// Grid geometry of a scene's domain.
geom::GridGeom gridGeom(const Scene& scene);

/// Loads floor plan @p k of @p scene and marks cells on dark pixels as
/// blocked (floor_plan.cpp). Throws InputError naming /floor_plans/k/image.
void applyFloorPlan(const Scene& scene, int k, const geom::GridGeom& g, Field<std::uint8_t>& blocked);

/// The sub-cell geometry of @p grid (subcell.cpp): open fractions, face
/// apertures and wall edges from the scene's polygons, floor-plan walls
/// (@p planWalls, [Size: nx*ny]) closing whole cells. Throws InputError
/// naming /walkable and /obstacles when the polygons cannot be combined.
/// @p threads: CPU threads of its loops, as Exec::threads (0 = OpenMP's default).
void rasterizeGeometry(const Scene& scene, const geom::GridGeom& g, const Field<std::uint8_t>& planWalls,
                       SceneGrid& grid, int threads);

/// Grid-level checks (scene_checks.cpp): goals cover open cells, spawn and
/// source regions have open cells and reach their goals, counts fit.
/// Fills grid.group_count.
void checkGrid(const Scene& scene, SceneGrid& grid);

/// Reads at most @p maxBytes of a file (never hangs on /proc or device
/// files that report a size of 0). Throws InputError with the system's
/// reason, or "larger than N bytes" (scene_load.cpp).
std::string readFileLimited(const std::string& path, long long maxBytes);

/// A barrier {"name", "area", "closed"} (parse_events.cpp).
BarrierSpec parseBarrier(const Node& n);

/// One item of "footprints" (parse_footprints.cpp): reads the file and adds
/// its buildings to the obstacles and its entrances as a goal.
void parseFootprints(const Node& n, Scene& s);
/// An event {"time", "action", "target", "value"} whose target is one of
/// @p s's barriers or named discomfort regions (parse them first).
EventSpec parseEvent(const Node& n, const Scene& s);
/// Orders events by time, ties in file order.
void sortEvents(std::vector<EventSpec>& events);

/// An incident {"name", "position", "radius", "start", "offset", "weight",
/// "switch"} whose switch rules name @p s's groups (parse them first)
/// (parse_incidents.cpp).
IncidentSpec parseIncident(const Node& n, const Scene& s);
/// Gives escape groups without a route the domain's border as their goal
/// (a goal "border", or "_border" when that name is taken, added to @p s);
/// with an active region, its border (the goal region_border).
void addBorderGoal(Scene& s);

/// "active_region" {"size", "follow" | "focus", "spawn"} (parse after the
/// groups and incidents): into s.active_region, and its goals
/// (kRegionGoalNames) added to s.goals (parse_active_region.cpp).
void parseActiveRegion(const Node& n, Scene& s);

/// "network" {"junctions", "roads", "frustum", "min_branch", "min_radius"}
/// into s.network (parse_network.cpp).
void parseNetwork(const Node& n, Scene& s);
/// A group's "route_choice" {"mode", "placement"} (parse_network.cpp).
RouteChoiceSpec parseRouteChoice(const Node& n);
/// Gives route-choice groups a goal with no cells (added to @p s): they
/// roam the network, nobody arrives or leaves (parse_network.cpp).
void addNetworkGoal(Scene& s);

/// @p base, or with '_' prefixed until no goal of @p s has the name (for
/// the goals the loader adds; parse_network.cpp).
std::string freeGoalName(const Scene& s, std::string base);

/// "/groups/3" style paths.
inline std::string itemPath(const char* list, std::size_t k) { return std::string("/") + list + "/" + std::to_string(k); }

}  // namespace ccrowd::scene_detail
