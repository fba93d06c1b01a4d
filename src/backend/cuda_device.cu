/// @file cuda_device.cu
/// CUDA builds: device memory and the "is there a usable GPU" query. Every
/// CUDA call is checked (CC_CUDA_CHECK).

#include <cuda_runtime.h>

#include <string>

#include "ccrowd/backend.hpp"
#include "ccrowd/device_memory.hpp"
#include "device_events.hpp"
#include "kernels/cuda_check.hpp"

namespace ccrowd {

bool cudaUsable(std::string* why) {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        if (why) *why = std::string("cudaGetDeviceCount failed: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
        cudaGetLastError();  // clear the sticky error for later calls
        return false;
    }
    if (count == 0) {
        if (why) *why = "cudaGetDeviceCount found no CUDA device";
        return false;
    }
    return true;
}

namespace device {
void* allocate(std::size_t bytes) {
    void* p = nullptr;
    CC_CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
}
void release(void* ptr) noexcept {
    if (ptr) cudaFree(ptr);  // errors at teardown cannot be reported from a deleter
}
void copyToDevice(void* dst, const void* src, std::size_t bytes) {
    CC_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    countCopy(Copy::ToDevice, bytes);
}
void copyToHost(void* dst, const void* src, std::size_t bytes) {
    CC_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost));
    countCopy(Copy::ToHost, bytes);
}
void copyOnDevice(void* dst, const void* src, std::size_t bytes) {
    CC_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
}

struct Event {
    cudaEvent_t event = nullptr;
};
Event* createEvent() {
    Event* e = new Event;
    const cudaError_t err = cudaEventCreate(&e->event);
    if (err != cudaSuccess) {
        delete e;
        CC_CUDA_CHECK(err);
    }
    return e;
}
void destroyEvent(Event* e) noexcept {
    if (!e) return;
    cudaEventDestroy(e->event);  // errors at teardown cannot be reported from a destructor
    delete e;
}
void recordEvent(Event* e) { CC_CUDA_CHECK(cudaEventRecord(e->event, 0)); }
float elapsedMs(Event* start, Event* end) {
    CC_CUDA_CHECK(cudaEventSynchronize(end->event));
    float ms = 0.f;
    CC_CUDA_CHECK(cudaEventElapsedTime(&ms, start->event, end->event));
    return ms;
}
}  // namespace device

}  // namespace ccrowd
