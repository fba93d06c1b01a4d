/// @file shared_buffer.cpp
#include "viewer/shared_buffer.hpp"

#include <algorithm>

#include "viewer/gl.hpp"

#if CCROWD_HAVE_CUDA
#include "viewer/cuda_interop.hpp"
#endif

namespace ccrowd::viewer {

SharedBuffer::SharedBuffer(unsigned target) : target_(target) { glGenBuffers(1, &id_); }

SharedBuffer::~SharedBuffer() {
#if CCROWD_HAVE_CUDA
    cuda_.reset();  // unregister before GL deletes the buffer
#endif
    glDeleteBuffers(1, &id_);
}

void SharedBuffer::write(const Exec& ex, std::size_t bytes, const std::function<void(void*)>& fill) {
    // grow by doubling; CUDA's registration refers to the old storage
    if (bytes > capacity_) {
#if CCROWD_HAVE_CUDA
        cuda_.reset();
#endif
        capacity_ = std::max(bytes, 2 * capacity_);
        glBindBuffer(target_, id_);
        glBufferData(target_, static_cast<GLsizeiptr>(capacity_), nullptr, GL_DYNAMIC_DRAW);
        glBindBuffer(target_, 0);
        checkGl("allocating a shared buffer");
    }
    if (ex.backend == Backend::Cuda) {
#if CCROWD_HAVE_CUDA
        // CUDA backend: a kernel writes the registered buffer's device memory
        if (!cuda_) cuda_ = std::make_unique<CudaGlBuffer>(id_);
        void* dst = cuda_->map(bytes);
        try {
            fill(dst);
        } catch (...) {
            cuda_->unmap();
            throw;
        }
        cuda_->unmap();
        return;
#else
        throw BackendError("SharedBuffer::write: CUDA backend requested but this build has no CUDA backend");
#endif
    }
    // CPU backend: the host writes the mapped buffer in place
    glBindBuffer(target_, id_);
    void* dst = glMapBufferRange(target_, 0, static_cast<GLsizeiptr>(bytes), GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT);
    if (!dst) {
        glBindBuffer(target_, 0);
        throw ViewerError("glMapBufferRange of a " + std::to_string(bytes) + "-byte buffer failed (GL error " +
                          std::to_string(glGetError()) + ")");
    }
    try {
        fill(dst);
    } catch (...) {
        glUnmapBuffer(target_);
        glBindBuffer(target_, 0);
        throw;
    }
    const GLboolean intact = glUnmapBuffer(target_);
    glBindBuffer(target_, 0);
    if (intact != GL_TRUE) throw ViewerError("glUnmapBuffer: the buffer's contents were lost while mapped (display mode change?)");
}

}  // namespace ccrowd::viewer
