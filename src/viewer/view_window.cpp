/// @file view_window.cpp
/// `ccrowd view`: the interactive window. The simulation steps on its own
/// thread at its own rate (SimThread: fixed dt, `speed` simulated seconds
/// per real second) and publishes each step; every frame the renderer takes
/// the last publication and interpolates agent positions between the last
/// two steps (seed 002 §5.2), so a slow step never stalls the frame rate.

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "plot/png.hpp"
#include "viewer/camera.hpp"
#include "viewer/frame_caption.hpp"
#include "viewer/gl.hpp"
#include "viewer/gl_window.hpp"
#include "viewer/incident_rings.hpp"
#include "viewer/offscreen.hpp"
#include "viewer/panel.hpp"
#include "viewer/renderer.hpp"
#include "viewer/setup_menu.hpp"
#include "viewer/sim_thread.hpp"
#include "viewer/viewer.hpp"

namespace ccrowd::viewer {

namespace {

/// Input gathered by the GLFW callbacks between two frames.
struct Input {
    double scroll = 0.0;            ///< Wheel clicks (up > 0).
    bool pause = false, step = false, faster = false, slower = false, reset = false, screenshot = false;
    bool nextOverlay = false, nextColour = false, nextField = false, quit = false;
};

Input& inputOf(GLFWwindow* w) { return *static_cast<Input*>(glfwGetWindowUserPointer(w)); }

extern "C" void onScroll(GLFWwindow* w, double, double dy) { inputOf(w).scroll += dy; }

extern "C" void onKey(GLFWwindow* w, int key, int, int action, int) {
    if (action != GLFW_PRESS && action != GLFW_REPEAT) return;
    Input& in = inputOf(w);
    switch (key) {
    case GLFW_KEY_SPACE: in.pause = true; break;
    case GLFW_KEY_N: in.step = true; break;
    case GLFW_KEY_EQUAL: case GLFW_KEY_KP_ADD: in.faster = true; break;
    case GLFW_KEY_MINUS: case GLFW_KEY_KP_SUBTRACT: in.slower = true; break;
    case GLFW_KEY_R: in.reset = true; break;
    case GLFW_KEY_P: in.screenshot = true; break;
    case GLFW_KEY_O: in.nextOverlay = true; break;
    case GLFW_KEY_C: in.nextColour = true; break;
    case GLFW_KEY_G: in.nextField = true; break;
    case GLFW_KEY_ESCAPE: in.quit = true; break;
    default: break;
    }
}

/// First free ccrowd_screenshot_NNN.png in the working directory.
std::string screenshotPath() {
    for (int k = 0;; ++k) {
        char name[40];
        std::snprintf(name, sizeof name, "ccrowd_screenshot_%03d.png", k);
        if (!std::filesystem::exists(name)) return name;
    }
}

}  // namespace

int viewScene(const ViewOptions& o) {
    const std::string scenePath = o.scene.empty() ? defaultScenePath() : o.scene;
    const Scene original = loadScene(scenePath);
    std::string note;
    const Exec ex = selectBackend(parseBackendChoice(o.backend), o.threads, &note);
    if (!note.empty() && !o.quiet) std::cerr << "note: " << note << "\n";
    auto sim = std::make_unique<Simulation>(original, ex);

    GlWindow window(o.width, o.height, ("ccrowd view: " + original.name).c_str(), true);
    Input input;
    glfwSetWindowUserPointer(window.handle(), &input);
    // ours first: the ImGui backend chains to them
    glfwSetScrollCallback(window.handle(), onScroll);
    glfwSetKeyCallback(window.handle(), onKey);
    glfwSwapInterval(1);
    Panel panel(window.handle());

    PanelState ps;
    ps.paused = o.paused;
    ps.speed = o.speed;
    ps.draw = DrawSettings{o.overlay, o.potential_field, o.colour};
    ps.setup = readSetup(original, sim->grid());
    ps.field_count = sim->fieldCount();
    Camera cam;
    int fbw = 0, fbh = 0;
    window.framebufferSize(fbw, fbh);
    cam.fit(original.origin.x, original.origin.y, original.width, original.height, fbw, fbh);
    // the renderer reads the scene and grid, then the simulation moves to its own thread
    auto renderer = std::make_unique<Renderer>(*sim);
    auto runner = std::make_unique<SimThread>(std::move(sim), SimThread::Settings{ps.paused, ps.speed, ps.draw.overlayRequest()});

    using clock = std::chrono::steady_clock;
    auto last = clock::now();
    double lastX = 0, lastY = 0;
    bool dragging = false;
    long long frames = 0;
    SimStats stats;
    while (!glfwWindowShouldClose(window.handle()) && !input.quit && (o.max_frames < 0 || frames < o.max_frames)) {
        glfwPollEvents();
        // an exception of the simulation thread ends the view like one of this thread
        runner->rethrowError();
        const auto now = clock::now();
        const double real = std::min(std::chrono::duration<double>(now - last).count(), 0.25);
        last = now;
        if (real > 0) ps.fps = 0.9 * ps.fps + 0.1 / real;

        // keys (ignored while an ImGui widget has the keyboard)
        const bool keys = !panel.wantsKeyboard();
        if (keys && input.pause) ps.paused = !ps.paused;
        if (keys && input.faster) ps.speed = std::min(ps.speed * 1.5, 100.0);
        if (keys && input.slower) ps.speed = std::max(ps.speed / 1.5, 0.01);
        if (keys && input.nextOverlay) ps.draw.overlay = static_cast<Overlay>((static_cast<int>(ps.draw.overlay) + 1) % kOverlayCount);
        if (keys && input.nextColour) ps.draw.colour = static_cast<ColourBy>((static_cast<int>(ps.draw.colour) + 1) % 3);
        if (keys && input.nextField) ps.draw.potential_field = (ps.draw.potential_field + 1) % std::max(ps.field_count, 1);
        if (keys && input.reset) ps.restart = true;

        // mouse: drag to pan, wheel to zoom about the cursor
        double mx = 0, my = 0;
        glfwGetCursorPos(window.handle(), &mx, &my);
        int ww = 1, wh = 1;
        glfwGetWindowSize(window.handle(), &ww, &wh);
        window.framebufferSize(fbw, fbh);
        const double sx = static_cast<double>(fbw) / std::max(ww, 1), sy = static_cast<double>(fbh) / std::max(wh, 1);
        if (fbw != cam.width || fbh != cam.height) {
            cam.width = std::max(fbw, 1);
            cam.height = std::max(fbh, 1);
        }
        const bool down = glfwGetMouseButton(window.handle(), GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
        if (down && !panel.wantsMouse()) {
            if (dragging) cam.pan(static_cast<float>((mx - lastX) * sx), static_cast<float>((my - lastY) * sy));
            dragging = true;
        } else {
            dragging = false;
        }
        lastX = mx;
        lastY = my;
        if (input.scroll != 0.0 && !panel.wantsMouse())
            cam.zoomAbout(static_cast<float>(mx * sx), static_cast<float>(my * sy), static_cast<float>(std::pow(1.15, input.scroll)));

        // restart with the set-up menu's parameters: stop the thread, rebuild, start
        if (ps.restart) {
            ps.restart = false;
            try {
                // a bad set-up throws here and the old scene keeps running
                auto next = std::make_unique<Simulation>(applySetup(original, ps.setup), ex);
                auto nextRenderer = std::make_unique<Renderer>(*next);
                runner->stop();
                const int fields = next->fieldCount();
                DrawSettings draw = ps.draw;
                draw.potential_field = std::min(draw.potential_field, fields - 1);
                runner = std::make_unique<SimThread>(std::move(next), SimThread::Settings{ps.paused, ps.speed, draw.overlayRequest()});
                renderer = std::move(nextRenderer);
                ps.field_count = fields;
                ps.draw = draw;
                ps.error.clear();
            } catch (const Error& e) {
                ps.error = e.what();
            }
        }

        // the simulation thread's controls
        runner->setPaused(ps.paused);
        runner->setSpeed(ps.speed);
        runner->setOverlay(ps.draw.overlayRequest());
        if (keys && input.step && ps.paused) runner->stepOnce();

        // the last publication into the GL buffers (written on the simulation's side)
        runner->read([&](const PublishedState& pub, const SimStats& st) {
            renderer->sync(pub, ps.draw.colour);
            // the incidents started so far, as rings
            if (st.started_incidents.size() != stats.started_incidents.size())
                renderer->setIncidents(incidentRings(runner->simulation().scene(), st.started_incidents));
            // walls and goals changed by events: the cells again
            if (st.walls_version != stats.walls_version) renderer->setCells(runner->simulation());
            stats = st;
        });

        // draw: scene and agents at alpha between the last two steps, then the panel
        const auto t0 = clock::now();
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, fbw, fbh);
        renderer->draw(cam, runner->alpha(clock::now()));
        if (input.screenshot && keys) {
            const std::string path = screenshotPath();
            glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
            glReadBuffer(GL_BACK);
            plot::Canvas shot = readFramebuffer(fbw, fbh);
            if (o.caption) {
                // the caption of the publication on screen (the panel's time and counts)
                runner->read([&](const PublishedState& pub, const SimStats& st) {
                    drawCaption(shot, captionOf(runner->simulation().scene(), st.time, st.group_agents, ps.draw.colour, pub,
                                                st.started_incidents));
                });
            }
            plot::writePng(path, shot);
            std::cerr << "screenshot " << path << "\n";
        }
        ps.frame_ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
        ps.agents = stats.agents;
        ps.sim_time = stats.time;
        ps.agent_draw_calls = renderer->agentDrawCalls();
        ps.stage_ms = stats.stage_ms;
        ps.step_ms = stats.step_ms;
        ps.sync_ms = renderer->lastSyncMs();
        panel.draw(ps);
        if (!Panel::available() && frames % 30 == 0) {
            std::ostringstream t;
            t << "ccrowd view: " << original.name << "  " << static_cast<int>(ps.fps) << " fps, " << ps.agents
              << " agents, t = " << ps.sim_time << " s" << (ps.paused ? " (paused)" : "");
            glfwSetWindowTitle(window.handle(), t.str().c_str());
        }
        glfwSwapBuffers(window.handle());
        input = Input{};
        ++frames;
    }
    runner->stop();
    runner->rethrowError();
    const Simulation& done = runner->simulation();
    if (!o.quiet)
        std::cerr << "view: " << frames << " frames, " << done.steps() << " steps, " << done.agentCount() << " agents at t = "
                  << done.time() << " s\n";
    return 0;
}

}  // namespace ccrowd::viewer
