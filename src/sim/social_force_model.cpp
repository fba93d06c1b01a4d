/// @file social_force_model.cpp
/// The social force operational model (Helbing, Farkas & Vicsek 2000;
/// kernels/social_force.hpp): the continuum's preferred velocity is each
/// person's desired velocity; one stage integrates the forces between
/// persons and from walls in stable sub-steps.

#include <algorithm>

#include "kernels/social_force.hpp"
#include "sim/operational_model.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

/// The kernel's parameters from the scene's.
SocialForceParams paramsOf(const SocialForceSpec& s) {
    SocialForceParams p;
    p.A = s.A; p.B = s.B; p.k = s.k; p.kappa = s.kappa; p.tau = s.tau; p.mass = s.mass;
    p.range = s.range; p.panic_radius = s.panic_radius; p.max_speed = s.max_speed;
    p.injury_threshold = s.injury_threshold;
    p.step_scale = s.step_scale;
    return p;
}

class SocialForceModel final : public OperationalModel {
public:
    const char* name() const override { return "social_force"; }

    std::vector<Stage> stages(SimState& s) override {
        params_ = paramsOf(s.scene.params.social_force);
        prepare(s);
        return {
            {"social_force", StagePhase::Move,
             {"agents.preferred", "agents.velocity", "agents.position", "agents.field", "walls"},
             {"agents.velocity", "agents.position", "agents.vmax"}, [this](SimState& st) { run(st); }},
        };
    }

    std::size_t agentBufferBytes() const override {
        return ws_.bytes();
    }
    std::size_t gridBufferBytes() const override {
        return walls_.bytes() + static_cast<std::size_t>(ws_.grid.first.size()) * sizeof(int) +
               static_cast<std::size_t>(radiusOf_.size() + panicOf_.size()) * sizeof(float);
    }

private:
    /// The per-field radii and panic and the wall index, for the state's
    /// fields and walls (again when events changed either).
    void prepare(SimState& s) {
        // per field: the body radius and panic p of its group (a group's own p overrides the model's)
        const int fields = s.fields.size();
        radiusOf_.resize(fields);
        panicOf_.resize(fields);
        for (int f = 0; f < fields; ++f) {
            const GroupSpec& gs = s.scene.groups[static_cast<std::size_t>(s.fields.group[static_cast<std::size_t>(f)])];
            radiusOf_[static_cast<std::size_t>(f)] = gs.radius;
            panicOf_[static_cast<std::size_t>(f)] = gs.panic >= 0.f ? gs.panic : s.scene.params.social_force.panic;
        }
        anyPanic_ = std::any_of(panicOf_.vector().begin(), panicOf_.vector().end(), [](float v) { return v > 0.f; });
        radiusOf_.toDevice(s.ex);
        panicOf_.toDevice(s.ex);
        // the wall edges near each cell within the force's reach
        maxRadius_ = largestBodyRadius(s.scene);
        buildWallIndex(s.ex, s.grid.walls, s.gi, socialForceWallReach(maxRadius_, params_, s.gi.h), walls_);
        wallsVersion_ = s.wallsVersion;
        groupsVersion_ = s.groupsVersion;
    }

    /// Helbing 2000 eqs. 1-3 over the scene's dt, in sub-steps.
    void run(SimState& s) {
        if (wallsVersion_ != s.wallsVersion || groupsVersion_ != s.groupsVersion || radiusOf_.size() != s.fields.size()) prepare(s);
        const Exec& ex = s.ex;
        socialForce(ex, s.agents.views(), s.gi, wallView(ex, s.gi, walls_), params_, radiusOf_.view(ex),
                    panicOf_.view(ex), anyPanic_, maxRadius_, s.scene.params.dt, s.splatWs.sort, ws_);
    }

    SocialForceParams params_;
    Array<float> radiusOf_, panicOf_;
    WallIndex walls_;  ///< Wall edges within the social force's reach of each cell.
    int wallsVersion_ = -1;  ///< SimState::wallsVersion walls_ was built for.
    int groupsVersion_ = -1; ///< SimState::groupsVersion panicOf_ was copied for.
    bool anyPanic_ = false;
    float maxRadius_ = 0.f;
    SocialForceWorkspace ws_;
};

}  // namespace

std::unique_ptr<OperationalModel> makeSocialForceModel() { return std::make_unique<SocialForceModel>(); }

}  // namespace ccrowd::sim
