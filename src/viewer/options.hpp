#pragma once
/// @file options.hpp
/// What `ccrowd render` and `ccrowd view` are asked for. Header only and free
/// of GL, so the command line parses them in builds without the viewer too.

#include <string>
#include <vector>

namespace ccrowd::viewer {

/// Field drawn under the agents on open cells.
enum class Overlay { None, Density, Speed, Pressure, Potential, Discomfort };

/// How agent discs are coloured.
enum class ColourBy { Group, Speed, Pressure };

/// How `ccrowd render` makes its OpenGL context.
enum class GlApi {
    Auto,  ///< EGL when no display is set ($DISPLAY unset or empty), else GLX (then EGL if GLX fails)
    Egl,   ///< EGL without a surface: NVIDIA's device platform, Mesa's surfaceless platform, the default display
    Glx    ///< a hidden GLFW window (GLX under X11, as `ccrowd view`)
};

/// Names accepted by --gl, in GlApi order.
constexpr const char* kGlApiNames[] = {"auto", "egl", "glx"};

/// Names accepted by --overlay, in Overlay order.
constexpr const char* kOverlayNames[] = {"none", "density", "speed", "pressure", "potential", "discomfort"};
/// Overlays there are (O cycles through them).
constexpr int kOverlayCount = static_cast<int>(sizeof(kOverlayNames) / sizeof(kOverlayNames[0]));
/// Names accepted by --colour, in ColourBy order.
constexpr const char* kColourNames[] = {"group", "speed", "pressure"};

/// Options shared by both commands.
struct CommonOptions {
    std::string scene;              ///< Scene file ("" = the bundled default scene).
    std::string backend = "auto";   ///< auto, cpu or cuda.
    int threads = 0;                ///< CPU threads. [Limit: >= 0, 0 = all]
    Overlay overlay = Overlay::None;
    int potential_field = 0;        ///< Potential field shown by Overlay::Potential (one per group and route step). [Limit: 0..fieldCount-1]
    ColourBy colour = ColourBy::Group;
    int width = 960, height = 720;  ///< Framebuffer / window size. [Units: px] [Limit: 16..8192]
    bool quiet = false;             ///< No notes on stderr.
    bool caption = true;            ///< Frames and screenshots carry the caption (frame_caption.hpp).
};

/// `ccrowd render`: PNG frames from an offscreen framebuffer.
struct RenderOptions : CommonOptions {
    int frames = 1;                 ///< Frames written. [Limit: 1..1e6]
    int every = 1;                  ///< Steps between frames (frame 0 is the initial state). [Limit: 1..1e9]
    std::string out;                ///< Output directory (created), frames frame_000000.png ... [Limit: non-empty unless benchmarking]
    std::vector<long long> bench_agents;  ///< When set: run the render benchmark for these agent counts instead (no scene).
    GlApi gl = GlApi::Auto;         ///< Where the OpenGL context comes from (--gl).
};

/// `ccrowd view`: the interactive window.
struct ViewOptions : CommonOptions {
    double speed = 1.0;             ///< Simulated seconds per real second at start. [Limit: > 0]
    bool paused = false;            ///< Start paused.
    long long max_frames = -1;      ///< Close after this many frames (-1: when the window closes; for smoke tests).
};

}  // namespace ccrowd::viewer
