/// @file test_lineplot.cpp
/// Linear line plots (src/plot/lineplot.hpp): points land where linear axes
/// put them, bands and series colours appear, series are clipped to the
/// axes, and the PNG reads back with stb_image at the requested size.

#include <cmath>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "png_image.hpp"
#include "temp_dir.hpp"

#include "ccrowd/error.hpp"
#include "src/plot/lineplot.hpp"
#include "src/plot/plot_frame.hpp"


namespace ccrowd::test {
namespace {

using plot::Canvas;
using plot::Rgb;

class LinePlotTest : public TempDirTest {};

int countColor(const Canvas& c, Rgb col, int x0 = 0, int y0 = 0, int x1 = -1, int y1 = -1) {
    if (x1 < 0) x1 = c.width();
    if (y1 < 0) y1 = c.height();
    int n = 0;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) n += c.get(x, y) == col;
    return n;
}

/// Pixel centre of data point (x, y) on axes fixed to [0, 10] x [0, 10].
plot::PointF pixelOf(const plot::LinePlot& p, double x, double y) {
    const plot::frame::Box b = plot::frame::dataBox(p);
    return {static_cast<float>(b.x0 + x / 10.0 * (b.x1 - b.x0)), static_cast<float>(b.y1 - y / 10.0 * (b.y1 - b.y0))};
}

plot::LinearAxes fixedAxes() {
    plot::LinearAxes a;
    a.x_min = 0; a.x_max = 10; a.y_min = 0; a.y_max = 10;
    return a;
}

TEST_F(LinePlotTest, MarkersLandWhereLinearAxesPutThem) {
    plot::LinePlot p;
    p.title = "linear";
    const Rgb red{214, 39, 40};
    p.series.push_back({"points", red, plot::Marker::Square, false, {{5.0, 5.0}, {2.5, 7.5}, {9.0, 1.0}}});
    const Canvas c = plot::renderLinearPlot(p, fixedAxes());
    for (const auto& [x, y] : p.series[0].points) {
        const plot::PointF px = pixelOf(p, x, y);
        EXPECT_EQ(c.get(static_cast<int>(px.first), static_cast<int>(px.second)), red) << x << ", " << y;
    }
    // on log axes 2.5 would sit elsewhere: half way between 0 and 5 is empty
    const plot::PointF mid = pixelOf(p, 2.5, 5.0);
    EXPECT_NE(c.get(static_cast<int>(mid.first), static_cast<int>(mid.second)), red);
}

TEST_F(LinePlotTest, BandIsShadedOverItsRangeOnly) {
    plot::LinePlot p;
    plot::LinearAxes a = fixedAxes();
    const Rgb band{200, 230, 255};
    a.x_bands.push_back({4.0, 6.0, "window", band});
    a.x_bands.push_back({7.0, 7.0, "empty band: skipped", Rgb{1, 2, 3}});
    const Canvas c = plot::renderLinearPlot(p, a);
    const plot::frame::Box b = plot::frame::dataBox(p);
    const plot::PointF in = pixelOf(p, 5.3, 3.3), out = pixelOf(p, 3.3, 3.3);
    EXPECT_EQ(c.get(static_cast<int>(in.first), static_cast<int>(in.second)), band);
    EXPECT_NE(c.get(static_cast<int>(out.first), static_cast<int>(out.second)), band);
    // full height of the data area, and nowhere outside it
    EXPECT_GT(countColor(c, band), static_cast<int>(0.15f * (b.x1 - b.x0) * (b.y1 - b.y0)));
    EXPECT_EQ(countColor(c, band, 0, 0, c.width(), static_cast<int>(b.y0) - 1), 0);
    EXPECT_EQ(countColor(c, Rgb{1, 2, 3}), 0);
}

TEST_F(LinePlotTest, SeriesAreClippedToTheAxes) {
    plot::LinePlot p;
    const Rgb ink{23, 190, 207};
    p.series.push_back({"", ink, plot::Marker::Circle, true, {{-50.0, -50.0}, {5.0, 5.0}, {60.0, 80.0}}});
    const Canvas c = plot::renderLinearPlot(p, fixedAxes());
    const plot::frame::Box b = plot::frame::dataBox(p);
    EXPECT_GT(countColor(c, ink), 100);
    // nothing beyond the few pixels markers may reach past the frame
    EXPECT_EQ(countColor(c, ink, 0, 0, static_cast<int>(b.x0) - 8, c.height()), 0);
    EXPECT_EQ(countColor(c, ink, static_cast<int>(b.x1) + 9, 0, c.width(), c.height()), 0);
    EXPECT_EQ(countColor(c, ink, 0, 0, c.width(), static_cast<int>(b.y0) - 8), 0);
}

TEST_F(LinePlotTest, AxesFromTheDataHoldEveryPoint) {
    // negative values, a single x value, no fixed ends
    plot::LinePlot p;
    const Rgb ink{148, 103, 189};
    p.series.push_back({"a", ink, plot::Marker::Diamond, true, {{3.0, -2.0}, {3.0, 7.0}, {NAN, 1.0}}});
    const Canvas c = plot::renderLinearPlot(p);
    const plot::frame::Box b = plot::frame::dataBox(p);
    const int x0 = static_cast<int>(b.x0), y0 = static_cast<int>(b.y0), x1 = static_cast<int>(b.x1), y1 = static_cast<int>(b.y1);
    EXPECT_GT(countColor(c, ink, x0, y0, x1, y1), 100);
}

TEST_F(LinePlotTest, PngHasSizeAndSeriesColours) {
    plot::LinePlot p;
    p.title = "speed";
    p.x_label = "density [1/m^2]";
    p.y_label = "speed [m/s]";
    p.width = 900;
    p.height = 600;
    for (int k = 0; k < 2; ++k) {
        plot::Series s{"s" + std::to_string(k), plot::paletteColor(k), plot::Marker::Circle, true, {}};
        for (int i = 0; i <= 10; ++i) s.points.push_back({0.5 * i, 1.3 - 0.1 * i * (k + 1)});
        p.series.push_back(s);
    }
    const std::string file = path("lin.png");
    plot::writeLinearPlot(file, p);
    EXPECT_FALSE(std::filesystem::exists(file + ".tmp"));
    const PngImage img = loadPng(file);
    ASSERT_TRUE(img.px);
    EXPECT_EQ(img.w, 900);
    EXPECT_EQ(img.h, 600);
    for (int k = 0; k < 2; ++k) EXPECT_GT(img.count(plot::paletteColor(k)), 200) << "series " << k;
}

TEST_F(LinePlotTest, EmptyPlotRendersAndBadSizeIsAnInputError) {
    plot::LinePlot p;
    EXPECT_NO_THROW(plot::renderLinearPlot(p));
    p.height = 100;
    EXPECT_THROW(plot::renderLinearPlot(p), InputError);
    // contradictory fixed ends fall back to the data
    plot::LinePlot q;
    plot::LinearAxes a;
    a.x_min = 5; a.x_max = 1;
    q.series.push_back({"", Rgb{9, 9, 9}, plot::Marker::Circle, false, {{2.0, 2.0}}});
    EXPECT_GT(countColor(plot::renderLinearPlot(q, a), Rgb{9, 9, 9}), 20);
}

}  // namespace
}  // namespace ccrowd::test
