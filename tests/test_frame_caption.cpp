/// @file test_frame_caption.cpp
/// The caption of rendered frames and screenshots (src/viewer/frame_caption.hpp):
/// a light panel in the top-left corner with the time, a swatch in each
/// group's colour, the overlay's viridis scale; the counts come from the
/// simulation; the rest of the image is untouched; the started incidents
/// named, and drawn as rings on their harm radius (incident_rings.hpp).

#include <gtest/gtest.h>

#include "ccrowd/config.hpp"

#if CCROWD_HAVE_VIEWER
#include <cmath>
#include <string>
#include <vector>

#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "plot/colormap.hpp"
#include "viewer/frame_caption.hpp"
#include "viewer/incident_rings.hpp"
#include "viewer/published_state.hpp"

namespace ccrowd::test {
namespace {

/// Pixels of @p c in @p image's rectangle [x0, x1) x [y0, y1).
int count(const plot::Canvas& image, plot::Rgb c, int x0, int y0, int x1, int y1) {
    int n = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) n += image.get(x, y) == c;
    return n;
}

viewer::FrameCaption sample(bool overlay) {
    viewer::FrameCaption c;
    c.time = 12.5;
    c.groups = {{"red", plot::Rgb{200, 0, 0}, 120}, {"blue", plot::Rgb{0, 0, 200}, 30}};
    c.colourBy = "group";
    c.overlay = overlay;
    c.overlayName = "density";
    c.overlayUnits = "1/m^2";
    c.lo = 0.f;
    c.hi = 5.4f;
    return c;
}

TEST(FrameCaption, PanelSwatchesAndScaleInTheTopLeftCorner) {
    const plot::Rgb floor{40, 40, 40};
    plot::Canvas image(400, 200, floor);
    viewer::drawCaption(image, sample(true));
    // a swatch of 7 x 7 px per group at scale 1 (a 200 px image)
    EXPECT_EQ(count(image, plot::Rgb{200, 0, 0}, 0, 0, 200, 100), 49);
    EXPECT_EQ(count(image, plot::Rgb{0, 0, 200}, 0, 0, 200, 100), 49);
    // the panel lightens the corner, the rest is untouched
    EXPECT_GT(image.get(2, 2).r, 150);
    EXPECT_EQ(count(image, floor, 200, 100, 400, 200), 200 * 100);
    // the colour bar: viridis' ends
    EXPECT_GT(count(image, plot::viridis(0.f), 0, 0, 200, 100), 0);
    EXPECT_GT(count(image, plot::viridis(1.f), 0, 0, 200, 100), 0);
    // without an overlay no bar
    plot::Canvas plain(400, 200, floor);
    viewer::drawCaption(plain, sample(false));
    EXPECT_EQ(count(plain, plot::viridis(1.f), 0, 0, 400, 200), 0);
    // another time draws other text
    viewer::FrameCaption later = sample(false);
    later.time = 99.25;
    plot::Canvas other(400, 200, floor);
    viewer::drawCaption(other, later);
    int differ = 0;
    for (int y = 0; y < 40; ++y)
        for (int x = 0; x < 200; ++x) differ += other.get(x, y) != plain.get(x, y);
    EXPECT_GT(differ, 10);
}

TEST(FrameCaption, CountsAndScaleComeFromTheSimulation) {
    Simulation sim(parseScene(R"({"format": "ccrowd-scene", "version": 1, "domain": {"width": 10, "height": 10},
        "goals": [{"name": "g", "areas": [{"rect": {"min": [9, 0], "max": [10, 10]}}]}],
        "groups": [{"name": "a", "count": 7, "spawn": [{"rect": {"min": [1, 1], "max": [4, 9]}}], "route": ["g"]},
                   {"name": "b", "count": 3, "spawn": [{"rect": {"min": [5, 1], "max": [7, 9]}}], "route": ["g"]}]})",
                              "caption"),
                   Exec{Backend::Cpu, 1});
    for (int k = 0; k < 4; ++k) sim.step();
    viewer::PublishedState pub(sim);
    pub.publish(sim, viewer::OverlayRequest{viewer::Overlay::Density, 0}, true);
    const viewer::FrameCaption c = viewer::captionOf(sim, viewer::ColourBy::Speed, pub);
    EXPECT_DOUBLE_EQ(c.time, sim.time());
    ASSERT_EQ(c.groups.size(), 2u);
    EXPECT_EQ(c.groups[0].name, "a");
    EXPECT_EQ(c.groups[0].agents, 7);
    EXPECT_EQ(c.groups[1].agents, 3);
    EXPECT_EQ(c.colourBy, "speed");
    EXPECT_TRUE(c.overlay);
    EXPECT_EQ(c.overlayName, "density");
    EXPECT_EQ(c.lo, pub.overlayLo());
    EXPECT_EQ(c.hi, pub.overlayHi());
}

TEST(IncidentRings, ARingOnTheHarmRadiusPerStartedIncident) {
    Scene s;
    IncidentSpec a, b;
    a.name = "a"; a.position = {10.f, 5.f}; a.radius = 2.f;
    b.name = "b"; b.position = {3.f, 4.f}; b.radius = 0.5f;
    s.incidents = {a, b};
    EXPECT_TRUE(viewer::incidentRings(s, {}).empty());
    const std::vector<float> r = viewer::incidentRings(s, {1});
    ASSERT_EQ(r.size(), 4u * viewer::kIncidentRingSegments);
    for (std::size_t k = 0; k < r.size(); k += 2) EXPECT_NEAR(std::hypot(r[k] - 3.f, r[k + 1] - 4.f), 0.5, 1e-5);
    // consecutive segments join: a closed ring
    for (std::size_t k = 4; k < r.size(); k += 4) {
        EXPECT_FLOAT_EQ(r[k], r[k - 2]);
        EXPECT_FLOAT_EQ(r[k + 1], r[k - 1]);
    }
    EXPECT_EQ(viewer::incidentRings(s, {0, 1}).size(), 8u * viewer::kIncidentRingSegments);
}

TEST(FrameCaption, StartedIncidentsAreNamed) {
    Simulation sim(parseScene(R"({"format": "ccrowd-scene", "version": 1, "domain": {"width": 10, "height": 10},
        "goals": [{"name": "g", "areas": [{"rect": {"min": [9, 0], "max": [10, 10]}}]}],
        "groups": [{"name": "a", "count": 7, "spawn": [{"rect": {"min": [1, 1], "max": [4, 9]}}], "route": ["g"]},
                   {"name": "run", "behaviour": "escape", "count": 0}],
        "incidents": [{"name": "fire", "position": [5, 5], "radius": 1.5, "start": 0.1,
                       "switch": [{"from": "a", "to": "run"}]}]})",
                              "caption"),
                   Exec{Backend::Cpu, 1});
    viewer::PublishedState pub(sim);
    pub.publish(sim, viewer::OverlayRequest{}, true);
    EXPECT_TRUE(viewer::captionOf(sim, viewer::ColourBy::Group, pub).incidents.empty());
    for (int k = 0; k < 3; ++k) sim.step();
    const viewer::FrameCaption c = viewer::captionOf(sim, viewer::ColourBy::Group, pub);
    ASSERT_EQ(c.incidents.size(), 1u);
    EXPECT_EQ(c.incidents[0], "fire (r = 1.5 m)");
    EXPECT_EQ(c.groups[1].agents, 7);
    EXPECT_EQ(sim.startedIncidents(), std::vector<int>{0});
}

}  // namespace
}  // namespace ccrowd::test
#else
TEST(FrameCaption, NeedsTheViewer) { GTEST_SKIP() << "built without the viewer (CCROWD_VIEWER=OFF or its packages missing)"; }
#endif
