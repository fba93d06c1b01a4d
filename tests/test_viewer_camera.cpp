/// @file test_viewer_camera.cpp
/// The viewer's GL-free parts: the camera's world <-> pixel mapping (fit,
/// pan, zoom about the cursor) and seed 003's set-up menu applied to a scene.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "ccrowd/config.hpp"

#if CCROWD_HAVE_VIEWER
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "viewer/camera.hpp"
#include "viewer/setup_menu.hpp"

namespace ccrowd::test {
namespace {

using viewer::Camera;

TEST(ViewerCamera, FitMapsTheDomainOntoTheFramebuffer) {
    Camera c;
    c.fit(0.f, 0.f, 20.f, 10.f, 400, 200);
    EXPECT_FLOAT_EQ(c.ppm, 20.f);
    float px = 0, py = 0;
    c.worldToPixel(0.f, 0.f, px, py);  // bottom-left corner of the domain
    EXPECT_FLOAT_EQ(px, 0.f);
    EXPECT_FLOAT_EQ(py, 200.f);
    c.worldToPixel(20.f, 10.f, px, py);
    EXPECT_FLOAT_EQ(px, 400.f);
    EXPECT_FLOAT_EQ(py, 0.f);
    // a taller domain is centred horizontally
    c.fit(0.f, 0.f, 10.f, 10.f, 400, 200);
    c.worldToPixel(0.f, 0.f, px, py);
    EXPECT_FLOAT_EQ(px, 100.f);
}

TEST(ViewerCamera, ZoomKeepsThePointUnderTheCursorAndPanFollowsTheDrag) {
    Camera c;
    c.fit(0.f, 0.f, 20.f, 10.f, 400, 200);
    float wx = 0, wy = 0, px = 0, py = 0;
    c.pixelToWorld(310.f, 40.f, wx, wy);
    c.zoomAbout(310.f, 40.f, 2.5f);
    EXPECT_FLOAT_EQ(c.ppm, 50.f);
    c.worldToPixel(wx, wy, px, py);
    EXPECT_NEAR(px, 310.f, 1e-3);
    EXPECT_NEAR(py, 40.f, 1e-3);
    c.pan(30.f, -20.f);
    c.worldToPixel(wx, wy, px, py);
    EXPECT_NEAR(px, 340.f, 1e-3);
    EXPECT_NEAR(py, 20.f, 1e-3);
    // NDC: the framebuffer centre maps to 0, its right edge to 1
    float t[4];
    c.ndcTransform(t);
    float cx = 0, cy = 0, rx = 0, ry = 0;
    c.pixelToWorld(200.f, 100.f, cx, cy);
    c.pixelToWorld(400.f, 100.f, rx, ry);
    EXPECT_NEAR(cx * t[0] + t[2], 0.f, 1e-4);
    EXPECT_NEAR(rx * t[0] + t[2], 1.f, 1e-4);
}

TEST(ViewerSetupMenu, AppliesCountRadiusDistanceSpeedAndGrid) {
    Scene s = loadScene(std::string(CCROWD_SOURCE_DIR) + "/scenes/seed003_two_groups.json");
    viewer::SetupParams p;
    p.agents = 101;
    p.radius = 0.25f;
    p.d_min = 0.5f;
    p.vmax = 1.0f;
    p.grid = 100;
    p.local = "social_force";
    p.panic = 0.4f;
    p.A = 1500.f;
    p.B = 0.1f;
    p.time_horizon = 1.5f;
    s.groups[1].panic = 0.9f;  // a group's own panic gives way to the panel's
    const Scene t = viewer::applySetup(s, p);
    ASSERT_EQ(t.groups.size(), 2u);
    EXPECT_EQ(t.groups[0].count + t.groups[1].count, 101);
    EXPECT_EQ(t.groups[0].count, 51);
    for (const GroupSpec& g : t.groups) {
        EXPECT_FLOAT_EQ(g.radius, 0.25f);
        EXPECT_FLOAT_EQ(g.speed.max, 1.0f);
        EXPECT_LE(g.speed.mean, 1.0f);
        EXPECT_LE(g.speed.min, g.speed.mean);
    }
    EXPECT_FLOAT_EQ(t.params.d_min, 0.5f);
    EXPECT_EQ(t.params.local, "social_force");
    EXPECT_FLOAT_EQ(t.params.social_force.panic, 0.4f);
    EXPECT_FLOAT_EQ(t.params.social_force.A, 1500.f);
    EXPECT_FLOAT_EQ(t.params.social_force.B, 0.1f);
    EXPECT_FLOAT_EQ(t.params.orca.time_horizon, 1.5f);
    for (const GroupSpec& g : t.groups) EXPECT_EQ(g.panic, -1.f);
    EXPECT_FLOAT_EQ(t.cell, 40.f / 100.f);
    const SceneGrid grid = rasterizeScene(t);
    EXPECT_EQ(std::max(grid.nx, grid.ny), 100);
    const viewer::SetupParams back = viewer::readSetup(t, grid);
    EXPECT_EQ(back.agents, 101);
    EXPECT_EQ(back.grid, 100);
    EXPECT_EQ(back.local, "social_force");
    EXPECT_FLOAT_EQ(back.panic, 0.4f);
    EXPECT_FLOAT_EQ(back.A, 1500.f);
    EXPECT_FLOAT_EQ(back.B, 0.1f);
    EXPECT_FLOAT_EQ(back.time_horizon, 1.5f);
    // the restarted scene runs the chosen model's stages
    Simulation sim(t, Exec{Backend::Cpu, 1});
    const auto& names = sim.stageNames();
    EXPECT_NE(std::find(names.begin(), names.end(), "social_force"), names.end());
    EXPECT_EQ(std::find(names.begin(), names.end(), "pressure"), names.end());
}

}  // namespace
}  // namespace ccrowd::test
#endif
