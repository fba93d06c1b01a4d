/// @file field_stages.cpp
/// The continuum's stages as pipeline stages; their maths is in kernels/.

#include "sim/field_stages.hpp"

#include <algorithm>

#include "kernels/desired_velocity.hpp"
#include "kernels/stages.hpp"
#include "kernels/walking_speed.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

/// (a) active box: per-cell work stays inside the crowd's AABB + margin (seed 003 §2.2).
/// After an event changed the environment: the whole grid once (the active
/// region's cells, in a scene with one: nothing outside is open).
void runActiveBox(SimState& s) {
    s.box = activeBox(s.ex, s.agents.views(), s.gi, s.scene.params.box_margin);
    const RegionCells& r = s.region.cells;
    if (s.environmentChanged) s.box = CellRange{r.i0, r.j0, r.i1, r.j1};
}

/// (b) splat: density and mean velocity; the agents end sorted by cell.
void runSplat(SimState& s) {
    s.agents.sortByCell(s.gi, s.box, s.splatWs);
    const AgentViews a = s.agents.views();
    splat(s.ex, a, a.vx, a.vy, s.gi, s.box, s.splatWs, s.density.view(s.ex), s.meanVelocity.view(s.ex));
}

/// (c) speed on the four faces (Treuille 2006 §4.2) from the perceived density and flow.
void runSpeed(SimState& s) {
    const Exec& ex = s.ex;
    perceive(ex, s.gi, s.box, s.scene.params.perception_radius, s.density.view(ex), s.meanVelocity.view(ex),
             s.grid.open_fraction.view(ex), s.perceiveWs, s.perceivedDensity.view(ex), s.perceivedVelocity.view(ex));
    speed(ex, s.gi, s.box, s.speedParams(), s.perceivedDensity.view(ex), s.perceivedVelocity.view(ex),
          s.grid.terrain.view(ex), s.grid.blocked.view(ex), s.speed.view(ex), s.grid.closed_faces.view(ex), &s.perceiveWs);
}

/// (d) unit cost per face (Treuille 2006 eq. 4); not needed when every
/// group roams the street network (no potential is solved).
void runCost(SimState& s) {
    if (s.route.allRoam()) return;
    const Exec& ex = s.ex;
    const ModelParams& mp = s.scene.params;
    unitCost(ex, s.gi, s.box, CostParams{mp.alpha, mp.beta, mp.gamma}, s.speedParams(), s.speed.view(ex),
             s.grid.discomfort.view(ex), s.grid.terrain.view(ex), s.grid.blocked.view(ex), s.cost.view(ex),
             s.grid.closed_faces.view(ex));
}

/// (e) potential of every field some agent follows (roaming groups' fields
/// excepted: their members follow junction potentials, route_choice stage): eikonal |grad phi| = C,
/// goals as sources, all in one FIM solve (one launch and one convergence
/// test on the GPU).
void runPotential(SimState& s) {
    const Exec& ex = s.ex;
    // which fields the agents read where (their bilinear stencils)
    const AgentViews a = s.agents.views();
    fieldsRead(ex, s.gi, s.box, a.x, a.y, a.field, s.fieldsRead.view(ex));
    const std::vector<int>& used = s.agents.fieldsInUse();
    std::vector<const EikonalProblem*> probs;
    std::vector<Field<float>*> outs;
    EikonalOptions opt;
    for (std::size_t k = 0; k < s.potential.size(); ++k)
        if (used[k] && !s.route.roams(static_cast<int>(k))) {
            probs.push_back(&s.problems[k]);
            outs.push_back(&s.potential[k]);
            opt.needed.bits.push_back(fieldReadBit(static_cast<int>(k)));
        }
    // each field only until the cells its agents read are final (readers of
    // the whole field complete it first: completePotentials); not when the
    // next solve is to start from this one's complete potentials
    if (!s.scene.params.potential_warm_start) opt.needed.mask = &s.fieldsRead;
    opt.needed.i0 = s.box.i0; opt.needed.j0 = s.box.j0; opt.needed.i1 = s.box.i1; opt.needed.j1 = s.box.j1;
    opt.validate = false;  // costs come from unitCost: finite and positive by construction
    opt.download = false;  // CUDA: the potentials stay on the device; readers download
    opt.stencil = s.scene.params.potential_stencil;
    if (s.scene.params.potential_sweeps > 0) opt.inner_iterations = s.scene.params.potential_sweeps;
    if (s.scene.params.potential_band_tiles >= 0.f) opt.band_tiles = s.scene.params.potential_band_tiles;
    if (s.scene.params.potential_front_budget >= 0) opt.front_budget = s.scene.params.potential_front_budget;
    opt.profile = s.profilePotential;
    // warm start from the last step: the cost stage wrote only the active box
    // (not after an event: walls or costs changed anywhere)
    opt.warm_start = s.scene.params.potential_warm_start && !s.environmentChanged;
    s.environmentChanged = false;
    opt.changed_i0 = s.box.i0; opt.changed_j0 = s.box.j0; opt.changed_i1 = s.box.i1; opt.changed_j1 = s.box.j1;
    const std::vector<EikonalStats> stats = s.solver.solveMany(probs, outs, opt);
    // the step report: solves, convergence, work
    StepReport& r = s.report;
    const int n = static_cast<int>(stats.size());
    r.potentials_solved = n;
    r.potentials_converged = true;
    r.potential_phases = 0;
    r.potential_critical_sweeps = stats.empty() ? 0 : stats.front().critical_sweeps;  // one per solve
    r.potential_critical_fronts = stats.empty() ? 0 : stats.front().critical_fronts;
    r.potential_gpu_profile = stats.empty() ? EikonalGpuProfile{} : stats.front().gpu_profile;
    r.potential_warm = !stats.empty() && stats.front().warm;
    double upc = 0.0;
    for (const EikonalStats& st : stats) {
        r.potentials_converged = r.potentials_converged && st.converged;
        upc += st.updates_per_cell;
        r.potential_phases = std::max<long long>(r.potential_phases, st.iterations);
    }
    r.potential_updates_per_cell = n ? upc / n : 0.0;
}

/// (f) desired velocity per followed field (Treuille 2006 eq. 5) in the
/// cells its agents read, then each agent's preferred velocity from its field.
void runDesiredVelocity(SimState& s) {
    const Exec& ex = s.ex;
    const std::vector<int>& used = s.agents.fieldsInUse();
    const WalkingSpeed walk = s.walkingSpeed();
    // where the agents read each field (the potential stage's mask)
    const View2<const std::uint32_t> read = s.fieldsRead.view(ex);
    const AgentViews a = s.agents.views();
    std::vector<View2<const Vel2>> views(s.potential.size());
    for (std::size_t k = 0; k < s.potential.size(); ++k) {
        const int f = static_cast<int>(k);
        if (used[k] && !s.route.roams(f))
            desiredVelocity(ex, s.gi, s.box, s.potential[k].view(ex), walk, s.desired[k].view(ex), read, f);
        views[k] = s.desired[k].view(ex);
    }
    preferredVelocity(ex, a, s.gi, views.data(), static_cast<int>(views.size()), s.scene.params.v0,
                      s.grid.blocked.view(ex), s.grid.closed_faces.view(ex));
}

}  // namespace

void completePotentials(SimState& s) { s.solver.finish(); }

void completeDesiredVelocity(SimState& s, int k) {
    const std::size_t f = static_cast<std::size_t>(k);
    if (s.route.roams(k)) return;
    completePotentials(s);
    desiredVelocity(s.ex, s.gi, s.box, s.potential[f].view(s.ex), s.walkingSpeed(), s.desired[f].view(s.ex));
}

std::vector<std::string> initialStateItems() {
    return {"agents.position", "agents.velocity", "agents.vmax", "agents.field", "walls", "terrain", "discomfort",
            "goals", "pressure"};
}

std::vector<Stage> continuumStages() {
    const StagePhase F = StagePhase::Fields;
    return {
        {"active_box", F, {"agents.position"}, {"active_box"}, runActiveBox},
        {"splat", F, {"agents.position", "agents.velocity", "active_box"}, {"agents.order", "density", "mean_velocity"},
         runSplat},
        {"speed", F, {"density", "mean_velocity", "walls", "terrain", "active_box"},
         {"perceived_density", "perceived_velocity", "speed"}, runSpeed},
        {"cost", F, {"speed", "discomfort", "terrain", "walls", "active_box"}, {"cost"}, runCost},
        {"potential", F, {"cost", "walls", "goals", "agents.position", "agents.field", "active_box"},
         {"fields_read", "potential"}, runPotential},
        {"desired_velocity", F,
         {"potential", "fields_read", "speed", "perceived_density", "perceived_velocity", "walls", "agents.position",
          "agents.field", "agents.vmax"},
         {"desired_velocity", "agents.preferred"}, runDesiredVelocity},
    };
}

}  // namespace ccrowd::sim
