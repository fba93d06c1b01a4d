/// @file render_bench.cpp
/// `ccrowd render --bench-agents N,...`: frame time of the agent layer for
/// synthetic crowds (uniform random positions in a 1000 m x 1000 m square,
/// 0.2 m radius, seen whole), measured with glFinish. Reports the host
/// upload of the instance buffer (CPU builds) and the draw, which is one
/// instanced draw call whatever the number of agents.

#include <chrono>
#include <iostream>
#include <random>
#include <vector>

#include "viewer/agent_layer.hpp"
#include "viewer/camera.hpp"
#include "viewer/gl.hpp"
#include "viewer/gl_window.hpp"
#include "viewer/offscreen.hpp"
#include "viewer/render_bench.hpp"

namespace ccrowd::viewer {

int benchRender(const std::vector<long long>& counts, int width, int height, int frames) {
    GlWindow window(width, height, "ccrowd render bench", false);
    Offscreen fb(width, height);
    AgentLayer layer;
    const float side = 1000.f;
    Camera cam;
    cam.fit(0.f, 0.f, side, side, width, height);
    std::cout << "agents,frames,upload_ms,draw_ms,frame_ms,draw_calls,renderer\n";
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> u(0.f, side), angle(-3.14159f, 3.14159f);
    using clock = std::chrono::steady_clock;
    for (long long n : counts) {
        std::vector<AgentInstance> rec(static_cast<std::size_t>(n));
        for (AgentInstance& r : rec) {
            r.x = r.prev_x = u(rng);
            r.y = r.prev_y = u(rng);
            r.heading = angle(rng);
            r.radius = 0.2f;
            r.rgba[0] = 31;
            r.rgba[1] = 119;
            r.rgba[2] = 180;
        }
        fb.bind();
        layer.upload(rec);  // warm-up: allocation and first draw
        layer.draw(cam, 1.f);
        glFinish();
        double uploadMs = 0.0, drawMs = 0.0;
        for (int f = 0; f < frames; ++f) {
            const auto t0 = clock::now();
            layer.upload(rec);
            glFinish();
            const auto t1 = clock::now();
            glClearColor(1.f, 1.f, 1.f, 1.f);
            glClear(GL_COLOR_BUFFER_BIT);
            glEnable(GL_BLEND);
            glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
            layer.draw(cam, 0.5f);
            glFinish();
            const auto t2 = clock::now();
            uploadMs += std::chrono::duration<double, std::milli>(t1 - t0).count();
            drawMs += std::chrono::duration<double, std::milli>(t2 - t1).count();
        }
        checkGl("render benchmark");
        std::cout << n << "," << frames << "," << uploadMs / frames << "," << drawMs / frames << ","
                  << (uploadMs + drawMs) / frames << "," << layer.lastDrawCalls() << ",\"" << glGetString(GL_RENDERER)
                  << "\"\n";
    }
    return 0;
}

}  // namespace ccrowd::viewer
