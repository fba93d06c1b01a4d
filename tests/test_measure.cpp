/// @file test_measure.cpp
/// Measurements (src/measure/): the output slices every meter walks through;
/// line crossings per direction and group with
/// flows and specific flows per interval, including agents that touch the
/// line, stop on it, pass beside its end, walk along it or vanish and come
/// back; independence of the agents' order; area density and speed; CSV
/// text and atomic files; bad input.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "temp_dir.hpp"

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "src/measure/area_meter.hpp"
#include "src/measure/csv_text.hpp"
#include "src/io/number_text.hpp"
#include "src/measure/interval_clock.hpp"
#include "src/measure/line_counter.hpp"

namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;

/// The slices an IntervalSlices closed, as (t0, t1) pairs.
using Closed = std::vector<std::pair<double, double>>;

TEST(IntervalSlicesTest, ClosesEverySlicePassedAndTheLastOneCutAtTheEnd) {
    measure::IntervalSlices s("meter", 1.0);
    Closed closed;
    const auto close = [&](double t0, double t1) { closed.emplace_back(t0, t1); };
    // Observations at 0.5 and 1.0 stay in slice 0 (t = 1 closes it only once passed).
    s.check(0.5);
    EXPECT_EQ(s.advance(0.5, close), 0);
    s.check(1.0);
    EXPECT_EQ(s.advance(1.0, close), 0);
    // 3.2 passes slices 0, 1 (empty) and 2.
    s.check(3.2);
    EXPECT_EQ(s.advance(3.2, close), 3);
    EXPECT_EQ(closed, (Closed{{0, 1}, {1, 2}, {2, 3}}));
    // Out of order, non-finite: errors naming the meter; the last time stays 3.2.
    EXPECT_THROW(s.check(3.1), Error);
    try {
        s.check(std::nan(""));
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("meter: observation time nan is not a finite time"), std::string::npos) << e.what();
    }
    try {
        s.check(2.0);
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("meter: observation time 2 s is before the previous one (3.2 s)"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(s.finish(3.0, close), Error);
    // The end at 4.5: slice 3 whole, slice 4 cut at 4.5; later calls close nothing, observations throw.
    closed.clear();
    EXPECT_EQ(s.finish(4.5, close), 2);
    EXPECT_EQ(closed, (Closed{{3, 4}, {4, 4.5}}));
    EXPECT_TRUE(s.finished());
    EXPECT_EQ(s.finish(9.0, close), 0);
    EXPECT_THROW(s.check(5.0), Error);
}

TEST(IntervalSlicesTest, AnEndOnASliceBoundaryAddsNoEmptySlice) {
    measure::IntervalSlices s("meter", 0.5);
    Closed closed;
    const auto close = [&](double t0, double t1) { closed.emplace_back(t0, t1); };
    s.check(0.3);
    s.advance(0.3, close);
    // 10 steps of 0.1 s summed in floating point (0.9999999999999999) end slice 1 exactly.
    double t = 0;
    for (int k = 0; k < 10; ++k) t += 0.1;
    EXPECT_EQ(s.finish(t, close), 2);
    ASSERT_EQ(closed.size(), 2u);
    EXPECT_EQ(closed[0], std::make_pair(0.0, 0.5));
    EXPECT_EQ(closed[1].first, 0.5);
    EXPECT_NEAR(closed[1].second, 1.0, 1e-12);
}

TEST(IntervalSlicesTest, AClosedWalkStartsAtTheSliceItIsOpenedIn) {
    measure::IntervalSlices s("meter", 2.0, false);
    Closed closed;
    const auto close = [&](double t0, double t1) { closed.emplace_back(t0, t1); };
    // Not open: nothing closes, whatever the time.
    EXPECT_FALSE(s.open());
    s.check(7.0);
    EXPECT_EQ(s.advance(7.0, close), 0);
    // Opened at 7 s: slice 3 (6, 8] is the first; 8.5 closes it; opening again changes nothing.
    s.openAt(7.0);
    EXPECT_TRUE(s.open());
    s.check(8.5);
    s.openAt(8.5);
    EXPECT_EQ(s.advance(8.5, close), 1);
    EXPECT_EQ(s.finish(9.0, close), 1);
    EXPECT_EQ(closed, (Closed{{6, 8}, {8, 9}}));
    // Never opened: the end closes nothing.
    measure::IntervalSlices never("meter", 2.0, false);
    EXPECT_EQ(never.finish(5.0, close), 0);
}

TEST(IntervalSlicesTest, AnIntervalThatIsNotAPositiveDurationNamesTheMeter) {
    for (const double bad : {0.0, -1.0, std::nan(""), static_cast<double>(INFINITY)}) {
        try {
            measure::IntervalSlices s("traffic meter", bad);
            ADD_FAILURE() << bad << " accepted";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("traffic meter interval"), std::string::npos) << what;
            EXPECT_NE(what.find(io::shortestText(bad)), std::string::npos) << what;
            EXPECT_NE(what.find("finite, > 0 s"), std::string::npos) << what;
        }
    }
    // the meters' own intervals go through it
    try {
        measure::LineCounter c({}, {}, -2.0);
        ADD_FAILURE() << "-2 s accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("line counter interval"), std::string::npos) << e.what();
    }
}

/// Agents present at one observation.
struct Obs {
    std::vector<int> id, group;
    std::vector<float> x, y, vx, vy;
    void add(int i, int g, double px, double py, double pvx = 0, double pvy = 0) {
        id.push_back(i), group.push_back(g);
        x.push_back(static_cast<float>(px)), y.push_back(static_cast<float>(py));
        vx.push_back(static_cast<float>(pvx)), vy.push_back(static_cast<float>(pvy));
    }
    int n() const { return static_cast<int>(id.size()); }
};

int observe(measure::LineCounter& c, double t, const Obs& o) {
    return c.observe(t, o.n(), o.id.data(), o.group.data(), o.x.data(), o.y.data());
}

/// The "door": from (5, 2) to (5, 0), 2 m long, pointing south, so its left
/// (forward) side is east: walking east is forward.
LineSpec door() { return LineSpec{"door", {5.f, 2.f}, {5.f, 0.f}}; }

/// Agents at step k (t = k / 10 s); groups: 0 = red, 1 = blue.
Obs scripted(int k) {
    Obs o;
    o.add(10, 0, 4.55 + 0.1 * k, 1.0);                       // forward at t = 0.5
    o.add(11, 1, 5.45 - 0.1 * k, 0.5);                       // backward at t = 0.5
    o.add(12, 0, 4.05 + 0.1 * k, 1.5);                       // forward at t = 1.0 (end of interval 0)
    o.add(13, 0, 4.55 + 0.1 * k, 3.0);                       // passes beside the segment's end: not counted
    o.add(14, 1, 5.0 - 0.1 * std::abs(k - 4), 1.0);          // touches the line at t = 0.4, goes back: not counted
    o.add(15, 1, k <= 3 ? 4.7 + 0.1 * k : (k <= 7 ? 5.0 : 5.0 + 0.1 * (k - 7)), 0.2);  // waits on it, forward at t = 0.8
    o.add(16, 0, k <= 12 ? 3.85 + 0.1 * k : (k == 13 ? 5.05 : 4.95), 1.8);  // forward at 1.2, backward at 1.4
    o.add(17, 0, 5.0, -0.5 + 0.1 * k);                       // walks along the line: never counted
    if (k != 6) o.add(18, 1, k < 6 ? 4.9 : 5.1 + 0.1 * (k - 7), 1.0);  // vanishes, back on the other side: not counted
    return o;
}

TEST(LineCounterTest, CountsCrossingsPerDirectionAndGroup) {
    measure::LineCounter c({door()}, {"red", "blue"}, 1.0);
    int emitted = 0;
    for (int k = 0; k <= 15; ++k) {
        const int rows = observe(c, k / 10.0, scripted(k));
        // Interval (0, 1] closes at the first observation after t = 1.
        EXPECT_EQ(rows, k == 11 ? 3 : 0) << "k = " << k;
        emitted += rows;
    }
    emitted += c.finish(1.5);
    ASSERT_EQ(emitted, 6);
    const auto& r = c.rows();
    ASSERT_EQ(r.size(), 6u);
    // Interval (0, 1]: forward A, C (red), F (blue); backward B (blue).
    struct Want { int group; long long fwd, bwd; double flow, specific; };
    const Want first[] = {{-1, 3, 1, 4.0, 2.0}, {0, 2, 0, 2.0, 1.0}, {1, 1, 1, 2.0, 1.0}};
    for (int g = 0; g < 3; ++g) {
        SCOPED_TRACE("interval 0, slot " + std::to_string(g));
        EXPECT_EQ(r[g].t_start, 0.0);
        EXPECT_EQ(r[g].t_end, 1.0);
        EXPECT_EQ(r[g].group, first[g].group);
        EXPECT_EQ(r[g].forward, first[g].fwd);
        EXPECT_EQ(r[g].backward, first[g].bwd);
        EXPECT_DOUBLE_EQ(r[g].flow, first[g].flow);
        EXPECT_DOUBLE_EQ(r[g].specific_flow, first[g].specific);
    }
    // Interval (1, 1.5] (cut short by finish): G forward and back, 2 crossings in 0.5 s.
    const Want second[] = {{-1, 1, 1, 4.0, 2.0}, {0, 1, 1, 4.0, 2.0}, {1, 0, 0, 0.0, 0.0}};
    for (int g = 0; g < 3; ++g) {
        SCOPED_TRACE("interval 1, slot " + std::to_string(g));
        EXPECT_EQ(r[3 + g].t_start, 1.0);
        EXPECT_EQ(r[3 + g].t_end, 1.5);
        EXPECT_EQ(r[3 + g].forward, second[g].fwd);
        EXPECT_EQ(r[3 + g].backward, second[g].bwd);
        EXPECT_DOUBLE_EQ(r[3 + g].flow, second[g].flow);
        EXPECT_DOUBLE_EQ(r[3 + g].specific_flow, second[g].specific);
    }
    // Summary values.
    EXPECT_EQ(c.totalForward(0), 4);
    EXPECT_EQ(c.totalBackward(0), 2);
    EXPECT_DOUBLE_EQ(c.length(0), 2.0);
    EXPECT_DOUBLE_EQ(c.peakFlow(0), 4.0);
    EXPECT_DOUBLE_EQ(c.peakSpecificFlow(0), 2.0);
    EXPECT_THROW(observe(c, 2.0, scripted(0)), Error);
}

TEST(LineCounterTest, AgentsThatLeftAreForgottenAndTheirSlotsReused) {
    // 3000 agents seen once, then gone (their slots are freed), then back on
    // the other side: a return is a new start, never a crossing; agent 4000,
    // present all along, crosses once
    measure::LineCounter c({door()}, {"a"}, 1.0);
    Obs crowd;
    for (int i = 0; i < 3000; ++i) crowd.add(i, 0, 4.5, 1.0);
    crowd.add(4000, 0, 4.8, 1.0);
    observe(c, 0.0, crowd);
    Obs few;
    for (int i = 5000; i < 5010; ++i) few.add(i, 0, 1.0, 1.0);
    few.add(4000, 0, 4.9, 1.0);
    observe(c, 0.1, few);
    Obs back;
    for (int i = 0; i < 3000; ++i) back.add(i, 0, 5.5, 1.0);
    back.add(4000, 0, 5.1, 1.0);
    observe(c, 0.2, back);
    c.finish(1.0);
    EXPECT_EQ(c.totalForward(0), 1);
    EXPECT_EQ(c.totalBackward(0), 0);
}

TEST(LineCounterTest, CsvHasUnitsAndOneRowPerLineAndGroup) {
    measure::LineCounter c({door(), LineSpec{"gate, north", {0.f, 0.f}, {4.f, 0.f}}}, {"red"}, 2.0);
    Obs a, b;
    a.add(1, 0, 1.0, -0.5);
    b.add(1, 0, 1.0, 0.5);  // crosses the gate northward: forward (its left is north)
    observe(c, 0.0, a);
    observe(c, 0.5, b);
    c.finish(2.0);
    EXPECT_EQ(c.csv(),
              "t_start [s],t_end [s],line,group,forward [persons],backward [persons],flow [persons/s],"
              "specific_flow [persons/(m s)]\n"
              "0,2,door,all,0,0,0,0\n"
              "0,2,door,red,0,0,0,0\n"
              "0,2,\"gate, north\",all,1,0,0.5,0.125\n"
              "0,2,\"gate, north\",red,1,0,0.5,0.125\n");
}

TEST(LineCounterTest, EmptyIntervalsAreReportedAndPeakUsesFullIntervals) {
    measure::LineCounter c({door()}, {}, 1.0);
    Obs left, right;
    left.add(1, 0, 4.9, 1.0);
    right.add(1, 0, 5.1, 1.0);
    observe(c, 0.0, left);
    observe(c, 0.5, right);   // 1 crossing in (0, 1]
    EXPECT_EQ(observe(c, 3.2, right), 3);  // closes (0,1], (1,2], (2,3]
    observe(c, 3.3, left);    // 1 crossing in (3, 3.4]: 2.5 persons/s, but only 0.4 s long
    c.finish(3.4);
    ASSERT_EQ(c.rows().size(), 4u);
    EXPECT_EQ(c.rows()[1].forward + c.rows()[1].backward, 0);
    EXPECT_NEAR(c.rows()[3].flow, 2.5, 1e-12);
    EXPECT_DOUBLE_EQ(c.peakFlow(0), 1.0);
}

TEST(LineCounterTest, ResultsDoNotDependOnAgentOrderNorOnIdValues) {
    // 300 agents random-walking around two crossing lines; the same walk fed
    // in shuffled order, and with ids far from 0..n (negative and huge ids
    // are hashed, small ones kept in a table)
    const std::vector<LineSpec> lines = {door(), LineSpec{"diag", {3.f, -1.f}, {7.f, 3.f}}};
    auto run = [&](bool shuffle, long long& crossings, bool farIds = false) {
        measure::LineCounter c(lines, {"a", "b", "c"}, 0.5);
        std::mt19937 walk(7), order(11);
        std::vector<double> x(300), y(300);
        for (int i = 0; i < 300; ++i) x[i] = 3 + 4.0 * i / 300, y[i] = -1 + 4.0 * ((i * 37) % 300) / 300;
        std::normal_distribution<double> step(0.0, 0.15);
        for (int k = 0; k <= 100; ++k) {
            std::vector<int> idx(300);
            for (int i = 0; i < 300; ++i) idx[i] = i;
            if (shuffle) std::shuffle(idx.begin(), idx.end(), order);
            Obs o;
            for (int i : idx) o.add(farIds ? (i % 2 ? -1 - i : 2000000000 - i) : i, i % 3, x[i], y[i]);
            observe(c, k * 0.05, o);
            for (int i = 0; i < 300; ++i) x[i] += step(walk), y[i] += step(walk);
        }
        c.finish(5.0);
        crossings = 0;
        for (int l = 0; l < 2; ++l) crossings += c.totalForward(l) + c.totalBackward(l);
        return c.csv();
    };
    long long n1 = 0, n2 = 0, n3 = 0;
    const std::string a = run(false, n1), b = run(true, n2), far = run(true, n3, true);
    EXPECT_EQ(a, b);
    EXPECT_EQ(n1, n2);
    EXPECT_EQ(a, far);
    EXPECT_EQ(n1, n3);
    // The walk does cross the lines, many times.
    EXPECT_GT(n1, 50);
}

TEST(LineCounterTest, RejectsBadInput) {
    // Zero-length line and bad intervals name the field.
    try {
        measure::LineCounter c({LineSpec{"zero_length", {1.f, 1.f}, {1.f, 1.f}}}, {}, 1.0);
        ADD_FAILURE() << "zero-length line accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("'zero_length'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(measure::LineCounter({door()}, {}, 0.0), InputError);
    EXPECT_THROW(measure::LineCounter({door()}, {}, std::nan("")), InputError);
    EXPECT_THROW(measure::LineCounter({LineSpec{"", {0.f, 0.f}, {1.f, 0.f}}}, {}, 1.0), InputError);
    // Duplicate ids, bad groups, time going back, non-finite positions.
    measure::LineCounter c({door()}, {"only"}, 1.0);
    Obs dup;
    dup.add(1, 0, 1, 1);
    dup.add(1, 0, 2, 2);
    EXPECT_THROW(observe(c, 0.0, dup), Error);
    Obs badGroup;
    badGroup.add(2, 1, 1, 1);
    EXPECT_THROW(observe(c, 0.1, badGroup), Error);
    Obs ok;
    ok.add(3, 0, 1, 1);
    observe(c, 0.5, ok);
    EXPECT_THROW(observe(c, 0.4, ok), Error);
    Obs nan;
    nan.add(4, 0, std::nan(""), 1);
    EXPECT_THROW(observe(c, 0.6, nan), Error);
}

class LineCounterFileTest : public TempDirTest {};

TEST_F(LineCounterFileTest, WritesCsvAtomically) {
    measure::LineCounter c({door()}, {}, 1.0);
    Obs o;
    o.add(1, 0, 4.9, 1.0);
    observe(c, 0.0, o);
    c.finish(1.0);
    const std::string p = path("lines.csv");
    c.writeCsv(p);
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(ss.str(), c.csv());
    EXPECT_EQ(ss.str().substr(0, 12), "t_start [s],");
    EXPECT_FALSE(fs::exists(p + ".tmp"));
    const std::string bad = path("missing/lines.csv");
    try {
        c.writeCsv(bad);
        ADD_FAILURE() << "no error for " << bad;
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
    }
}

Polygon square2() { return {{0.f, 0.f}, {2.f, 0.f}, {2.f, 2.f}, {0.f, 2.f}}; }

TEST(AreaMeterTest, DensityAndMeanSpeedOfAgentsInside) {
    measure::AreaMeter m({AreaSpec{"square", square2()}, AreaSpec{"triangle", {{0.f, 0.f}, {4.f, 0.f}, {0.f, 4.f}}}}, 1.0);
    EXPECT_DOUBLE_EQ(m.size(0), 4.0);
    EXPECT_DOUBLE_EQ(m.size(1), 8.0);
    Obs s1;
    s1.add(1, 0, 0.5, 0.5, 0.6, 0.8);   // speed 1
    s1.add(2, 0, 1.5, 0.5, 2.0, 0.0);   // speed 2
    s1.add(3, 0, 1.0, 1.5, 0.0, -3.0);  // speed 3
    s1.add(4, 0, 0.0, 1.0, 0.0, 0.0);   // on the left edge: inside (crossing-number rule), speed 0
    s1.add(5, 0, 2.0, 1.0, 9.0, 0.0);   // on the right edge: outside
    s1.add(6, 0, 3.0, 3.0, 5.0, 0.0);   // outside
    Obs s2;
    s2.add(1, 0, 0.5, 0.5, 0.6, 0.8);
    s2.add(3, 0, 1.0, 1.5, 0.0, -3.0);
    EXPECT_EQ(m.observe(0.5, s1.n(), s1.x.data(), s1.y.data(), s1.vx.data(), s1.vy.data()), 0);
    EXPECT_EQ(m.observe(1.0, s2.n(), s2.x.data(), s2.y.data(), s2.vx.data(), s2.vy.data()), 0);
    EXPECT_EQ(m.finish(2.5), 6);
    const auto& r = m.rows();
    ASSERT_EQ(r.size(), 6u);
    // Square, (0, 1]: N = 4 then 2 on 4 m^2; speeds (1+2+3+0) and (1+3) over 6 agent samples.
    EXPECT_EQ(r[0].samples, 2);
    EXPECT_DOUBLE_EQ(r[0].agents_mean, 3.0);
    EXPECT_DOUBLE_EQ(r[0].density_mean, 0.75);
    EXPECT_DOUBLE_EQ(r[0].density_max, 1.0);
    EXPECT_NEAR(r[0].speed_mean, 10.0 / 6.0, 1e-6);
    // Triangle (area 8): agents 1-5, then 1 and 3, are inside x + y < 4.
    EXPECT_DOUBLE_EQ(r[1].density_mean, (5.0 / 8 + 2.0 / 8) / 2);
    // (1, 2] had no observation; (2, 2.5] neither.
    EXPECT_EQ(r[2].samples, 0);
    EXPECT_TRUE(std::isnan(r[2].density_mean));
    EXPECT_EQ(r[4].t_start, 2.0);
    EXPECT_EQ(r[4].t_end, 2.5);
    EXPECT_DOUBLE_EQ(m.maxDensity(0), 1.0);
    EXPECT_DOUBLE_EQ(m.maxDensity(1), 0.625);
    // CSV: header with units, missing values empty.
    std::istringstream csv(m.csv());
    std::string header, row0, row1, row2;
    std::getline(csv, header), std::getline(csv, row0), std::getline(csv, row1), std::getline(csv, row2);
    EXPECT_EQ(header, "t_start [s],t_end [s],area,samples,agents_mean [persons],density_mean [persons/m^2],"
                      "density_max [persons/m^2],speed_mean [m/s]");
    EXPECT_EQ(row0, "0,1,square,2,3,0.75,1,1.66666667");
    EXPECT_EQ(row2, "1,2,square,0,,,,");
}

TEST(AreaMeterTest, EmptyAreaHasNoSpeed) {
    measure::AreaMeter m({AreaSpec{"square", square2()}}, 1.0);
    Obs o;
    o.add(1, 0, 5.0, 5.0, 1.0, 0.0);
    m.observe(0.2, o.n(), o.x.data(), o.y.data(), o.vx.data(), o.vy.data());
    m.finish(1.0);
    ASSERT_EQ(m.rows().size(), 1u);
    EXPECT_DOUBLE_EQ(m.rows()[0].density_mean, 0.0);
    EXPECT_TRUE(std::isnan(m.rows()[0].speed_mean));
    EXPECT_DOUBLE_EQ(m.maxDensity(0), 0.0);
}

TEST(AreaMeterTest, RejectsBadInput) {
    try {
        measure::AreaMeter m({AreaSpec{"flat", {{0.f, 0.f}, {1.f, 1.f}, {2.f, 2.f}}}}, 1.0);
        ADD_FAILURE() << "zero-area polygon accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("'flat'"), std::string::npos) << e.what();
    }
    EXPECT_THROW(measure::AreaMeter({AreaSpec{"two", {{0.f, 0.f}, {1.f, 1.f}}}}, 1.0), InputError);
    EXPECT_THROW(measure::AreaMeter({AreaSpec{"sq", square2()}}, -1.0), InputError);
    measure::AreaMeter m({AreaSpec{"sq", square2()}}, 1.0);
    const float x[] = {1.f}, v[] = {INFINITY};
    EXPECT_THROW(m.observe(0.0, 1, x, x, v, x), Error);
    m.observe(0.5, 1, x, x, x, x);
    EXPECT_THROW(m.observe(0.4, 1, x, x, x, x), Error);
}

TEST(MeasureCsvTest, QuotesFieldsAndChecksWidth) {
    measure::CsvText t({"a", "b"});
    t.addRow({"x,y", "say \"hi\""});
    EXPECT_EQ(t.text(), "a,b\n\"x,y\",\"say \"\"hi\"\"\"\n");
    EXPECT_THROW(t.addRow({"only one"}), Error);
    EXPECT_EQ(measure::csvNumber(0.1 + 0.2), "0.3");
    EXPECT_EQ(measure::csvNumber(std::nan("")), "");
}

}  // namespace
}  // namespace ccrowd::test
