#pragma once
/// @file published_state.hpp
/// What the renderer draws, published by the simulation's thread after each
/// step on the simulation's own side (device memory on the CUDA backend,
/// host memory on the CPU): the agents (instance_fill.hpp AgentState), the
/// previous publication filed by agent id for the interpolation, and the
/// chosen field overlay. The renderer fills its mapped GL buffers from it
/// with fillInstances() / fillOverlay(), on the same side, so nothing passes
/// through the host per frame. No GL and no CUDA headers here.
///
/// Not thread-safe by itself: SimThread guards it with its mutex.

#include <vector>

#include "ccrowd/simulation.hpp"
#include "ccrowd/state_view.hpp"
#include "viewer/instance_fill.hpp"
#include "viewer/options.hpp"
#include "viewer/side_array.hpp"

namespace ccrowd::viewer {

/// The overlay a publication carries.
struct OverlayRequest {
    Overlay overlay = Overlay::None;
    int field = 0;  ///< Potential field of Overlay::Potential. [Limit: 0..fieldCount-1]
    bool operator==(const OverlayRequest& o) const { return overlay == o.overlay && field == o.field; }
};

class PublishedState {
public:
    /// Tables of @p scene's groups (radius, colour) and @p fieldGroup (the
    /// group of each potential field), on the side of @p ex.
    PublishedState(const Exec& ex, const Scene& scene, const std::vector<int>& fieldGroup);
    /// The same for @p sim's groups and fields, on its backend.
    explicit PublishedState(const Simulation& sim);

    /// Publishes @p sim between two steps: its agents (publishAgents) and the
    /// overlay @p overlay (values per cell with their range; a potential's
    /// velocity arrows). Throws InputError when @p overlay names a potential
    /// field @p sim does not have.
    /// @param stepped True after a step (the last publication becomes the
    ///        previous one); false to publish the same step again (an
    ///        overlay change), keeping the previous positions. The first
    ///        publication always counts as a step (previous = now).
    void publish(const Simulation& sim, const OverlayRequest& overlay, bool stepped);
    /// The agent part of publish(), from views on the side of exec().
    /// @param n         Agents in @p a. [Limit: >= 0]
    /// @param idEnd     One past the largest id in @p a. [Limit: > every id]
    /// @param pressure  Pressure field on @p g (empty: pressure 0).
    void publishAgents(const AgentColumnsView& a, int n, int idEnd, const GridInfo& g, View2<const float> pressure,
                       bool stepped);

    /// Writes agentCount() instance records to @p dst, a pointer on the side
    /// of exec() (a mapped GL buffer), interpolating from the previous
    /// publication by id. [Size: dst >= agentCount()]
    void fillInstances(AgentInstance* dst, ColourBy colour) const;
    /// Writes the overlay's nx*ny values (row-major, non-finite ones as
    /// overlayHi()) to @p dst on the side of exec(). Needs overlayOn().
    void fillOverlay(float* dst) const;

    const Exec& exec() const { return ex_; }
    int agentCount() const { return n_; }
    /// Publications so far (bumped by every publish or publishAgents).
    long long version() const { return version_; }
    /// Stepped publications so far (the first publication counts as one).
    int serial() const { return serial_; }
    /// Overlay publications so far (the overlay changed when this did).
    long long overlayVersion() const { return overlayVersion_; }
    bool overlayOn() const { return overlay_.overlay != Overlay::None; }
    const OverlayRequest& overlay() const { return overlay_; }
    int overlayNx() const { return grid_.nx; }
    int overlayNy() const { return grid_.ny; }
    /// Value range spread over the colour map. [Limit: hi > lo]
    float overlayLo() const { return lo_; }
    float overlayHi() const { return hi_; }
    /// Velocity arrows of a potential overlay: segments (x0, y0, x1, y1).
    /// [Units: m] [Size: 4 per segment]
    const std::vector<float>& arrows() const { return arrows_; }

private:
    void publishOverlay(const Simulation& sim, const StateView& v, const OverlayRequest& o);

    Exec ex_;
    int n_ = 0;                  ///< Agents published.
    int serial_ = 0;             ///< Stepped publication now_ belongs to (0: none yet; the first is 1).
    int lastIdEnd_ = 0;          ///< One past the largest id in now_.
    int groups_ = 0, fields_ = 0;  ///< Entries of the group and field tables.
    long long version_ = 0, overlayVersion_ = 0;
    float pressureMax_ = 0.f;    ///< Largest published agent pressure. [Units: m^2/s]
    SideArray<AgentState> now_;
    SideArray<PrevById> byId_;   ///< Publication serial_ - 1 by id (entries of other serials are stale).
    SideArray<int> fieldGroup_;
    SideArray<float> groupRadius_;
    SideArray<Rgba8> groupColour_;
    // overlay
    OverlayRequest overlay_;
    GridInfo grid_;
    SideArray<float> values_;
    float lo_ = 0.f, hi_ = 1.f;
    std::vector<float> arrows_;
};

}  // namespace ccrowd::viewer
