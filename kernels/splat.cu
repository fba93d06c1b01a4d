/// @file splat.cu
/// Splat stage launcher (b): agents -> density and mean velocities, by sort
/// and gather (kernels/splat.hpp). Compiled by nvcc in CUDA builds and by the
/// C++ compiler (OpenMP, Thrust's OMP system) otherwise.

#include <omp.h>

#include <algorithm>
#include <string>

#include <thrust/sort.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/system_error.h>

#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "launch.hpp"
#include "splat.hpp"

#include "omp_threads.hpp"

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
#include <thrust/system/cuda/execution_policy.h>
#endif

namespace ccrowd::sim {
namespace {

/// Stable sort of @p order [Size: n] by @p key [Size: n] on the Exec's side.
/// Stable on an identity permutation: the result is unique (by key, then
/// agent index), whatever the thread count.
void sortByKey(const Exec& ex, int* key, int* order, int n) {
    try {
        if (ex.backend == Backend::Cuda) {
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
            thrust::stable_sort_by_key(thrust::cuda::par, key, key + n, order);
            return;
#else
            throw BackendError("splat: CUDA backend requested but this build has no CUDA backend");
#endif
        }
        OmpThreads threads(ex);
        thrust::stable_sort_by_key(thrust::omp::par, key, key + n, order);
    } catch (const thrust::system_error& e) {
        throw BackendError(std::string("thrust::stable_sort_by_key (splat) failed: ") + e.what() + " at " + __FILE__);
    }
}

/// Throws InputError unless @p v is nx-by-ny of @p g.
template <class T>
void checkSize(const View2<T>& v, const GridInfo& g, const char* name) {
    if (v.nx == g.nx && v.ny == g.ny && (v.data || v.size() == 0)) return;
    throw InputError(fieldMessage(std::string("splat.") + name, std::to_string(v.nx) + "x" + std::to_string(v.ny),
                                  "output field size differs from the grid",
                                  std::to_string(g.nx) + "x" + std::to_string(g.ny)));
}

}  // namespace

void splat(const Exec& ex, const AgentViews& a, const GridInfo& g, const CellRange& boxIn, SplatWorkspace& ws,
           View2<float> rho, View2<Vel2> meanVelocity, View2<Vel2> meanPreferred) {
    checkSize(rho, g, "rho");
    checkSize(meanVelocity, g, "meanVelocity");
    checkSize(meanPreferred, g, "meanPreferred");
    // the box, clamped to the grid
    CellRange box;
    box.i0 = std::max(boxIn.i0, 0); box.j0 = std::max(boxIn.j0, 0);
    box.i1 = std::min(boxIn.i1, g.nx); box.j1 = std::min(boxIn.j1, g.ny);
    const int n = a.n;

    // size the workspace (device copies grow on first view)
    for (Array<int>* v : {&ws.key, &ws.order}) v->resize(n);
    for (Array<float>* v : {&ws.tx, &ws.ty, &ws.vx, &ws.vy, &ws.px, &ws.py}) v->resize(n);
    ws.begin.resize(g.nx * g.ny);
    ws.end.resize(g.nx * g.ny);
    const View1<int> key = ws.key.view(ex), order = ws.order.view(ex);
    const View1<float> tx = ws.tx.view(ex), ty = ws.ty.view(ex);
    const View1<float> vx = ws.vx.view(ex), vy = ws.vy.view(ex), px = ws.px.view(ex), py = ws.py.view(ex);
    const View1<int> begin = ws.begin.view(ex), end = ws.end.view(ex);

    if (!box.empty()) {
        // 1. stencil origin per agent; 2. sort agents by it; 3. sorted copies
        if (n > 0) {
            forEachIndex(ex, n, SplatKeyKernel{g, a.x, a.y, key, order});
            sortByKey(ex, key.data, order.data, n);
            forEachIndex(ex, n, SplatPermuteKernel{g, order, a.x, a.y, a.vx, a.vy, a.px, a.py, tx, ty, vx, vy, px, py});
        }
        // 4. sorted range of every stencil origin the box's cells gather from
        const CellRange origins{std::max(box.i0 - 1, 0), std::max(box.j0 - 1, 0), box.i1, box.j1};
        forEachCell(ex, origins, SplatClearKernel{g, begin, end});
        forEachIndex(ex, n, SplatBoundsKernel{g, key, begin, end});
    }
    // 5. gather per cell (zero outside the box)
    forEachCell(ex, CellRange{0, 0, g.nx, g.ny},
                SplatGatherKernel{g, box, begin, end, tx, ty, vx, vy, px, py, rho, meanVelocity, meanPreferred});
}

}  // namespace ccrowd::sim
