#pragma once
/// @file shared_buffer.hpp
/// A GL buffer object written on the side the simulation runs on, with no
/// copy through the host: for the CPU backend it is mapped with
/// glMapBufferRange and a host loop writes the mapped pointer; for the CUDA
/// backend it is registered with CUDA (CudaGlBuffer, cuda_interop.hpp) and
/// a kernel writes the mapped device pointer. No GL or CUDA headers here.

#include <cstddef>
#include <functional>
#include <memory>

#include "ccrowd/backend.hpp"
#include "ccrowd/config.hpp"

namespace ccrowd::viewer {

#if CCROWD_HAVE_CUDA
class CudaGlBuffer;
#endif

class SharedBuffer {
public:
    /// A new buffer object for @p target (a GLenum: GL_ARRAY_BUFFER for
    /// vertex attributes, GL_PIXEL_UNPACK_BUFFER for texture uploads). Needs
    /// a current GL context.
    explicit SharedBuffer(unsigned target);
    ~SharedBuffer();
    SharedBuffer(const SharedBuffer&) = delete;
    SharedBuffer& operator=(const SharedBuffer&) = delete;

    /// GL name of the buffer.
    unsigned id() const { return id_; }
    /// Makes the buffer hold at least @p bytes (growing to at least twice
    /// its size, contents lost; re-registered with CUDA when it grows; never
    /// shrunk), maps its first @p bytes for writing on the side of @p ex and
    /// calls @p fill with the pointer (host for Backend::Cpu, device for
    /// Backend::Cuda), then unmaps. [Units: bytes] [Limit: > 0]
    /// Throws ViewerError when GL cannot map, BackendError for CUDA errors.
    void write(const Exec& ex, std::size_t bytes, const std::function<void(void*)>& fill);

private:
    unsigned target_ = 0, id_ = 0;
    std::size_t capacity_ = 0;  ///< [Units: bytes]
#if CCROWD_HAVE_CUDA
    std::unique_ptr<CudaGlBuffer> cuda_;  ///< Registration of the current storage (made on first CUDA write).
#endif
};

}  // namespace ccrowd::viewer
