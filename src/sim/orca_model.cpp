/// @file orca_model.cpp
/// The ORCA operational model (van den Berg et al. 2011, the RVO2 library;
/// kernels/orca.hpp): the continuum's preferred velocity is each person's
/// preferred velocity and the free speed its maximum; one stage picks every
/// new velocity by ORCA's linear program against neighbours and walls, then
/// advection keeps bodies out of walls, and the separation keeps bodies
/// from overlapping where the program was infeasible.

#include <algorithm>
#include <utility>

#include "kernels/orca.hpp"
#include "kernels/separate.hpp"
#include "sim/operational_model.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

static_assert(kOrcaNeighbourLimit == kOrcaMaxNeighbours, "the scene's max_neighbours limit is the kernel's array size");

namespace {

class OrcaModel final : public OperationalModel {
public:
    const char* name() const override { return "orca"; }

    std::vector<Stage> stages(SimState& s) override {
        const OrcaSpec& o = s.scene.params.orca;
        params_ = OrcaParams{o.time_horizon, o.time_horizon_obst, o.neighbour_dist, o.max_neighbours};
        prepare(s);
        return {
            {"orca", StagePhase::Move,
             {"agents.preferred", "agents.velocity", "agents.position", "agents.field", "walls"},
             {"agents.velocity"}, [this](SimState& st) { runOrca(st); }},
            {"agents", StagePhase::Move, {"agents.velocity", "walls"}, {"agents.position"},
             [](SimState& st) { runAdvect(st); }},
            {"separate", StagePhase::Move, {"agents.position", "agents.velocity", "walls"}, {"agents.position", "agents.velocity"},
             [this](SimState& st) { runSeparate(st); }},
        };
    }

    std::size_t agentBufferBytes() const override {
        return (ws_.vx.vector().capacity() + ws_.vy.vector().capacity()) * sizeof(float);
    }
    std::size_t gridBufferBytes() const override {
        return walls_.bytes() + static_cast<std::size_t>(ws_.grid.first.size()) * sizeof(int) +
               static_cast<std::size_t>(radiusOf_.size()) * sizeof(float);
    }

private:
    /// The per-field radii and the wall index, for the state's fields and
    /// walls (again when events changed either).
    void prepare(SimState& s) {
        // per field: the body radius of its group
        const int fields = s.fields.size();
        radiusOf_.resize(fields);
        for (int f = 0; f < fields; ++f)
            radiusOf_[static_cast<std::size_t>(f)] =
                s.scene.groups[static_cast<std::size_t>(s.fields.group[static_cast<std::size_t>(f)])].radius;
        radiusOf_.toDevice(s.ex);
        // the wall edges near each cell within the fastest group's obstacle horizon
        float maxSpeed = 0.f;
        for (const GroupSpec& g : s.scene.groups) maxSpeed = std::max(maxSpeed, g.speed.max);
        buildWallIndex(s.ex, s.grid.walls, s.gi, orcaWallReach(params_, maxSpeed, largestBodyRadius(s.scene)), walls_);
        wallsVersion_ = s.wallsVersion;
    }

    /// New velocities by ORCA (van den Berg et al. 2011 §5).
    void runOrca(SimState& s) {
        if (wallsVersion_ != s.wallsVersion || radiusOf_.size() != s.fields.size()) prepare(s);
        const Exec& ex = s.ex;
        orcaVelocity(ex, s.agents.views(), s.gi, wallView(ex, s.gi, walls_), params_, radiusOf_.view(ex),
                     s.scene.params.dt, s.splatWs.sort, ws_);
    }

    /// Advect, bodies (centre + the largest radius) clear of walls and the grid's edge.
    static void runAdvect(SimState& s) {
        advect(s.ex, s.agents.views(), wallView(s.ex, s.gi, s.walls), s.scene.params.dt, largestBodyRadius(s.scene));
    }

    /// Bodies apart: where the crowd is too dense for ORCA's 2D program, its
    /// 3D fallback only minimises the half-planes' largest violation (van
    /// den Berg et al. 2011 §5.3), and bodies overlapped by up to 1.5 cm in
    /// eight_groups (seeds 1-9). The UIC's minimum-distance relaxation at
    /// twice the largest body radius (bodies touching) removes that. It
    /// borrows the ORCA stage's buffers (an agent-sized pair and the
    /// neighbour grid's table, each used only within its own stage), so the
    /// model stays within issue 11's 64 bytes per agent.
    void runSeparate(SimState& s) {
        SeparateWorkspace sep;
        sep.x = std::move(ws_.vx);
        sep.y = std::move(ws_.vy);
        sep.grid.first = std::move(ws_.grid.first);
        const float r = largestBodyRadius(s.scene);
        separate(s.ex, s.agents.views(), s.gi, wallView(s.ex, s.gi, s.walls), 2.f * r, s.scene.params.separation_passes,
                 s.splatWs.sort, sep, r, s.scene.params.dt);
        ws_.vx = std::move(sep.x);
        ws_.vy = std::move(sep.y);
        ws_.grid.first = std::move(sep.grid.first);
    }

    OrcaParams params_;
    Array<float> radiusOf_;
    WallIndex walls_;  ///< Wall edges within ORCA's obstacle horizon of each cell.
    int wallsVersion_ = -1;  ///< SimState::wallsVersion walls_ was built for.
    OrcaWorkspace ws_;
};

}  // namespace

std::unique_ptr<OperationalModel> makeOrcaModel() { return std::make_unique<OrcaModel>(); }

}  // namespace ccrowd::sim
