/// @file renderer.cpp
#include "viewer/renderer.hpp"

#include <chrono>

#include "viewer/gl.hpp"

namespace ccrowd::viewer {

Renderer::Renderer(const Simulation& sim) : scene_(sim) {}

void Renderer::sync(const Simulation& sim, const DrawSettings& s, bool stepped) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool changed = first_ || !(s == settings_);
    // agents: new records after a step, new colours after a colour change
    if (stepped || first_)
        instances_.update(sim, s.colour);
    else if (s.colour != settings_.colour)
        instances_.recolour(sim, s.colour);
    if (stepped || first_ || s.colour != settings_.colour) agents_.upload(instances_.records());
    // overlay: re-read after every step while one is shown
    if (stepped || changed) {
        const OverlayField f = readOverlay(sim, s.overlay, s.potential_field);
        scene_.setOverlay(f);
        arrows_.setSegments(f.arrows);
    }
    settings_ = s;
    first_ = false;
    checkGl("Renderer::sync");
    syncMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

void Renderer::draw(const Camera& cam, float alpha) const {
    glClearColor(colours::kBackground[0], colours::kBackground[1], colours::kBackground[2], 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    scene_.draw(cam);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    const float arrowColour[4] = {1.f, 1.f, 1.f, 0.8f};
    arrows_.draw(cam, arrowColour);
    agents_.draw(cam, alpha);
    glDisable(GL_BLEND);
}

}  // namespace ccrowd::viewer
