/// @file scene_parse.cpp
/// Scene JSON document -> Scene: every key, type and range (format in
/// scenes/README.md, schema in scenes/scene.schema.json). Cross-field checks
/// are in scene_validate.cpp, grid checks in scene_checks.cpp.

#include <algorithm>
#include <cmath>
#include <limits>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "parse_shapes.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

namespace {

constexpr std::size_t kMaxListItems = 1u << 16;  ///< Goals, groups, polygons per list...
constexpr const char* kName = "a non-empty string (at most 256 bytes)";

/// Matplotlib's tab10 palette: default group colours.
constexpr std::uint8_t kPalette[10][3] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},
                                          {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {127, 127, 127},
                                          {188, 189, 34},  {23, 190, 207}};

void parseDomain(const Node& n, Scene& s) {
    n.object({"origin", "width", "height", "cell"});
    optional(n, "origin", [&](const Node& v) { s.origin = parsePoint(v); });
    s.width = n.get("width", "a number > 0 [m]").numberF(openClosed(0, 1e6, "m"));
    s.height = n.get("height", "a number > 0 [m]").numberF(openClosed(0, 1e6, "m"));
    optional(n, "cell", [&](const Node& v) { s.cell = v.numberF(closed(0.01, 10, "m")); });
    // Cap the grid: at most kMaxCellsPerAxis cells per axis.
    const int cap = scene_limits::kMaxCellsPerAxis;
    const std::string allowed = "at most " + std::to_string(cap) + " cells per axis (size / cell <= " +
                                std::to_string(cap) + "; cell = " + formatNumber(s.cell) + " m)";
    const int nx = cellsAlong(s.width, s.cell), ny = cellsAlong(s.height, s.cell);
    if (nx > cap) n.get("width", "").fail("grid too large: " + std::to_string(nx) + " cells along x", allowed);
    if (ny > cap) n.get("height", "").fail("grid too large: " + std::to_string(ny) + " cells along y", allowed);
}

std::array<std::uint8_t, 3> parseColour(const Node& n) {
    const char* allowed = "\"#rrggbb\" (hex) or [r, g, b] with integers 0..255";
    std::array<std::uint8_t, 3> c{};
    if (n.value().is_string()) {
        // "#rrggbb"
        const std::string& s = n.value().get_ref<const std::string&>();
        const bool ok = s.size() == 7 && s[0] == '#' &&
                        s.find_first_not_of("0123456789abcdefABCDEF", 1) == std::string::npos;
        if (!ok) n.fail("not a colour", allowed);
        for (int k = 0; k < 3; ++k) c[k] = static_cast<std::uint8_t>(std::stoi(s.substr(1 + 2 * k, 2), nullptr, 16));
        return c;
    }
    if (!n.value().is_array() || n.value().size() != 3) n.fail("not a colour", allowed);
    for (std::size_t k = 0; k < 3; ++k) c[k] = static_cast<std::uint8_t>(n.at(k).integer(0, 255));
    return c;
}

SpeedDistribution parseSpeed(const Node& n) {
    SpeedDistribution d;
    const Range speedRange = openClosed(0, 10, "m/s");
    if (n.value().is_number()) {
        // A single number: every agent has exactly this speed.
        d.mean = d.min = d.max = n.numberF(speedRange);
        d.sd = 0;
        return d;
    }
    if (!n.value().is_object()) n.fail("expected a speed", "a number (m/s) or {\"mean\", \"sd\", \"min\", \"max\"}");
    n.object({"mean", "sd", "min", "max"});
    optional(n, "mean", [&](const Node& v) { d.mean = v.numberF(speedRange); });
    optional(n, "sd", [&](const Node& v) { d.sd = v.numberF(closed(0, 5, "m/s")); });
    optional(n, "min", [&](const Node& v) { d.min = v.numberF(speedRange); });
    optional(n, "max", [&](const Node& v) { d.max = v.numberF(speedRange); });
    // The clamp interval must be non-empty and hold the mean.
    if (d.max < d.min) {
        const Node at = n.has("max") ? n.get("max", "") : n.get("min", "");
        at.fail("speed max is below min (min " + formatNumber(d.min) + ", max " + formatNumber(d.max) + ")",
                "min <= max");
    }
    if (d.mean < d.min || d.mean > d.max) {
        const Node at = n.has("mean") ? n.get("mean", "") : n;
        at.fail("mean speed outside [min, max] = [" + formatNumber(d.min) + ", " + formatNumber(d.max) + "]",
                "min <= mean <= max [m/s]");
    }
    return d;
}

PremovementDistribution parsePremovement(const Node& n) {
    using Kind = PremovementDistribution::Kind;
    PremovementDistribution d;
    const Range timeRange = closed(0, 1e5, "s");
    if (n.value().is_number()) {
        // A single number: every agent stands exactly this long.
        d.mean = d.min = d.max = n.numberF(timeRange);
        return d;
    }
    const char* forms = "a number (s) or {\"distribution\": \"uniform\", \"min\", \"max\"} or "
                        "{\"distribution\": \"normal\" | \"lognormal\", \"mean\", \"sd\", \"min\", \"max\"}";
    if (!n.value().is_object()) n.fail("expected a pre-movement time", forms);
    n.object({"distribution", "mean", "sd", "min", "max"});
    const Node kind = n.get("distribution", "\"uniform\", \"normal\" or \"lognormal\"");
    const std::string k = kind.string();
    if (k == "uniform") d.kind = Kind::Uniform;
    else if (k == "normal") d.kind = Kind::Normal;
    else if (k == "lognormal") d.kind = Kind::Lognormal;
    else kind.fail("unknown pre-movement distribution", "\"uniform\", \"normal\" or \"lognormal\"");
    if (d.kind == Kind::Uniform) {
        // uniform on [min, max]: both bounds given, no mean or sd
        for (const char* key : {"mean", "sd"})
            if (n.has(key)) n.get(key, "").fail("a uniform pre-movement has no " + std::string(key), "\"min\" and \"max\" only");
        d.min = n.get("min", "a number 0..1e5 [s]").numberF(timeRange);
        d.max = n.get("max", "a number 0..1e5 [s]").numberF(timeRange);
        d.mean = 0.5f * (d.min + d.max);
    } else {
        // normal or log-normal with this mean and sd, clamped to [min, max]
        d.mean = n.get("mean", "a number 0..1e5 [s]").numberF(d.kind == Kind::Lognormal ? openClosed(0, 1e5, "s") : timeRange);
        optional(n, "sd", [&](const Node& v) { d.sd = v.numberF(timeRange); });
        optional(n, "min", [&](const Node& v) { d.min = v.numberF(timeRange); });
        optional(n, "max", [&](const Node& v) { d.max = v.numberF(timeRange); });
        if (d.mean < d.min || d.mean > d.max) {
            const Node at = n.has("mean") ? n.get("mean", "") : n;
            at.fail("mean pre-movement time outside [min, max] = [" + formatNumber(d.min) + ", " + formatNumber(d.max) + "]",
                    "min <= mean <= max [s]");
        }
    }
    if (d.max < d.min)
        n.get("max", "").fail("pre-movement max is below min (min " + formatNumber(d.min) + ", max " + formatNumber(d.max) + ")",
                              "min <= max");
    return d;
}

GoalSpec parseGoal(const Node& n) {
    n.object({"name", "areas", "potential", "exit"});
    GoalSpec g;
    g.name = n.get("name", kName).string();
    g.areas = parsePolygonList(n.get("areas", "a list of 1 or more polygons"), 1, kMaxListItems);
    optional(n, "potential", [&](const Node& v) { g.potential = v.numberF(closed(0, 1e6)); });
    optional(n, "exit", [&](const Node& v) { g.exit = v.boolean(); });
    return g;
}

/// "social": {"sizes", "spacing", "spread", "cohesion"} (seed 000's small groups).
SocialSpec parseSocial(const Node& n) {
    n.object({"sizes", "spacing", "spread", "cohesion"});
    SocialSpec s;
    const Node sizes = n.get("sizes", "shares of persons walking alone, in pairs, threes, ... (1..16 numbers in 0..1 summing to 1)");
    const std::size_t k = sizes.array(1, 16, "shares of persons walking alone, in pairs, threes, ... (numbers in 0..1 summing to 1)");
    double sum = 0.0;
    for (std::size_t i = 0; i < k; ++i) {
        s.sizes.push_back(sizes.at(i).numberF(closed(0, 1)));
        sum += s.sizes.back();
    }
    if (std::fabs(sum - 1.0) > 1e-3) sizes.fail("shares summing to " + formatNumber(sum), "shares summing to 1 (within 0.001)");
    optional(n, "spacing", [&](const Node& v) { s.spacing = v.numberF(openClosed(0, 10, "m")); });
    optional(n, "spread", [&](const Node& v) { s.spread = v.numberF(openClosed(0, 20, "m")); });
    optional(n, "cohesion", [&](const Node& v) { s.cohesion = v.numberF(closed(0, 100, "1/s")); });
    return s;
}

GroupSpec parseGroup(const Node& n, std::size_t index) {
    n.object({"name", "spawn", "count", "density", "speed", "premovement", "radius", "route", "colour", "panic", "behaviour", "social",
              "visibility", "route_choice"});
    GroupSpec g;
    g.name = n.get("name", kName).string();
    optional(n, "spawn", [&](const Node& v) { g.spawn = parsePolygonList(v, 0, kMaxListItems); });
    // Either count or density (not both); required when there are spawn regions.
    const char* howMany = "\"count\" (integer >= 0) or \"density\" (number > 0 [1/m^2]), not both";
    if (n.has("count") && n.has("density")) n.get("density", "").fail("both count and density given", howMany);
    optional(n, "count", [&](const Node& v) {
        g.count = static_cast<int>(v.integer(0, scene_limits::kMaxAgents));
        if (g.count > 0 && g.spawn.empty()) v.fail("agents to place but no spawn regions", "0 without \"spawn\"");
    });
    optional(n, "density", [&](const Node& v) {
        g.density = v.numberF(openClosed(0, 20, "1/m^2"));
        if (g.spawn.empty()) v.fail("a density but no spawn regions", "\"density\" only with \"spawn\"");
    });
    if (!g.spawn.empty() && !n.has("count") && !n.has("density")) n.get("count", howMany);
    optional(n, "speed", [&](const Node& v) { g.speed = parseSpeed(v); });
    optional(n, "premovement", [&](const Node& v) { g.premovement = parsePremovement(v); });
    optional(n, "radius", [&](const Node& v) { g.radius = v.numberF(Range{0, 1, true, true, "m"}); });
    // reaction to incidents (seed 002's behaviour groups)
    optional(n, "behaviour", [&](const Node& v) {
        const char* kinds = "\"walk\", \"escape\", \"hide\", \"approach\"";
        const std::string b = v.string();
        if (b == "walk") g.behaviour = Behaviour::Walk;
        else if (b == "escape") g.behaviour = Behaviour::Escape;
        else if (b == "hide") g.behaviour = Behaviour::Hide;
        else if (b == "approach") g.behaviour = Behaviour::Approach;
        else v.fail("unknown behaviour", kinds);
    });
    optional(n, "social", [&](const Node& v) { g.social = parseSocial(v); });
    // roaming the street network instead of a route (seed 004)
    optional(n, "route_choice", [&](const Node& v) {
        g.route_choice = parseRouteChoice(v);
        if (n.has("route")) n.get("route", "").fail("a route and route_choice", "one of \"route\" and \"route_choice\" (roaming the network)");
    });
    // the route; an escape group may leave it out (its goal is then the domain's border)
    if (!g.route_choice.enabled() && (g.behaviour != Behaviour::Escape || n.has("route"))) {
        const Node route = n.get("route", "a list of 1 or more goal names");
        const std::size_t nr = route.array(1, 256, "goal names");
        for (std::size_t k = 0; k < nr; ++k) g.route.push_back(route.at(k).string());
    }
    const auto& def = kPalette[index % 10];
    g.colour = {def[0], def[1], def[2]};
    optional(n, "colour", [&](const Node& v) { g.colour = parseColour(v); });
    // social force herding (Helbing 2000): this group's own panic p
    optional(n, "panic", [&](const Node& v) { g.panic = v.numberF(closed(0, 1)); });
    // smoke: the walking distance within which members know the way (Helbing 2000 Fig. 3)
    optional(n, "visibility", [&](const Node& v) { g.visibility = v.numberF(openClosed(0, 1e4, "m")); });
    if (g.visibility > 0.f && g.route_choice.enabled())
        n.get("visibility", "").fail("smoke (visibility) and route_choice", "one of them: roaming groups see their streets");
    return g;
}

SourceSpec parseSource(const Node& n) {
    n.object({"group", "region", "rate", "start", "end", "max_agents"});
    SourceSpec s;
    s.group = n.get("group", "a group name").string();
    s.region = parsePolygon(n.get("region", kPolygonAllowed));
    s.rate = n.get("rate", "a number > 0 [persons/s]").numberF(openClosed(0, 1e5, "persons/s"));
    optional(n, "start", [&](const Node& v) { s.start = v.numberF(closed(0, 1e7, "s")); });
    optional(n, "end", [&](const Node& v) {
        s.end = v.numberF(closed(0, 1e7, "s"));
        if (!(s.end > s.start)) v.fail("end is not after start (" + formatNumber(s.start) + " s)", "end > start [s]");
    });
    optional(n, "max_agents", [&](const Node& v) {
        s.max_agents = static_cast<int>(
            v.integer(-1, scene_limits::kMaxAgents, "-1 (no limit) or an integer 0..10000000"));
    });
    return s;
}

FloorPlanSpec parseFloorPlan(const Node& n, const Scene& scene) {
    n.object({"image", "metres_per_pixel", "origin", "threshold"});
    FloorPlanSpec f;
    f.path = n.get("image", "a PNG file path (relative to the scene file)").string(false, 4096);
    f.origin = scene.origin;
    optional(n, "metres_per_pixel", [&](const Node& v) { f.metres_per_pixel = v.numberF(openClosed(0, 100, "m/px")); });
    optional(n, "origin", [&](const Node& v) { f.origin = parsePoint(v); });
    optional(n, "threshold", [&](const Node& v) { f.threshold = v.numberF(closed(0, 1)); });
    return f;
}

void parseMeasurement(const Node& n, Scene& s) {
    n.object({"lines", "areas"});
    optional(n, "lines", [&](const Node& v) {
        const std::size_t count = v.array(0, kMaxListItems, "lines {\"name\", \"from\", \"to\"}");
        for (std::size_t k = 0; k < count; ++k) {
            const Node l = v.at(k);
            l.object({"name", "from", "to"});
            LineSpec line;
            line.name = l.get("name", kName).string();
            line.a = parsePoint(l.get("from", "a point [x, y] [m]"));
            const Node to = l.get("to", "a point [x, y] [m]");
            line.b = parsePoint(to);
            if (line.a.x == line.b.x && line.a.y == line.b.y) to.fail("line has zero length", "to != from");
            s.lines.push_back(line);
        }
    });
    optional(n, "areas", [&](const Node& v) {
        const std::size_t count = v.array(0, kMaxListItems, "areas {\"name\", \"area\"}");
        for (std::size_t k = 0; k < count; ++k) {
            const Node a = v.at(k);
            a.object({"name", "area"});
            s.areas.push_back({a.get("name", kName).string(), parsePolygon(a.get("area", kPolygonAllowed))});
        }
    });
}

/// Calls @p f(item, k) for each item of the list at @p key, when present.
template <class F>
void forEachItem(const Node& root, const char* key, const char* items, F f) {
    optional(root, key, [&](const Node& list) {
        const std::size_t count = list.array(0, kMaxListItems, items);
        for (std::size_t k = 0; k < count; ++k) f(list.at(k), k);
    });
}

}  // namespace

Scene parseDocument(const json& doc, const std::string& label) {
    Scene s;
    s.label = label;
    const Node root(doc, "", s.label);
    if (!doc.is_object()) root.fail("a scene file must be a JSON object", "{\"format\": \"ccrowd-scene\", ...}");

    // Format and version first: a different file type gets one clear message.
    const Node format = root.get("format", "\"ccrowd-scene\"");
    if (!format.value().is_string() || format.value().get_ref<const std::string&>() != kSceneFormatName) {
        format.fail("not a ccrowd scene file", "\"ccrowd-scene\"");
    }
    s.version = static_cast<int>(root.get("version", "1").integer(kSceneFormatVersion, kSceneFormatVersion,
                                                                    std::to_string(kSceneFormatVersion) +
                                                                        " (the version this build reads)"));
    root.object({"$schema", "format", "version", "name", "description", "domain", "walkable", "obstacles",
                 "floor_plans", "goals", "groups", "sources", "discomfort", "terrain", "measurement", "model",
                 "barriers", "events", "incidents", "footprints", "active_region", "network"});
    optional(root, "$schema", [&](const Node& v) { v.string(true, 4096); });
    optional(root, "name", [&](const Node& v) { s.name = v.string(true); });
    optional(root, "description", [&](const Node& v) { s.description = v.string(true, 65536); });

    // Geometry.
    parseDomain(root.get("domain", "{\"origin\", \"width\", \"height\", \"cell\"}"), s);
    optional(root, "walkable", [&](const Node& v) { s.walkable = parsePolygonList(v, 1, kMaxListItems); });
    optional(root, "obstacles", [&](const Node& v) { s.obstacles = parsePolygonList(v, 0, kMaxListItems); });
    forEachItem(root, "floor_plans", "floor plans {\"image\", ...}",
                [&](const Node& v, std::size_t) { s.floor_plans.push_back(parseFloorPlan(v, s)); });
    forEachItem(root, "footprints", "GIS files {\"file\", \"layer\", \"where\", \"entrances\", ...}",
                [&](const Node& v, std::size_t) { parseFootprints(v, s); });

    // Goals and agents.
    {
        const Node groups = root.get("groups", "a list of 1 or more groups {\"name\", \"route\", ...}");
        const std::size_t count = groups.array(1, kMaxListItems, "groups {\"name\", \"route\", ...}");
        for (std::size_t k = 0; k < count; ++k) s.groups.push_back(parseGroup(groups.at(k), k));
    }
    {
        // goals: at least one, unless every group roams the street network
        const bool roaming = std::all_of(s.groups.begin(), s.groups.end(), [](const GroupSpec& g) { return g.route_choice.enabled(); });
        const char* allowed = roaming ? "a list of goals {\"name\", \"areas\", ...}" : "a list of 1 or more goals {\"name\", \"areas\", ...}";
        if (!roaming || root.has("goals")) {
            const Node goals = root.get("goals", allowed);
            const std::size_t count = goals.array(roaming ? 0 : 1, kMaxListItems, "goals {\"name\", \"areas\", ...}");
            for (std::size_t k = 0; k < count; ++k) s.goals.push_back(parseGoal(goals.at(k)));
        }
    }
    optional(root, "network", [&](const Node& v) { parseNetwork(v, s); });
    forEachItem(root, "sources", "sources {\"group\", \"region\", \"rate\", ...}",
                [&](const Node& v, std::size_t) { s.sources.push_back(parseSource(v)); });

    // Fields and measurements.
    forEachItem(root, "discomfort", "regions {\"area\", \"value\", \"name\"}", [&](const Node& v, std::size_t) {
        v.object({"area", "value", "name"});
        DiscomfortSpec d;
        optional(v, "name", [&](const Node& x) { d.name = x.string(); });
        d.area = parsePolygon(v.get("area", kPolygonAllowed));
        optional(v, "value", [&](const Node& x) { d.value = x.numberF(closed(0, 1e6)); });
        s.discomfort.push_back(std::move(d));
    });
    forEachItem(root, "terrain", "regions {\"area\", \"factor\"}", [&](const Node& v, std::size_t) {
        v.object({"area", "factor"});
        TerrainSpec t;
        t.area = parsePolygon(v.get("area", kPolygonAllowed));
        t.factor = v.get("factor", "a number > 0 and <= 1").numberF(openClosed(0, 1));
        s.terrain.push_back(std::move(t));
    });
    optional(root, "measurement", [&](const Node& v) { parseMeasurement(v, s); });

    // The environment's timeline: barriers, then the events that name them.
    forEachItem(root, "barriers", "barriers {\"name\", \"area\", \"closed\"}",
                [&](const Node& v, std::size_t) { s.barriers.push_back(parseBarrier(v)); });
    // incidents and the behaviour groups' border goal
    forEachItem(root, "incidents", "incidents {\"name\", \"position\", \"radius\", \"start\", ...}",
                [&](const Node& v, std::size_t) { s.incidents.push_back(parseIncident(v, s)); });
    optional(root, "active_region", [&](const Node& v) { parseActiveRegion(v, s); });
    addBorderGoal(s);
    addNetworkGoal(s);
    forEachItem(root, "events", "events {\"time\", \"action\", \"target\", ...}",
                [&](const Node& v, std::size_t) { s.events.push_back(parseEvent(v, s)); });
    sortEvents(s.events);
    optional(root, "model", [&](const Node& v) { s.params = parseModel(v); });
    return s;
}

int cellsAlong(double size, double cell) {
    // 14 / 1 -> 14 even when the quotient rounds to 14.000000001.
    const double q = size / cell;
    const double r = std::ceil(q - 1e-6 * std::max(1.0, q));
    if (!(r < 1e9)) return std::numeric_limits<int>::max();
    return std::max(1, static_cast<int>(r));
}

geom::GridGeom gridGeom(const Scene& scene) {
    geom::GridGeom g;
    g.nx = cellsAlong(scene.width, scene.cell);
    g.ny = cellsAlong(scene.height, scene.cell);
    g.ox = scene.origin.x;
    g.oy = scene.origin.y;
    g.h = scene.cell;
    return g;
}

}  // namespace ccrowd::scene_detail

namespace ccrowd {

Scene parseScene(const std::string& text, const std::string& label) {
    // Empty text gets its own message; then JSON, fields, cross-checks.
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        throw InputError(label + ": /: empty file (allowed: a JSON scene object {\"format\": \"ccrowd-scene\", "
                                 "\"version\": 1, ...})");
    }
    const scene_detail::json doc = scene_detail::parseJsonText(text, label);
    Scene s = scene_detail::parseDocument(doc, label);
    scene_detail::validateScene(s);
    return s;
}

}  // namespace ccrowd
