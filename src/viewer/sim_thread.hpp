#pragma once
/// @file sim_thread.hpp
/// `ccrowd view`'s simulation thread: steps the simulation at its own rate
/// (dt simulated seconds per step, `speed` simulated seconds per real
/// second, or as fast as it can when a step takes longer) and publishes
/// each step into a PublishedState under a mutex, so a slow step never
/// stalls the frame rate. The render thread reads the publication under the
/// same mutex and interpolates between the last two steps with alpha()
/// (seed 002 §5.2). No GL here.

#include <array>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "ccrowd/simulation.hpp"
#include "viewer/published_state.hpp"

namespace ccrowd::viewer {

/// What the panel shows about the simulation, as of the last publication.
struct SimStats {
    double time = 0.0;         ///< Simulated time. [Units: s]
    long long steps = 0;       ///< Steps taken.
    int agents = 0;            ///< Agents in the domain.
    std::vector<long long> group_agents;  ///< Agents in the domain per group (the frame caption).
    std::vector<int> started_incidents;   ///< Incidents started so far (indices into the scene's; drawn as rings).
    int walls_version = 0;     ///< Simulation::wallsVersion(): the cells are painted again when it changes.
    bool finished = false;     ///< Simulation::finished().
    std::vector<std::string> stage_names;  ///< The simulation's stages, in step order.
    std::vector<double> stage_ms;  ///< Mean per step, per stage. [Units: ms]
    double step_ms = 0.0;      ///< Wall time of the last step and its publication. [Units: ms]
};

class SimThread {
public:
    using Clock = std::chrono::steady_clock;

    /// Control values at start.
    struct Settings {
        bool paused = false;
        double speed = 1.0;       ///< Simulated seconds per real second. [Limit: > 0]
        OverlayRequest overlay;   ///< Overlay published with every step.
    };

    /// Publishes @p sim's initial state (on this thread: a bad overlay
    /// throws here), then starts stepping it on a new thread.
    SimThread(std::unique_ptr<Simulation> sim, const Settings& s);
    /// stop().
    ~SimThread();
    SimThread(const SimThread&) = delete;
    SimThread& operator=(const SimThread&) = delete;

    /// Stops after the step in progress and joins the thread. Idempotent.
    void stop();
    void setPaused(bool paused);
    /// [Units: simulated s per real s] [Limit: > 0]
    void setSpeed(double speed);
    /// One step while paused (ignored while running or finished).
    void stepOnce();
    /// The overlay of the next publications; a change is published at once,
    /// without a step.
    void setOverlay(const OverlayRequest& o);
    /// Rethrows the exception that ended the simulation thread, if one did.
    void rethrowError() const;

    /// Calls @p f(const PublishedState&, const SimStats&) with the
    /// publication locked: the simulation thread cannot publish meanwhile
    /// (it keeps stepping).
    template <class F>
    void read(F&& f) const {
        std::lock_guard<std::mutex> lock(mu_);
        f(static_cast<const PublishedState&>(pub_), static_cast<const SimStats&>(stats_));
    }
    /// Interpolation weight at @p now: the time since the last stepped
    /// publication over the step interval, max(dt / speed, wall time of the
    /// last step), clamped to 0..1; 1 while paused or finished.
    float alpha(Clock::time_point now) const;
    /// The simulation, for reading while stopped (after stop()) only.
    const Simulation& simulation() const { return *sim_; }

private:
    void run();
    void loop();
    /// Publishes the simulation and its stats (mu_ held).
    void publish(bool stepped);

    std::unique_ptr<Simulation> sim_;
    PublishedState pub_;
    SimStats stats_;
    mutable std::mutex mu_;
    std::condition_variable wake_;
    // control, guarded by mu_
    bool paused_ = false, stop_ = false, republish_ = false;
    int stepRequests_ = 0;
    double speed_ = 1.0;
    OverlayRequest overlay_;
    Clock::time_point lastPublish_;  ///< Of the last stepped publication.
    std::exception_ptr error_;
    std::thread thread_;         ///< Last: started once everything above exists.
};

}  // namespace ccrowd::viewer
