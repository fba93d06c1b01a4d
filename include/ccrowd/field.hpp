#pragma once
/// @file field.hpp
/// Field<T>: an nx-by-ny grid that owns host memory and, on request, device
/// memory, with explicit upload()/download(). Kernels receive a non-owning
/// View2<T> by value. Layout: row-major, index i + j*nx, cell (i, j) centred
/// at origin + (i + 0.5, j + 0.5) h.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <vector>

#include "ccrowd/backend.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/device_memory.hpp"
#include "ccrowd/hd.hpp"
#include "ccrowd/host_allocator.hpp"

namespace ccrowd {

/// Non-owning view of an nx-by-ny row-major grid, valid on the side
/// (host or device) whose pointer it holds. Cheap to copy into kernels.
template <class T>
struct View2 {
    T* data = nullptr;  ///< First element. [Size: nx*ny]
    int nx = 0;         ///< Cells along x. [Limit: >= 0]
    int ny = 0;         ///< Cells along y. [Limit: >= 0]

    CC_HD T& operator()(int i, int j) const { return data[i + static_cast<std::ptrdiff_t>(j) * nx]; }
    CC_HD T& operator[](std::ptrdiff_t k) const { return data[k]; }
    CC_HD std::ptrdiff_t size() const { return static_cast<std::ptrdiff_t>(nx) * ny; }
    CC_HD bool inside(int i, int j) const { return i >= 0 && j >= 0 && i < nx && j < ny; }
    /// Read-only view of the same memory (only for non-const T, so the
    /// const view does not declare a conversion to itself).
    template <class U = T, std::enable_if_t<!std::is_const<U>::value, int> = 0>
    CC_HD operator View2<const U>() const { return {data, nx, ny}; }
};

/// Owning grid of T on the host, mirrored on the device on request.
template <class T>
class Field {
public:
    Field() = default;
    /// @param nx,ny Grid size [Limit: >= 0]  @param init Initial value of every cell.
    Field(int nx, int ny, const T& init = T()) : nx_(nx), ny_(ny), host_(static_cast<std::size_t>(nx) * ny, init) {}

    Field(Field&&) noexcept = default;
    Field& operator=(Field&&) noexcept = default;
    Field(const Field& o) : nx_(o.nx_), ny_(o.ny_), host_(o.host_) {}
    Field& operator=(const Field& o) {
        if (this != &o) { nx_ = o.nx_; ny_ = o.ny_; host_ = o.host_; device_.reset(); }
        return *this;
    }

    int nx() const { return nx_; }
    int ny() const { return ny_; }
    std::size_t size() const { return host_.size(); }

    T* host() { return host_.data(); }
    const T* host() const { return host_.data(); }
    T& operator()(int i, int j) { return host_[index(i, j)]; }
    const T& operator()(int i, int j) const { return host_[index(i, j)]; }
    std::size_t index(int i, int j) const { return static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * nx_; }

    /// Sets every host cell to @p v.
    void fill(const T& v) { std::fill(host_.begin(), host_.end(), v); }
    /// Resizes the host grid (device copy dropped) and fills it with @p v.
    void assign(int nx, int ny, const T& v) { nx_ = nx; ny_ = ny; host_.assign(static_cast<std::size_t>(nx) * ny, v); device_.reset(); }

    View2<T> hostView() { return {host_.data(), nx_, ny_}; }
    View2<const T> hostView() const { return {host_.data(), nx_, ny_}; }

    /// True once upload() or deviceView() allocated the device copy.
    bool hasDevice() const { return static_cast<bool>(device_); }
    /// Device view (allocates, uninitialised, on first use). CUDA builds only.
    View2<T> deviceView() { ensureDevice(); return {static_cast<T*>(device_.get()), nx_, ny_}; }
    /// Read-only view of the existing device copy. Throws BackendError when
    /// there is none (call upload() first).
    View2<const T> deviceView() const {
        if (!device_) throw BackendError("Field::deviceView: the field has no device copy (call upload() first)");
        return {static_cast<const T*>(device_.get()), nx_, ny_};
    }
    /// Copies host -> device.
    void upload() { ensureDevice(); device::copyToDevice(device_.get(), host_.data(), bytes()); }
    /// Copies device -> host. Throws BackendError if there is no device copy.
    void download() {
        if (!device_) throw BackendError("Field::download: the field has no device copy (call upload() or deviceView() first)");
        device::copyToHost(host_.data(), device_.get(), bytes());
    }
    /// Makes the host copy current for a reader on the host: on the CUDA
    /// backend downloads the device copy; a field with no device copy lives
    /// on the host only (nothing to copy). The request is counted on every
    /// backend (device::countRequest), the CPU's included.
    void toHost(const Exec& ex) {
        device::countRequest(device::Copy::ToHost, device::Payload::Field, bytes());
        if (ex.backend == Backend::Cuda && device_) download();
    }
    /// Makes the copy on @p ex's side current from the host copy: uploads on
    /// the CUDA backend, nothing on the CPU. Counted like toHost().
    void toDevice(const Exec& ex) {
        device::countRequest(device::Copy::ToDevice, device::Payload::Field, bytes());
        if (ex.backend == Backend::Cuda) upload();
    }
    /// View for the side @p ex runs on.
    View2<T> view(const Exec& ex) { return ex.backend == Backend::Cuda ? deviceView() : hostView(); }

private:
    struct DeviceFree { void operator()(void* p) const noexcept { device::release(p); } };
    std::size_t bytes() const { return host_.size() * sizeof(T); }
    void ensureDevice() { if (!device_ && bytes() > 0) device_.reset(device::allocate(bytes())); }

    int nx_ = 0, ny_ = 0;
    std::vector<T, HostAllocator<T>> host_;  // grid-sized: huge pages (host_allocator.hpp)
    std::unique_ptr<void, DeviceFree> device_;
};

/// Non-owning view of n elements, valid on the side whose pointer it holds.
template <class T>
struct View1 {
    T* data = nullptr;  ///< [Size: n]
    int n = 0;          ///< Elements. [Limit: >= 0]
    CC_HD T& operator[](std::ptrdiff_t k) const { return data[k]; }
    template <class U = T, std::enable_if_t<!std::is_const<U>::value, int> = 0>
    CC_HD operator View1<const U>() const { return {data, n}; }
};

/// Owning 1-D array (per-agent data) on the host, mirrored on the device on
/// request; the 1-D sibling of Field.
template <class T>
class Array {
public:
    Array() = default;
    explicit Array(int n, const T& init = T()) : host_(static_cast<std::size_t>(n), init) {}
    Array(Array&&) noexcept = default;
    Array& operator=(Array&&) noexcept = default;
    Array(const Array& o) : host_(o.host_) {}
    Array& operator=(const Array& o) {
        if (this != &o) { host_ = o.host_; device_.reset(); deviceCapacity_ = 0; }
        return *this;
    }

    int size() const { return static_cast<int>(host_.size()); }
    T* host() { return host_.data(); }
    const T* host() const { return host_.data(); }
    T& operator[](std::size_t k) { return host_[k]; }
    const T& operator[](std::size_t k) const { return host_[k]; }
    std::vector<T>& vector() { return host_; }
    const std::vector<T>& vector() const { return host_; }
    /// Resizes the host array (new elements = @p v); the device copy grows on next use.
    void resize(int n, const T& v = T()) { host_.resize(static_cast<std::size_t>(n), v); }

    View1<T> hostView() { return {host_.data(), size()}; }
    View1<const T> hostView() const { return {host_.data(), size()}; }
    /// Device view (allocated, uninitialised, with at least size() elements). CUDA builds only.
    View1<T> deviceView() { ensureDevice(); return {static_cast<T*>(device_.get()), size()}; }
    /// Copies host -> device (allocates when needed).
    void upload() { ensureDevice(); device::copyToDevice(device_.get(), host_.data(), bytes()); }
    /// Copies device -> host. Throws BackendError if there is no device copy
    /// (an empty array has nothing to copy: no device copy is made for it).
    void download() {
        if (bytes() == 0) return;
        if (!device_) throw BackendError("Array::download: the array has no device copy");
        device::copyToHost(host_.data(), device_.get(), bytes());
    }
    /// Host copy current for a host reader: downloads on the CUDA backend,
    /// nothing on the CPU; the request is counted on every backend.
    /// @p what says what it carries (agent columns and stage buffers are
    /// Array; a step's small results, Record).
    void toHost(const Exec& ex, device::Payload what = device::Payload::Array) {
        device::countRequest(device::Copy::ToHost, what, bytes());
        if (ex.backend == Backend::Cuda) download();
    }
    /// Copy on @p ex's side current from the host: uploads on the CUDA
    /// backend, nothing on the CPU; counted on every backend.
    void toDevice(const Exec& ex) {
        device::countRequest(device::Copy::ToDevice, device::Payload::Array, bytes());
        if (ex.backend == Backend::Cuda) upload();
    }
    View1<T> view(const Exec& ex) { return ex.backend == Backend::Cuda ? deviceView() : hostView(); }

    /// Resizes to @p n elements on @p ex's side, keeping the first
    /// min(n, size()) values there (new elements unspecified on CUDA, T() on
    /// the CPU). CUDA: a larger device copy is allocated with room to grow
    /// (1.5x) and the kept values copied on the device; the host copy is
    /// resized and stays stale until toHost(). Nothing crosses to the host.
    /// [Limit: n >= 0]
    void resizeOn(const Exec& ex, int n) {
        if (ex.backend == Backend::Cuda && static_cast<std::size_t>(n) * sizeof(T) > deviceCapacity_) {
            const std::size_t keep = std::min(host_.size(), static_cast<std::size_t>(n)) * sizeof(T);
            const std::size_t cap = std::max(static_cast<std::size_t>(n) * sizeof(T), deviceCapacity_ + deviceCapacity_ / 2);
            std::unique_ptr<void, DeviceFree> grown(device::allocate(cap));
            if (keep > 0 && device_) device::copyOnDevice(grown.get(), device_.get(), keep);
            device_ = std::move(grown);
            deviceCapacity_ = cap;
        }
        host_.resize(static_cast<std::size_t>(n));
    }
    /// Writes @p count values from the host array @p values at @p offset on
    /// @p ex's side (CUDA: one upload of those values). Counted as a request
    /// of their bytes. [Limit: 0 <= offset, offset + count <= size()]
    void writeOn(const Exec& ex, int offset, const T* values, int count) {
        if (count <= 0) return;
        const std::size_t b = static_cast<std::size_t>(count) * sizeof(T);
        device::countRequest(device::Copy::ToDevice, device::Payload::Array, b);
        if (ex.backend == Backend::Cuda) {
            ensureDevice();
            device::copyToDevice(static_cast<T*>(device_.get()) + offset, values, b);
        } else {
            std::copy(values, values + count, host_.begin() + offset);
        }
    }

private:
    struct DeviceFree { void operator()(void* p) const noexcept { device::release(p); } };
    std::size_t bytes() const { return host_.size() * sizeof(T); }
    void ensureDevice() {
        if (bytes() == 0 || (device_ && deviceCapacity_ >= bytes())) return;
        device_.reset();
        device_.reset(device::allocate(bytes()));
        deviceCapacity_ = bytes();
    }
    std::vector<T> host_;
    std::unique_ptr<void, DeviceFree> device_;
    std::size_t deviceCapacity_ = 0;
};

}  // namespace ccrowd
