/// @file viewer_commands.cpp
/// `ccrowd view [SCENE]` and `ccrowd render [SCENE] ...`. Both always exist;
/// in builds without the viewer (CCROWD_HAVE_VIEWER 0) they exit 2 and name
/// the Debian packages to install.

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <string>

#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "cli/commands.hpp"
#include "viewer/options.hpp"
#if CCROWD_HAVE_VIEWER
#include "viewer/render_bench.hpp"
#include "viewer/viewer.hpp"
#endif

namespace ccrowd::cli {

namespace {

/// Exit code and message of a command this build does not have.
[[maybe_unused]] int noViewer(const char* command) {
    std::cerr << "ccrowd " << command << ": this build has no viewer (configured with CCROWD_VIEWER=OFF, or OpenGL, GLFW or GLEW were not found).\n"
              << "Install the Debian packages " CCROWD_VIEWER_PACKAGES "\n"
              << "and reconfigure with -DCCROWD_VIEWER=AUTO or ON.\n";
    return 2;
}

template <class E, std::size_t N>
std::map<std::string, E> nameMap(const char* const (&names)[N]) {
    std::map<std::string, E> m;
    for (std::size_t k = 0; k < N; ++k) m[names[k]] = static_cast<E>(k);
    return m;
}

void addCommonOptions(CLI::App* cmd, viewer::CommonOptions& o) {
    cmd->add_option("scene", o.scene, "Scene file (JSON, see scenes/README.md); default: the bundled default scene");
    cmd->add_option("--backend", o.backend, "auto (CUDA when a GPU works, else CPU), cpu, or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    cmd->add_option("--threads", o.threads, "CPU threads (0 = all cores)")->check(CLI::Range(0, 1024))->capture_default_str();
    cmd->add_option("--overlay", o.overlay,
                    "Field under the agents: none, density [1/m^2], speed (mean speed of the splat) [m/s], pressure (UIC), "
                    "potential (of --field, with its desired-velocity arrows), discomfort (Treuille's g, as events leave it: fire, smoke)")
        ->transform(CLI::CheckedTransformer(nameMap<viewer::Overlay>(viewer::kOverlayNames), CLI::ignore_case));
    cmd->add_option("--field", o.potential_field, "Potential field shown by --overlay potential (one per group and route step)")
        ->check(CLI::Range(0, 1 << 20))
        ->capture_default_str();
    cmd->add_option("--colour", o.colour, "Agent colour: group (the scene's group colours), speed or pressure (viridis)")
        ->transform(CLI::CheckedTransformer(nameMap<viewer::ColourBy>(viewer::kColourNames), CLI::ignore_case));
    cmd->add_flag("--quiet", o.quiet, "No notes on stderr");
    cmd->add_flag("!--no-caption", o.caption,
                  "Leave out the caption of frames and screenshots (simulated time, agents per group with their colours, the "
                  "overlay's colour scale)");
}

/// Parses "WxH" into @p w, @p h (16..8192 each).
std::string parseSize(const std::string& text, int& w, int& h) {
    int a = 0, b = 0;
    char x = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &a, &x, &b, &extra) != 3 || (x != 'x' && x != 'X') || a < 16 || b < 16 ||
        a > 8192 || b > 8192)
        return "expected WIDTHxHEIGHT in pixels, each 16..8192 (e.g. 1280x720), got '" + text + "'";
    w = a;
    h = b;
    return {};
}

/// Parses a --gl value (auto, egl, glx; any case) into @p gl.
std::string parseGlApi(const std::string& text, viewer::GlApi& gl) {
    std::string lower = text;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::map<std::string, viewer::GlApi> names = nameMap<viewer::GlApi>(viewer::kGlApiNames);
    const auto it = names.find(lower);
    if (it == names.end()) return "unknown OpenGL context API '" + text + "'; allowed values: auto, egl, glx";
    gl = it->second;
    return {};
}

}  // namespace

void passiveOpenMpForViewer(int argc, char** argv) {
    if (argc < 2 || std::getenv("OMP_WAIT_POLICY")) return;
    bool viewer = false;
    for (int k = 1; k < argc && !viewer; ++k) viewer = !std::strcmp(argv[k], "view") || !std::strcmp(argv[k], "render");
    if (!viewer) return;
    // libgomp reads the policy once, at start-up: restart with it set
    ::setenv("OMP_WAIT_POLICY", "passive", 1);
    ::execv("/proc/self/exe", argv);  // returns only on failure: then carry on as we are
}

void addViewerCommands(CLI::App& app, Commands& commands) {
    // ccrowd render
    auto r = std::make_shared<viewer::RenderOptions>();
    CLI::App* render = app.add_subcommand(
        "render", "Render a scene headless to PNG frames through an offscreen OpenGL framebuffer (EGL needs no X "
                  "server; see --gl): frame_000000.png is the initial state, then one frame every K steps.");
    addCommonOptions(render, *r);
    render->add_option("--frames", r->frames, "Number of frames to write")->check(CLI::Range(1, 1000000))->capture_default_str();
    render->add_option("--every", r->every, "Simulation steps between frames")->check(CLI::Range(1, 1000000000))->capture_default_str();
    render->add_option("--out", r->out, "Output directory (created if missing; required unless --bench-agents)");
    render->add_option("--bench-agents", r->bench_agents,
                       "Render benchmark instead: mean time of a step's publication and of a frame (instance records "
                       "written into the mapped buffer + one instanced draw, glFinish) for these agent counts, e.g. 10000,100000,1000000; CSV on stdout")
        ->delimiter(',')
        ->check(CLI::Range(1LL, 10000000LL));
    render->add_option("--size", "Image size WIDTHxHEIGHT in pixels (default 960x720)")
        ->check(CLI::Validator([r](std::string& s) { return parseSize(s, r->width, r->height); }, "WxH"));
    render->add_option("--gl",
                       "Where the OpenGL context comes from: auto (EGL when DISPLAY is unset or empty, else GLX, then EGL if "
                       "GLX fails), egl (no X server: EGL's device platform, NVIDIA GPUs first or Mesa's software device, else "
                       "Mesa's surfaceless platform, else the default display), "
                       "glx (a hidden GLFW window on the X server of DISPLAY, e.g. under xvfb-run); default auto")
        ->check(CLI::Validator([r](std::string& s) { return parseGlApi(s, r->gl); }, "auto|egl|glx"));
    render->callback([r, &commands] {
#if CCROWD_HAVE_VIEWER
        commands.action = [r] {
            if (!r->bench_agents.empty()) return viewer::benchRender(r->bench_agents, r->width, r->height, std::max(r->frames, 5), r->gl);
            if (r->out.empty()) throw InputError(fieldMessage("--out", "missing", "ccrowd render writes PNG frames", "an output directory"));
            return viewer::renderFrames(*r);
        };
#else
        commands.action = [] { return noViewer("render"); };
#endif
    });

    // ccrowd view
    auto v = std::make_shared<viewer::ViewOptions>();
    CLI::App* view = app.add_subcommand(
        "view", "Interactive viewer: drag to pan, wheel to zoom about the cursor, space pause, N single step, +/- faster/"
                "slower, R reset, O next overlay, C next agent colouring, G next potential field, P screenshot, Esc quit.");
    addCommonOptions(view, *v);
    view->add_option("--size", "Window size WIDTHxHEIGHT in pixels (default 960x720)")
        ->check(CLI::Validator([v](std::string& s) { return parseSize(s, v->width, v->height); }, "WxH"));
    view->add_option("--speed", v->speed, "Simulated seconds per real second at start")->check(finiteNumber() & CLI::Range(1e-3, 1e3))->capture_default_str();
    view->add_flag("--paused", v->paused, "Start paused");
    view->add_option("--max-frames", v->max_frames, "Close after this many frames (for smoke tests)")->check(CLI::Range(1LL, 1LL << 40));
    view->callback([v, &commands] {
#if CCROWD_HAVE_VIEWER
        commands.action = [v] { return viewer::viewScene(*v); };
#else
        commands.action = [] { return noViewer("view"); };
#endif
    });
}

}  // namespace ccrowd::cli
