/// @file reduce.cu
/// The largest of a float array (reduce.hpp). Compiled by nvcc in CUDA
/// builds and by the C++ compiler (Thrust's OMP system) otherwise.

#include <string>

#include <thrust/reduce.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/system_error.h>

#include "ccrowd/config.hpp"
#include "ccrowd/device_memory.hpp"
#include "ccrowd/error.hpp"
#include "omp_threads.hpp"
#include "reduce.hpp"

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
#include <thrust/system/cuda/execution_policy.h>
#endif

namespace ccrowd::sim {

namespace {

/// max(a, b) (no NaNs: order-independent).
struct MaxOp {
    CC_HD float operator()(float a, float b) const { return a < b ? b : a; }
};

}  // namespace

float maxOf(const Exec& ex, const float* d, int n, const char* stage) {
    if (n <= 0) return 0.f;
    try {
        if (ex.backend == Backend::Cuda) {
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
            const float m = thrust::reduce(thrust::cuda::par, d, d + n, 0.f, MaxOp{});
            device::countCopy(device::Copy::ToHost, sizeof(float));  // the one value that comes back
            return m;
#else
            throw BackendError(std::string(stage) + ": CUDA backend requested but this build has no CUDA backend");
#endif
        }
        const OmpThreads threads(ex, n);
        return thrust::reduce(thrust::omp::par, d, d + n, 0.f, MaxOp{});
    } catch (const thrust::system_error& e) {
        throw BackendError(std::string("thrust::reduce (") + stage + ") failed: " + e.what() + " at " + __FILE__);
    }
}

}  // namespace ccrowd::sim
