/// @file renderer.cpp
#include "viewer/renderer.hpp"

#include <chrono>

#include "viewer/gl.hpp"

namespace ccrowd::viewer {

Renderer::Renderer(const Simulation& sim) : scene_(sim) {}

void Renderer::sync(const PublishedState& pub, ColourBy colour) {
    const auto t0 = std::chrono::steady_clock::now();
    // agents: new records after a publication or a colour change
    if (pub.version() != agentsVersion_ || colour != colour_) {
        agents_.fill(pub, colour);
        agentsVersion_ = pub.version();
        colour_ = colour;
    }
    // overlay: new texture and arrows after every overlay publication
    if (pub.overlayVersion() != overlayVersion_) {
        scene_.setOverlay(pub);
        arrows_.setSegments(pub.arrows());
        overlayVersion_ = pub.overlayVersion();
    }
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
    const float incidentColour[4] = {0.f, 0.f, 0.f, 1.f};  // black: apart from the group colours and the overlay
    incidents_.draw(cam, incidentColour);
    agents_.draw(cam, alpha);
    glDisable(GL_BLEND);
}

void Renderer::setIncidents(const std::vector<float>& rings) {
    incidents_.setSegments(rings);
    checkGl("Renderer::setIncidents");
}

}  // namespace ccrowd::viewer
