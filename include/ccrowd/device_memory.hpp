#pragma once
/// @file device_memory.hpp
/// The only door to GPU memory. Implemented by src/backend/cuda_device.cu in
/// CUDA builds; in CPU builds (src/backend/no_cuda.cpp) every call throws BackendError saying the build
/// has no CUDA backend.
///
/// The transfer ledger (src/backend/transfers.cpp, the same code in every
/// build) counts what passes through this door: bytes moved by
/// copyToDevice/copyToHost (and copies outside it that report themselves
/// with countCopy), and, on every backend, the copies the simulation asks
/// for through Field/Array::toHost/toDevice. The CPU backend moves nothing,
/// but asks exactly what the CUDA backend asks, so tests on a machine
/// without a GPU see the requests a step makes.

#include <cstddef>
#include <cstdint>

namespace ccrowd::device {

/// Direction of a copy between host and device memory.
enum class Copy : int { ToDevice = 0, ToHost = 1 };
/// What a requested copy carries.
enum class Payload : int {
    Field = 0,  ///< A grid field (Field<T>).
    Array = 1,  ///< A 1-D array (Array<T>): agent columns, stage buffers.
    Record = 2, ///< A step's small result read by the host (counts, flags, the rows of the agents that left).
};
/// Number of Payload kinds.
constexpr int kPayloadKinds = 3;

/// Host-device traffic of the calling thread since it started. Copies are
/// synchronous and made by the thread that needs them, so a thread that
/// steps a simulation sees exactly that simulation's traffic.
struct TransferCounts {
    std::uint64_t to_device_bytes = 0;  ///< Moved host -> device. [Units: bytes]
    std::uint64_t to_host_bytes = 0;    ///< Moved device -> host. [Units: bytes]
    std::uint64_t copies = 0;           ///< Copies moved, both directions.
    /// Requests through toHost/toDevice, on every backend: bytes and count,
    /// by [Copy][Payload]. [Units: bytes]
    std::uint64_t requested_bytes[2][kPayloadKinds] = {};
    std::uint64_t requests[2][kPayloadKinds] = {};  ///< [Copy][Payload]

    /// Bytes moved, both directions. [Units: bytes]
    std::uint64_t movedBytes() const { return to_device_bytes + to_host_bytes; }
    /// Requests for @p dir copies of @p what.
    std::uint64_t requestsOf(Copy dir, Payload what) const { return requests[static_cast<int>(dir)][static_cast<int>(what)]; }
};

/// Counts of the calling thread since it started.
TransferCounts transferCounts();
/// @p later minus @p earlier, member by member (traffic between two reads).
TransferCounts operator-(const TransferCounts& later, const TransferCounts& earlier);
/// Records @p bytes moved in direction @p dir (called by copyToDevice /
/// copyToHost, and by code whose copies do not pass through them, e.g. the
/// value a Thrust reduction on the device returns). [Units: bytes]
void countCopy(Copy dir, std::size_t bytes);
/// Records a request for a copy of @p bytes of @p what (any backend). [Units: bytes]
void countRequest(Copy dir, Payload what, std::size_t bytes);

/// Allocates @p bytes of device memory. Throws BackendError on failure.
void* allocate(std::size_t bytes);
/// Frees memory from allocate(). Never throws; null is ignored.
void release(void* ptr) noexcept;
/// Copies host -> device. Throws BackendError on failure.
void copyToDevice(void* dst, const void* src, std::size_t bytes);
/// Copies device -> host. Throws BackendError on failure.
void copyToHost(void* dst, const void* src, std::size_t bytes);
/// Copies device -> device (nothing crosses to the host: not counted).
/// Throws BackendError on failure.
void copyOnDevice(void* dst, const void* src, std::size_t bytes);

}  // namespace ccrowd::device
