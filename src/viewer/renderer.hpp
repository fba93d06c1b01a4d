#pragma once
/// @file renderer.hpp
/// Draws a published simulation state: the grid layer (walls, goals, spawn
/// regions, field overlay), the potential's velocity arrows, and the agents
/// in one instanced draw call. Needs a current OpenGL 3.3 context. The GL
/// buffers are written in place from the PublishedState, on the
/// simulation's side (no CUDA here: see shared_buffer.hpp).

#include "ccrowd/simulation.hpp"
#include "viewer/agent_layer.hpp"
#include "viewer/camera.hpp"
#include "viewer/line_layer.hpp"
#include "viewer/options.hpp"
#include "viewer/published_state.hpp"
#include "viewer/scene_layer.hpp"

namespace ccrowd::viewer {

/// What is drawn.
struct DrawSettings {
    Overlay overlay = Overlay::None;
    int potential_field = 0;          ///< Field of Overlay::Potential. [Limit: 0..fieldCount-1]
    ColourBy colour = ColourBy::Group;
    /// The overlay part, as the publisher is asked for it.
    OverlayRequest overlayRequest() const { return {overlay, potential_field}; }
};

class Renderer {
public:
    /// Loads the shaders and builds the grid layer of @p sim (its scene and
    /// grid, which no step changes).
    explicit Renderer(const Simulation& sim);

    /// Brings the GL buffers up to date with @p pub (whose lock the caller
    /// holds): the agent instance records after a new publication or a
    /// change of @p colour, the overlay texture and arrows after a new
    /// overlay publication. Nothing is written when nothing changed (the
    /// vertex shader interpolates between the two published positions).
    void sync(const PublishedState& pub, ColourBy colour);
    /// Draws into the current framebuffer (viewport already set to @p cam's size).
    /// @param alpha Interpolation between the previous (0) and the last step (1).
    void draw(const Camera& cam, float alpha) const;
    /// The started incidents' rings (incident_rings.hpp), drawn over the
    /// floor in black until the next call. [Units: m] [Size: 4 per segment]
    void setIncidents(const std::vector<float>& rings);
    /// The cells again from @p sim's grid (SceneLayer::setCells).
    void setCells(const Simulation& sim) { scene_.setCells(sim); }

    int agentsDrawn() const { return agents_.count(); }
    /// Draw calls of the agents in the last draw (1 whatever their number).
    int agentDrawCalls() const { return agents_.lastDrawCalls(); }
    /// Time of the last sync (buffer writes). [Units: ms]
    double lastSyncMs() const { return syncMs_; }

private:
    SceneLayer scene_;
    AgentLayer agents_;
    LineLayer arrows_;
    LineLayer incidents_;
    long long agentsVersion_ = -1, overlayVersion_ = -1;
    ColourBy colour_ = ColourBy::Group;
    double syncMs_ = 0.0;
};

}  // namespace ccrowd::viewer
