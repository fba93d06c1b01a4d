/// @file test_viewer_publish.cpp
/// The viewer's data path without GL: PublishedState publishes agents on
/// the simulation's side and writes the instance records and overlay values
/// that the renderer's mapped buffers receive (instance_fill.hpp functors),
/// per backend. Previous positions follow agents by id across the cell
/// sort's permutation; headings are kept at rest; colours per mode; the
/// pressure of each agent's cell; the overlay of a real simulation.

#include <gtest/gtest.h>

#include "ccrowd/config.hpp"

#if CCROWD_HAVE_VIEWER
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "backends.hpp"
#include "ccrowd/device_memory.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "plot/colormap.hpp"
#include "test_crowd.hpp"
#include "viewer/published_state.hpp"

namespace ccrowd::test {
namespace {

using viewer::AgentInstance;
using viewer::ColourBy;
using viewer::PublishedState;

constexpr float kPi = 3.14159265f;

/// Two groups: red (radius 0.2 m) and blue (0.3 m); fields 0 -> red, 1 and 2 -> blue.
Scene twoGroups() {
    Scene s;
    s.groups.resize(2);
    s.groups[0].radius = 0.2f;
    s.groups[0].colour = {200, 10, 10};
    s.groups[1].radius = 0.3f;
    s.groups[1].colour = {10, 10, 200};
    return s;
}
const std::vector<int> kFieldGroup{0, 1, 1};

/// The records PublishedState::fillInstances writes, brought to the host
/// (on CUDA they are written to device memory, as into a mapped GL buffer).
std::vector<AgentInstance> fillRecords(const PublishedState& pub, ColourBy colour) {
    std::vector<AgentInstance> out(static_cast<std::size_t>(pub.agentCount()));
    const std::size_t bytes = out.size() * sizeof(AgentInstance);
    if (pub.exec().backend != Backend::Cuda) {
        pub.fillInstances(out.data(), colour);
        return out;
    }
    void* dev = device::allocate(bytes);
    pub.fillInstances(static_cast<AgentInstance*>(dev), colour);
    device::copyToHost(out.data(), dev, bytes);
    device::release(dev);
    return out;
}

/// The overlay values of fillOverlay, on the host.
std::vector<float> fillValues(const PublishedState& pub) {
    std::vector<float> out(static_cast<std::size_t>(pub.overlayNx()) * pub.overlayNy());
    const std::size_t bytes = out.size() * sizeof(float);
    if (pub.exec().backend != Backend::Cuda) {
        pub.fillOverlay(out.data());
        return out;
    }
    void* dev = device::allocate(bytes);
    pub.fillOverlay(static_cast<float*>(dev));
    device::copyToHost(out.data(), dev, bytes);
    device::release(dev);
    return out;
}

/// A crowd of agents with chosen ids, in the order given.
struct Agent {
    int id;
    float x, y, vx = 0.f, vy = 0.f;
    int field = 0;
    float vmax = 1.f;
};
TestCrowd crowdOf(const std::vector<Agent>& agents) {
    TestCrowd c;
    for (const Agent& a : agents) {
        c.add(a.x, a.y, a.vx, a.vy, 0.f, 0.f, a.vmax, a.field);
        c.id.vector().back() = a.id;
    }
    return c;
}

int idEndOf(const std::vector<Agent>& agents) {
    int end = 0;
    for (const Agent& a : agents) end = std::max(end, a.id + 1);
    return end;
}

class ViewerPublish : public ::testing::TestWithParam<Exec> {
protected:
    /// Publishes @p agents as one step (or the same step again) with no pressure.
    void publish(PublishedState& pub, const std::vector<Agent>& agents, bool stepped = true) {
        crowds_.push_back(crowdOf(agents));
        const sim::AgentViews v = crowds_.back().views(GetParam());
        pub.publishAgents(readOnly(v), v.n, idEndOf(agents), GridInfo{}, {}, stepped);
    }
    std::vector<TestCrowd> crowds_;  ///< Kept alive: CUDA views point into their device copies.
};

TEST_P(ViewerPublish, PreviousPositionsFollowAgentsByIdAcrossAPermutation) {
    PublishedState pub(GetParam(), twoGroups(), kFieldGroup);
    publish(pub, {{0, 1.f, 1.f}, {1, 2.f, 1.f}, {2, 3.f, 1.f}});
    // the first publication has no past: previous = now
    std::vector<AgentInstance> r = fillRecords(pub, ColourBy::Group);
    ASSERT_EQ(r.size(), 3u);
    for (const AgentInstance& a : r) {
        EXPECT_EQ(a.prev_x, a.x);
        EXPECT_EQ(a.prev_y, a.y);
    }
    // next step: sorted differently, agent 1 left, agent 7 is new
    publish(pub, {{2, 3.5f, 1.5f}, {0, 1.2f, 1.f}, {7, 0.5f, 2.5f}});
    r = fillRecords(pub, ColourBy::Group);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(pub.serial(), 2);
    EXPECT_FLOAT_EQ(r[0].prev_x, 3.f);
    EXPECT_FLOAT_EQ(r[0].prev_y, 1.f);
    EXPECT_FLOAT_EQ(r[0].x, 3.5f);
    EXPECT_FLOAT_EQ(r[0].y, 1.5f);
    EXPECT_FLOAT_EQ(r[1].prev_x, 1.f);
    EXPECT_FLOAT_EQ(r[1].x, 1.2f);
    EXPECT_FLOAT_EQ(r[2].prev_x, 0.5f) << "a new agent starts where it is";
    EXPECT_FLOAT_EQ(r[2].prev_y, 2.5f);
    // a third step: the previous positions are the second step's, not the first's
    publish(pub, {{7, 0.7f, 2.5f}, {0, 1.4f, 1.f}, {2, 3.6f, 1.5f}});
    r = fillRecords(pub, ColourBy::Group);
    EXPECT_FLOAT_EQ(r[0].prev_x, 0.5f);
    EXPECT_FLOAT_EQ(r[1].prev_x, 1.2f);
    EXPECT_FLOAT_EQ(r[2].prev_x, 3.5f);
}

TEST_P(ViewerPublish, PublishingTheSameStepAgainKeepsThePreviousPositions) {
    PublishedState pub(GetParam(), twoGroups(), kFieldGroup);
    publish(pub, {{0, 1.f, 1.f}, {1, 2.f, 1.f}});
    publish(pub, {{1, 2.5f, 1.f}, {0, 1.5f, 1.f}});
    const long long version = pub.version();
    publish(pub, {{1, 2.5f, 1.f}, {0, 1.5f, 1.f}}, false);
    EXPECT_EQ(pub.serial(), 2);
    EXPECT_EQ(pub.version(), version + 1);
    const std::vector<AgentInstance> r = fillRecords(pub, ColourBy::Group);
    EXPECT_FLOAT_EQ(r[0].prev_x, 2.f);
    EXPECT_FLOAT_EQ(r[1].prev_x, 1.f);
}

TEST_P(ViewerPublish, HeadingFollowsTheVelocityAndIsKeptAtRest) {
    PublishedState pub(GetParam(), twoGroups(), kFieldGroup);
    // agent 0 walks north, agent 1 is new and standing
    publish(pub, {{0, 1.f, 1.f, 0.f, 1.f}, {1, 2.f, 1.f}});
    std::vector<AgentInstance> r = fillRecords(pub, ColourBy::Group);
    EXPECT_NEAR(r[0].heading, kPi / 2, 1e-6f);
    EXPECT_EQ(r[1].heading, 0.f);
    // agent 0 stops (noise below the rest speed), agent 1 walks west
    publish(pub, {{1, 1.9f, 1.f, -1.f, 0.f}, {0, 1.f, 1.1f, 1e-4f, 0.f}});
    r = fillRecords(pub, ColourBy::Group);
    EXPECT_NEAR(r[0].heading, kPi, 1e-6f);
    EXPECT_NEAR(r[1].heading, kPi / 2, 1e-6f) << "kept while standing";
    // still standing a step later: the kept heading is carried on
    publish(pub, {{0, 1.f, 1.1f}, {1, 1.8f, 1.f, -1.f, 0.f}});
    r = fillRecords(pub, ColourBy::Group);
    EXPECT_NEAR(r[0].heading, kPi / 2, 1e-6f);
}

TEST_P(ViewerPublish, ColoursByGroupSpeedAndPressure) {
    const Exec ex = GetParam();
    PublishedState pub(ex, twoGroups(), kFieldGroup);
    // a 4 x 3 grid of 1 m cells with pressure 1 + i + 4 j
    const GridInfo g{4, 3, 1.f, 0.f, 0.f};
    Field<float> p(4, 3);
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 4; ++i) p(i, j) = static_cast<float>(1 + i + 4 * j);
    if (ex.backend == Backend::Cuda) p.upload();
    // agents in cells (0, 0), (3, 2) and outside the grid (clamped to (0, 2)), on fields 0, 2, 1
    TestCrowd c = crowdOf({{0, 0.5f, 0.5f, 0.5f, 0.f, 0, 1.f}, {1, 3.5f, 2.5f, 0.f, 0.25f, 2, 1.f}, {2, -5.f, 10.f, 0.f, 0.f, 1, 2.f}});
    const sim::AgentViews v = c.views(ex);
    pub.publishAgents(readOnly(v), v.n, 3, g, p.view(ex), true);

    // group colours and radii (field -> group)
    std::vector<AgentInstance> r = fillRecords(pub, ColourBy::Group);
    const std::uint8_t red[3] = {200, 10, 10}, blue[3] = {10, 10, 200};
    for (int ch = 0; ch < 3; ++ch) {
        EXPECT_EQ(r[0].rgba[ch], red[ch]);
        EXPECT_EQ(r[1].rgba[ch], blue[ch]);
        EXPECT_EQ(r[2].rgba[ch], blue[ch]);
    }
    EXPECT_EQ(r[0].rgba[3], 255);
    EXPECT_FLOAT_EQ(r[0].radius, 0.2f);
    EXPECT_FLOAT_EQ(r[1].radius, 0.3f);

    // speed: viridis of |v| / vmax
    r = fillRecords(pub, ColourBy::Speed);
    const float speed[3] = {0.5f, 0.25f, 0.f};
    for (int k = 0; k < 3; ++k) {
        const plot::Rgb want = plot::viridis(speed[k]);
        EXPECT_EQ(plot::Rgb({r[k].rgba[0], r[k].rgba[1], r[k].rgba[2]}), want) << "agent " << k;
    }

    // pressure: viridis of the agent's cell's pressure over the largest agent pressure (12)
    r = fillRecords(pub, ColourBy::Pressure);
    const float pressure[3] = {1.f, 12.f, 9.f};
    for (int k = 0; k < 3; ++k) {
        const plot::Rgb want = plot::viridis(pressure[k] / 12.f);
        EXPECT_EQ(plot::Rgb({r[k].rgba[0], r[k].rgba[1], r[k].rgba[2]}), want) << "agent " << k;
    }
    EXPECT_NE(plot::viridis(1.f / 12.f), plot::viridis(9.f / 12.f)) << "the cells are told apart";
}

/// A small scene with a wall (unreachable cells of the potential are +inf) and two groups crossing.
const char* kCrossing = R"({
  "format": "ccrowd-scene", "version": 1, "name": "publish_test",
  "domain": {"origin": [0, 0], "width": 12, "height": 6, "cell": 0.5},
  "obstacles": [{"rect": {"min": [5.5, 0], "max": [6.5, 2]}}],
  "goals": [{"name": "east", "areas": [{"rect": {"min": [11, 0], "max": [12, 6]}}]},
            {"name": "west", "areas": [{"rect": {"min": [0, 0], "max": [1, 6]}}]}],
  "groups": [
    {"name": "a", "spawn": [{"rect": {"min": [1.5, 1], "max": [4, 5]}}], "count": 25, "route": ["east"]},
    {"name": "b", "spawn": [{"rect": {"min": [8, 1], "max": [10.5, 5]}}], "count": 25, "route": ["west"]}
  ],
  "model": {"d_min": 0.4, "seed": 5}
})";

TEST_P(ViewerPublish, PublishedAgentsAreTheSimulationsAfterEachStep) {
    Simulation sim(parseScene(kCrossing, "publish_test"), GetParam());
    PublishedState pub(sim);
    pub.publish(sim, {}, true);
    std::map<int, std::pair<float, float>> before;
    AgentSnapshot a = sim.agents();
    for (int k = 0; k < a.size(); ++k) before[a.id[k]] = {a.x[k], a.y[k]};
    for (int s = 0; s < 5; ++s) {
        sim.step();
        pub.publish(sim, {}, true);
        a = sim.agents();
        const std::vector<AgentInstance> r = fillRecords(pub, ColourBy::Group);
        ASSERT_EQ(static_cast<int>(r.size()), a.size());
        int moved = 0;
        for (int k = 0; k < a.size(); ++k) {
            // now: the simulation's position; previous: the same agent's at the last step
            EXPECT_EQ(r[k].x, a.x[k]);
            EXPECT_EQ(r[k].y, a.y[k]);
            EXPECT_EQ(r[k].prev_x, before.at(a.id[k]).first) << "agent " << a.id[k] << " step " << s;
            EXPECT_EQ(r[k].prev_y, before.at(a.id[k]).second);
            EXPECT_FLOAT_EQ(r[k].radius, a.radius[k]);
            moved += r[k].x != r[k].prev_x || r[k].y != r[k].prev_y;
        }
        EXPECT_GT(moved, 0);
        before.clear();
        for (int k = 0; k < a.size(); ++k) before[a.id[k]] = {a.x[k], a.y[k]};
    }
}

TEST_P(ViewerPublish, OverlaysCarryTheSimulationsFieldsAndRanges) {
    Simulation sim(parseScene(kCrossing, "publish_test"), GetParam());
    for (int s = 0; s < 3; ++s) sim.step();
    PublishedState pub(sim);
    using viewer::Overlay;

    // density: the splat's values over 0..rho_limit
    pub.publish(sim, {Overlay::Density, 0}, true);
    ASSERT_TRUE(pub.overlayOn());
    std::vector<float> v = fillValues(pub);
    const Field<float>& d = sim.density();
    ASSERT_EQ(v.size(), d.size());
    for (std::size_t c = 0; c < v.size(); ++c) EXPECT_EQ(v[c], d.host()[c]) << "cell " << c;
    EXPECT_FLOAT_EQ(pub.overlayHi(), sim.scene().params.rho_limit);
    EXPECT_TRUE(pub.arrows().empty());

    // potential: unreachable (wall) cells at the top, which is the largest finite value
    pub.publish(sim, {Overlay::Potential, 1}, false);
    v = fillValues(pub);
    const Field<float>& phi = sim.potential(1);
    float top = 0.f;
    int walls = 0;
    for (std::size_t c = 0; c < phi.size(); ++c)
        if (std::isfinite(phi.host()[c])) top = std::max(top, phi.host()[c]);
    EXPECT_GT(top, 0.f);
    EXPECT_FLOAT_EQ(pub.overlayHi(), top);
    for (std::size_t c = 0; c < v.size(); ++c) {
        if (std::isfinite(phi.host()[c])) {
            EXPECT_EQ(v[c], phi.host()[c]);
        } else {
            EXPECT_EQ(v[c], top);
            ++walls;
        }
    }
    EXPECT_GT(walls, 0);
    EXPECT_FALSE(pub.arrows().empty());
    EXPECT_EQ(pub.arrows().size() % 4, 0u);

    // speed: magnitude of the mean velocity, range at least the free speed
    pub.publish(sim, {Overlay::Speed, 0}, false);
    v = fillValues(pub);
    const std::vector<float> mv = sim.meanVelocity();
    for (std::size_t c = 0; c < v.size(); ++c) EXPECT_NEAR(v[c], std::hypot(mv[2 * c], mv[2 * c + 1]), 1e-6f);
    EXPECT_GE(pub.overlayHi(), sim.scene().params.v0);

    // none, and a field that does not exist
    pub.publish(sim, {}, false);
    EXPECT_FALSE(pub.overlayOn());
    const viewer::OverlayRequest missing{Overlay::Potential, 2};
    EXPECT_THROW(pub.publish(sim, missing, false), InputError);
}

INSTANTIATE_TEST_SUITE_P(PerBackend, ViewerPublish, ::testing::ValuesIn(testExecs()), ExecParamName());

}  // namespace
}  // namespace ccrowd::test
#endif
