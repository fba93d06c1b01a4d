/// @file transfers.cpp
/// The transfer ledger of device_memory.hpp: per-thread counters, the same
/// code in CPU and CUDA builds (so its bookkeeping is tested everywhere).

#include "ccrowd/device_memory.hpp"

namespace ccrowd::device {

namespace {
/// The calling thread's counts (copies are synchronous, made by the thread that asks).
thread_local TransferCounts tCounts;
}  // namespace

TransferCounts transferCounts() { return tCounts; }

TransferCounts operator-(const TransferCounts& later, const TransferCounts& earlier) {
    TransferCounts d;
    d.to_device_bytes = later.to_device_bytes - earlier.to_device_bytes;
    d.to_host_bytes = later.to_host_bytes - earlier.to_host_bytes;
    d.copies = later.copies - earlier.copies;
    for (int c = 0; c < 2; ++c)
        for (int p = 0; p < kPayloadKinds; ++p) {
            d.requested_bytes[c][p] = later.requested_bytes[c][p] - earlier.requested_bytes[c][p];
            d.requests[c][p] = later.requests[c][p] - earlier.requests[c][p];
        }
    return d;
}

void countCopy(Copy dir, std::size_t bytes) {
    (dir == Copy::ToDevice ? tCounts.to_device_bytes : tCounts.to_host_bytes) += bytes;
    ++tCounts.copies;
}

void countRequest(Copy dir, Payload what, std::size_t bytes) {
    tCounts.requested_bytes[static_cast<int>(dir)][static_cast<int>(what)] += bytes;
    ++tCounts.requests[static_cast<int>(dir)][static_cast<int>(what)];
}

}  // namespace ccrowd::device
