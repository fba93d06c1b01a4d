#pragma once
/// @file device_events.hpp
/// GPU timestamps for the stage timers (src/sim/stage_clock.hpp): CUDA
/// events on the default stream. Implemented by src/backend/cuda_device.cu
/// in CUDA builds; in CPU builds (src/backend/no_cuda.cpp) every call but
/// destroyEvent throws BackendError saying the build has no CUDA backend.

namespace ccrowd::device {

/// An opaque CUDA event (timing only).
struct Event;

/// Creates an event. Throws BackendError naming the failing CUDA call.
Event* createEvent();
/// Destroys an event from createEvent(). Never throws; null is ignored.
void destroyEvent(Event* e) noexcept;
/// Records @p e on the default stream: it completes when all work queued
/// before it has run. Throws BackendError on failure.
void recordEvent(Event* e);
/// Waits until @p end completed; returns the GPU time from @p start to
/// @p end, both recorded. [Units: ms] Throws BackendError on failure.
float elapsedMs(Event* start, Event* end);

}  // namespace ccrowd::device
