/// @file test_render.cpp
/// `ccrowd render` (and `ccrowd view`'s failure modes) run as a program,
/// through GLX: under `xvfb-run -a` with Mesa's llvmpipe when xvfb-run
/// exists (skipped otherwise); the EGL path is test_render_egl.cpp's. A
/// scene (render_cli.hpp) puts one agent of each group in a known cell and a
/// wall at a known place; the PNG frames are read back with stb_image and
/// checked pixel by pixel.

#include <gtest/gtest.h>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "ccrowd/config.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "png_image.hpp"
#include "render_cli.hpp"
#include "temp_dir.hpp"


namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;

using plot::Rgb;
using Image = PngImage;

class RenderTest : public TempDirTest {
protected:
    void SetUp() override {
        if (!CCROWD_HAVE_VIEWER) GTEST_SKIP() << "this build has no viewer (CCROWD_VIEWER off or OpenGL/GLFW/GLEW missing)";
        if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not found (Debian: apt-get install xvfb xauth libgl1-mesa-dri)";
        TempDirTest::SetUp();
        scene_ = write("scene.json", kScene);
    }
    /// Renders frame 0 of the test scene with @p extra options into @p sub; returns it.
    Image frame0(const std::string& sub, const std::string& extra) {
        const std::string out = path(sub);
        const Result r = ccrowdXvfb("render " + scene_ + " --frames 1 --size 400x200 --quiet --no-caption --out " + out + " " + extra);
        EXPECT_EQ(r.code, 0) << r.out;
        return loadPng(out + "/frame_000000.png");
    }
    std::string scene_;
};

TEST_F(RenderTest, WritesTheRequestedFramesAtTheRequestedSize) {
    const std::string out = path("frames");
    const Result r = ccrowdXvfb("render " + scene_ + " --frames 3 --every 2 --size 320x160 --no-caption --out " + out);
    ASSERT_EQ(r.code, 0) << r.out;
    int files = 0;
    for (const auto& e : fs::directory_iterator(out)) files += e.path().extension() == ".png";
    EXPECT_EQ(files, 3);
    for (int f = 0; f < 3; ++f) {
        const Image img = loadPng(out + "/frame_00000" + std::to_string(f) + ".png");
        EXPECT_EQ(img.w, 320);
        EXPECT_EQ(img.h, 160);
    }
    EXPECT_NE(r.out.find("rendered 3 frames of 320x160 px"), std::string::npos) << r.out;
}

TEST_F(RenderTest, AgentsAppearAtTheirPositionsInTheirGroupColours) {
    const Image img = frame0("plain", "");
    ASSERT_TRUE(img.px);
    // where the library places them (deterministic for the scene's seed)
    Simulation sim(loadScene(scene_), Exec{});
    const AgentSnapshot a = sim.agents();
    ASSERT_EQ(a.size(), 2);
    for (int k = 0; k < 2; ++k) {
        const Rgb want = a.group[k] == 0 ? kRed : kBlue;
        const Rgb other = a.group[k] == 0 ? kBlue : kRed;
        int px = 0, py = 0;
        pixelOf(a.x[k], a.y[k], px, py);
        // the disc's centre and its inner 5x5 pixels have the group colour
        // (the heading notch starts 0.45 radii ahead, i.e. 2 px)
        EXPECT_EQ(img.count(want, px - 2, py - 2, px + 2, py + 3), 4 * 5)
            << "agent " << k << " at (" << a.x[k] << ", " << a.y[k] << ") m, pixel (" << px << ", " << py << "): " << img.at(px, py);
        EXPECT_EQ(img.count(other, px - 8, py - 8, px + 9, py + 9), 0);
        // and its disc is no bigger than 4.8 px in radius
        EXPECT_FALSE(img.at(px, py - 7) == want);
        EXPECT_FALSE(img.at(px - 7, py) == want);
    }
    // nobody else anywhere: about pi 4.8^2 = 72 pixels per disc
    EXPECT_LE(img.count(kRed, 0, 0, 400, 200), 90);
    EXPECT_LE(img.count(kBlue, 0, 0, 400, 200), 90);
}

TEST_F(RenderTest, WallsAreDrawnWhereTheSceneHasThem) {
    const Image img = frame0("plain", "");
    ASSERT_TRUE(img.px);
    int px = 0, py = 0;
    pixelOf(9.5f, 2.f, px, py);
    EXPECT_EQ(img.at(px, py), kWall) << "inside the obstacle [9, 10] x [0, 4]";
    pixelOf(9.5f, 6.f, px, py);
    EXPECT_EQ(img.at(px, py), kFloor) << "above the obstacle";
    pixelOf(6.f, 2.f, px, py);
    EXPECT_EQ(img.at(px, py), kFloor) << "open floor";
}

TEST_F(RenderTest, OverlaysChangeTheImageButNotTheWalls) {
    const Image plain = frame0("plain", "");
    ASSERT_TRUE(plain.px);
    for (const char* overlay : {"density", "potential"}) {
        const Image over = frame0(overlay, std::string("--overlay ") + overlay);
        ASSERT_TRUE(over.px);
        int changed = 0;
        for (int y = 0; y < 200; ++y)
            for (int x = 0; x < 400; ++x) changed += !(plain.at(x, y) == over.at(x, y));
        EXPECT_GT(changed, 1000) << overlay;
        int px = 0, py = 0;
        pixelOf(9.5f, 2.f, px, py);
        EXPECT_EQ(over.at(px, py), kWall) << overlay;
    }
}

TEST_F(RenderTest, BadFieldIsAnInputError) {
    const Result r = ccrowdXvfb("render " + scene_ + " --overlay potential --field 7 --out " + path("bad"));
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find("--field"), std::string::npos) << r.out;
}

TEST_F(RenderTest, ViewOpensRunsAndClosesItsWindow) {
    const Result r = ccrowdXvfb("view " + scene_ + " --max-frames 20 --overlay potential --colour speed");
    EXPECT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("view: 20 frames"), std::string::npos) << r.out;
}

TEST_F(RenderTest, BenchmarkDrawsEveryAgentInOneCall) {
    const Result r = ccrowdXvfb("render --bench-agents 1000,20000 --size 256x256");
    ASSERT_EQ(r.code, 0) << r.out;
    EXPECT_NE(r.out.find("agents,frames,publish_ms,fill_ms,draw_ms,frame_ms,draw_calls,backend"), std::string::npos) << r.out;
    for (const char* n : {"\n1000,", "\n20000,"}) {
        const std::size_t at = r.out.find(n);
        ASSERT_NE(at, std::string::npos) << r.out;
        const std::string row = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
        // one draw call, filled on the backend a simulation would pick here
        const std::string tail = std::string(",1,") + (cudaUsable(nullptr) ? "cuda" : "cpu") + ",\"";
        EXPECT_NE(row.find(tail), std::string::npos) << row;
    }
}

TEST(RenderCommand, GlxWithoutADisplayIsAClearErrorOrNamesThePackages) {
    // --gl glx where no display is set: GLFW cannot open one (EGL is not tried)
    const fs::path out = fs::temp_directory_path() / "ccrowd-no-display";
    const Result r = ccrowdNoDisplay("render --gl glx --frames 1 --quiet --out " + out.string());
    if (CCROWD_HAVE_VIEWER) {
        EXPECT_EQ(r.code, 1) << r.out;
        EXPECT_NE(r.out.find("cannot open a display"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("xvfb-run"), std::string::npos) << r.out;
    } else {
        EXPECT_EQ(r.code, 2) << r.out;
        EXPECT_NE(r.out.find("libglfw3-dev"), std::string::npos) << r.out;
    }
    std::error_code ec;
    fs::remove_all(out, ec);
}

TEST(RenderCommand, WithoutEglTheDefaultHeadlessPathNamesThePackage) {
    if (!CCROWD_HAVE_VIEWER || CCROWD_HAVE_EGL) GTEST_SKIP() << "this build has EGL (or no viewer): test_render_egl.cpp covers it";
    // --gl auto with no display means EGL, which this build lacks
    const fs::path out = fs::temp_directory_path() / "ccrowd-no-egl";
    const Result r = ccrowdNoDisplay("render --frames 1 --quiet --out " + out.string());
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.out.find("this build has no EGL"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("libegl-dev"), std::string::npos) << r.out;
    std::error_code ec;
    fs::remove_all(out, ec);
}

}  // namespace
}  // namespace ccrowd::test
