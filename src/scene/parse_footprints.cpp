/// @file parse_footprints.cpp
/// "footprints" in scene JSON: GIS files of buildings (and their
/// entrances) read through GDAL (footprints.hpp), checked here: keys,
/// types, a file relative to the scene file's directory; the buildings
/// join the obstacles and the entrances make a goal.

#include <filesystem>

#include "ccrowd/scene.hpp"
#include "footprints.hpp"
#include "parse_shapes.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

namespace {

/// @p file relative to the scene file's directory (the label is its path when loaded from a file).
std::string resolve(const std::string& file, const Node& n) {
    std::filesystem::path p(file);
    std::error_code ec;
    if (p.is_relative() && std::filesystem::is_regular_file(n.label(), ec)) p = std::filesystem::path(n.label()).parent_path() / p;
    return p.string();
}

}  // namespace

void parseFootprints(const Node& n, Scene& s) {
    n.object({"file", "layer", "where", "origin", "entrances"});
    FootprintSpec f;
    f.path = resolve(n.get("file", "a GIS file GDAL reads (GeoJSON, Shapefile, GeoPackage, OSM, ...)").string(false, 4096), n);
    if (n.has("layer")) f.layer = n.get("layer", "").string();
    if (n.has("where")) f.where = n.get("where", "").string(false, 4096);
    if (n.has("origin")) {
        // a projected point: eastings and northings reach 1e7 m (not a scene point)
        const Node o = n.get("origin", "");
        o.array(2, 2, "[x, y] in the projected CRS [m]");
        f.hasOrigin = true;
        f.originX = o.at(0).number(closed(-1e8, 1e8, "m"));
        f.originY = o.at(1).number(closed(-1e8, 1e8, "m"));
    }
    if (n.has("entrances")) {
        const Node e = n.get("entrances", "");
        e.object({"file", "layer", "goal", "size"});
        f.hasEntrances = true;
        if (e.has("file")) f.entranceFile = resolve(e.get("file", "").string(false, 4096), e);
        if (e.has("layer")) f.entranceLayer = e.get("layer", "").string();
        if (e.has("goal")) f.entranceGoal = e.get("goal", "").string();
        if (e.has("size")) f.entranceSize = e.get("size", "").numberF(openClosed(0, 100, "m"));
    }
    // read: buildings become obstacles, entrances a goal
    const Footprints read = readFootprints(f, s.origin, n.label() + ": " + (n.path().empty() ? "/" : n.path()) + "/file");
    f.crs = read.crs;
    f.buildings = static_cast<int>(read.buildings.size());
    f.entrances = static_cast<int>(read.entrances.size());
    s.obstacles.insert(s.obstacles.end(), read.buildings.begin(), read.buildings.end());
    if (!read.entrances.empty()) {
        GoalSpec g;
        g.name = f.entranceGoal;
        g.areas = read.entrances;
        s.goals.push_back(std::move(g));
    }
    s.footprints.push_back(std::move(f));
}

}  // namespace ccrowd::scene_detail
