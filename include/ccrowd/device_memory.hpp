#pragma once
/// @file device_memory.hpp
/// The only door to GPU memory. Implemented by src/backend/cuda_device.cu in
/// CUDA builds; in CPU builds (src/backend/no_cuda.cpp) every call throws BackendError saying the build
/// has no CUDA backend.

#include <cstddef>

namespace ccrowd::device {

/// Allocates @p bytes of device memory. Throws BackendError on failure.
void* allocate(std::size_t bytes);
/// Frees memory from allocate(). Never throws; null is ignored.
void release(void* ptr) noexcept;
/// Copies host -> device. Throws BackendError on failure.
void copyToDevice(void* dst, const void* src, std::size_t bytes);
/// Copies device -> host. Throws BackendError on failure.
void copyToHost(void* dst, const void* src, std::size_t bytes);
/// Waits until the device has finished all work queued so far (the stage
/// timers call it so each stage's time is its own, not the next one's).
/// Throws BackendError when queued work failed.
void synchronize();

}  // namespace ccrowd::device
