#pragma once
/// @file hd.hpp
/// CC_HD marks functions compiled for both host and device (the kernels'
/// maths and the small public types they share, e.g. View2, GridInfo). In
/// CPU builds it is empty, so no header needs CUDA headers.

#ifdef __CUDACC__
#define CC_HD __host__ __device__
#else
#define CC_HD
#endif

/// CC_FORCEINLINE asks the compiler to inline a small hot function even
/// where its heuristics would not (the eikonal update in the FIM's sweeps).
#ifdef __CUDACC__
#define CC_FORCEINLINE __forceinline__
#elif defined(__GNUC__)
#define CC_FORCEINLINE inline __attribute__((always_inline))
#else
#define CC_FORCEINLINE inline
#endif

/// CC_HOST_NOINLINE keeps a function out of line on the host (a rare or
/// large branch of a hot function, so the hot path keeps its values in
/// registers) and leaves inlining to nvcc on the device, where a call costs
/// more than the code it saves.
#if defined(__CUDA_ARCH__)
#define CC_HOST_NOINLINE inline
#elif defined(__GNUC__)
#define CC_HOST_NOINLINE inline __attribute__((noinline))
#else
#define CC_HOST_NOINLINE inline
#endif

/// CC_UNROLL before a loop with a constant trip count unrolls it fully
/// (nvcc's `#pragma unroll`, GCC's `#pragma GCC unroll`), so that arrays
/// indexed by its counter stay in registers (fim_stage.hpp's batches of
/// loads).
#if defined(__CUDA_ARCH__)
#define CC_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define CC_UNROLL /* nvcc's host pass: its front end and GCC would each reject the other's pragma */
#elif defined(__GNUC__) && !defined(__clang__)
#define CC_UNROLL _Pragma("GCC unroll 16")
#else
#define CC_UNROLL
#endif
