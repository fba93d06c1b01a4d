/// @file render_frames.cpp
/// `ccrowd render`: PNG frames through an offscreen framebuffer, in an
/// OpenGL context from EGL (no X server needed) or a hidden GLFW/GLX window
/// (--gl; see headless_context.hpp).
/// Deterministic: steps and frames alternate on one thread, through the
/// same publish and fill path as `ccrowd view`.

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "plot/png.hpp"
#include "viewer/camera.hpp"
#include "viewer/frame_caption.hpp"
#include "viewer/gl.hpp"
#include "viewer/headless_context.hpp"
#include "viewer/incident_rings.hpp"
#include "viewer/offscreen.hpp"
#include "viewer/published_state.hpp"
#include "viewer/renderer.hpp"
#include "viewer/viewer.hpp"

namespace ccrowd::viewer {

int renderFrames(const RenderOptions& o) {
    // the scene first: a bad scene or option never opens a window
    const std::string scenePath = o.scene.empty() ? defaultScenePath() : o.scene;
    Scene scene = loadScene(scenePath);
    std::string note;
    const Exec ex = selectBackend(parseBackendChoice(o.backend), o.threads, &note);
    if (!note.empty() && !o.quiet) std::cerr << "note: " << note << "\n";
    std::error_code ec;
    std::filesystem::create_directories(o.out, ec);
    if (!std::filesystem::is_directory(o.out))
        throw InputError(fieldMessage("--out", "'" + o.out + "'", "cannot create the directory" + (ec ? ": " + ec.message() : ""),
                                      "a writable directory"));
    Simulation sim(std::move(scene), ex);
    if (o.overlay == Overlay::Potential && (o.potential_field < 0 || o.potential_field >= sim.fieldCount()))
        throw InputError(fieldMessage("--field", std::to_string(o.potential_field), "no such potential field",
                                      "0.." + std::to_string(sim.fieldCount() - 1)));

    // the OpenGL context: EGL or GLX, as --gl and $DISPLAY say
    HeadlessContext context(o.gl, o.width, o.height, o.quiet);
    Offscreen fb(o.width, o.height);
    Renderer renderer(sim);
    PublishedState pub(sim);
    Camera cam;
    const Scene& sc = sim.scene();
    cam.fit(sc.origin.x, sc.origin.y, sc.width, sc.height, o.width, o.height);
    const DrawSettings settings{o.overlay, o.potential_field, o.colour};

    double drawMs = 0.0;
    std::size_t drawnIncidents = 0;
    int drawnWalls = 0;
    for (int f = 0; f < o.frames; ++f) {
        // K steps (none before frame 0), then publish and fill the GL buffers
        bool stepped = false;
        for (int k = 0; f > 0 && k < o.every && !sim.finished(); ++k) {
            sim.step();
            stepped = true;
        }
        if (f == 0 || stepped) pub.publish(sim, settings.overlayRequest(), stepped);
        renderer.sync(pub, settings.colour);
        // the incidents started so far, as rings
        const std::vector<int>& started = sim.startedIncidents();
        if (started.size() != drawnIncidents) {
            renderer.setIncidents(incidentRings(sim.scene(), started));
            drawnIncidents = started.size();
        }
        // walls and goals changed by events: the cells again
        if (sim.wallsVersion() != drawnWalls) {
            renderer.setCells(sim);
            drawnWalls = sim.wallsVersion();
        }
        const auto t0 = std::chrono::steady_clock::now();
        fb.bind();
        renderer.draw(cam, 1.f);
        plot::Canvas image = fb.read();
        if (o.caption) drawCaption(image, captionOf(sim, settings.colour, pub));
        drawMs += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        char name[32];
        std::snprintf(name, sizeof name, "frame_%06d.png", f);
        plot::writePng((std::filesystem::path(o.out) / name).string(), image);
    }
    if (!o.quiet)
        std::cerr << "rendered " << o.frames << " frames of " << o.width << "x" << o.height << " px to " << o.out << " ("
                  << sim.agentCount() << " agents at t = " << sim.time() << " s, " << drawMs / o.frames
                  << " ms per frame to draw and read back; renderer " << glGetString(GL_RENDERER) << "; context "
                  << context.description() << ")\n";
    return 0;
}

}  // namespace ccrowd::viewer
