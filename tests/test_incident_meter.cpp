/// @file test_incident_meter.cpp
/// incidents.csv (src/measure/incident_meter.hpp): nothing before the first
/// incident starts; per interval and group the mean head count, the mean
/// distance to the nearest started incident and the mean number inside a
/// harm disc, against hand computation; the time to leave the harm radius;
/// the same rows whatever the order of the agents.

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "measure/incident_meter.hpp"

namespace ccrowd::test {
namespace {

std::vector<IncidentSpec> twoIncidents() {
    IncidentSpec a, b;
    a.name = "a"; a.position = {0.f, 0.f}; a.radius = 2.f;
    b.name = "b"; b.position = {10.f, 0.f}; b.radius = 1.f;
    return {a, b};
}

TEST(IncidentMeter, RowsAgainstHandComputation) {
    measure::IncidentMeter m(twoIncidents(), {"run", "hide"}, 1.0);
    // before any start: nothing
    const int g0[2] = {0, 1};
    const float x0[2] = {1.f, 3.f}, y0[2] = {0.f, 0.f};
    EXPECT_EQ(m.observe(0.5, {}, 2, g0, x0, y0), 0);
    EXPECT_EQ(m.firstStart(), -1.0);
    // a started at 1.2: agent 0 (run) 1 m from a, inside; agent 1 (hide) 3 m, outside
    EXPECT_EQ(m.observe(1.2, {0}, 2, g0, x0, y0), 0);
    // at 1.6 both incidents: run agent now at 9.5 (0.5 m from b, inside b), hide agent at 4 (4 m from a)
    const float x1[2] = {9.5f, 4.f};
    EXPECT_EQ(m.observe(1.6, {0, 1}, 2, g0, x1, y0), 0);
    // at 2.4 the interval (1, 2] closes: two rows
    const float x2[2] = {20.f, 4.f};
    EXPECT_EQ(m.observe(2.4, {0, 1}, 2, g0, x2, y0), 2);
    ASSERT_EQ(m.rows().size(), 2u);
    const measure::IncidentGroupRow& run = m.rows()[0];
    EXPECT_EQ(run.group, 0);
    EXPECT_DOUBLE_EQ(run.t_start, 1.0);
    EXPECT_DOUBLE_EQ(run.t_end, 2.0);
    EXPECT_EQ(run.samples, 2);
    EXPECT_DOUBLE_EQ(run.agents_mean, 1.0);
    EXPECT_NEAR(run.distance_mean, (1.0 + 0.5) / 2, 1e-6);
    EXPECT_DOUBLE_EQ(run.inside_mean, 1.0);
    const measure::IncidentGroupRow& hide = m.rows()[1];
    EXPECT_NEAR(hide.distance_mean, (3.0 + 4.0) / 2, 1e-6);
    EXPECT_DOUBLE_EQ(hide.inside_mean, 0.0);
    // the run group was last inside at 1.6, 0.4 s after the first start; the hide group never
    EXPECT_NEAR(m.timeToLeaveHarm(0), 0.4, 1e-12);
    EXPECT_EQ(m.timeToLeaveHarm(1), 0.0);
    // the short last interval, and the CSV
    EXPECT_EQ(m.finish(2.4), 2);
    EXPECT_EQ(m.rows().size(), 4u);
    EXPECT_DOUBLE_EQ(m.rows()[2].t_end, 2.4);
    EXPECT_EQ(m.csv().substr(0, m.csv().find('\n')),
              "t_start [s],t_end [s],group,samples,agents_mean [persons],distance_mean [m],inside_harm_mean [persons]");
    EXPECT_NE(m.csv().find("\n1,2,run,2,1,0.75,1\n"), std::string::npos) << m.csv();
}

TEST(IncidentMeter, StillInsideAtTheEndHasNoTimeToLeave) {
    measure::IncidentMeter m(twoIncidents(), {"run"}, 1.0);
    const int g[1] = {0};
    const float x[1] = {0.5f}, y[1] = {0.f};
    m.observe(1.0, {0}, 1, g, x, y);
    m.finish(1.0);
    EXPECT_EQ(m.timeToLeaveHarm(0), -1.0);
}

TEST(IncidentMeter, RowsDoNotDependOnTheAgentsOrder) {
    measure::IncidentMeter a(twoIncidents(), {"run", "hide"}, 0.5), b(twoIncidents(), {"run", "hide"}, 0.5);
    std::vector<int> g;
    std::vector<float> x, y;
    for (int k = 0; k < 200; ++k) {
        g.push_back(k % 2);
        x.push_back(0.37f * static_cast<float>(k % 37));
        y.push_back(0.11f * static_cast<float>(k % 13));
    }
    std::vector<int> rg(g.rbegin(), g.rend());
    std::vector<float> rx(x.rbegin(), x.rend()), ry(y.rbegin(), y.rend());
    for (double t = 0.05; t < 2.0; t += 0.05) {
        a.observe(t, {0, 1}, 200, g.data(), x.data(), y.data());
        b.observe(t, {0, 1}, 200, rg.data(), rx.data(), ry.data());
    }
    a.finish(2.0);
    b.finish(2.0);
    EXPECT_EQ(a.csv(), b.csv());
}

}  // namespace
}  // namespace ccrowd::test
