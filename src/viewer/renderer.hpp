#pragma once
/// @file renderer.hpp
/// Draws a simulation: the grid layer (walls, goals, spawn regions, field
/// overlay), the potential's velocity arrows, and the agents in one
/// instanced draw call. Needs a current OpenGL 3.3 context.

#include <memory>

#include "ccrowd/simulation.hpp"
#include "viewer/agent_instances.hpp"
#include "viewer/agent_layer.hpp"
#include "viewer/camera.hpp"
#include "viewer/line_layer.hpp"
#include "viewer/options.hpp"
#include "viewer/scene_layer.hpp"

namespace ccrowd::viewer {

/// What is drawn.
struct DrawSettings {
    Overlay overlay = Overlay::None;
    int potential_field = 0;          ///< Field of Overlay::Potential. [Limit: 0..fieldCount-1]
    ColourBy colour = ColourBy::Group;
    bool operator==(const DrawSettings& o) const {
        return overlay == o.overlay && potential_field == o.potential_field && colour == o.colour;
    }
};

class Renderer {
public:
    /// Loads the shaders and builds the grid layer of @p sim.
    explicit Renderer(const Simulation& sim);

    /// Brings the GL buffers up to date: after a step (@p stepped: the last
    /// positions become the previous ones), or when @p s changed.
    void sync(const Simulation& sim, const DrawSettings& s, bool stepped);
    /// Draws into the current framebuffer (viewport already set to @p cam's size).
    /// @param alpha Interpolation between the previous (0) and the last step (1).
    void draw(const Camera& cam, float alpha) const;

    int agentsDrawn() const { return agents_.count(); }
    /// Draw calls of the agents in the last draw (1 whatever their number).
    int agentDrawCalls() const { return agents_.lastDrawCalls(); }
    /// Time of the last sync's host work (instances, overlay, uploads). [Units: ms]
    double lastSyncMs() const { return syncMs_; }

private:
    SceneLayer scene_;
    AgentLayer agents_;
    LineLayer arrows_;
    AgentInstances instances_;
    DrawSettings settings_;
    bool first_ = true;
    double syncMs_ = 0.0;
};

}  // namespace ccrowd::viewer
