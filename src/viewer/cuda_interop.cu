/// @file cuda_interop.cu
/// CudaGlBuffer (cuda_interop.hpp): cudaGraphicsGLRegisterBuffer,
/// cudaGraphicsMapResources, cudaGraphicsResourceGetMappedPointer and
/// cudaGraphicsUnmapResources, every call checked. CUDA builds with the
/// viewer only. Map, unmap and the kernels that write the buffer in between
/// (PublishedState::fillInstances / fillOverlay) all use the legacy default
/// stream, so they are ordered with each other and with the simulation's
/// kernels, whichever host thread issues them.

#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <string>

#include "kernels/cuda_check.hpp"
#include "ccrowd/error.hpp"
#include "viewer/cuda_interop.hpp"

namespace ccrowd::viewer {

namespace {
cudaGraphicsResource_t resourceOf(void* r) { return static_cast<cudaGraphicsResource_t>(r); }
}  // namespace

CudaGlBuffer::CudaGlBuffer(unsigned buffer) {
    cudaGraphicsResource_t r = nullptr;
    CC_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&r, buffer, cudaGraphicsRegisterFlagsWriteDiscard));
    resource_ = r;
}

CudaGlBuffer::~CudaGlBuffer() {
    cudaGraphicsResource_t r = resourceOf(resource_);
    if (mapped_) (void)cudaGraphicsUnmapResources(1, &r, 0);
    (void)cudaGraphicsUnregisterResource(r);
}

void* CudaGlBuffer::map(std::size_t bytes) {
    cudaGraphicsResource_t r = resourceOf(resource_);
    CC_CUDA_CHECK(cudaGraphicsMapResources(1, &r, 0));
    mapped_ = true;
    // its device pointer; on failure unmap again, so GL keeps the buffer
    try {
        void* ptr = nullptr;
        std::size_t size = 0;
        CC_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&ptr, &size, r));
        if (size < bytes)
            throw BackendError("cudaGraphicsResourceGetMappedPointer: the mapped GL buffer holds " + std::to_string(size) +
                               " bytes, " + std::to_string(bytes) + " needed");
        return ptr;
    } catch (...) {
        unmap();
        throw;
    }
}

void CudaGlBuffer::unmap() {
    cudaGraphicsResource_t r = resourceOf(resource_);
    mapped_ = false;
    CC_CUDA_CHECK(cudaGraphicsUnmapResources(1, &r, 0));
}

}  // namespace ccrowd::viewer
