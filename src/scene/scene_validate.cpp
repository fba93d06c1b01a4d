/// @file scene_validate.cpp
/// Cross-field checks on a parsed scene (the per-field checks are in
/// scene_parse.cpp): names, references, regions inside the domain, densities
/// and agent totals.

#include <map>

#include "parse_shapes.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

namespace {

std::string quoted(const std::string& s) { return describe(json(s)); }

/// Fails on the second use of a name within one list.
template <class List>
void uniqueNames(const Scene& s, const List& items, const char* list, const char* what) {
    std::map<std::string, std::size_t> seen;
    for (std::size_t k = 0; k < items.size(); ++k) {
        const auto [it, fresh] = seen.emplace(items[k].name, k);
        if (!fresh) {
            failAt(s.label, itemPath(list, k) + "/name", quoted(items[k].name),
                   std::string("duplicate ") + what + " name (also " + itemPath(list, it->second) + "/name)",
                   std::string("a name used by no other ") + what);
        }
    }
}

/// Fails when a vertex of @p p lies outside the domain rectangle.
void insideDomain(const Scene& s, const Polygon& p, const std::string& path, const char* what) {
    const double tol = 1e-4;
    const double x0 = s.origin.x, y0 = s.origin.y;
    const double x1 = x0 + static_cast<double>(s.width), y1 = y0 + static_cast<double>(s.height);
    for (std::size_t v = 0; v < p.size(); ++v) {
        const double x = p[v].x, y = p[v].y;
        if (x < x0 - tol || x > x1 + tol || y < y0 - tol || y > y1 + tol) {
            // the scene's numbers are floats: printed as floats (0.1, not 0.10000000149011612)
            const auto f = [](double d) { return formatNumber(static_cast<float>(d)); };
            failAt(s.label, path, "", std::string(what) + " outside the domain: vertex " + std::to_string(v) +
                                          " at [" + f(x) + ", " + f(y) + "]",
                   "points within the domain [" + f(x0) + ", " + f(x1) + "] x [" + f(y0) + ", " + f(y1) + "] m");
        }
    }
}

std::string nameList(const std::vector<GoalSpec>& goals) {
    std::string out;
    for (std::size_t k = 0; k < goals.size() && k < 20; ++k) out += (k ? ", " : "") + quoted(goals[k].name);
    if (goals.size() > 20) out += ", ...";
    return out;
}

}  // namespace

void validateScene(const Scene& s) {
    // Names are unique within each list.
    uniqueNames(s, s.goals, "goals", "goal");
    uniqueNames(s, s.groups, "groups", "group");
    uniqueNames(s, s.lines, "measurement/lines", "line");
    uniqueNames(s, s.areas, "measurement/areas", "area");
    uniqueNames(s, s.barriers, "barriers", "barrier");
    uniqueNames(s, s.incidents, "incidents", "incident");

    std::map<std::string, std::size_t> goalIndex, groupIndex;
    for (std::size_t k = 0; k < s.goals.size(); ++k) goalIndex[s.goals[k].name] = k;
    for (std::size_t k = 0; k < s.groups.size(); ++k) groupIndex[s.groups[k].name] = k;

    long long total = 0;
    for (std::size_t k = 0; k < s.groups.size(); ++k) {
        const GroupSpec& g = s.groups[k];
        const std::string gp = itemPath("groups", k);
        // Routes name existing goals.
        for (std::size_t r = 0; r < g.route.size(); ++r) {
            if (!goalIndex.count(g.route[r])) {
                failAt(s.label, gp + "/route/" + std::to_string(r), quoted(g.route[r]), "unknown goal",
                       "one of the goal names: " + nameList(s.goals));
            }
        }
        // Spawn regions lie inside the domain.
        for (std::size_t m = 0; m < g.spawn.size(); ++m) {
            insideDomain(s, g.spawn[m], gp + "/spawn/" + std::to_string(m), "spawn region");
        }
        // A density cannot exceed the UIC limit.
        if (g.density > s.params.rho_limit) {
            failAt(s.label, gp + "/density", formatNumber(g.density),
                   "above the UIC density limit rho_limit = " + formatNumber(s.params.rho_limit),
                   "a number > 0 and <= rho_limit [1/m^2]");
        }
        // The total stays within the agent cap.
        total += g.count;
        if (total > scene_limits::kMaxAgents) {
            failAt(s.label, gp + "/count", std::to_string(g.count),
                   "too many agents: the groups' counts add up to " + std::to_string(total),
                   "a total of at most " + std::to_string(scene_limits::kMaxAgents) + " agents");
        }
    }

    for (std::size_t k = 0; k < s.sources.size(); ++k) {
        const SourceSpec& src = s.sources[k];
        const std::string sp = itemPath("sources", k);
        // Sources name existing groups and lie inside the domain.
        if (!groupIndex.count(src.group)) {
            std::string names;
            for (std::size_t g = 0; g < s.groups.size() && g < 20; ++g) names += (g ? ", " : "") + quoted(s.groups[g].name);
            failAt(s.label, sp + "/group", quoted(src.group), "unknown group", "one of the group names: " + names);
        }
        insideDomain(s, src.region, sp + "/region", "source region");
    }
}

}  // namespace ccrowd::scene_detail
