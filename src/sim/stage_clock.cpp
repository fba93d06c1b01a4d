/// @file stage_clock.cpp
#include "sim/stage_clock.hpp"

#include <utility>

#include "backend/device_events.hpp"

namespace ccrowd::sim {

StageClock::StageClock(const Exec& ex, int stages)
    : backend_(ex.backend), started_(static_cast<std::size_t>(stages)), pendingMs_(static_cast<std::size_t>(stages), 0.0),
      startEv_(static_cast<std::size_t>(stages), nullptr), endEv_(static_cast<std::size_t>(stages), nullptr),
      ended_(static_cast<std::size_t>(stages), 0) {}

StageClock::~StageClock() { release(); }

StageClock::StageClock(StageClock&& o) noexcept { *this = std::move(o); }

StageClock& StageClock::operator=(StageClock&& o) noexcept {
    if (this != &o) {
        release();
        backend_ = o.backend_;
        started_ = std::move(o.started_);
        pendingMs_ = std::move(o.pendingMs_);
        startEv_ = std::move(o.startEv_);
        endEv_ = std::move(o.endEv_);
        ended_ = std::move(o.ended_);
        o.startEv_.clear();
        o.endEv_.clear();
    }
    return *this;
}

void StageClock::release() noexcept {
    for (device::Event* e : startEv_) device::destroyEvent(e);
    for (device::Event* e : endEv_) device::destroyEvent(e);
    startEv_.clear();
    endEv_.clear();
}

void StageClock::begin(int s) {
    const std::size_t k = static_cast<std::size_t>(s);
    if (backend_ != Backend::Cuda) {
        started_.at(k) = std::chrono::steady_clock::now();
        return;
    }
    // a stage timed twice before collect(): resolve its first pair before reusing the events
    if (ended_.at(k)) {
        pendingMs_[k] += device::elapsedMs(startEv_[k], endEv_[k]);
        ended_[k] = 0;
    }
    if (!startEv_[k]) startEv_[k] = device::createEvent();
    if (!endEv_[k]) endEv_[k] = device::createEvent();
    device::recordEvent(startEv_[k]);
}

void StageClock::end(int s) {
    const std::size_t k = static_cast<std::size_t>(s);
    if (backend_ != Backend::Cuda) {
        pendingMs_.at(k) += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_.at(k)).count();
        return;
    }
    device::recordEvent(endEv_.at(k));
    ended_[k] = 1;
}

void StageClock::collect(double* totalMs) {
    for (std::size_t k = 0; k < pendingMs_.size(); ++k) {
        // CUDA: the GPU's time between the stage's two events (waits for the end event)
        if (backend_ == Backend::Cuda && ended_[k]) {
            pendingMs_[k] += device::elapsedMs(startEv_[k], endEv_[k]);
            ended_[k] = 0;
        }
        totalMs[k] += pendingMs_[k];
        pendingMs_[k] = 0.0;
    }
}

}  // namespace ccrowd::sim
