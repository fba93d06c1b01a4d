/// @file uic_model.cpp
/// The UIC operational model (Narain et al. 2009; seed 003 §2.3-2.4): a
/// unilateral-incompressibility pressure on the grid corrects the preferred
/// velocities, agents take the corrected velocity and advect, and a
/// minimum-distance separation keeps them d_min apart and out of walls.

#include "kernels/pressure.hpp"
#include "kernels/separate.hpp"
#include "kernels/stages.hpp"
#include "sim/operational_model.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

class UicModel final : public OperationalModel {
public:
    const char* name() const override { return "uic"; }

    std::vector<Stage> stages(SimState& s) override {
        // the model's own fields, on the backend's side
        meanPreferred_.assign(s.grid.nx, s.grid.ny, Vel2{});
        perceivedPreferred_.assign(s.grid.nx, s.grid.ny, Vel2{});
        corrected_.assign(s.grid.nx, s.grid.ny, Vel2{});
        for (Field<Vel2>* f : {&meanPreferred_, &perceivedPreferred_, &corrected_}) f->toDevice(s.ex);
        return {
            {"pressure", StagePhase::Move, {"agents.preferred", "agents.order", "density", "walls", "pressure", "active_box"},
             {"pressure"}, [this](SimState& st) { runPressure(st); }},
            {"agents", StagePhase::Move, {"agents.preferred", "pressure", "walls"}, {"agents.velocity", "agents.position"},
             [](SimState& st) { runAgents(st); }},
            {"separate", StagePhase::Move, {"agents.position", "walls"}, {"agents.position"},
             [this](SimState& st) { runSeparate(st); }},
        };
    }

    std::size_t agentBufferBytes() const override {
        return (separateWs_.x.vector().capacity() + separateWs_.y.vector().capacity()) * sizeof(float);
    }
    std::size_t gridBufferBytes() const override {
        return (meanPreferred_.size() + perceivedPreferred_.size() + corrected_.size()) * sizeof(Vel2) +
               static_cast<std::size_t>(pressureWs_.residual.size()) * sizeof(float) +
               static_cast<std::size_t>(separateWs_.grid.first.size()) * sizeof(int);
    }

private:
    /// (g) UIC pressure (Narain 2009): mean preferred velocity, then the LCP.
    void runPressure(SimState& s) {
        const Exec& ex = s.ex;
        const ModelParams& mp = s.scene.params;
        const AgentViews a = s.agents.views();
        splat(ex, a, a.px, a.py, s.gi, s.box, s.splatWs, {}, meanPreferred_.view(ex));
        const PressureParams pp{mp.rho_limit, mp.dt, mp.pressure_iterations, mp.pressure_tolerance, mp.pressure_omega, 4};
        // the UIC limits the density at the same physical scale (centred window):
        // on the raw splat a lone person is up to 1/h^2 persons/m^2, above
        // the limit on any grid finer than 0.43 m
        perceive(ex, s.gi, s.box, mp.perception_radius, s.density.view(ex), meanPreferred_.view(ex),
                 s.grid.blocked.view(ex), s.perceiveWs, s.perceivedDensity.view(ex), perceivedPreferred_.view(ex));
        const PressureStats ps = pressure(ex, s.gi, s.box, pp, s.perceivedDensity.view(ex), perceivedPreferred_.view(ex),
                                          s.grid.blocked.view(ex), pressureWs_, s.pressure.view(ex), corrected_.view(ex));
        s.report.pressure_residual = ps.residual;
        s.report.pressure_iterations = ps.iterations;
        s.report.pressure_converged = ps.converged;
    }

    /// (h) agents: corrected velocity, clamp, advect (never into walls).
    static void runAgents(SimState& s) {
        const AgentViews a = s.agents.views();
        agentVelocity(s.ex, a, s.gi, s.pressure.view(s.ex), s.grid.blocked.view(s.ex));
        // bodies (centre + the largest radius) stay clear of walls and the grid's edge
        advect(s.ex, a, s.gi, s.grid.blocked.view(s.ex), s.scene.params.dt, largestBodyRadius(s.scene));
    }

    /// (i) separate: minimum distance d_min between agents and from walls.
    void runSeparate(SimState& s) {
        const ModelParams& mp = s.scene.params;
        separate(s.ex, s.agents.views(), s.gi, s.grid.blocked.view(s.ex), mp.d_min, mp.separation_passes,
                 s.splatWs.sort, separateWs_, largestBodyRadius(s.scene));
    }

    Field<Vel2> meanPreferred_, perceivedPreferred_, corrected_;
    PressureWorkspace pressureWs_;
    SeparateWorkspace separateWs_;
};

}  // namespace

std::unique_ptr<OperationalModel> makeUicModel() { return std::make_unique<UicModel>(); }

}  // namespace ccrowd::sim
