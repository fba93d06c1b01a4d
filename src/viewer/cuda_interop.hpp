#pragma once
/// @file cuda_interop.hpp
/// CUDA-OpenGL interop for one GL buffer object, implemented in
/// cuda_interop.cu (built only in CUDA builds with the viewer). The one
/// place where CUDA meets GL (DESIGN.md §7): no CUDA and no GL headers here,
/// so the renderer never includes CUDA.

#include <cstddef>

namespace ccrowd::viewer {

class CudaGlBuffer {
public:
    /// Registers GL buffer object @p buffer (storage allocated, its GL context
    /// current) for writing by CUDA kernels (cudaGraphicsGLRegisterBuffer,
    /// write-discard: every use rewrites what is drawn). Throws BackendError.
    explicit CudaGlBuffer(unsigned buffer);
    /// Unmaps if mapped and unregisters (errors ignored: nothing to do about them here).
    ~CudaGlBuffer();
    CudaGlBuffer(const CudaGlBuffer&) = delete;
    CudaGlBuffer& operator=(const CudaGlBuffer&) = delete;

    /// Maps the buffer for CUDA (GL work issued before completes first) and
    /// returns its device pointer. Throws BackendError, also when the buffer
    /// holds fewer than @p bytes. [Units: bytes]
    void* map(std::size_t bytes);
    /// Unmaps it: CUDA work issued before completes before GL uses the
    /// buffer again. Throws BackendError.
    void unmap();

private:
    void* resource_ = nullptr;  ///< The cudaGraphicsResource.
    bool mapped_ = false;
};

}  // namespace ccrowd::viewer
