/// @file parse_network.cpp
/// "network" (the street network) and groups' "route_choice" (seed 004,
/// Nicosia et al., affordance-based route choice).

#include <algorithm>
#include <set>
#include <utility>

#include "parse_shapes.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

namespace {
constexpr std::size_t kMaxJunctions = 100000;
}  // namespace

void parseNetwork(const Node& n, Scene& s) {
    n.object({"junctions", "roads", "frustum", "min_branch", "min_radius"});
    NetworkSpec& net = s.network;
    // junction centres, and the roads between them (both, or neither: derived)
    if (n.has("junctions") != n.has("roads"))
        n.get(n.has("junctions") ? "roads" : "junctions", "both \"junctions\" and \"roads\", or neither (derived from the walkable geometry)");
    if (n.has("junctions")) {
        const Node js = n.get("junctions", "");
        const std::size_t count = js.array(2, kMaxJunctions, "junction centres [x, y] in m (2..100000)");
        for (std::size_t k = 0; k < count; ++k) net.junctions.push_back(parsePoint(js.at(k)));
        const Node rs = n.get("roads", "");
        const std::size_t roads = rs.array(1, 4 * kMaxJunctions, "roads [a, b]: pairs of junction indices");
        std::set<std::pair<int, int>> seen;
        const long long last = static_cast<long long>(count) - 1;
        for (std::size_t k = 0; k < roads; ++k) {
            const Node r = rs.at(k);
            r.array(2, 2, "a pair [a, b] of junction indices");
            const int a = static_cast<int>(r.at(0).integer(0, last)), b = static_cast<int>(r.at(1).integer(0, last));
            if (a == b) r.fail("a road from a junction to itself", "two different junction indices");
            if (!seen.insert({std::min(a, b), std::max(a, b)}).second) r.fail("the same road twice", "each pair of junctions once");
            net.roads.push_back({a, b});
        }
    }
    optional(n, "frustum", [&](const Node& v) { net.frustum = v.numberF(openClosed(0, 360, "degrees")); });
    optional(n, "min_branch", [&](const Node& v) { net.min_branch = v.numberF(closed(0, 1e4, "m")); });
    optional(n, "min_radius", [&](const Node& v) { net.min_radius = v.numberF(openClosed(0, 100, "m")); });
}

RouteChoiceSpec parseRouteChoice(const Node& n) {
    n.object({"mode", "placement"});
    RouteChoiceSpec r;
    const Node mode = n.get("mode", "\"affordance\" or \"random\"");
    const std::string m = mode.string();
    if (m == "affordance") r.mode = RouteChoiceSpec::Mode::Affordance;
    else if (m == "random") r.mode = RouteChoiceSpec::Mode::Random;
    else mode.fail("unknown mode", "\"affordance\" or \"random\"");
    optional(n, "placement", [&](const Node& v) {
        const std::string p = v.string();
        if (p == "viewshed") r.place_by_viewshed = true;
        else if (p != "spawn") v.fail("unknown placement", "\"spawn\" (the spawn regions) or \"viewshed\" (near junctions, by their viewshed's area)");
    });
    return r;
}

std::string freeGoalName(const Scene& s, std::string base) {
    while (std::any_of(s.goals.begin(), s.goals.end(), [&](const GoalSpec& g) { return g.name == base; })) base = "_" + base;
    return base;
}

void addNetworkGoal(Scene& s) {
    // roaming groups follow a goal with no cells: nobody arrives, nobody leaves
    if (std::none_of(s.groups.begin(), s.groups.end(), [](const GroupSpec& g) { return g.route_choice.enabled(); })) return;
    const std::string name = freeGoalName(s, "(network)");
    GoalSpec goal;
    goal.name = name;
    goal.exit = false;
    s.goals.push_back(goal);
    for (GroupSpec& g : s.groups)
        if (g.route_choice.enabled()) g.route = {name};
}

}  // namespace ccrowd::scene_detail
