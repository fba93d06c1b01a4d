#pragma once
/// @file host_allocator.hpp
/// HostAllocator<T>: the allocator of grid-sized host buffers (Field, the
/// FIM's padded arrays). Buffers of at least kHugePageBytes are aligned to
/// 2 MiB and offered to the kernel as transparent huge pages
/// (madvise(MADV_HUGEPAGE), Linux; where THP is "madvise", as on Debian's
/// default, nothing else asks for them). A FIM tile reads 32 rows a grid row
/// apart, each on its own 4 KiB page: at 4096^2 the TLB misses of 4 KiB
/// pages cost about a fifth of a solve (bench/results/fim_cpu_2026-11-28_cpu2.md).
/// Smaller buffers come from std::allocator as before.

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ccrowd {

/// Huge page size of x86-64 and arm64 Linux; also the threshold below which
/// buffers are allocated as usual. [Units: bytes]
constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;

/// std::allocator for small buffers; 2 MiB-aligned, huge-page-advised
/// memory for buffers of kHugePageBytes and more. Stateless: all compare equal.
template <class T>
struct HostAllocator {
    using value_type = T;
    HostAllocator() = default;
    template <class U>
    HostAllocator(const HostAllocator<U>&) noexcept {}

    /// @param n Elements. Throws std::bad_alloc when memory runs out.
    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePageBytes) return std::allocator<T>().allocate(n);
        // 2 MiB-aligned; only the whole huge pages are advised, so the tail
        // (less than 2 MiB) stays in 4 KiB pages and costs no more memory
        void* p = nullptr;
        if (posix_memalign(&p, kHugePageBytes, bytes) != 0) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, bytes / kHugePageBytes * kHugePageBytes, MADV_HUGEPAGE);  // advice only: a refusal leaves 4 KiB pages
#endif
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n * sizeof(T) < kHugePageBytes)
            std::allocator<T>().deallocate(p, n);
        else
            std::free(p);
    }
};

template <class T, class U>
bool operator==(const HostAllocator<T>&, const HostAllocator<U>&) noexcept { return true; }
template <class T, class U>
bool operator!=(const HostAllocator<T>&, const HostAllocator<U>&) noexcept { return false; }

}  // namespace ccrowd
