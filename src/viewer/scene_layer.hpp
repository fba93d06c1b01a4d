#pragma once
/// @file scene_layer.hpp
/// The grid layer: one quad textured with the cells (walls, floor, goal and
/// spawn tints) and, on open cells, the field overlay through viridis. The
/// overlay texture is updated from a pixel-unpack buffer that the
/// published state writes in place on the simulation's side (SharedBuffer).

#include "ccrowd/simulation.hpp"
#include "viewer/camera.hpp"
#include "viewer/published_state.hpp"
#include "viewer/shader.hpp"
#include "viewer/shared_buffer.hpp"

namespace ccrowd::viewer {

/// Colours of the cell layer. [sRGB]
namespace colours {
constexpr unsigned char kWall[3] = {64, 64, 64};
constexpr unsigned char kFloor[3] = {242, 242, 242};
constexpr unsigned char kGoal[3] = {176, 224, 176};
constexpr unsigned char kSpawn[3] = {196, 212, 240};
constexpr float kBackground[3] = {0.85f, 0.85f, 0.85f};  ///< Outside the domain.
}  // namespace colours

class SceneLayer {
public:
    /// Builds the cell texture of @p sim's grid (goals over spawn regions and sources over the floor).
    explicit SceneLayer(const Simulation& sim);
    ~SceneLayer();
    SceneLayer(const SceneLayer&) = delete;
    SceneLayer& operator=(const SceneLayer&) = delete;

    /// Shows @p pub's overlay (none when it has none): its values are
    /// written into the pixel buffer by PublishedState::fillOverlay, then
    /// copied into the texture by GL (glTexSubImage2D from the buffer).
    void setOverlay(const PublishedState& pub);
    /// Paints the cell texture again from @p sim's grid (events changed
    /// walls or goals: a door closed, a vehicle moved).
    void setCells(const Simulation& sim);
    void draw(const Camera& cam) const;

private:
    ShaderProgram program_{"grid"};
    SharedBuffer pixels_;  ///< Pixel-unpack buffer of the overlay texture.
    unsigned vao_ = 0, sceneTex_ = 0, fieldTex_ = 0, mapTex_ = 0;
    int nx_ = 0, ny_ = 0;
    float rect_[4] = {0, 0, 1, 1};
    bool overlayOn_ = false;
    float lo_ = 0.f, hi_ = 1.f;
};

}  // namespace ccrowd::viewer
