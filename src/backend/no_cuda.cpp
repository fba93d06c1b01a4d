/// @file no_cuda.cpp
/// CPU-only builds: the device-memory door exists but says the build has no
/// CUDA backend. (CUDA builds compile cuda_device.cu instead.)

#include "ccrowd/backend.hpp"
#include "ccrowd/device_memory.hpp"
#include "ccrowd/error.hpp"
#include "device_events.hpp"

namespace ccrowd {

namespace {
[[noreturn]] void noCuda(const char* what) {
    throw BackendError(std::string(what) + ": this build has no CUDA backend (rebuild with -DCCROWD_CUDA=ON on a machine with nvcc)");
}
}  // namespace

bool cudaUsable(std::string* why) {
    if (why) *why = "this build has no CUDA backend (built without nvcc)";
    return false;
}

namespace device {
void* allocate(std::size_t) { noCuda("device::allocate"); }
void release(void*) noexcept {}
void copyToDevice(void*, const void*, std::size_t) { noCuda("device::copyToDevice"); }
void copyToHost(void*, const void*, std::size_t) { noCuda("device::copyToHost"); }
void copyOnDevice(void*, const void*, std::size_t) { noCuda("device::copyOnDevice"); }
Event* createEvent() { noCuda("device::createEvent"); }
void destroyEvent(Event*) noexcept {}
void recordEvent(Event*) { noCuda("device::recordEvent"); }
float elapsedMs(Event*, Event*) { noCuda("device::elapsedMs"); }
}  // namespace device

}  // namespace ccrowd
