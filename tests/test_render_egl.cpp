/// @file test_render_egl.cpp
/// `ccrowd render` through EGL, as on GPU servers without an X server: the
/// program runs with DISPLAY unset (Mesa's llvmpipe here; NVIDIA's EGL
/// device platform on a GPU machine). Its frames are compared with the
/// GLX path's (xvfb-run) and, where a GPU answers, the CUDA backend's with
/// the CPU backend's. Also: the --gl values and the EGL platform list.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "ccrowd/backend.hpp"
#include "ccrowd/config.hpp"
#include "png_image.hpp"
#include "render_cli.hpp"
#include "temp_dir.hpp"

namespace ccrowd::test {
namespace {

using Image = PngImage;

/// Largest channel difference still counted as the same colour: Mesa's
/// llvmpipe rasterises identically under GLX and EGL (measured: 0 pixels
/// differ), so this only absorbs rounding of a different driver.
constexpr int kChannelTolerance = 2;

/// Pixels of a group's exact colour that show its agent is drawn (a disc of
/// radius 4.8 px covers about 72 px; its inside, without the outline and
/// heading notch, 32-39 px of the exact colour in these frames).
constexpr int kMinDiscPixels = 20;

/// Pixels of @p a and @p b (same size) whose colours differ by more than
/// @p tol in some channel; -1 when the sizes differ or one is missing.
int differingPixels(const Image& a, const Image& b, int tol) {
    if (!a.px || !b.px || a.w != b.w || a.h != b.h) return -1;
    int n = 0;
    for (int y = 0; y < a.h; ++y)
        for (int x = 0; x < a.w; ++x) {
            const plot::Rgb p = a.at(x, y), q = b.at(x, y);
            n += std::max({std::abs(p.r - q.r), std::abs(p.g - q.g), std::abs(p.b - q.b)}) > tol;
        }
    return n;
}

/// The context named by the run summary ("...; context EGL 1.5, ...)"), or "".
std::string contextOf(const std::string& out) {
    const std::size_t at = out.find("; context ");
    return at == std::string::npos ? std::string() : out.substr(at + 10, out.find('\n', at) - at - 10);
}

TEST(RenderGlOption, BadValuesExitTwoNamingTheAllowedValues) {
    // rejected while parsing, before any scene or context, in every build
    for (const char* bad : {"vulkan", "eglx", "''"}) {
        const Result r = shell(std::string(CCROWD_EXE) + " render --gl " + bad + " --out " +
                               (std::filesystem::temp_directory_path() / "ccrowd-bad-gl").string());
        EXPECT_EQ(r.code, 2) << bad << ": " << r.out;
        EXPECT_NE(r.out.find("--gl"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("auto, egl, glx"), std::string::npos) << r.out;
    }
    EXPECT_FALSE(std::filesystem::exists(std::filesystem::temp_directory_path() / "ccrowd-bad-gl"));
}

class EglRenderTest : public TempDirTest {
protected:
    void SetUp() override {
        if (!CCROWD_HAVE_VIEWER) GTEST_SKIP() << "this build has no viewer (CCROWD_VIEWER off or OpenGL/GLFW/GLEW missing)";
        if (!CCROWD_HAVE_EGL) GTEST_SKIP() << "this build has no EGL (Debian: apt-get install libegl-dev libegl-mesa0, reconfigure)";
        TempDirTest::SetUp();
        scene_ = write("scene.json", kScene);
    }
    /// `render` of the test scene: @p frames frames, 10 steps apart, 400x200 px, into @p sub.
    std::string renderArgs(const std::string& sub, const std::string& extra, int frames = 3) {
        return "render " + scene_ + " --frames " + std::to_string(frames) + " --every 10 --size 400x200 --no-caption --out " + path(sub) + " " +
               extra;
    }
    Image frame(const std::string& sub, int f) { return loadPng(path(sub) + "/frame_00000" + std::to_string(f) + ".png"); }
    std::string scene_;
};

TEST_F(EglRenderTest, FramesCarryTheCaptionUnlessAskedNot) {
    // the same frame with the caption (the default) and without: only the top-left corner differs
    const Result plain = ccrowdNoDisplay(renderArgs("plain", "--overlay density", 1));
    ASSERT_EQ(plain.code, 0) << plain.out;
    std::string args = renderArgs("captioned", "--overlay density", 1);
    args.replace(args.find(" --no-caption"), 13, "");
    const Result captioned = ccrowdNoDisplay(args);
    ASSERT_EQ(captioned.code, 0) << captioned.out;
    const Image a = frame("plain", 0), b = frame("captioned", 0);
    ASSERT_TRUE(a.px && b.px);
    // the differing pixels: many, all in a box at the top-left corner
    int differ = 0, x1 = 0, y1 = 0, x0 = b.w, y0 = b.h;
    for (int y = 0; y < b.h; ++y)
        for (int x = 0; x < b.w; ++x) {
            if (a.at(x, y) == b.at(x, y)) continue;
            ++differ;
            x0 = std::min(x0, x); y0 = std::min(y0, y);
            x1 = std::max(x1, x + 1); y1 = std::max(y1, y + 1);
        }
    EXPECT_GT(differ, 1000) << "the caption's panel, text, swatches and scale";
    EXPECT_EQ(x0, 0);
    EXPECT_EQ(y0, 0);
    EXPECT_LE(x1, 300) << "the caption keeps to the top-left corner of a 400 px frame";
    EXPECT_LE(y1, 100);
}

TEST_F(EglRenderTest, StartedIncidentsAreDrawnAsBlackRingsOnTheirHarmRadius) {
    // the test scene with an incident at (6, 5), radius 2 m, started at once
    std::string text = kScene;
    text.insert(text.rfind('}'), R"(, "incidents": [{"name": "fire", "position": [6, 5], "radius": 2}])");
    const std::string scene = write("incident.json", text);
    const Result r = ccrowdNoDisplay("render " + scene + " --frames 1 --size 400x200 --no-caption --out " + path("ring"));
    ASSERT_EQ(r.code, 0) << r.out;
    const Image img = loadPng(path("ring") + "/frame_000000.png");
    ASSERT_TRUE(img.px);
    // dark pixels (not the 64-grey wall) lie on the ring, 40 px from its centre at 20 px/m
    int cx, cy, onRing = 0, offRing = 0;
    pixelOf(6.f, 5.f, cx, cy);
    for (int y = 0; y < img.h; ++y)
        for (int x = 0; x < img.w; ++x) {
            const plot::Rgb p = img.at(x, y);
            if (std::max({p.r, p.g, p.b}) > 40) continue;
            const double d = std::hypot(x + 0.5 - cx, y + 0.5 - cy);
            (std::abs(d - 40.0) < 3.0 ? onRing : offRing) += 1;
        }
    EXPECT_GT(onRing, 150) << "a ring of 2 pi 40 = 251 px";
    EXPECT_EQ(offRing, 0);
}

TEST_F(EglRenderTest, AMovingBarrierIsDrawnWhereItIs) {
    // a closed 1 m x 1 m barrier at (5.5, 1.5) moves to (5.5, 8.5) at 10 m/s from t = 0
    std::string text = kScene;
    text.insert(text.rfind('}'), R"(, "barriers": [{"name": "cart", "area": {"rect": {"min": [5, 1], "max": [6, 2]}}, "closed": true}],
        "events": [{"time": 0, "action": "move", "target": "cart", "path": [[5.5, 8.5]], "speed": 10}])");
    const std::string scene = write("moving.json", text);
    const Result r = ccrowdNoDisplay("render " + scene + " --frames 2 --every 20 --size 400x200 --no-caption --out " + path("moving"));
    ASSERT_EQ(r.code, 0) << r.out;
    int x0, y0, x1, y1;
    pixelOf(5.5f, 1.5f, x0, y0);
    pixelOf(5.5f, 8.5f, x1, y1);
    // frame 0: where it starts; frame 1 (20 steps on, it has arrived): where it ends, the start floor again
    const Image first = loadPng(path("moving") + "/frame_000000.png"), last = loadPng(path("moving") + "/frame_000001.png");
    ASSERT_TRUE(first.px && last.px);
    EXPECT_EQ(first.at(x0, y0), kWall);
    EXPECT_NE(first.at(x1, y1), kWall);
    EXPECT_EQ(last.at(x1, y1), kWall);
    EXPECT_EQ(last.at(x0, y0), kFloor);
}

TEST_F(EglRenderTest, TheDiscomfortOverlayShowsTheFireWhereItIs) {
    // a fire (g 5) over (2 .. 4, 2 .. 4), nothing else: the discomfort overlay colours it, not the floor beside it
    std::string text = kScene;
    text.insert(text.rfind('}'), R"(, "discomfort": [{"name": "fire", "area": {"rect": {"min": [2, 2], "max": [4, 4]}}, "value": 5}])");
    const std::string scene = write("fire.json", text);
    const Result r = ccrowdNoDisplay("render " + scene + " --frames 1 --size 400x200 --no-caption --overlay discomfort --out " + path("fire"));
    ASSERT_EQ(r.code, 0) << r.out;
    const Result plain = ccrowdNoDisplay("render " + scene + " --frames 1 --size 400x200 --no-caption --out " + path("plain"));
    ASSERT_EQ(plain.code, 0) << plain.out;
    const Image img = loadPng(path("fire") + "/frame_000000.png"), floor = loadPng(path("plain") + "/frame_000000.png");
    ASSERT_TRUE(img.px && floor.px);
    int fx, fy, ox, oy;
    pixelOf(3.f, 3.f, fx, fy);
    pixelOf(3.f, 7.f, ox, oy);
    // the fire takes the top of the scale (viridis yellow: red and green high, blue low), the floor elsewhere its bottom
    const plot::Rgb hot = img.at(fx, fy), cold = img.at(ox, oy);
    EXPECT_GT(hot.r, 180);
    EXPECT_GT(hot.g, 180);
    EXPECT_LT(hot.b, 100);
    EXPECT_NE(cold, hot);
    EXPECT_NE(hot, floor.at(fx, fy));
}

TEST_F(EglRenderTest, WithoutADisplayFramesComeThroughEglAndMatchTheGlxFrames) {
    if (!haveXvfb()) GTEST_SKIP() << "xvfb-run not found for the GLX frames (Debian: apt-get install xvfb xauth libgl1-mesa-dri)";
    // the same frames through GLX (Xvfb), through EGL asked for, and through EGL by default without a display
    const Result glx = ccrowdXvfb(renderArgs("glx", "--gl glx --overlay density"));
    ASSERT_EQ(glx.code, 0) << glx.out;
    EXPECT_EQ(contextOf(glx.out).rfind("GLX", 0), 0u) << glx.out;
    const Result egl = ccrowdXvfb(renderArgs("egl", "--gl egl --overlay density"));
    ASSERT_EQ(egl.code, 0) << egl.out;
    EXPECT_EQ(contextOf(egl.out).rfind("EGL", 0), 0u) << "--gl egl is honoured with a display set: " << egl.out;
    const Result headless = ccrowdNoDisplay(renderArgs("auto", "--overlay density"));
    ASSERT_EQ(headless.code, 0) << headless.out;
    EXPECT_EQ(contextOf(headless.out).rfind("EGL", 0), 0u) << "--gl auto without DISPLAY means EGL: " << headless.out;
    for (int f = 0; f < 3; ++f) {
        const Image a = frame("glx", f), b = frame("egl", f), c = frame("auto", f);
        ASSERT_TRUE(a.px && b.px && c.px) << "frame " << f;
        EXPECT_EQ(differingPixels(a, b, kChannelTolerance), 0) << "frame " << f << ": GLX vs --gl egl";
        EXPECT_EQ(differingPixels(a, c, kChannelTolerance), 0) << "frame " << f << ": GLX vs EGL without a display";
        // not trivially equal: both agents and the wall are drawn (the exact group colour
        // fills a disc's inside, 32-39 px here, less its outline and heading notch)
        EXPECT_GE(c.count(kRed, 0, 0, 400, 200), kMinDiscPixels) << "frame " << f;
        EXPECT_GE(c.count(kBlue, 0, 0, 400, 200), kMinDiscPixels) << "frame " << f;
        int px = 0, py = 0;
        pixelOf(9.5f, 2.f, px, py);
        EXPECT_EQ(c.at(px, py), kWall) << "frame " << f;
    }
    // the agents walked between frame 0 and frame 2
    EXPECT_GT(differingPixels(frame("auto", 0), frame("auto", 2), kChannelTolerance), 50);
}

TEST_F(EglRenderTest, AutoFallsBackToEglWhenGlxFails) {
    // a display is set but no X server answers there (as when a GPU server's GLX has no
    // suitable config): --gl auto says so and renders through EGL; --gl glx stops
    const std::string noServer = "DISPLAY=:7391";
    const Result autoRun = ccrowdNoDisplay(renderArgs("auto", "", 1), noServer);
    ASSERT_EQ(autoRun.code, 0) << autoRun.out;
    EXPECT_NE(autoRun.out.find("note: GLX failed"), std::string::npos) << autoRun.out;
    EXPECT_EQ(contextOf(autoRun.out).rfind("EGL", 0), 0u) << autoRun.out;
    EXPECT_GE(loadPng(path("auto") + "/frame_000000.png").count(kRed, 0, 0, 400, 200), kMinDiscPixels);
    const Result glx = ccrowdNoDisplay(renderArgs("glx", "--gl glx", 1), noServer);
    EXPECT_EQ(glx.code, 1) << glx.out;
    EXPECT_NE(glx.out.find("--gl glx: cannot open a display"), std::string::npos) << glx.out;
    EXPECT_NE(glx.out.find("--gl egl"), std::string::npos) << glx.out;
}

TEST_F(EglRenderTest, EachEglPlatformGivesAContextOrNamesWhyNot) {
    // the device platform: Mesa lists a software device, NVIDIA its GPUs
    const Result device = ccrowdNoDisplay(renderArgs("device", "--gl egl", 1), "CCROWD_EGL_PLATFORMS=device");
    ASSERT_EQ(device.code, 0) << device.out;
    EXPECT_NE(contextOf(device.out).find("device platform"), std::string::npos) << device.out;
    EXPECT_TRUE(loadPng(path("device") + "/frame_000000.png").px);
    // Mesa's surfaceless platform, and the default display (which may need X):
    // either a context from that platform or an error that names it
    for (const char* platform : {"surfaceless", "default"}) {
        const Result r = ccrowdNoDisplay(renderArgs(platform, "--gl egl", 1), std::string("CCROWD_EGL_PLATFORMS=") + platform);
        if (r.code == 0) {
            EXPECT_NE(contextOf(r.out).find(std::string(platform) + " platform"), std::string::npos) << r.out;
        } else {
            EXPECT_EQ(r.code, 1) << r.out;
            EXPECT_NE(r.out.find("EGL: no OpenGL 3.3 core context (tried " + std::string(platform) + ": "), std::string::npos) << r.out;
        }
    }
    // an unknown platform is bad input naming the allowed ones
    const Result bad = ccrowdNoDisplay(renderArgs("bad", "--gl egl", 1), "CCROWD_EGL_PLATFORMS=device,vulkan");
    EXPECT_EQ(bad.code, 2) << bad.out;
    EXPECT_NE(bad.out.find("CCROWD_EGL_PLATFORMS"), std::string::npos) << bad.out;
    EXPECT_NE(bad.out.find("'vulkan'"), std::string::npos) << bad.out;
    EXPECT_NE(bad.out.find("device, surfaceless, default"), std::string::npos) << bad.out;
}

TEST_F(EglRenderTest, CudaAndCpuBackendsDrawTheSameFramesThroughEgl) {
    std::string why;
    if (!CCROWD_HAVE_CUDA) GTEST_SKIP() << "this build has no CUDA backend (configure with -DCCROWD_CUDA=ON on a machine with nvcc)";
    if (!cudaUsable(&why)) GTEST_SKIP() << "no NVIDIA GPU answers here, so there is no CUDA backend to compare: " << why;
    // both backends through EGL with no display (NVIDIA's device platform: CUDA-GL interop needs NVIDIA's context)
    const Result gpu = ccrowdNoDisplay(renderArgs("cuda", "--gl egl --backend cuda --overlay density"));
    ASSERT_EQ(gpu.code, 0) << gpu.out;
    EXPECT_NE(contextOf(gpu.out).find("NVIDIA"), std::string::npos) << gpu.out;
    const Result cpu = ccrowdNoDisplay(renderArgs("cpu", "--gl egl --backend cpu --threads 2 --overlay density"));
    ASSERT_EQ(cpu.code, 0) << cpu.out;
    for (int f = 0; f < 3; ++f) {
        const Image a = frame("cuda", f), b = frame("cpu", f);
        ASSERT_TRUE(a.px && b.px) << "frame " << f;
        // the backends' floating-point sums may move an agent's edge or an overlay shade a little:
        // at most 1% of the 80,000 pixels differ by more than 8 in a channel
        const int differ = differingPixels(a, b, 8);
        EXPECT_GE(differ, 0) << "frame " << f;
        EXPECT_LE(differ, 800) << "frame " << f << ": CUDA vs CPU";
        EXPECT_GE(a.count(kRed, 0, 0, 400, 200), kMinDiscPixels) << "frame " << f << ": the CUDA frame draws the red agent";
        EXPECT_GE(a.count(kBlue, 0, 0, 400, 200), kMinDiscPixels) << "frame " << f << ": the CUDA frame draws the blue agent";
    }
}

}  // namespace
}  // namespace ccrowd::test
