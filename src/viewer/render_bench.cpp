/// @file render_bench.cpp
/// `ccrowd render --bench-agents N,...`: frame time of the agent layer for
/// synthetic crowds (uniform random positions in a 1000 m x 1000 m square,
/// random velocities, 0.2 m radius, seen whole), measured with glFinish,
/// through the viewer's own path: the publication of a step on the
/// simulation's side (PublishedState::publishAgents), the instance records
/// written in place into the mapped GL buffer (AgentLayer::fill: an OpenMP
/// loop on the CPU backend, a kernel into the CUDA-registered buffer on a
/// GPU), and one instanced draw call whatever the number of agents.

#include <chrono>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "ccrowd/field.hpp"
#include "viewer/agent_layer.hpp"
#include "viewer/camera.hpp"
#include "viewer/gl.hpp"
#include "viewer/headless_context.hpp"
#include "viewer/offscreen.hpp"
#include "viewer/published_state.hpp"
#include "viewer/render_bench.hpp"

namespace ccrowd::viewer {

namespace {

/// A synthetic crowd on the side of an Exec.
struct Crowd {
    Array<float> x, y, vx, vy, vmax;
    Array<int> field, id;

    Crowd(long long n, std::mt19937& rng, float side) {
        std::uniform_real_distribution<float> u(0.f, side), v(-1.3f, 1.3f);
        for (long long k = 0; k < n; ++k) {
            x.vector().push_back(u(rng));
            y.vector().push_back(u(rng));
            vx.vector().push_back(v(rng));
            vy.vector().push_back(v(rng));
            vmax.vector().push_back(1.34f);
            field.vector().push_back(0);
            id.vector().push_back(static_cast<int>(k));
        }
    }
    /// Views on the side of @p ex (uploaded once for CUDA).
    sim::AgentViews views(const Exec& ex) {
        if (ex.backend == Backend::Cuda) {
            for (Array<float>* a : {&x, &y, &vx, &vy, &vmax}) a->upload();
            for (Array<int>* a : {&field, &id}) a->upload();
        }
        sim::AgentViews a;
        a.n = x.size();
        a.x = x.view(ex);
        a.y = y.view(ex);
        a.vx = vx.view(ex);
        a.vy = vy.view(ex);
        a.vmax = vmax.view(ex);
        a.field = field.view(ex);
        a.id = id.view(ex);
        return a;
    }
};

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int benchRender(const std::vector<long long>& counts, int width, int height, int frames, GlApi gl) {
    std::string note;
    const Exec ex = selectBackend(BackendChoice::Auto, 0, &note);
    HeadlessContext context(gl, width, height, false);
    Offscreen fb(width, height);
    AgentLayer layer;
    const float side = 1000.f;
    Camera cam;
    cam.fit(0.f, 0.f, side, side, width, height);
    Scene scene;
    scene.groups.resize(1);
    std::cout << "agents,frames,publish_ms,fill_ms,draw_ms,frame_ms,draw_calls,backend,renderer\n";
    std::mt19937 rng(1);
    using clock = std::chrono::steady_clock;
    for (long long n : counts) {
        Crowd crowd(n, rng, side);
        const sim::AgentViews a = crowd.views(ex);
        PublishedState pub(ex, scene, {0});
        fb.bind();
        // warm-up: allocation, first fill and draw
        pub.publishAgents(readOnly(a), a.n, static_cast<int>(n), GridInfo{}, {}, true);
        layer.fill(pub, ColourBy::Speed);
        layer.draw(cam, 1.f);
        glFinish();
        double publishMs = 0.0, fillMs = 0.0, drawMs = 0.0;
        for (int f = 0; f < frames; ++f) {
            // a step's publication (simulation thread), then the frame (render thread)
            auto t0 = clock::now();
            pub.publishAgents(readOnly(a), a.n, static_cast<int>(n), GridInfo{}, {}, true);
            publishMs += msSince(t0);
            t0 = clock::now();
            layer.fill(pub, ColourBy::Speed);
            glFinish();
            fillMs += msSince(t0);
            t0 = clock::now();
            glClearColor(1.f, 1.f, 1.f, 1.f);
            glClear(GL_COLOR_BUFFER_BIT);
            glEnable(GL_BLEND);
            glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
            layer.draw(cam, 0.5f);
            glFinish();
            drawMs += msSince(t0);
        }
        checkGl("render benchmark");
        std::cout << n << "," << frames << "," << publishMs / frames << "," << fillMs / frames << "," << drawMs / frames << ","
                  << (fillMs + drawMs) / frames << "," << layer.lastDrawCalls() << "," << backendName(ex.backend) << ",\""
                  << glGetString(GL_RENDERER) << "\"\n";
    }
    return 0;
}

}  // namespace ccrowd::viewer
