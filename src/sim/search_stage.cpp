/// @file search_stage.cpp
#include "sim/search_stage.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include "ccrowd/eikonal.hpp"
#include "kernels/cost.hpp"
#include "kernels/search.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

/// Walking distances to each searched field's goal, and what they were
/// computed for.
struct SearchDistances {
    std::vector<Field<float>> distance;  ///< Per field: metres to its goal (empty: nobody of it searches).
    Field<FaceCost> unit;                ///< Cost 1 s/m per open face, +inf per closed one.
    long long key = -1;                  ///< Walls, region and fields it was computed for.
};

/// The group whose agents follow field @p f.
const GroupSpec& groupOf(const SimState& s, int f) {
    return s.scene.groups[static_cast<std::size_t>(s.fields.group[static_cast<std::size_t>(f)])];
}

/// Recomputes the distances when the walls, the active region or the
/// fields changed: unit cost, closed faces kept closed, each searched
/// field's goal cells as sources.
void updateDistances(SimState& s, SearchDistances& d) {
    const long long key = (static_cast<long long>(s.wallsVersion + s.region.version) << 20) + s.fields.size();
    if (key == d.key) return;
    d.key = key;
    const int nx = s.gi.nx, ny = s.gi.ny;
    d.unit.assign(nx, ny, FaceCost{});
    if (s.grid.closed_faces.nx() == nx)
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) closeFaces(d.unit(i, j), s.grid.closed_faces(i, j));
    d.distance.resize(static_cast<std::size_t>(s.fields.size()));
    FimSolver solver(Exec{Backend::Cpu, s.ex.threads});
    for (int f = 0; f < s.fields.size(); ++f) {
        Field<float>& out = d.distance[static_cast<std::size_t>(f)];
        const EikonalProblem& goal = s.problems[static_cast<std::size_t>(f)];
        if (!(groupOf(s, f).visibility > 0.f) || goal.sources.empty()) {
            out = Field<float>();
            continue;
        }
        EikonalProblem p = goal;
        p.cost = &d.unit;
        solver.solve(p, out);
        out.toDevice(s.ex);
    }
}

}  // namespace

bool hasSearchers(const Scene& scene) {
    return std::any_of(scene.groups.begin(), scene.groups.end(), [](const GroupSpec& g) { return g.visibility > 0.f; });
}

Stage searchStage() {
    auto d = std::make_shared<SearchDistances>();
    auto run = [d](SimState& s) {
        updateDistances(s, *d);
        // one pass per searched field: its members beyond sight walk their own way
        const WallView walls = wallView(s.ex, s.gi, s.walls);
        for (int f = 0; f < s.fields.size(); ++f) {
            Field<float>& dist = d->distance[static_cast<std::size_t>(f)];
            if (dist.nx() == 0) continue;
            const GroupSpec& group = groupOf(s, f);
            search(s.ex, s.agents.views(), s.gi, walls, group.radius, dist.view(s.ex), f, group.visibility, static_cast<float>(s.time),
                   static_cast<uint32_t>(s.scene.params.seed ^ (s.scene.params.seed >> 32)));
        }
    };
    return {"search", StagePhase::Fields, {"agents.position", "agents.velocity", "agents.preferred", "walls"}, {"agents.preferred"}, run};
}

}  // namespace ccrowd::sim
