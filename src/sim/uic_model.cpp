/// @file uic_model.cpp
/// The UIC operational model (Narain et al. 2009; seed 003 §2.3-2.4): a
/// unilateral-incompressibility pressure, solved on the UIC's own grid of
/// cells about a perception radius wide (kernels/uic_grid.hpp), corrects
/// the preferred velocities; agents take the corrected velocity from its
/// faces and advect, and a minimum-distance separation keeps them d_min
/// apart and out of walls.

#include "kernels/pressure.hpp"
#include "kernels/separate.hpp"
#include "kernels/stages.hpp"
#include "kernels/uic_grid.hpp"
#include "sim/operational_model.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

class UicModel final : public OperationalModel {
public:
    const char* name() const override { return "uic"; }

    std::vector<Stage> stages(SimState& s) override {
        // the model's own fields, on the backend's side: the fine splat of
        // the preferred velocities, and the UIC grid (uic_grid.hpp)
        layout_ = UicLayout{uicFactor(s.scene.params.perception_radius, s.grid.h), 0, 0};
        ug_ = uicGrid(s.gi, layout_.c, s.scene.params.pressure_grid_shift);
        meanPreferred_.assign(s.grid.nx, s.grid.ny, Vel2{});
        uicVelocity_.assign(ug_.nx, ug_.ny, Vel2{});
        corrected_.assign(ug_.nx, ug_.ny, Vel2{});
        faceGradient_.assign(ug_.nx, ug_.ny, Vel2{});
        uicDensity_.assign(ug_.nx, ug_.ny, 0.f);
        uicPressure_.assign(ug_.nx, ug_.ny, 0.f);
        uicBlocked_.assign(ug_.nx, ug_.ny, 0);
        uicAperture_.assign(ug_.nx, ug_.ny, Face4{});
        for (Field<Vel2>* f : {&meanPreferred_, &uicVelocity_, &corrected_, &faceGradient_}) f->toDevice(s.ex);
        for (Field<float>* f : {&uicDensity_, &uicPressure_}) f->toDevice(s.ex);
        uicBlocked_.toDevice(s.ex);
        uicAperture_.toDevice(s.ex);
        return {
            {"pressure", StagePhase::Move, {"agents.preferred", "agents.order", "density", "walls", "active_box"},
             {"pressure"}, [this](SimState& st) { runPressure(st); }},
            {"agents", StagePhase::Move, {"agents.preferred", "pressure", "walls"}, {"agents.velocity", "agents.position"},
             [this](SimState& st) { runAgents(st); }},
            {"separate", StagePhase::Move, {"agents.position", "agents.velocity", "walls"}, {"agents.position", "agents.velocity"},
             [this](SimState& st) { runSeparate(st); }},
        };
    }

    std::size_t agentBufferBytes() const override {
        return (separateWs_.x.vector().capacity() + separateWs_.y.vector().capacity()) * sizeof(float);
    }
    std::size_t gridBufferBytes() const override {
        return (meanPreferred_.size() + uicVelocity_.size() + corrected_.size() + faceGradient_.size()) * sizeof(Vel2) +
               (uicDensity_.size() + uicPressure_.size()) * sizeof(float) + uicBlocked_.size() +
               uicAperture_.size() * sizeof(Face4) +
               static_cast<std::size_t>(pressureWs_.residual.size()) * sizeof(float) +
               static_cast<std::size_t>(pressureWs_.cells.size()) * sizeof(PressureCell) +
               static_cast<std::size_t>(pressureWs_.hot.size()) +
               static_cast<std::size_t>(separateWs_.grid.first.size()) * sizeof(int);
    }

private:
    /// The walls of the UIC grid's cells in @p box (clamped to the grid),
    /// from the scene's at this step's shift.
    void updateWalls(SimState& s, const CellRange& box) {
        uicWalls(s.ex, layout_, box, s.grid.open_fraction.view(s.ex),
                 s.grid.aperture_x.view(s.ex), s.grid.aperture_y.view(s.ex), uicBlocked_.view(s.ex),
                 uicAperture_.view(s.ex));
        wallsVersion_ = s.wallsVersion;
    }

    /// (g) UIC pressure (Narain 2009 §4) on the UIC grid: mean preferred
    /// velocity, restriction, the LCP, the pressure copied to the fine grid.
    void runPressure(SimState& s) {
        const Exec& ex = s.ex;
        const ModelParams& mp = s.scene.params;
        // this step's place of the UIC grid
        if (mp.pressure_grid_shift) {
            layout_ = uicShift(layout_.c, s.steps);
            ug_ = uicGridAt(s.gi, layout_);
        }
        const AgentViews a = s.agents.views();
        splat(ex, a, a.px, a.py, s.gi, s.box, s.splatWs, {}, meanPreferred_.view(ex));
        // the UIC grid's walls: a moving grid's in the box and the cells
        // around it (what the pressure and the agents read), every step; a
        // fixed grid's everywhere, when the walls change
        const CellRange box = uicBox(s.box, layout_);
        if (mp.pressure_grid_shift)
            updateWalls(s, CellRange{box.i0 - 1, box.j0 - 1, box.i1 + 1, box.j1 + 1});
        else if (wallsVersion_ != s.wallsVersion)
            updateWalls(s, CellRange{0, 0, ug_.nx, ug_.ny});
        // persons / open area and mean preferred velocity per UIC cell
        uicRestrict(ex, layout_, s.box, box, s.density.view(ex), meanPreferred_.view(ex), s.grid.open_fraction.view(ex),
                    uicDensity_.view(ex), uicVelocity_.view(ex));
        // the LCP on the UIC cells, their faces' open fractions included,
        // from the last step's pressure (a moving grid's: less than a UIC
        // cell away)
        const PressureParams pp{mp.rho_limit, mp.dt, mp.pressure_iterations, mp.pressure_tolerance, mp.pressure_omega, 4};
        const PressureStats ps = pressure(ex, ug_, box, pp, uicDensity_.view(ex), uicVelocity_.view(ex),
                                          uicBlocked_.view(ex), uicAperture_.view(ex), pressureWs_,
                                          uicPressure_.view(ex), corrected_.view(ex));
        // the shared (fine) pressure field, for snapshots and the viewer
        uicProlong(ex, layout_, uicPressure_.view(ex), s.pressure.view(ex));
        s.report.pressure_residual = ps.residual;
        s.report.pressure_iterations = ps.iterations;
        s.report.pressure_converged = ps.converged;
    }

    /// (h) agents: corrected velocity from the UIC grid's faces, clamp,
    /// advect (never across a wall).
    void runAgents(SimState& s) {
        const AgentViews a = s.agents.views();
        agentVelocity(s.ex, a, ug_, uicPressure_.view(s.ex), uicBlocked_.view(s.ex), uicAperture_.view(s.ex),
                      faceGradient_.view(s.ex));
        // bodies (centre + the largest radius) stay clear of walls and the grid's edge
        advect(s.ex, a, wallView(s.ex, s.gi, s.walls), s.scene.params.dt, largestBodyRadius(s.scene));
    }

    /// (i) separate: minimum distance d_min between agents and from walls.
    void runSeparate(SimState& s) {
        const ModelParams& mp = s.scene.params;
        separate(s.ex, s.agents.views(), s.gi, wallView(s.ex, s.gi, s.walls), mp.d_min, mp.separation_passes,
                 s.splatWs.sort, separateWs_, largestBodyRadius(s.scene), s.scene.params.dt);
    }

    UicLayout layout_;                      ///< The UIC grid on the fine grid, this step's shift.
    GridInfo ug_;                           ///< The UIC grid (uic_grid.hpp) at layout_.
    int wallsVersion_ = -1;                 ///< SimState::wallsVersion of the fixed grid's walls.
    Field<Vel2> meanPreferred_;             ///< Fine splat of the preferred velocities.
    Field<Vel2> uicVelocity_, corrected_;   ///< UIC grid: mean preferred and corrected velocity.
    Field<Vel2> faceGradient_;              ///< UIC grid: pressure gradient across each cell's W and S face (agents stage).
    Field<float> uicDensity_, uicPressure_; ///< UIC grid: density and pressure.
    Field<std::uint8_t> uicBlocked_;        ///< UIC grid: cells with (almost) no open area.
    Field<Face4> uicAperture_;              ///< UIC grid: open fraction of each face.
    PressureWorkspace pressureWs_;
    SeparateWorkspace separateWs_;
};

}  // namespace

std::unique_ptr<OperationalModel> makeUicModel() { return std::make_unique<UicModel>(); }

}  // namespace ccrowd::sim
