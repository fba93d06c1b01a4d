#pragma once
/// @file side_array.hpp
/// SideArray<T>: an array that lives only on the side an Exec runs on (host
/// memory for the CPU backend, device memory for CUDA), with no mirror on
/// the other side. The viewer's published buffers are written and read
/// there only. No GL and no CUDA headers.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "ccrowd/backend.hpp"
#include "ccrowd/device_memory.hpp"
#include "ccrowd/field.hpp"

namespace ccrowd::viewer {

template <class T>
class SideArray {
public:
    explicit SideArray(const Exec& ex) : ex_(ex) {}

    /// Makes room for @p n elements. Growing (to at least twice the old
    /// capacity) discards the contents; the array never shrinks. [Limit: n >= 0]
    void reserve(int n) {
        if (n <= capacity_) return;
        const int cap = std::max(n, 2 * capacity_);
        if (ex_.backend == Backend::Cuda) {
            device_.reset();
            device_.reset(device::allocate(static_cast<std::size_t>(cap) * sizeof(T)));
        } else {
            host_.assign(static_cast<std::size_t>(cap), T());
        }
        capacity_ = cap;
    }
    /// Copies the host values @p v to the start of the array (reserving room). A small table per scene, not per frame.
    void assign(const std::vector<T>& v) {
        reserve(static_cast<int>(v.size()));
        if (v.empty()) return;
        if (ex_.backend == Backend::Cuda)
            device::copyToDevice(device_.get(), v.data(), v.size() * sizeof(T));
        else
            std::copy(v.begin(), v.end(), host_.begin());
    }
    /// The first @p n elements on the array's side. [Limit: 0 <= n <= capacity()]
    View1<T> view(int n) { return {data(), n}; }
    View1<const T> view(int n) const { return {data(), n}; }
    T* data() { return ex_.backend == Backend::Cuda ? static_cast<T*>(device_.get()) : host_.data(); }
    const T* data() const { return ex_.backend == Backend::Cuda ? static_cast<const T*>(device_.get()) : host_.data(); }
    int capacity() const { return capacity_; }

private:
    struct DeviceFree {
        void operator()(void* p) const noexcept { device::release(p); }
    };
    Exec ex_;
    int capacity_ = 0;
    std::vector<T> host_;
    std::unique_ptr<void, DeviceFree> device_;
};

}  // namespace ccrowd::viewer
