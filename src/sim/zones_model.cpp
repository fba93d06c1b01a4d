/// @file zones_model.cpp
/// The zone-repulsion operational model (seed 000 §4.6.3; kernels/zones.hpp):
/// the continuum's preferred velocity plus three-zone repulsion from the
/// neighbours, clamped to the free speed, then advection that keeps bodies
/// out of walls.

#include "kernels/zones.hpp"
#include "sim/operational_model.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd::sim {

namespace {

class ZonesModel final : public OperationalModel {
public:
    const char* name() const override { return "zones"; }

    std::vector<Stage> stages(SimState& s) override {
        const ZonesSpec& z = s.scene.params.zones;
        params_ = ZonesParams{z.d1, z.d2, z.d3, z.f1, z.f2, z.f3, z.push_cap};
        return {
            {"zones", StagePhase::Move, {"agents.preferred", "agents.position", "walls"}, {"agents.velocity"},
             [this](SimState& st) { runZones(st); }},
            {"agents", StagePhase::Move, {"agents.velocity", "walls"}, {"agents.position"},
             [](SimState& st) { runAdvect(st); }},
        };
    }

    std::size_t agentBufferBytes() const override { return 0; }
    std::size_t gridBufferBytes() const override {
        return static_cast<std::size_t>(ws_.first.size()) * sizeof(int);
    }

private:
    /// Preferred velocity plus the zone repulsions (seed 000 listings 4.7-4.8).
    void runZones(SimState& s) {
        zonesVelocity(s.ex, s.agents.views(), s.gi, wallView(s.ex, s.gi, s.walls), largestBodyRadius(s.scene), params_,
                      s.splatWs.sort, ws_);
    }

    /// Advect, bodies (centre + the largest radius) clear of walls and the grid's edge.
    static void runAdvect(SimState& s) {
        advect(s.ex, s.agents.views(), wallView(s.ex, s.gi, s.walls), s.scene.params.dt, largestBodyRadius(s.scene));
    }

    ZonesParams params_;
    NeighbourGridBuffers ws_;
};

}  // namespace

std::unique_ptr<OperationalModel> makeZonesModel() { return std::make_unique<ZonesModel>(); }

}  // namespace ccrowd::sim
