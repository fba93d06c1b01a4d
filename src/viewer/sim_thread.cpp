/// @file sim_thread.cpp
#include "viewer/sim_thread.hpp"

#include <algorithm>

namespace ccrowd::viewer {

namespace {
double seconds(SimThread::Clock::duration d) { return std::chrono::duration<double>(d).count(); }
}  // namespace

SimThread::SimThread(std::unique_ptr<Simulation> sim, const Settings& s)
    : sim_(std::move(sim)), pub_(*sim_), paused_(s.paused), speed_(s.speed), overlay_(s.overlay) {
    // the initial state, before the thread exists (nothing to lock yet)
    publish(false);
    lastPublish_ = Clock::now();
    thread_ = std::thread([this] { run(); });
}

SimThread::~SimThread() { stop(); }

void SimThread::stop() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void SimThread::setPaused(bool paused) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (paused == paused_) return;
        paused_ = paused;
        stepRequests_ = 0;
    }
    wake_.notify_all();
}

void SimThread::setSpeed(double speed) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (speed == speed_) return;
        speed_ = speed;
    }
    wake_.notify_all();
}

void SimThread::stepOnce() {
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (!paused_ || stats_.finished) return;
        ++stepRequests_;
    }
    wake_.notify_all();
}

void SimThread::setOverlay(const OverlayRequest& o) {
    {
        std::lock_guard<std::mutex> lock(mu_);
        if (o == overlay_) return;
        overlay_ = o;
        republish_ = true;
    }
    wake_.notify_all();
}

void SimThread::rethrowError() const {
    std::lock_guard<std::mutex> lock(mu_);
    if (error_) std::rethrow_exception(error_);
}

float SimThread::alpha(Clock::time_point now) const {
    std::lock_guard<std::mutex> lock(mu_);
    if (paused_ || stats_.finished) return 1.f;
    const double interval = std::max(sim_->scene().params.dt / speed_, 1e-3 * stats_.step_ms);
    return static_cast<float>(std::clamp(seconds(now - lastPublish_) / interval, 0.0, 1.0));
}

void SimThread::publish(bool stepped) {
    pub_.publish(*sim_, overlay_, stepped);
    stats_.time = sim_->time();
    stats_.steps = sim_->steps();
    stats_.agents = sim_->agentCount();
    stats_.group_agents.clear();
    for (const GroupStats& g : sim_->groupStats()) stats_.group_agents.push_back(g.remaining);
    stats_.started_incidents = sim_->startedIncidents();
    stats_.walls_version = sim_->wallsVersion();
    stats_.finished = sim_->finished();
    const StageTimes& t = sim_->times();
    stats_.stage_names = t.names;
    stats_.stage_ms.resize(t.names.size());
    for (std::size_t k = 0; k < t.names.size(); ++k) stats_.stage_ms[k] = t.mean(k);
}

void SimThread::run() {
    // an exception ends the thread; the render thread rethrows it (rethrowError)
    try {
        loop();
    } catch (...) {
        std::lock_guard<std::mutex> lock(mu_);
        error_ = std::current_exception();
    }
}

void SimThread::loop() {
    const double dt = sim_->scene().params.dt;
    std::unique_lock<std::mutex> lock(mu_);
    Clock::time_point lastStart = Clock::now();
    while (!stop_) {
        // an overlay change: the same step published again
        if (republish_) {
            republish_ = false;
            publish(false);
            continue;
        }
        // what to do: a requested single step, or the next step when running and due
        bool single = false;
        if (stepRequests_ > 0) {
            --stepRequests_;
            single = !stats_.finished;
        }
        if (!single) {
            if (paused_ || stats_.finished) {
                wake_.wait(lock);
                continue;
            }
            const Clock::time_point due = lastStart + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(dt / speed_));
            if (Clock::now() < due) {
                wake_.wait_until(lock, due);
                continue;
            }
        }
        // the step outside the lock: the renderer keeps drawing the last publication
        lastStart = Clock::now();
        lock.unlock();
        sim_->step();
        lock.lock();
        publish(true);
        lastPublish_ = Clock::now();
        stats_.step_ms = 1e3 * seconds(lastPublish_ - lastStart);
    }
}

}  // namespace ccrowd::viewer
