/// @file frame_caption.cpp
/// A rendered frame's caption (frame_caption.hpp).

#include "viewer/frame_caption.hpp"

#include <algorithm>
#include <cstdio>

#include "plot/colormap.hpp"
#include "plot/text.hpp"
#include "viewer/overlay_field.hpp"
#include "viewer/published_state.hpp"

namespace ccrowd::viewer {

namespace {

/// Units of each overlay, in Overlay order.
constexpr const char* kOverlayUnits[] = {"", "1/m^2", "m/s", "m^2/s", "s", ""};

std::string number(double v, const char* format) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

}  // namespace

FrameCaption captionOf(const Scene& scene, double time, const std::vector<long long>& groupAgents, ColourBy colour,
                       const PublishedState& pub, const std::vector<int>& startedIncidents) {
    FrameCaption c;
    c.time = time;
    // agents per group, in the group's colour
    for (std::size_t g = 0; g < scene.groups.size(); ++g) {
        const auto& rgb = scene.groups[g].colour;
        c.groups.push_back({scene.groups[g].name, plot::Rgb{rgb[0], rgb[1], rgb[2]}, g < groupAgents.size() ? groupAgents[g] : 0});
    }
    c.colourBy = kColourNames[static_cast<int>(colour)];
    // the incidents started, as the black rings name them
    for (int k : startedIncidents) {
        const IncidentSpec& in = scene.incidents.at(static_cast<std::size_t>(k));
        c.incidents.push_back(in.name + " (r = " + number(in.radius, "%g") + " m)");
    }
    // the overlay's scale as published
    c.overlay = pub.overlayOn();
    if (c.overlay) {
        const Overlay o = pub.overlay().overlay;
        c.overlayName = overlayName(o);
        if (o == Overlay::Potential) c.overlayName += " " + std::to_string(pub.overlay().field);
        c.overlayUnits = kOverlayUnits[static_cast<int>(o)];
        c.lo = pub.overlayLo();
        c.hi = pub.overlayHi();
    }
    return c;
}

FrameCaption captionOf(const Simulation& sim, ColourBy colour, const PublishedState& pub) {
    std::vector<long long> agents;
    for (const GroupStats& g : sim.groupStats()) agents.push_back(g.remaining);
    return captionOf(sim.scene(), sim.time(), agents, colour, pub, sim.startedIncidents());
}

void drawCaption(plot::Canvas& image, const FrameCaption& c) {
    const float s = image.height() < 480 ? 1.f : (image.height() <= 1080 ? 2.f : 3.f);
    const float line = 12.f * s, pad = 4.f * s, swatch = 7.f * s;
    // the lines: time and head count, one per group (at most 12), what colours the agents, the overlay
    long long total = 0;
    for (const FrameCaption::Group& g : c.groups) total += g.agents;
    std::vector<std::string> text{"t = " + number(c.time, "%.2f") + " s   " + std::to_string(total) + " agents"};
    const std::size_t listed = std::min<std::size_t>(c.groups.size(), 12);
    for (std::size_t g = 0; g < listed; ++g) text.push_back(c.groups[g].name + ": " + std::to_string(c.groups[g].agents));
    if (listed < c.groups.size()) {
        long long rest = 0;
        for (std::size_t g = listed; g < c.groups.size(); ++g) rest += c.groups[g].agents;
        text.push_back("+" + std::to_string(c.groups.size() - listed) + " groups: " + std::to_string(rest));
    }
    if (c.colourBy != "group") text.push_back("agents coloured by " + c.colourBy);
    for (const std::string& in : c.incidents) text.push_back("incident " + in);
    if (c.overlay) text.push_back(c.overlayName + (c.overlayUnits.empty() ? "" : " [" + c.overlayUnits + "]"));
    // the panel: wide enough for the longest line (after a swatch) and the colour bar
    float width = 0.f;
    for (const std::string& t : text) width = std::max(width, plot::textWidth(t, s));
    const float bar = 100.f * s;
    width = std::max(width + swatch + pad, c.overlay ? bar + 2.f * plot::textWidth("-0.000e+00", s) : 0.f);
    const float height = line * static_cast<float>(text.size()) + (c.overlay ? line * 1.5f : 0.f);
    const int x1 = std::min(image.width(), static_cast<int>(2.f * pad + width));
    const int y1 = std::min(image.height(), static_cast<int>(2.f * pad + height));
    for (int y = 0; y < y1; ++y)
        for (int x = 0; x < x1; ++x) image.blend(x, y, plot::Rgb{255, 255, 255}, 0.8f);
    // the text, group lines after their colour swatch
    plot::TextStyle style;
    style.scale = s;
    style.color = plot::Rgb{20, 20, 20};
    float y = pad;
    for (std::size_t k = 0; k < text.size(); ++k, y += line) {
        float x = pad;
        if (k >= 1 && k <= listed) {
            const plot::Rgb colour = c.groups[k - 1].colour;
            image.fillRect(static_cast<int>(x), static_cast<int>(y), static_cast<int>(x + swatch), static_cast<int>(y + swatch), colour);
            x += swatch + pad;
        }
        plot::drawText(image, x, y, text[k], style);
    }
    // the overlay's colour bar, low to high, with its end values
    if (c.overlay) {
        const float by = y + 0.25f * line;
        const std::string lo = number(c.lo, "%.3g"), hi = number(c.hi, "%.3g");
        const float bx = pad + plot::textWidth(lo, s) + pad;
        plot::drawText(image, pad, by, lo, style);
        for (int k = 0; k < static_cast<int>(bar); ++k)
            image.fillRect(static_cast<int>(bx) + k, static_cast<int>(by), static_cast<int>(bx) + k + 1,
                           static_cast<int>(by + swatch), plot::viridis(static_cast<float>(k) / (bar - 1.f)));
        plot::drawText(image, bx + bar + pad, by, hi, style);
    }
}

}  // namespace ccrowd::viewer
