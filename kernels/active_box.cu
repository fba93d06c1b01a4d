/// @file active_box.cu
/// Active box stage launcher (a): AABB of the agents by a Thrust reduction
/// (OMP system on the CPU, CUDA on the GPU), then grown by the margin and
/// turned into a clamped cell range (kernels/active_box.hpp).

#include <omp.h>

#include <string>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/system_error.h>
#include <thrust/transform_reduce.h>

#include "active_box.hpp"
#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "stages.hpp"

#include "ccrowd/device_memory.hpp"
#include "omp_threads.hpp"

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
#include <thrust/system/cuda/execution_policy.h>
#endif

namespace ccrowd::sim {
namespace {

/// AABB of the @p n agents on the Exec's side.
Aabb reduceAabb(const Exec& ex, const AgentAabb& point, int n) {
    const thrust::counting_iterator<int> first(0), last(n);
    try {
        if (ex.backend == Backend::Cuda) {
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
            const Aabb box = thrust::transform_reduce(thrust::cuda::par, first, last, point, Aabb{}, AabbUnion{});
            device::countCopy(device::Copy::ToHost, sizeof(Aabb));  // the reduction's result comes back
            return box;
#else
            throw BackendError("activeBox: CUDA backend requested but this build has no CUDA backend");
#endif
        }
        const OmpThreads threads(ex, n);
        return thrust::transform_reduce(thrust::omp::par, first, last, point, Aabb{}, AabbUnion{});
    } catch (const thrust::system_error& e) {
        throw BackendError(std::string("thrust::transform_reduce (activeBox) failed: ") + e.what() + " at " + __FILE__);
    }
}

}  // namespace

CellRange activeBox(const Exec& ex, const AgentViews& a, const GridInfo& g, float margin) {
    // empty crowd or grid: empty box
    if (a.n <= 0 || g.nx <= 0 || g.ny <= 0) return CellRange{};
    // AABB of the positions (exact min/max: any reduction order)
    const Aabb b = reduceAabb(ex, AgentAabb{a.x, a.y}, a.n);
    // grow by the margin in cells, cover the splat stencils, clamp to the grid
    const float m = margin > 0.f ? margin / g.h : 0.f;
    CellRange r;
    coveredCells(g.gx(b.xlo), g.gx(b.xhi), m, g.nx, r.i0, r.i1);
    coveredCells(g.gy(b.ylo), g.gy(b.yhi), m, g.ny, r.j0, r.j1);
    if (r.empty()) return CellRange{};
    return r;
}

}  // namespace ccrowd::sim
