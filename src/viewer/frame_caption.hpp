#pragma once
/// @file frame_caption.hpp
/// The caption of a rendered frame or screenshot (issue 13, Deliver 5): the
/// simulated time, the agents per group with each group's colour, what the
/// agents are coloured by, and the overlay's name, units and colour scale
/// (viridis from its low to its high value), drawn into the image's top-left
/// corner on a light panel. GL-free: it draws on the read-back plot::Canvas.

#include <string>
#include <vector>

#include "ccrowd/simulation.hpp"
#include "plot/canvas.hpp"
#include "viewer/options.hpp"

namespace ccrowd::viewer {

class PublishedState;

/// What a caption says.
struct FrameCaption {
    double time = 0.0;  ///< Simulated time. [Units: s]
    struct Group {
        std::string name;
        plot::Rgb colour;
        long long agents = 0;
    };
    std::vector<Group> groups;    ///< In the scene's order.
    std::vector<std::string> incidents;  ///< Started incidents: "name (r = R m)".
    std::string colourBy;         ///< "group", "speed" or "pressure".
    bool overlay = false;         ///< An overlay is drawn (the scale below).
    std::string overlayName;      ///< e.g. "density".
    std::string overlayUnits;     ///< e.g. "1/m^2".
    float lo = 0.f, hi = 1.f;     ///< The overlay's colour scale. [Limit: hi > lo]
};

/// The caption of @p scene at @p time with @p groupAgents agents per group
/// (Simulation::groupStats' remaining), @p colour, the overlay @p pub published
/// and the incidents @p startedIncidents (indices into Scene::incidents).
FrameCaption captionOf(const Scene& scene, double time, const std::vector<long long>& groupAgents, ColourBy colour,
                       const PublishedState& pub, const std::vector<int>& startedIncidents = {});
/// The same for @p sim now.
FrameCaption captionOf(const Simulation& sim, ColourBy colour, const PublishedState& pub);

/// Draws @p c into @p image's top-left corner (text scale from the image's
/// height: 1 below 480 px, 2 up to 1080, 3 above). At most 12 groups are
/// listed by name; more are summed on one line.
void drawCaption(plot::Canvas& image, const FrameCaption& c);

}  // namespace ccrowd::viewer
