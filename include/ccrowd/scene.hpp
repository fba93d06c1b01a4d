#pragma once
/// @file scene.hpp
/// Scene files: JSON (format documented in scenes/README.md, schema in
/// scenes/scene.schema.json), parsed with nlohmann-json into a Scene, then
/// rasterised into a SceneGrid. Every loading error is an InputError naming
/// the file, the JSON path (e.g. /groups/2/speed/mean), what was wrong and
/// what is allowed; a bad scene never starts a run.
///
/// Coordinates: metres, x to the east, y to the north; the domain is the
/// rectangle [origin.x, origin.x + width] x [origin.y, origin.y + height],
/// cut into square cells of size `cell`.

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "ccrowd/field.hpp"

namespace ccrowd {

/// Scene format version this build reads.
constexpr int kSceneFormatVersion = 1;

/// A point or vector. [Units: m]
struct Vec2 {
    float x = 0.f, y = 0.f;
};

/// A simple polygon (no self-intersection), >= 3 vertices, either
/// orientation, implicitly closed. [Units: m]
using Polygon = std::vector<Vec2>;

/// Free-speed distribution of a group: normal(mean, sd) clamped to [min, max].
struct SpeedDistribution {
    float mean = 1.34f;  ///< [Units: m/s] [Limit: > 0]
    float sd = 0.26f;    ///< [Units: m/s] [Limit: >= 0]
    float min = 0.5f;    ///< [Units: m/s] [Limit: > 0, <= max]
    float max = 2.0f;    ///< [Units: m/s] [Limit: >= min]
};

/// A named goal: one or more polygons. Goal cells are eikonal sources.
struct GoalSpec {
    std::string name;               ///< Unique among goals. [Limit: non-empty]
    std::vector<Polygon> areas;     ///< [Limit: >= 1 polygon]
    float potential = 0.f;          ///< Initial potential of its cells. [Units: s] [Limit: finite, >= 0]
    bool exit = true;               ///< Agents reaching it leave the simulation (else: a waypoint).
};

/// A group of agents sharing a route (one potential field per group).
struct GroupSpec {
    std::string name;               ///< Unique among groups. [Limit: non-empty]
    std::vector<Polygon> spawn;     ///< Initial placement regions (rectangles are 4-vertex polygons). May be empty when only sources spawn it.
    int count = 0;                  ///< Agents placed at start (or 0). [Limit: >= 0]
    float density = 0.f;            ///< Alternative to count: persons/m^2 over the spawn regions. [Units: 1/m^2] [Limit: >= 0]
    SpeedDistribution speed;        ///< Free (maximum) speed.
    float radius = 0.2f;            ///< Body radius. [Units: m] [Limit: > 0, < 1]
    std::vector<std::string> route; ///< Goal names in order: waypoints, then the final goal. [Limit: >= 1, existing goals]
    std::array<std::uint8_t, 3> colour{31, 119, 180};  ///< sRGB, for viewers and plots.
};

/// Keeps spawning agents of a group inside a region at a rate.
struct SourceSpec {
    std::string group;              ///< Group name. [Limit: existing group]
    Polygon region;                 ///< Where agents appear.
    float rate = 1.f;               ///< [Units: persons/s] [Limit: > 0]
    float start = 0.f;              ///< [Units: s] [Limit: >= 0]
    float end = std::numeric_limits<float>::infinity();  ///< [Units: s] [Limit: > start]
    int max_agents = -1;            ///< Stop after this many (-1: no limit).
};

/// A static discomfort region (Treuille's g field).
struct DiscomfortSpec {
    Polygon area;
    float value = 1.f;              ///< Discomfort g. [Limit: >= 0, finite]
};

/// Terrain factor region: free speed multiplied by `factor` (stairs, slopes).
struct TerrainSpec {
    Polygon area;
    float factor = 1.f;             ///< [Limit: > 0, <= 1]
};

/// A measurement line (flow) and area (density, speed), used by outputs.
struct LineSpec {
    std::string name;
    Vec2 a, b;
};
struct AreaSpec {
    std::string name;
    Polygon area;
};

/// Optional PNG floor plan: dark pixels are walls.
struct FloorPlanSpec {
    std::string path;               ///< PNG file, relative to the scene file.
    float metres_per_pixel = 0.05f; ///< [Units: m/px] [Limit: > 0]
    Vec2 origin;                    ///< World position of the image's bottom-left corner. [Units: m]
    float threshold = 0.5f;         ///< Luminance below this (0..1) is a wall.
};

/// Model parameters (Treuille et al. 2006; Narain et al. 2009; seed 003).
struct ModelParams {
    float alpha = 1.f;              ///< Path-length weight. [Limit: >= 0]
    float beta = 1.f;               ///< Time weight. [Limit: >= 0]
    float gamma = 1.f;              ///< Discomfort weight. [Limit: >= 0]
    float rho_min = 0.5f;           ///< Below: free speed. [Units: 1/m^2] [Limit: >= 0, < rho_max]
    float rho_max = 4.0f;           ///< Above: flow speed. [Units: 1/m^2] [Limit: > rho_min]
    float rho_limit = 5.4f;         ///< UIC density limit. [Units: 1/m^2] [Limit: > 0]
    float v0 = 1.34f;               ///< Weidmann free speed scale of the fundamental diagram. [Units: m/s]
    float rho_jam = 5.4f;           ///< Weidmann jam density. [Units: 1/m^2] [Limit: > 0]
    float gamma_fd = 1.913f;        ///< Weidmann shape. [Units: 1/m^2] [Limit: > 0]
    float d_min = 0.4f;             ///< Minimum centre distance between agents. [Units: m] [Limit: >= 0]
    float dt = 0.05f;               ///< Time step. [Units: s] [Limit: > 0, <= 1]
    double duration = 600.0;        ///< Simulated time limit. [Units: s] [Limit: > 0]
    long long max_steps = -1;       ///< Step limit (-1: none).
    std::uint64_t seed = 1;         ///< Random seed (placement, speeds, sources).
    float box_margin = 2.0f;        ///< Active box margin around the crowd. [Units: m] [Limit: >= 0]
    int pressure_iterations = 60;   ///< UIC projected Gauss-Seidel budget. [Limit: >= 1]
    float pressure_tolerance = 1e-3f;  ///< UIC residual tolerance. [Units: 1/m^2] [Limit: > 0]
    int separation_passes = 3;      ///< Minimum-distance relaxation passes. [Limit: >= 0]
};

/// A parsed scene.
struct Scene {
    int version = kSceneFormatVersion;
    std::string path;               ///< File it came from ("" when parsed from text).
    std::string name;
    Vec2 origin;                    ///< [Units: m]
    float width = 0.f, height = 0.f;  ///< [Units: m] [Limit: > 0]
    float cell = 0.25f;             ///< Grid cell size h. [Units: m] [Limit: > 0]
    std::vector<Polygon> walkable;  ///< Walkable area (empty: the whole domain).
    std::vector<Polygon> obstacles; ///< Blocked areas.
    std::vector<FloorPlanSpec> floor_plans;
    std::vector<GoalSpec> goals;
    std::vector<GroupSpec> groups;
    std::vector<SourceSpec> sources;
    std::vector<DiscomfortSpec> discomfort;
    std::vector<TerrainSpec> terrain;
    std::vector<LineSpec> lines;
    std::vector<AreaSpec> areas;
    ModelParams params;
};

/// The scene on its grid.
struct SceneGrid {
    int nx = 0, ny = 0;             ///< Cells. nx = ceil(width / cell).
    float h = 0.25f;                ///< [Units: m]
    Vec2 origin;                    ///< Corner of cell (0, 0). [Units: m]
    Field<std::uint8_t> blocked;    ///< 1 = not walkable.
    Field<float> discomfort;        ///< g per cell (max of overlapping regions).
    Field<float> terrain;           ///< Free-speed factor per cell (min of overlapping regions; 1 elsewhere).
    std::vector<std::vector<int>> goal_cells;  ///< Per goal: open cells (index i + j*nx) inside it. [Limit: non-empty]
    /// Cell containing point (x, y), clamped to the grid.
    void cellOf(float x, float y, int& i, int& j) const;
};

/// Reads and validates a scene file. Throws InputError (file, JSON path,
/// problem, allowed values) for any bad input: missing file, empty file, not
/// JSON, wrong version, missing fields, wrong types, out-of-range, NaN or
/// infinite numbers, polygons with < 3 points or self-intersecting, unknown
/// goal or group names, duplicate names.
Scene loadScene(const std::string& path);

/// Same, from JSON text; @p label names the source in messages.
Scene parseScene(const std::string& text, const std::string& label);

/// Rasterises @p scene: a cell is blocked when its centre is outside the
/// walkable area, inside an obstacle or on a dark floor-plan pixel. A wall at
/// least one cell thick at any angle then never leaks through the 4-neighbour
/// stencil, and a 1 m door on a 0.25 m grid keeps at least 3 open cells
/// (tests/test_scene_raster.cpp checks both). Throws InputError when
/// a goal covers no open cell, a goal is unreachable from a group's spawn
/// region, or a group's count cannot fit in its spawn regions.
SceneGrid rasterizeScene(const Scene& scene);

/// Built-in default scene path (scenes/ of the source tree or installed share dir).
std::string defaultScenePath();

}  // namespace ccrowd
