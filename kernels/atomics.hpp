#pragma once
/// @file atomics.hpp
/// Relaxed integer atomics with one meaning on both backends (CUDA's
/// atomic functions on the device, the GCC/Clang builtins on the host), for
/// order-independent reductions: any order of calls gives one result, so
/// stages that use them stay deterministic (no float atomics).

#include <stdint.h>

#include "ccrowd/hd.hpp"

namespace ccrowd {

/// *p = min(*p, v), atomically (relaxed): any order of calls gives one result.
CC_HD inline void atomicMinRelaxed(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
    atomicMin(reinterpret_cast<unsigned int*>(p), v);
#else
    uint32_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
#endif
}
/// *p = max(*p, v), atomically (relaxed): any order of calls gives one result.
CC_HD inline void atomicMaxRelaxed(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
    atomicMax(reinterpret_cast<unsigned int*>(p), v);
#else
    uint32_t cur = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v > cur && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
#endif
}
/// *p, atomically (relaxed): a read that may race with atomicOrRelaxed.
CC_HD inline uint32_t atomicLoadRelaxed(const uint32_t* p) {
#ifdef __CUDA_ARCH__
    return *reinterpret_cast<const volatile unsigned int*>(p);
#else
    return __atomic_load_n(p, __ATOMIC_RELAXED);
#endif
}
/// *p |= v, atomically (relaxed).
CC_HD inline void atomicOrRelaxed(uint32_t* p, uint32_t v) {
#ifdef __CUDA_ARCH__
    atomicOr(reinterpret_cast<unsigned int*>(p), v);
#else
    __atomic_fetch_or(p, v, __ATOMIC_RELAXED);
#endif
}
/// *p += v, atomically (relaxed).
CC_HD inline void atomicAddRelaxed(unsigned long long* p, unsigned long long v) {
#ifdef __CUDA_ARCH__
    atomicAdd(p, v);
#else
    __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

}  // namespace ccrowd
