#pragma once
/// @file panel.hpp
/// The Dear ImGui panel of `ccrowd view` (Debian's libimgui-dev with its
/// GLFW and OpenGL 3 backends): fps, agent count, ms per stage, the drawing
/// options and seed 003's set-up menu. Builds without ImGui get a panel that
/// draws nothing (the window title then carries fps and agents).

#include <array>
#include <string>

#include "ccrowd/simulation.hpp"
#include "viewer/renderer.hpp"
#include "viewer/setup_menu.hpp"

struct GLFWwindow;

namespace ccrowd::viewer {

/// What the panel shows and edits.
struct PanelState {
    double fps = 0.0;                       ///< Frames per second (smoothed).
    double frame_ms = 0.0;                  ///< Draw time of a frame. [Units: ms]
    double sync_ms = 0.0;                   ///< Buffer writes of the last frame (0 when nothing was new). [Units: ms]
    double step_ms = 0.0;                   ///< Wall time of the last step and its publication, on the simulation thread. [Units: ms]
    int agents = 0;
    double sim_time = 0.0;                  ///< [Units: s]
    std::vector<std::string> stage_names;   ///< The simulation's stages, in step order.
    std::vector<double> stage_ms;           ///< Mean per step, per stage. [Units: ms]
    int agent_draw_calls = 0;
    DrawSettings draw;                      ///< Edited: overlay, field, colours.
    int field_count = 1;
    bool paused = false;                    ///< Edited.
    double speed = 1.0;                     ///< Edited: simulated s per real s.
    SetupParams setup;                      ///< Edited; applied on restart.
    bool restart = false;                   ///< Set by the panel's Restart button.
    std::string error;                      ///< Last restart error, shown in red.
};

class Panel {
public:
    /// Installs ImGui on @p window (chaining the callbacks set before).
    explicit Panel(GLFWwindow* window);
    ~Panel();
    Panel(const Panel&) = delete;
    Panel& operator=(const Panel&) = delete;

    /// Builds and draws the panel over the current frame.
    void draw(PanelState& s);
    /// True while ImGui uses the mouse / keyboard (the view then ignores them).
    bool wantsMouse() const;
    bool wantsKeyboard() const;
    /// False in builds without ImGui.
    static bool available();
};

}  // namespace ccrowd::viewer
