#pragma once
/// @file launch.hpp
/// Launchers for per-cell and per-agent functors (DESIGN.md §4). The same
/// named functor (a struct with `CC_HD void operator()(int i, int j) const`
/// or `(int k) const`, holding views and small parameter structs by value)
/// runs as a CUDA grid when the Exec says Cuda, or as an OpenMP loop.
///
/// Only translation units compiled by nvcc (kernels/*.cu in CUDA builds) can
/// launch on the GPU; elsewhere a Cuda Exec throws BackendError.

#include <atomic>
#include <cctype>
#include <cstdlib>
#include <type_traits>
#include <utility>

#include "ccrowd/backend.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/hd.hpp"

#ifdef __CUDACC__
#include <cuda_runtime.h>

#include "cuda_check.hpp"
#endif

namespace ccrowd {

/// Loops of fewer agents than this run on the calling thread alone: waking
/// the other OpenMP threads costs more than such a loop (with
/// OMP_WAIT_POLICY=passive, as CI and the README's commands set it, a
/// wake-up took about 0.1 ms on this project's 2-core VMs, and a 200-person
/// room ran 15x slower on 2 threads than on 1). Results do not change: the
/// functors write only their own item. [Units: agents or items]
constexpr long long kMinParallelItems = 4096;
/// The same for loops over cells (forEachCell, the FIM's solve over all its
/// fields' cells) when the threads sleep between loops
/// (OMP_WAIT_POLICY=passive): a cell's work is mostly a few tens of
/// nanoseconds, so a wake-up pays from more of them (the 80^2 cells of
/// eight_groups' step ran 1.4x slower on 2 threads than on 1 with 4096).
/// Under OpenMP's default policy the threads spin a while before they sleep,
/// a loop starts at once, and 4096 stays: with 16,384 the default scene's
/// whole run took 5% longer (the UIC pressure's sweeps over about 10^4 cells
/// ran on one thread). [Units: cells]
constexpr long long kMinParallelCellsPassive = 16384;

/// True when OMP_WAIT_POLICY is passive (any case, as OpenMP reads it).
inline bool ompWaitPolicyPassive() {
    const char* v = std::getenv("OMP_WAIT_POLICY");
    if (!v) return false;
    const char* want = "passive";
    for (; *v && *want; ++v, ++want)
        if (std::tolower(static_cast<unsigned char>(*v)) != *want) return false;
    return !*v && !*want;
}

/// Tests' override of both thresholds (0: none). With 1, every loop of two
/// or more items runs on all of its Exec's threads, so a test that compares
/// 1 and 2 threads on a small scene compares runs that did split their loops
/// (tests/all_loops_parallel.hpp). [Units: items or cells]
inline std::atomic<long long>& minParallelOverride() {
    static std::atomic<long long> n{0};
    return n;
}

/// Fewest items (agents, list entries) a loop runs on more than one thread:
/// kMinParallelItems, or the tests' override. [Units: items]
inline long long minParallelItems() {
    const long long o = minParallelOverride().load(std::memory_order_relaxed);
    return o > 0 ? o : kMinParallelItems;
}

/// Fewest cells a loop runs on more than one thread: kMinParallelCellsPassive
/// when the threads sleep between loops, else kMinParallelItems (read once,
/// at the first loop), or the tests' override. [Units: cells]
inline long long minParallelCells() {
    static const long long n = ompWaitPolicyPassive() ? kMinParallelCellsPassive : kMinParallelItems;
    const long long o = minParallelOverride().load(std::memory_order_relaxed);
    return o > 0 ? o : n;
}

/// A box of cells [i0, i1) x [j0, j1) (the active box of a step).
struct CellRange {
    int i0 = 0, j0 = 0, i1 = 0, j1 = 0;
    int width() const { return i1 > i0 ? i1 - i0 : 0; }
    int height() const { return j1 > j0 ? j1 - j0 : 0; }
    bool empty() const { return width() == 0 || height() == 0; }
    /// The box clamped to a grid of @p nx x @p ny cells.
    CellRange clampedTo(int nx, int ny) const {
        return CellRange{i0 > 0 ? i0 : 0, j0 > 0 ? j0 : 0, i1 < nx ? i1 : nx, j1 < ny ? j1 : ny};
    }
};

namespace detail {
/// True when F has `row(int i0, int i1, int j) const`.
template <class F, class = void>
struct HasRow : std::false_type {};
template <class F>
struct HasRow<F, std::void_t<decltype(std::declval<const F&>().row(0, 0, 0))>> : std::true_type {};
}  // namespace detail

#ifdef __CUDACC__
namespace detail {
template <class F>
__global__ void cellKernel(CellRange r, F f) {
    const int i = r.i0 + static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int j = r.j0 + static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
    if (i < r.i1 && j < r.j1) f(i, j);
}
template <class F>
__global__ void indexKernel(int n, F f) {
    const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (k < n) f(k);
}
}  // namespace detail
#endif

/// Runs f(i, j) for every cell of @p r. Cells run in any order and in
/// parallel: f must only write cell (i, j)'s outputs (read current, write next).
/// A functor may also offer `row(i0, i1, j)`, the same work for cells
/// [i0, i1) of row j: the CPU then calls it once per row (its locals stay in
/// registers across the row and it can vectorise; byte stores would
/// otherwise make the compiler reload every member per cell), CUDA still
/// runs f(i, j) per cell. On the CPU, threads take rows four at a time as
/// they free up: the work per row varies (a crowd fills part of the box, the
/// desired velocity is computed only where agents read), and a static split
/// gave one thread a quadrant's crowd and the other nothing.
template <class F>
void forEachCell(const Exec& ex, const CellRange& r, const F& f) {
    if (r.empty()) return;
    if (ex.backend == Backend::Cuda) {
#ifdef __CUDACC__
        const dim3 block(32, 8);
        const dim3 grid((r.width() + 31) / 32, (r.height() + 7) / 8);
        detail::cellKernel<<<grid, block>>>(r, f);
        CC_CUDA_CHECK(cudaGetLastError());
        return;
#else
        throw BackendError("forEachCell: CUDA launch from a translation unit not compiled by nvcc");
#endif
    }
    const int threads = cpuThreads(ex);
    const bool many = static_cast<long long>(r.width()) * r.height() >= minParallelCells();
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4) if (many)
    for (int j = r.j0; j < r.j1; ++j) {
        if constexpr (detail::HasRow<F>::value)
            f.row(r.i0, r.i1, j);
        else
            for (int i = r.i0; i < r.i1; ++i) f(i, j);
    }
}

/// Runs f(k) for k in [0, n). Same rules as forEachCell.
template <class F>
void forEachIndex(const Exec& ex, int n, const F& f) {
    if (n <= 0) return;
    if (ex.backend == Backend::Cuda) {
#ifdef __CUDACC__
        detail::indexKernel<<<(n + 255) / 256, 256>>>(n, f);
        CC_CUDA_CHECK(cudaGetLastError());
        return;
#else
        throw BackendError("forEachIndex: CUDA launch from a translation unit not compiled by nvcc");
#endif
    }
    const int threads = cpuThreads(ex);
    const bool many = n >= minParallelItems();
#pragma omp parallel for num_threads(threads) schedule(static) if (many)
    for (int k = 0; k < n; ++k) f(k);
}

}  // namespace ccrowd
