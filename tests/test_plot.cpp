/// @file test_plot.cpp
/// Raster plotting (src/plot/): the canvas primitives, text, and a log-log
/// plot written as PNG and read back with stb_image.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "png_image.hpp"
#include "temp_dir.hpp"

#include "ccrowd/error.hpp"
#include "src/plot/canvas.hpp"
#include "src/plot/loglog.hpp"
#include "src/plot/png.hpp"
#include "src/plot/text.hpp"


namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;
using plot::Canvas;
using plot::Rgb;

/// A fresh temporary directory per test, removed afterwards.
class PlotTest : public ::ccrowd::test::TempDirTest {};

using Image = PngImage;

int countColor(const Canvas& c, Rgb col) {
    int n = 0;
    for (int y = 0; y < c.height(); ++y)
        for (int x = 0; x < c.width(); ++x) n += c.get(x, y) == col;
    return n;
}

plot::LinePlot samplePlot() {
    plot::LinePlot p;
    p.title = "Eikonal solve time";
    p.x_label = "cells";
    p.y_label = "time [ms]";
    plot::Series a{"FIM", plot::paletteColor(0), plot::Marker::Circle, true, {}};
    plot::Series b{"FMM", plot::paletteColor(1), plot::Marker::Square, true, {}};
    for (double n = 1e3; n <= 1e7; n *= 10) {
        a.points.push_back({n, 1e-4 * n});
        b.points.push_back({n, 3e-4 * n});
    }
    p.series = {a, b};
    return p;
}

TEST(PlotCanvas, RejectsInvalidSizes) {
    EXPECT_THROW(Canvas(0, 10), InputError);
    EXPECT_THROW(Canvas(10, -1), InputError);
    EXPECT_THROW(Canvas(Canvas::kMaxSide + 1, 10), InputError);
}

TEST(PlotCanvas, PrimitivesPaintWhereAsked) {
    Canvas c(100, 60, {255, 255, 255});
    const Rgb red{200, 0, 0}, blue{0, 0, 200};
    c.fillRect(10, 10, 20, 15, red);
    EXPECT_EQ(c.get(10, 10), red);
    EXPECT_EQ(c.get(19, 14), red);
    EXPECT_EQ(c.get(20, 14), (Rgb{255, 255, 255}));
    EXPECT_EQ(countColor(c, red), 50);

    c.fillCircle(70.f, 30.f, 8.f, blue);
    EXPECT_EQ(c.get(70, 30), blue);
    EXPECT_EQ(c.get(70, 45), (Rgb{255, 255, 255}));

    // A 3 px horizontal line through pixel row centres 49..51.
    c.line(5.f, 50.5f, 60.f, 50.5f, red, 3.f);
    EXPECT_EQ(c.get(30, 49), red);
    EXPECT_EQ(c.get(30, 50), red);
    EXPECT_EQ(c.get(30, 51), red);
    EXPECT_EQ(c.get(30, 53), (Rgb{255, 255, 255}));

    // Clipping.
    c.setClip(0, 0, 50, 60);
    c.fillRect(40, 0, 60, 5, blue);
    EXPECT_EQ(c.get(49, 0), blue);
    EXPECT_EQ(c.get(50, 0), (Rgb{255, 255, 255}));
    c.resetClip();

    // Blending halfway.
    Canvas g(1, 1, {0, 0, 0});
    g.blend(0, 0, {200, 100, 50}, 0.5f);
    EXPECT_EQ(g.get(0, 0), (Rgb{100, 50, 25}));
}

TEST(PlotText, InkStaysInsideTheMeasuredBox) {
    Canvas c(300, 80, {255, 255, 255});
    plot::TextStyle st;
    st.scale = 2.f;
    const std::string s = "Hello 10^3";
    plot::drawText(c, 20.f, 30.f, s, st);  // top-left anchored
    const int w = static_cast<int>(plot::textWidth(s, 2.f));
    const int h = static_cast<int>(plot::textHeight(s, 2.f));
    EXPECT_EQ(h, 14);
    int inside = 0, outside = 0;
    for (int y = 0; y < c.height(); ++y)
        for (int x = 0; x < c.width(); ++x) {
            if (c.get(x, y) == (Rgb{255, 255, 255})) continue;
            const bool in = x >= 20 && x < 20 + w && y >= 30 && y < 30 + h + 4;  // + descenders
            (in ? inside : outside)++;
        }
    EXPECT_GT(inside, 100);
    EXPECT_EQ(outside, 0);
    EXPECT_GT(plot::textWidth("abcdef", 2.f), plot::textWidth("abc", 2.f));
}

TEST(PlotText, VerticalTextIsRotated) {
    Canvas c(80, 300, {255, 255, 255});
    plot::TextStyle st;
    st.vertical = true;
    plot::drawText(c, 20.f, 250.f, "time [ms]", st);
    int x0 = 80, x1 = -1, y0 = 300, y1 = -1;
    for (int y = 0; y < c.height(); ++y)
        for (int x = 0; x < c.width(); ++x)
            if (c.get(x, y) != (Rgb{255, 255, 255})) {
                x0 = std::min(x0, x); x1 = std::max(x1, x);
                y0 = std::min(y0, y); y1 = std::max(y1, y);
            }
    ASSERT_GE(x1, x0);
    EXPECT_GT(y1 - y0, 3 * (x1 - x0)) << "vertical text must be tall and narrow";
    EXPECT_LE(y1, 250);
}

TEST_F(PlotTest, LogLogPlotPngHasSizeAndSeriesColours) {
    const std::string p = path("plot.png");
    const plot::LinePlot lp = samplePlot();
    plot::writeLogLogPlot(p, lp);
    EXPECT_FALSE(fs::exists(p + ".tmp"));
    const Image img = loadPng(p);
    ASSERT_TRUE(img.px);
    EXPECT_EQ(img.w, 1000);
    EXPECT_EQ(img.h, 700);
    for (const plot::Series& s : lp.series) EXPECT_GT(img.count(s.color), 200) << s.name;
    EXPECT_EQ(img.at(2, 2), (Rgb{255, 255, 255})) << "background";
}

TEST_F(PlotTest, CustomSizeAndSkippedPoints) {
    plot::LinePlot lp = samplePlot();
    lp.width = 640;
    lp.height = 480;
    // Unnamed (no legend entry) and only unplottable points: its colour must not appear.
    const Rgb ghost{1, 2, 3};
    lp.series.push_back({"", ghost, plot::Marker::Circle, true, {{0.0, 1.0}, {10.0, 0.0}, {10.0, -3.0}, {-1.0, 5.0}, {NAN, 1.0}, {1e4, INFINITY}}});
    const std::string p = path("small.png");
    plot::writeLogLogPlot(p, lp);
    const Image img = loadPng(p);
    ASSERT_TRUE(img.px);
    EXPECT_EQ(img.w, 640);
    EXPECT_EQ(img.h, 480);
    EXPECT_EQ(img.count(ghost), 0);
    EXPECT_GT(img.count(lp.series[0].color), 100);
}

TEST_F(PlotTest, EmptyPlotStillRenders) {
    plot::LinePlot lp;
    lp.title = "nothing";
    EXPECT_NO_THROW(plot::writeLogLogPlot(path("empty.png"), lp));
    EXPECT_TRUE(loadPng(path("empty.png")).px);
}

TEST_F(PlotTest, InvalidPlotSizeIsAnInputError) {
    plot::LinePlot lp = samplePlot();
    lp.width = 100;
    EXPECT_THROW(plot::renderLogLogPlot(lp), InputError);
}

TEST_F(PlotTest, UnwritablePathNamesThePath) {
    const std::string p = path("missing-dir/plot.png");
    try {
        plot::writeLogLogPlot(p, samplePlot());
        ADD_FAILURE() << "no error for " << p;
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(p));
    EXPECT_FALSE(fs::exists(p + ".tmp"));
}

}  // namespace
}  // namespace ccrowd::test
