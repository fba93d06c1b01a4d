#pragma once
/// @file scene.hpp
/// Scene files: JSON (format documented in scenes/README.md, schema in
/// scenes/scene.schema.json), parsed with nlohmann-json into a Scene, then
/// rasterised into a SceneGrid. Every loading error is an InputError naming
/// the file, the JSON path (RFC 6901, e.g. /groups/2/speed/mean), what was
/// wrong and what is allowed; a bad scene never starts a run.
///
/// Coordinates: metres, x to the east, y to the north; the domain is the
/// rectangle [origin.x, origin.x + width] x [origin.y, origin.y + height],
/// cut into square cells of size `cell`.
///
/// Typical use:
/// @code
///   Scene scene = loadScene(path);          // syntax, types, ranges, names
///   SceneGrid grid = rasterizeScene(scene); // cells, goals, reachability, capacity
///   for (int g = 0; g < (int)scene.groups.size(); ++g)
///       auto xy = placeAgents(scene, grid, g, scene.params.seed, placementDistance(scene, g));
/// @endcode

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ccrowd/field.hpp"
#include "ccrowd/grid_info.hpp"
#include "ccrowd/wall_segment.hpp"

namespace ccrowd {

/// Scene format version this build reads ("version" in the file).
constexpr int kSceneFormatVersion = 1;
/// Value of "format" in every scene file.
constexpr const char* kSceneFormatName = "ccrowd-scene";

/// Limits that keep any input, even a fuzzed one, bounded in time and memory.
namespace scene_limits {
constexpr int kMaxCellsPerAxis = 4096;         ///< nx, ny <= this (so <= 16.8 M cells).
constexpr long long kMaxAgents = 10'000'000;   ///< Sum of all groups' initial agents; a source's max_agents.
constexpr int kMaxPolygonVertices = 4096;      ///< Vertices of one polygon.
constexpr double kMaxCoordinate = 1e6;         ///< |x|, |y| of every point. [Units: m]
constexpr double kMinPolygonArea = 1e-6;       ///< Smaller |area| is "zero area". [Units: m^2]
constexpr int kMaxNesting = 32;                ///< JSON nesting depth.
constexpr long long kMaxFileBytes = 64ll << 20;  ///< Scene file size. [Units: bytes]
constexpr long long kMaxImagePixels = 1ll << 26; ///< Floor-plan image width*height.
}  // namespace scene_limits

/// A point or vector. [Units: m]
struct Vec2 {
    float x = 0.f, y = 0.f;
};

/// A simple polygon (no self-intersection), >= 3 vertices, either
/// orientation, implicitly closed. [Units: m]
using Polygon = std::vector<Vec2>;

/// Free-speed distribution of a group: normal(mean, sd) clamped to [min, max].
struct SpeedDistribution {
    float mean = 1.34f;  ///< [Units: m/s] [Limit: > 0, <= 10, within [min, max]]
    float sd = 0.26f;    ///< [Units: m/s] [Limit: >= 0, <= 5]
    float min = 0.5f;    ///< [Units: m/s] [Limit: > 0, <= max]
    float max = 2.0f;    ///< [Units: m/s] [Limit: >= min, <= 10]
};

/// Pre-movement time of a group's agents: how long each stands after it
/// appears (t = 0 for the initial agents, its birth for a source's) before
/// it starts walking. Evacuation guidelines split the time to leave into
/// pre-movement and movement (ISO/TR 16738, RiMEA test 5; SFPE Handbook
/// ch. 58); the pre-movement times of a population are spread, often
/// log-normally (Purser and Bensilum 2001).
struct PremovementDistribution {
    /// How the times are drawn: Fixed (every agent exactly mean), Uniform
    /// on [min, max], Normal(mean, sd) or log-normal with this mean and sd
    /// (of the times, not of their logarithm), the last two clamped to
    /// [min, max].
    enum class Kind { Fixed, Uniform, Normal, Lognormal };
    Kind kind = Kind::Fixed;
    float mean = 0.f;    ///< [Units: s] [Limit: >= 0, <= 1e5; > 0 for Lognormal; within [min, max]]
    float sd = 0.f;      ///< [Units: s] [Limit: >= 0, <= 1e5]
    float min = 0.f;     ///< [Units: s] [Limit: >= 0, <= max]
    float max = 1e5f;    ///< [Units: s] [Limit: >= min, <= 1e5]
    /// True unless every agent starts at once (fixed 0 s).
    bool enabled() const { return !(kind == Kind::Fixed && mean == 0.f); }
};

/// A named goal: one or more polygons. Goal cells are eikonal sources.
struct GoalSpec {
    std::string name;               ///< Unique among goals. [Limit: non-empty]
    std::vector<Polygon> areas;     ///< [Limit: >= 1 polygon]
    float potential = 0.f;          ///< Initial potential of its cells (cost units). [Limit: finite, >= 0, <= 1e6]
    bool exit = true;               ///< Agents whose route ends here leave the simulation on reaching it (else they stay); earlier in a route it is a waypoint either way.
    std::vector<bool> disabled;     ///< Per area: true while a disable_goal event has switched it off (its cells are no sources, nobody leaves there). Empty: all enabled.
};

/// How a group reacts to incidents (seed 002 §4.3, the behaviour groups).
enum class Behaviour {
    Walk,      ///< Follows its route; no incident changes its costs or goals.
    Escape,    ///< Runs from the incidents: goal potentials from the distance to them (eq. 4.7/4.8), costs toward them scaled up (eq. 4.9). Without a route its goal is the domain's open border.
    Hide,      ///< Heads for its route's goals (building entrances), potentials and costs as escape.
    Approach,  ///< Heads for its route's goal (at the incident: onlookers stop, responders go in); costs not scaled.
};

/// Small social groups inside a group of agents (seed 000; Moussaïd et al.
/// 2010): its agents walk in units of 1, 2, 3, ... members that start in a
/// circle, keep together and pass every waypoint whole.
struct SocialSpec {
    /// Share of the group's persons walking in units of 1, 2, 3, ...
    /// members (e.g. 0.6, 0.25, 0.1, 0.05). Empty: everyone alone.
    /// [Limit: 1..16 shares, each 0..1, summing to 1]
    std::vector<float> sizes;
    float spacing = 0.8f;    ///< Distance between neighbours on the starting circle. [Units: m] [Limit: > 0, <= 10]
    float spread = 0.8f;     ///< Distance from the unit's centroid a member keeps in free walking; x max(1, rho / 1 m^-2) at perceived density rho. [Units: m] [Limit: > 0, <= 20]
    float cohesion = 2.f;    ///< Pull toward the centroid per metre beyond the spread. [Units: 1/s] [Limit: >= 0, <= 100]
    bool enabled() const { return !sizes.empty(); }
};

/// How a group's members choose their streets (seed 004, Nicosia et al.,
/// "Automatic High Level Avatar Guidance Based on Affordance of Movement"):
/// they roam the scene's street network (Scene::network), deciding at each
/// junction which neighbour junction to walk to next, never back the way
/// they came unless it is a dead end.
struct RouteChoiceSpec {
    enum class Mode {
        None,        ///< The group follows its route.
        Affordance,  ///< Next junction with probability proportional to the walkable area visible toward it (its viewshed's share inside the view frustum).
        Random,      ///< Next junction uniformly at random (seed 004's baseline).
    };
    Mode mode = Mode::None;
    /// Initial placement: false, over the group's spawn regions; true, near
    /// the junctions in proportion to their viewshed's area (seed 004's
    /// "improvement").
    bool place_by_viewshed = false;
    bool enabled() const { return mode != Mode::None; }
};

/// A group of agents sharing a route (one potential field per group).
struct GroupSpec {
    std::string name;               ///< Unique among groups. [Limit: non-empty]
    std::vector<Polygon> spawn;     ///< Initial placement regions (rectangles are 4-vertex polygons). May be empty when only sources spawn it.
    int count = 0;                  ///< Agents placed at start (or 0). Ignored when density > 0; SceneGrid::group_count has the resolved number. [Limit: 0..10^7]
    float density = 0.f;            ///< Alternative to count: persons/m^2 over the open spawn cells (0: use count). [Units: 1/m^2] [Limit: >= 0, <= rho_limit]
    SpeedDistribution speed;        ///< Free (maximum) speed.
    PremovementDistribution premovement;  ///< Standing time before walking ("premovement"; default none).
    float radius = 0.2f;            ///< Body radius. [Units: m] [Limit: > 0, < 1]
    std::vector<std::string> route; ///< Goal names in order: waypoints, then the final goal. [Limit: >= 1, existing goals]
    std::array<std::uint8_t, 3> colour{31, 119, 180};  ///< sRGB, for viewers and plots (default: tab10 colour of the group index).
    float panic = -1.f;             ///< Social force panic p of this group (-1: model.social_force.panic). [Limit: -1 or 0..1]
    Behaviour behaviour = Behaviour::Walk;  ///< Reaction to incidents ("behaviour": walk, escape, hide, approach).
    SocialSpec social;              ///< Social units among its initial agents ("social"; agents from sources walk alone).
    /// Smoke ("visibility"): members know the way only within this walking
    /// distance of their goal; farther away they search on their own (keep
    /// their heading, slide along walls, herd by the panic p; Helbing 2000
    /// Fig. 3). 0: they know the way everywhere. [Units: m] [Limit: 0, or > 0 and <= 1e4]
    float visibility = 0.f;
    /// Roaming the street network instead of a route ("route_choice";
    /// the group then has no "route").
    RouteChoiceSpec route_choice;
};

/// The street network route-choice groups roam ("network"; seed 004):
/// junctions and the roads between them, given, or derived from the
/// walkable geometry (the free space's skeleton: junctions where it
/// branches and where it ends).
struct NetworkSpec {
    std::vector<Vec2> junctions;               ///< Junction centres (empty: derived). [Units: m] [Limit: open cells, <= 100000]
    std::vector<std::array<int, 2>> roads;     ///< Junction index pairs joined by a street (with junctions). [Limit: valid, distinct, no loops]
    float frustum = 60.f;                      ///< Full opening of the view frustum toward a neighbour junction. [Units: degrees] [Limit: > 0, <= 360]
    float min_branch = 0.f;                    ///< Derived networks: dead-end branches shorter than this are pruned (0: automatic, twice the clearance where they join). [Units: m] [Limit: >= 0, <= 1e4]
    float min_radius = 1.f;                    ///< Smallest junction radius (people within it are at the junction; else the clearance at its centre). [Units: m] [Limit: > 0, <= 100]
};

/// Keeps spawning agents of a group inside a region at a rate.
struct SourceSpec {
    std::string group;              ///< Group name. [Limit: existing group]
    Polygon region;                 ///< Where agents appear. [Limit: inside the domain, >= 1 open cell]
    float rate = 1.f;               ///< [Units: persons/s] [Limit: > 0, <= 1e5]
    float start = 0.f;              ///< [Units: s] [Limit: >= 0]
    float end = std::numeric_limits<float>::infinity();  ///< [Units: s] [Limit: > start; +inf when absent]
    int max_agents = -1;            ///< Stop after this many (-1: no limit). [Limit: -1 or 0..10^7]
};

/// A discomfort region (Treuille's g field); events may change its value.
struct DiscomfortSpec {
    Polygon area;
    float value = 1.f;              ///< Discomfort g. [Limit: >= 0, <= 1e6]
    std::string name;               ///< Optional; events name regions by it (an event changes every region of its name).
    float spread = 0.f;             ///< Cells within this distance of `area` are inside too (grow_discomfort: a fire spreading). [Units: m] [Limit: >= 0]
};

/// A named obstacle that events open and close (a door leaf, a gate, a
/// barrier): while closed it blocks like an obstacle.
struct BarrierSpec {
    std::string name;               ///< Unique among barriers. [Limit: non-empty]
    Polygon area;
    bool closed = false;            ///< Closed at the start.
};

/// What an event does to its target.
enum class EventAction {
    Open,           ///< A barrier stops blocking.
    Close,          ///< A barrier blocks; agents inside it are pushed to the nearest open cell.
    SetDiscomfort,  ///< A named discomfort region's g becomes `value` (0: gone).
    Move,           ///< A barrier's centre moves along `path` at `speed` (a vehicle, a closing barrier); agents in its way are pushed out.
    MoveDiscomfort, ///< A named discomfort region's centre moves along `path` at `speed` (drifting smoke).
    GrowDiscomfort, ///< A named discomfort region's edge spreads outward at `speed`, at most `distance` (a fire spreading).
    EnableGoal,     ///< A goal's areas (or area `area`) become sources again.
    DisableGoal,    ///< A goal's areas (or area `area`) stop being sources: no field leads there, nobody leaves there.
    SetRoute,       ///< A group's route becomes `route`; its agents start the new route at its first goal.
    StartIncident,  ///< An incident starts now, unless it has started already.
    SetPanic,       ///< A group's social force panic p becomes `value` (Helbing 2000's herding, e.g. as smoke spreads).
};

/// One change of the environment on the scene's timeline ("events").
struct EventSpec {
    double time = 0.0;              ///< When it happens: the first step starting at or after it. [Units: s] [Limit: 0..1e9]
    EventAction action = EventAction::Open;
    std::string target;             ///< A barrier (open, close, move), a discomfort region (set_, move_, grow_discomfort), a goal (enable_, disable_goal), a group (set_route, set_panic) or an incident (start_incident). [Limit: an existing name]
    float value = 0.f;              ///< set_discomfort: the new g [Limit: 0..1e6]; set_panic: the new p [Limit: 0..1].
    std::vector<Vec2> path;         ///< move, move_discomfort: the points the target's centre (of its bounding box) passes, in order, from where it is. [Units: m] [Limit: 1..10^4 points, inside the domain]
    float speed = 0.f;              ///< move, move_discomfort: along the path; grow_discomfort: of the edge. [Units: m/s] [Limit: > 0, <= 1e3]
    float distance = std::numeric_limits<float>::infinity();  ///< grow_discomfort: the furthest the edge spreads from where it is. [Units: m] [Limit: > 0; +inf when absent]
    int area = -1;                  ///< enable_goal, disable_goal: the goal's area index (from 0); -1: all of them. [Limit: -1..areas-1]
    std::vector<std::string> route; ///< set_route: goal names in order. [Limit: >= 1, existing goals]
};

/// At an incident's start, agents of one group become another (seed 002:
/// agents switch behaviour group when the incident starts).
struct SwitchRule {
    std::string from, to;           ///< Group names. [Limit: existing groups, different]
    float fraction = 1.f;           ///< Share of `from`'s agents within reach that switch, drawn per agent from the scene's seed. [Limit: 0..1]
    float within = std::numeric_limits<float>::infinity();  ///< Only agents at most this far from the incident's centre. [Units: m] [Limit: > 0]
};

/// An incident (fire, explosion, attack) on the timeline: a disc of harm
/// that escape and hide groups run from (seed 002 §4.3, eqs. 4.7-4.9).
struct IncidentSpec {
    std::string name;               ///< Unique among incidents. [Limit: non-empty]
    Vec2 position;                  ///< Centre. [Units: m] [Limit: inside the domain]
    float radius = 2.f;             ///< Radius of harm. [Units: m] [Limit: > 0, <= 1e4]
    double start = 0.0;             ///< When it starts: the first step starting at or after it. [Units: s] [Limit: 0..1e9]
    float offset = 0.f;             ///< Potential offset: with several incidents, a higher offset makes the crowd fear this one less (eq. 4.8's "favoured" incidents). [Units: s] [Limit: -1e6..1e6]
    float weight = 2.f;             ///< c of eq. 4.9: the cost of a move toward the incident is multiplied by c d_A/d_B. [Limit: 1..1000]
    std::vector<SwitchRule> switches;  ///< Applied in order at the start.
};

/// Where the active region's centre is at a time (a moving focus: a
/// camera, a patrol, a point of interest).
struct FocusPoint {
    double time = 0.0;              ///< [Units: s] [Limit: 0..1e9, increasing along the list]
    Vec2 position;                  ///< [Units: m] [Limit: inside the domain]
};

/// Sides of the active region, as bits of RegionSpawnSpec::sides.
enum RegionSide : std::uint8_t { kRegionWest = 1, kRegionEast = 2, kRegionSouth = 4, kRegionNorth = 8, kRegionAllSides = 15 };

/// Keeps the active region populated (seed 002 §4.2.4): agents of a group
/// enter at the region's navigable border cells on the given sides while
/// the group has fewer agents than `density` times the region's open area.
struct RegionSpawnSpec {
    std::string group;              ///< [Limit: an existing group]
    float density = 0.f;            ///< Target persons per m^2 of the region's open area. [Units: 1/m^2] [Limit: > 0, <= 10]
    std::uint8_t sides = kRegionAllSides;  ///< RegionSide bits where they enter. [Limit: >= 1 side]
    float rate = std::numeric_limits<float>::infinity();  ///< At most this many births per second (+inf: as many as there is room for). [Units: persons/s] [Limit: > 0]
    double start = 0.0;             ///< [Units: s] [Limit: >= 0]
    double end = std::numeric_limits<double>::infinity();  ///< [Units: s] [Limit: > start; absent: the followed incident's start, else +inf]
};

/// Seed 002's active grid (§4.2.3): a window of fixed size centred on a
/// point of interest (an incident, or a focus moving in time), clamped to
/// the domain and snapped to cells. Only its cells are simulated: cells
/// outside are closed to the fields, agents that leave it are removed (as
/// exits), and its navigable border cells are the goals region_border,
/// region_west, region_east, region_south and region_north (moving with it)
/// and the cells where `spawn` brings agents in.
struct ActiveRegionSpec {
    Vec2 size;                      ///< Width and height. [Units: m] [Limit: >= 3 cells, <= the domain; 0: no active region]
    std::string follow;             ///< An incident whose centre the region keeps as its own ("": use focus).
    std::vector<FocusPoint> focus;  ///< Else the centre moves through these, linear in time, held before the first and after the last. [Limit: 1..10^4 points]
    std::vector<RegionSpawnSpec> spawn;
    bool enabled() const { return size.x > 0.f; }
};

/// The goals an active region adds, in this order: its whole navigable
/// border, then each side's.
inline const char* const kRegionGoalNames[5] = {"region_border", "region_west", "region_east", "region_south", "region_north"};

/// Terrain factor region: free speed multiplied by `factor` (stairs, slopes).
struct TerrainSpec {
    Polygon area;
    float factor = 1.f;             ///< [Limit: > 0, <= 1]
};

/// A measurement line (flow through the segment a-b), used by outputs.
struct LineSpec {
    std::string name;               ///< Unique among lines. [Limit: non-empty]
    Vec2 a, b;                      ///< End points ("from", "to" in the file). [Units: m] [Limit: a != b]
};
/// A measurement area (density, speed inside it), used by outputs.
struct AreaSpec {
    std::string name;               ///< Unique among areas. [Limit: non-empty]
    Polygon area;
};

/// Building footprints from a GIS file read with GDAL/OGR ("footprints";
/// GeoJSON, Shapefile, GeoPackage, OpenStreetMap and every other vector
/// format GDAL reads): each polygon's outer ring becomes an obstacle (holes,
/// courtyards, are filled), each entrance a goal area. Coordinates in a
/// geographic CRS are projected to the UTM zone of the layer's centre;
/// projected ones are scaled to metres. The loaded polygons are in
/// Scene::obstacles and Scene::goals; this records where they came from.
struct FootprintSpec {
    std::string path;               ///< The file ("file"); relative to the scene file's directory. [Limit: readable by GDAL]
    std::string layer;              ///< Layer of the buildings; empty: the file's first. [Limit: an existing layer]
    std::string where;              ///< OGR SQL attribute filter of the buildings, e.g. "building IS NOT NULL" (OSM); empty: all.
    bool hasOrigin = false;         ///< "origin" given: that projected point is the domain's origin; else the buildings' lower-left corner is.
    double originX = 0.0, originY = 0.0;  ///< That point, in the projected CRS. [Units: m] [Limit: |x|, |y| <= 1e8]
    bool hasEntrances = false;      ///< "entrances" given: points or polygons that make a goal.
    std::string entranceFile;       ///< Their file ("entrances.file"); empty: the buildings' file. Relative to the scene file's directory.
    std::string entranceLayer;      ///< Their layer ("entrances.layer"); empty: the file's first (a layer other than the buildings' when it is the same file).
    std::string entranceGoal = "entrances";  ///< Name of the goal the entrances make ("entrances.goal"). [Limit: not another goal's]
    float entranceSize = 2.f;       ///< Side of the square goal area around an entrance point ("entrances.size"). [Units: m] [Limit: > 0, <= 100]
    std::string crs;                ///< After loading: the CRS the coordinates were projected to (its name).
    int buildings = 0;              ///< After loading: obstacles added.
    int entrances = 0;              ///< After loading: goal areas added.
};

/// Optional PNG floor plan: dark pixels are walls.
struct FloorPlanSpec {
    std::string path;               ///< PNG file ("image" in the file); relative paths are resolved against the scene file's directory by loadScene.
    float metres_per_pixel = 0.05f; ///< [Units: m/px] [Limit: > 0, <= 100]
    Vec2 origin;                    ///< World position of the image's bottom-left corner. [Units: m]
    float threshold = 0.5f;         ///< Luminance (0..1) below this, with alpha >= 0.5, is a wall. [Limit: 0..1]
};

/// Social force operational model (Helbing, Farkas & Vicsek, Nature 407,
/// 2000; defaults from the paper): "model": {"social_force": {...}}.
struct SocialForceSpec {
    float A = 2000.f;          ///< Psychological repulsion strength. [Units: N] [Limit: 0..1e6]
    float B = 0.08f;           ///< Psychological repulsion range. [Units: m] [Limit: > 0, <= 10]
    float k = 1.2e5f;          ///< Body compression. [Units: kg/s^2] [Limit: 0..1e7]
    float kappa = 2.4e5f;      ///< Sliding friction. [Units: kg/(m s)] [Limit: 0..1e7]
    float tau = 0.5f;          ///< Relaxation time of the driving force. [Units: s] [Limit: > 0, <= 100]
    float mass = 80.f;         ///< Mass of a person. [Units: kg] [Limit: > 0, <= 1000]
    float range = 0.6f;        ///< Body gap beyond which forces are cut off. [Units: m] [Limit: > 0, <= 10]
    float panic = 0.f;         ///< Panic (herding) p of every group without its own. [Limit: 0..1]
    float panic_radius = 1.f;  ///< Radius of the neighbours whose mean direction panic mixes in. [Units: m] [Limit: > 0, <= 10]
    float max_speed = 5.f;     ///< Physical speed cap of the integrator. [Units: m/s] [Limit: > 0, <= 20]
    /// Injury: body compression per circumference above which a person
    /// becomes an obstacle (vmax 0, stops for good); Helbing 2000 uses 1600.
    /// 0 = off. [Units: N/m] [Limit: 0..1e6]
    float injury_threshold = 0.f;
    /// Factor on the integrator's automatic steps: the outer step (kicks of
    /// the slow forces) 0.4 sqrt(m B/(2.5 A)) and the contact sub-step
    /// 0.1 sqrt(m/k). Below 1 integrates finer and costs more, as a check
    /// that results have converged (`ccrowd validate` runs 0.5).
    /// [Limit: 0.01..1]
    float step_scale = 1.f;
};

/// Zone-repulsion operational model (seed 000 §4.6.3): "model": {"zones": {...}}.
struct ZonesSpec {
    float d1 = 0.25f, d2 = 2.f, d3 = 4.5f;  ///< Zone radii. [Units: m] [Limit: 0 < d1 < d2 < d3 <= 20]
    float f1 = 3.f, f2 = 1.f, f3 = 0.1f;    ///< Repulsion speed at d = 0, d1, d2 (0 at d3). [Units: m/s] [Limit: 10 >= f1 >= f2 >= f3 >= 0]
    float push_cap = 0.75f;                 ///< Largest summed repulsion as a fraction of the preferred speed (ccrowd's addition). [Limit: 0..10]
};

/// Largest OrcaSpec::max_neighbours: the ORCA kernel's fixed per-agent
/// neighbour arrays (kernels/orca.hpp, kOrcaMaxNeighbours, asserted equal).
constexpr int kOrcaNeighbourLimit = 32;

/// ORCA operational model (van den Berg et al. 2011, the RVO2 library):
/// "model": {"orca": {...}}. RVO2's examples use a horizon of 5-10 s and 10
/// neighbours for agents that walk 1-2 radii per second; a person walks
/// about 7 radii (1.34 m/s, r 0.2 m) per second, so 2 s already spans
/// 2.7 m, two to three persons ahead; a longer horizon only narrows the
/// permitted velocities in a crowd.
struct OrcaSpec {
    float time_horizon = 0.3f;      ///< tau: collisions with agents within this time are avoided (0.3 s: the door-flow calibration in scenes/README.md). [Units: s] [Limit: > 0, <= 100]
    float time_horizon_obst = 1.f;  ///< tau_obst: the same for walls (shorter: walls are also kept out by confinement). [Units: s] [Limit: > 0, <= 100]
    /// Centre distance within which agents are neighbours: above 0.8
    /// persons/m^2 the 10 nearest are within 2 m anyway, and the gather's
    /// cost grows with its square (3 m: 1.9x the ORCA stage's time at 100k
    /// agents). [Units: m] [Limit: > 0, <= 20]
    float neighbour_dist = 2.f;
    int max_neighbours = 10;        ///< Nearest neighbours taken into account (RVO2's examples: 10). [Limit: 1..kOrcaNeighbourLimit]
};

/// The centre spacing of discs in hexagonal packing at @p rhoLimit persons
/// per m^2: the minimum distance at which the crowd, however it packs,
/// cannot exceed the UIC limit locally (Narain et al. 2009 §4.1:
/// rho_max = 2 alpha / (sqrt(3) d_min^2), here with alpha = 1). 0.4624 m at
/// 5.4 persons/m^2. [Units: m] [Limit: rhoLimit > 0]
inline float minDistanceForDensity(float rhoLimit) { return std::sqrt(2.f / (std::sqrt(3.f) * rhoLimit)); }

/// Model parameters (Treuille et al. 2006; Narain et al. 2009; seed 003).
struct ModelParams {
    float alpha = 1.f;              ///< Path-length weight. [Limit: >= 0, <= 1e3; alpha + beta > 0]
    float beta = 1.f;               ///< Time weight. [Limit: >= 0, <= 1e3]
    float gamma = 1.f;              ///< Discomfort weight. [Limit: >= 0, <= 1e3]
    float rho_min = 0.5f;           ///< Below: free speed. [Units: 1/m^2] [Limit: >= 0, < rho_max]
    float rho_max = 4.0f;           ///< Above: the flow's direction alone sets the face speed (walking against it: down to 0.02 m/s). [Units: 1/m^2] [Limit: > rho_min, <= 20]
    float rho_limit = 5.4f;         ///< UIC density limit. [Units: 1/m^2] [Limit: > 0, <= 20]
    float v0 = 1.34f;               ///< Weidmann free speed scale of the fundamental diagram. [Units: m/s] [Limit: > 0, <= 10]
    float rho_jam = 5.4f;           ///< Weidmann jam density. [Units: 1/m^2] [Limit: > 0, <= 20]
    float gamma_fd = 1.913f;        ///< Weidmann shape. [Units: 1/m^2] [Limit: > 0, <= 100]
    float d_min = minDistanceForDensity(rho_limit);  ///< Minimum centre distance between agents; when a scene omits it, minDistanceForDensity(rho_limit), so that no packing of the crowd exceeds the UIC limit locally (0.4624 m at 5.4). [Units: m] [Limit: >= 0, <= 5]
    float dt = 0.05f;               ///< Time step. [Units: s] [Limit: > 0, <= 1]
    double duration = 600.0;        ///< Simulated time limit. [Units: s] [Limit: > 0, <= 1e7]
    long long max_steps = -1;       ///< Step limit (-1: none). [Limit: -1 or 1..1e12]
    std::uint64_t seed = 1;         ///< Random seed (placement, speeds, sources). [Limit: 0..2^64-1]
    float box_margin = 2.0f;        ///< Active box margin around the crowd. [Units: m] [Limit: >= 0, <= 1e4]
    float perception_radius = 1.0f; ///< Half-width R of the square window over which density and flow are perceived (kernels/speed.hpp): the speed field reads it centred about R/2 ahead, the UIC limits the density of its own cells, squares about R wide (kernels/uic_grid.hpp) (0: the splat's cell values). [Units: m] [Limit: 0..100]
    int pressure_iterations = 60;   ///< UIC projected SOR sweep budget. [Limit: 1..100000]
    float pressure_tolerance = 1e-3f;  ///< UIC residual tolerance. [Units: 1/m^2] [Limit: > 0, <= 10]
    float pressure_omega = 1.8f;    ///< UIC over-relaxation (1: projected Gauss-Seidel). [Limit: >= 1, < 2]
    /// The UIC's grid moves by one fine cell each step, through every place
    /// its cells can take over the fine grid in turn (uicShift in
    /// kernels/uic_grid.hpp). Off by default. Measured (bench/results/
    /// uic_grid_shift_2026-12-01_cpu2.md): on 0.25 m cells, a room's
    /// evacuation time through a 1 m door changes by up to 6% as the room
    /// moves by parts of the 1 m UIC cells with the fixed grid, and by 2%
    /// with the moving one; but the moving grid's times change by 3-5% when
    /// the fine cells halve (the fixed grid's by 1%), above issue 12's 5%
    /// for the four-door room, because a wall lying just inside a UIC cell
    /// hides its door from the pressure at some of the finer grid's places.
    /// It costs some 60% more pressure sweeps.
    bool pressure_grid_shift = false;
    int separation_passes = 3;      ///< Minimum-distance relaxation passes. [Limit: 0..100]
    /// Width of the boundary layer along walls (the SFPE Handbook's
    /// effective width: people keep clear of walls): cells whose centre
    /// lies within it of a wall edge get discomfort g >= wall_discomfort,
    /// so the potential steers bodies, not points, past door jambs and
    /// corners (wallClearance()). Negative means automatic: the largest
    /// body radius under "social_force", 0 (none) under the other models.
    /// [Units: m] [Limit: < 0, or 0..10]
    float wall_clearance = -1.f;
    /// Discomfort g of the boundary layer's cells (wall_clearance).
    /// [Limit: 0..1e6]
    float wall_discomfort = 1.f;
    /// Each step's eikonal solves start from the previous step's potentials
    /// (raised where the new costs no longer support them, then lowered;
    /// the same answer as a cold solve within the solver's tolerance). Off by
    /// default: a moving crowd changes costs all over its box every step, and
    /// the raise then invalidates what lies behind it; measured on the
    /// bottleneck, eight_groups and default scenes it does 1.4-2.3x the
    /// updates of a cold solve (README, "Benchmarking the eikonal solvers").
    bool potential_warm_start = false;
    /// Neighbours of the potential's local update (EikonalOptions::stencil):
    /// 4 (Godunov; 1.2% longer than the distance along the diagonals 126
    /// cells from a point source) or 8 (plus the diagonals' triangles: within
    /// 0.3% in every direction, about twice the potential stage's work).
    /// [Limit: 4 or 8]
    int potential_stencil = 4;
    /// Most Gauss-Seidel sweeps of a potential tile per activation
    /// (EikonalOptions::inner_iterations); 0 means each backend's default
    /// (8 on the CPU, 6 on CUDA). [Limit: 0, or 1..64]
    int potential_sweeps = 0;
    /// The potential FIM's value-ordering band in tile widths
    /// (EikonalOptions::band_tiles): 0 is plain FIM; negative means each
    /// backend's default (4 on the CPU, 16 on CUDA). [Limit: < 0, or 0..1e6]
    float potential_band_tiles = -1.f;
    /// Most fronts a potential tile's sweeps may walk per activation
    /// (EikonalOptions::front_budget): 0 is none; negative means each
    /// backend's default (none on the CPU; on CUDA 150 with 4 neighbours,
    /// 300 with 8). [Limit: < 0, or 0..1e6]
    int potential_front_budget = -1;
    /// Operational (local) model: "uic" (Narain 2009 pressure plus
    /// minimum-distance separation), "social_force" (Helbing 2000),
    /// "orca" (van den Berg et al. 2011, RVO2) or "zones" (seed 000's
    /// three-zone repulsion).
    std::string local = "uic";
    SocialForceSpec social_force;   ///< Parameters of "social_force".
    ZonesSpec zones;                ///< Parameters of "zones".
    OrcaSpec orca;                  ///< Parameters of "orca".
};

/// A parsed scene.
struct Scene {
    int version = kSceneFormatVersion;
    std::string path;               ///< File it came from ("" when parsed from text).
    std::string label;              ///< How error messages name the source: the file path, or parseScene's label.
    std::string name;               ///< Free text (default: the file name without extension).
    std::string description;        ///< Free text (default "").
    Vec2 origin;                    ///< [Units: m] [Limit: |x|, |y| <= 1e6]
    float width = 0.f, height = 0.f;  ///< [Units: m] [Limit: > 0, <= 4096 cells per axis]
    float cell = 0.25f;             ///< Grid cell size h. [Units: m] [Limit: 0.01..10]
    std::vector<Polygon> walkable;  ///< Walkable area (empty: the whole domain).
    std::vector<Polygon> obstacles; ///< Blocked areas.
    std::vector<FloorPlanSpec> floor_plans;
    std::vector<FootprintSpec> footprints;  ///< GIS files whose buildings are among the obstacles (and entrances among the goals).
    std::vector<GoalSpec> goals;    ///< [Limit: >= 1]
    std::vector<GroupSpec> groups;  ///< [Limit: >= 1]
    std::vector<SourceSpec> sources;
    std::vector<DiscomfortSpec> discomfort;
    std::vector<BarrierSpec> barriers;  ///< Obstacles that events open and close.
    std::vector<EventSpec> events;  ///< The timeline, sorted by time (ties keep the file's order).
    std::vector<IncidentSpec> incidents;  ///< In the file's order.
    ActiveRegionSpec active_region; ///< "active_region" (size 0: the whole domain is simulated).
    std::vector<TerrainSpec> terrain;
    std::vector<LineSpec> lines;    ///< "measurement": {"lines": [...]}
    std::vector<AreaSpec> areas;    ///< "measurement": {"areas": [...]}
    NetworkSpec network;            ///< "network": streets for route-choice groups.
    ModelParams params;             ///< "model"
};

/// Largest body radius of the scene's groups (sources spawn into groups):
/// the clearance the agents keep from walls (kernels/agents.hpp,
/// keepClearOfWalls). [Units: m] (0 without groups)
inline float largestBodyRadius(const Scene& s) {
    float r = 0.f;
    for (const GroupSpec& g : s.groups) r = g.radius > r ? g.radius : r;
    return r;
}

/// Smallest body radius of the scene's groups: half the narrowest gap
/// anyone passes (SceneGrid::closed_faces). [Units: m] (0 without groups)
inline float smallestBodyRadius(const Scene& s) {
    float r = 0.f;
    for (const GroupSpec& g : s.groups) r = (r == 0.f || g.radius < r) ? g.radius : r;
    return r;
}

/// Width of the boundary layer along walls that the discomfort layer
/// marks (ModelParams::wall_clearance, its automatic value resolved).
/// [Units: m] [Limit: >= 0]
inline float wallClearance(const Scene& s) {
    if (s.params.wall_clearance >= 0.f) return s.params.wall_clearance;
    return s.params.local == "social_force" ? largestBodyRadius(s) : 0.f;
}

/// The scene on its grid.
struct SceneGrid {
    int nx = 0, ny = 0;             ///< Cells. nx = ceil(width / cell). [Limit: 1..4096]
    float h = 0.25f;                ///< [Units: m]
    Vec2 origin;                    ///< Corner of cell (0, 0). [Units: m]
    Field<std::uint8_t> blocked;    ///< 1 = not walkable. [Size: nx*ny]
    Field<float> discomfort;        ///< g per cell (max of overlapping regions; 0 elsewhere). [Size: nx*ny]
    Field<float> terrain;           ///< Free-speed factor per cell (min of overlapping regions; 1 elsewhere). [Size: nx*ny]
    /// Share of the cell's square inside the open region (the domain and
    /// walkable area minus the obstacles, exact from the polygons; 0 on
    /// floor-plan walls, whose cells are whole). Cells that no wall edge
    /// enters are 0 or 1 and agree with `blocked`; a wall's or door's edge
    /// through a cell gives the fraction between. [Limit: 0..1] [Size: nx*ny]
    Field<float> open_fraction;
    /// Open share of the face between cells (i - 1, j) and (i, j), at
    /// x = origin.x + i h: the length of the face through the open region's
    /// interior over h (a face along a wall's edge is closed; the grid's
    /// edges i = 0 and i = nx are closed). [Limit: 0..1] [Size: (nx+1)*ny]
    Field<float> aperture_x;
    /// The same for the face between (i, j - 1) and (i, j), at
    /// y = origin.y + j h. [Limit: 0..1] [Size: nx*(ny+1)]
    Field<float> aperture_y;
    /// Faces the fields treat as walls (ccrowd/closed_faces.hpp bits, set
    /// on both cells of a face): faces with no open length (a wall lying on
    /// the face), faces whose centre-to-centre link crosses a wall edge (a
    /// wall thinner than a cell inside it), and faces on a passage narrower
    /// than the smallest body (a run of open faces along a face line
    /// shorter than 2 x the smallest group radius). The speed field gives
    /// them eps, the unit cost +inf (the eikonal solve never crosses them)
    /// and the desired velocity reads no gradient across them. [Size: nx*ny]
    Field<std::uint8_t> closed_faces;
    /// Wall edges as the agents meet them: the open region's boundary (exact
    /// from the polygons; the domain's edge included) and the faces of
    /// floor-plan wall cells, each with the open side on its left.
    std::vector<WallSegment> walls;
    std::vector<std::vector<int>> goal_cells;   ///< Per goal: open cells (index i + j*nx) inside it, sorted. [Limit: non-empty]
    std::vector<std::vector<int>> spawn_cells;  ///< Per group: open cells whose centre is inside a spawn polygon, sorted.
    std::vector<std::vector<int>> source_cells; ///< Per source: open cells whose centre is inside its region, sorted. [Limit: non-empty]
    std::vector<int> group_count;   ///< Per group: agents placed at start (count, or density x open spawn area rounded).
    /// Cell containing point (x, y), clamped to the grid.
    void cellOf(float x, float y, int& i, int& j) const;
    /// Geometry for kernels.
    GridInfo info() const { return GridInfo{nx, ny, h, origin.x, origin.y}; }
};

/// Reads and validates a scene file. Throws InputError (file, JSON path,
/// problem, allowed values) for any bad input: missing, unreadable or empty
/// file, not JSON (with line and column), wrong format or version, unknown
/// keys, missing fields, wrong types, out-of-range, infinite or overflowing
/// numbers, polygons with < 3 points, self-intersecting or of zero area,
/// spawn regions outside the domain, unknown goal or group names, duplicate
/// names, grids over 4096 cells per axis, more than 10^7 agents.
Scene loadScene(const std::string& path);

/// Same, from JSON text; @p label names the source in messages. Relative
/// floor-plan paths stay relative to the working directory.
Scene parseScene(const std::string& text, const std::string& label);

/// Same, from JSON text read as if it were the file @p path (messages name
/// it, Scene::path and the default name come from it, relative floor-plan
/// paths are resolved against its directory): a scene file edited in memory,
/// as the Python API does. loadScene is this after reading the file.
Scene parseSceneAt(const std::string& text, const std::string& path);

/// One event from JSON text ({"time", "action", "target", "value"}, as an
/// item of the scene file's "events"), its target one of @p scene's
/// barriers or named discomfort regions; InputError naming @p label, the
/// key and the allowed values otherwise.
EventSpec parseEvent(const std::string& text, const Scene& scene, const std::string& label);

/// One incident from JSON text (as an item of the scene file's
/// "incidents"), its switch rules naming @p scene's groups; InputError
/// naming @p label, the key and the allowed values otherwise.
IncidentSpec parseIncident(const std::string& text, const Scene& scene, const std::string& label);

/// Rasterises @p scene: a cell is blocked when its centre is outside the
/// domain or the walkable area, inside an obstacle or on a dark floor-plan
/// pixel (centres on a polygon edge follow the crossing-number rule: lower
/// and left edges inside). A wall at least one cell thick at any angle then
/// never leaks through the 4-neighbour stencil, and a 1 m door on a 0.25 m
/// grid keeps at least 3 open cells (tests/test_scene_raster.cpp checks
/// both). Throws InputError when a floor plan cannot be read, a goal covers
/// no open cell, a goal is unreachable from a group's spawn cells or a
/// source's region, or a group's count cannot fit in its spawn regions
/// (see spawnCapacity in placement.hpp).
/// @param threads CPU threads of its loops, as Exec::threads [Limit: >= 0, 0 = OpenMP's default]
SceneGrid rasterizeScene(const Scene& scene, int threads = 0);

/// The same layers without the checks (group_count stays empty): the
/// environment as events change it, where a closed door may cut people off
/// from their goal, or cover a goal's cells. Closed barriers block like
/// obstacles (so they do in rasterizeScene).
/// @param threads CPU threads of its loops, as Exec::threads [Limit: >= 0, 0 = OpenMP's default]
SceneGrid rasterizeEnvironment(const Scene& scene, int threads = 0);

/// The discomfort layer alone (SceneGrid::discomfort: per cell the largest
/// g of the regions over its centre, and at least
/// ModelParams::wall_discomfort where the centre lies within
/// wallClearance() of one of @p grid's wall edges; 0 elsewhere), as an
/// event that changes a region's value or the walls needs it.
void rasterizeDiscomfort(const Scene& scene, SceneGrid& grid);

/// Cells of the active region: [i0, i1) x [j0, j1).
struct RegionCells {
    int i0 = 0, j0 = 0, i1 = 0, j1 = 0;
    bool operator==(const RegionCells& o) const { return i0 == o.i0 && j0 == o.j0 && i1 == o.i1 && j1 == o.j1; }
    bool operator!=(const RegionCells& o) const { return !(*this == o); }
};

/// The active region's centre at time @p t [s]: the followed incident's
/// centre, or the focus path's point at t (linear between its points).
Vec2 activeRegionCentre(const Scene& scene, double t);

/// The active region's cells at time @p t [s]: its size rounded to whole
/// cells, centred on activeRegionCentre (rounded to the nearest cell
/// corner), shifted inside the grid. The whole grid without an active region.
RegionCells activeRegionCells(const Scene& scene, double t);

/// The cells of the region goal @p side (0: the whole border, 1-4: west,
/// east, south, north; kRegionGoalNames' order) of @p r: the ring of cells
/// along those sides, as polygons (one strip per side, one cell wide).
std::vector<Polygon> regionGoalAreas(const Scene& scene, const RegionCells& r, int side);

/// Built-in default scene: $CCROWD_SCENE_DIR/default.json when the variable
/// is set, else <source tree>/scenes/default.json when it exists, else
/// <executable dir>/../share/ccrowd/scenes/default.json.
std::string defaultScenePath();

}  // namespace ccrowd

#include "ccrowd/placement.hpp"
