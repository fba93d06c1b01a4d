/// @file test_viewer_sim_thread.cpp
/// `ccrowd view`'s simulation thread (SimThread, no GL): it steps at the
/// requested rate, pauses, steps once, republishes an overlay change without
/// a step, stops and joins while running flat out, hands its exceptions to
/// the caller, and what it publishes is the simulation's state.

#include <gtest/gtest.h>

#include "ccrowd/config.hpp"

#if CCROWD_HAVE_VIEWER
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "viewer/sim_thread.hpp"

namespace ccrowd::test {
namespace {

using viewer::AgentInstance;
using viewer::ColourBy;
using viewer::Overlay;
using viewer::PublishedState;
using viewer::SimStats;
using viewer::SimThread;
using Clock = std::chrono::steady_clock;

/// Two small groups crossing a 12 m x 6 m room; dt = 0.05 s.
const char* kScene = R"({
  "format": "ccrowd-scene", "version": 1, "name": "sim_thread_test",
  "domain": {"origin": [0, 0], "width": 12, "height": 6, "cell": 0.5},
  "goals": [{"name": "east", "areas": [{"rect": {"min": [11, 0], "max": [12, 6]}}]},
            {"name": "west", "areas": [{"rect": {"min": [0, 0], "max": [1, 6]}}]}],
  "groups": [
    {"name": "a", "spawn": [{"rect": {"min": [1.5, 1], "max": [4, 5]}}], "count": 20, "route": ["east"]},
    {"name": "b", "spawn": [{"rect": {"min": [8, 1], "max": [10.5, 5]}}], "count": 20, "route": ["west"]}
  ],
  "model": {"d_min": 0.4, "dt": 0.05, "seed": 3}
})";

std::unique_ptr<SimThread> start(bool paused, double speed) {
    auto sim = std::make_unique<Simulation>(parseScene(kScene, "sim_thread_test"), Exec{Backend::Cpu, 1});
    return std::make_unique<SimThread>(std::move(sim), SimThread::Settings{paused, speed, {}});
}

SimStats statsOf(const SimThread& t) {
    SimStats s;
    t.read([&](const PublishedState&, const SimStats& st) { s = st; });
    return s;
}

/// Polls @p done every 5 ms for up to @p seconds; true when it held.
bool waitFor(const std::function<bool()>& done, double seconds = 10.0) {
    const auto end = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < end) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return done();
}

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

TEST(ViewerSimThread, StepsAtTheRequestedRate) {
    // 1 simulated s per real s: a step every 50 ms, never faster (step starts
    // are paced from the last start; a loaded machine may only be slower, so
    // progress is only asked within a generous timeout)
    auto t = start(false, 1.0);
    const auto t0 = Clock::now();
    ASSERT_TRUE(waitFor([&] { return statsOf(*t).steps >= 10; }, 30.0));
    long long steps = statsOf(*t).steps;
    double elapsed = secondsSince(t0);
    EXPECT_GE(elapsed, (steps - 1) * 0.05) << steps << " steps";
    // a quarter of the speed: a step every 200 ms (the step under way when
    // the speed changed may have started up to one old interval earlier)
    t->setSpeed(0.25);
    const long long before = statsOf(*t).steps;
    const auto t1 = Clock::now();
    ASSERT_TRUE(waitFor([&] { return statsOf(*t).steps - before >= 4; }, 30.0));
    steps = statsOf(*t).steps - before;
    elapsed = secondsSince(t1);
    EXPECT_GE(elapsed, (steps - 2) * 0.2) << steps << " steps";
}

TEST(ViewerSimThread, PausesStepsOnceAndResumes) {
    auto t = start(true, 1.0);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(statsOf(*t).steps, 0);
    EXPECT_EQ(t->alpha(Clock::now()), 1.f) << "paused: the last step as it is";
    // one step, and no more
    t->stepOnce();
    ASSERT_TRUE(waitFor([&] { return statsOf(*t).steps == 1; }));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(statsOf(*t).steps, 1);
    // running: steps go on until paused again
    t->setPaused(false);
    ASSERT_TRUE(waitFor([&] { return statsOf(*t).steps >= 4; }));
    t->setPaused(true);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // a step in progress ends
    const long long paused = statsOf(*t).steps;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(statsOf(*t).steps, paused);
}

TEST(ViewerSimThread, InterpolatesBetweenTheLastTwoSteps) {
    // a step every 200 ms: alpha climbs from 0 to 1 between publications
    auto t = start(false, 0.25);
    ASSERT_TRUE(waitFor([&] { return statsOf(*t).steps >= 1; }));
    float lo = 1.f, hi = 0.f;
    const auto t0 = Clock::now();
    while (secondsSince(t0) < 0.6) {
        const float a = t->alpha(Clock::now());
        EXPECT_GE(a, 0.f);
        EXPECT_LE(a, 1.f);
        lo = std::min(lo, a);
        hi = std::max(hi, a);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_LT(lo, 0.3f);
    EXPECT_GT(hi, 0.7f);
}

TEST(ViewerSimThread, AnOverlayChangeIsPublishedWithoutAStep) {
    auto t = start(true, 1.0);
    long long version = 0;
    t->read([&](const PublishedState& p, const SimStats&) { version = p.overlayVersion(); });
    t->setOverlay({Overlay::Density, 0});
    ASSERT_TRUE(waitFor([&] {
        bool on = false;
        t->read([&](const PublishedState& p, const SimStats&) { on = p.overlayOn() && p.overlayVersion() > version; });
        return on;
    }));
    t->read([&](const PublishedState& p, const SimStats& s) {
        EXPECT_EQ(s.steps, 0);
        EXPECT_EQ(p.serial(), 1) << "the initial publication only";
    });
}

TEST(ViewerSimThread, StopJoinsWhileRunningFlatOutAndThePublicationIsTheSimulations) {
    // 100 simulated s per real s: every step starts as soon as the last ended
    auto t = start(false, 100.0);
    ASSERT_TRUE(waitFor([&] { return statsOf(*t).steps >= 5; }));
    const auto t0 = Clock::now();
    t->stop();
    EXPECT_LT(secondsSince(t0), 2.0);
    t->stop();  // idempotent
    t->rethrowError();
    // after the join: the last publication is the simulation's last step
    const Simulation& sim = t->simulation();
    const AgentSnapshot a = sim.agents();
    t->read([&](const PublishedState& p, const SimStats& s) {
        EXPECT_EQ(s.steps, sim.steps());
        EXPECT_EQ(s.agents, a.size());
        ASSERT_EQ(p.agentCount(), a.size());
        std::vector<AgentInstance> r(static_cast<std::size_t>(p.agentCount()));
        p.fillInstances(r.data(), ColourBy::Group);
        for (int k = 0; k < a.size(); ++k) {
            EXPECT_EQ(r[k].x, a.x[k]);
            EXPECT_EQ(r[k].y, a.y[k]);
        }
    });
}

TEST(ViewerSimThread, AnExceptionOnTheSimulationThreadReachesTheCaller) {
    auto t = start(false, 1.0);
    EXPECT_NO_THROW(t->rethrowError());
    // field 9 does not exist: the simulation thread's publish throws InputError
    t->setOverlay({Overlay::Potential, 9});
    ASSERT_TRUE(waitFor([&] {
        try {
            t->rethrowError();
            return false;
        } catch (const InputError&) {
            return true;
        }
    }));
    // the thread has ended: no more steps, and stop() still joins
    const long long steps = statsOf(*t).steps;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(statsOf(*t).steps, steps);
    t->stop();
    EXPECT_THROW(t->rethrowError(), InputError);
}

}  // namespace
}  // namespace ccrowd::test
#endif
