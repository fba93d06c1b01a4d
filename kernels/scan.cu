/// @file scan.cu
/// Exclusive prefix sums (scan.hpp). Compiled by nvcc in CUDA builds and by
/// the C++ compiler (Thrust's OMP system) otherwise.

#include <string>

#include <thrust/scan.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/system_error.h>

#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "omp_threads.hpp"
#include "scan.hpp"

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
#include <thrust/system/cuda/execution_policy.h>
#endif

namespace ccrowd::sim {

void exclusiveScan(const Exec& ex, const int* in, int* out, int n, const char* stage) {
    if (n <= 0) return;
    try {
        if (ex.backend == Backend::Cuda) {
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
            thrust::exclusive_scan(thrust::cuda::par, in, in + n, out);
            return;
#else
            throw BackendError(std::string(stage) + ": CUDA backend requested but this build has no CUDA backend");
#endif
        }
        const OmpThreads threads(ex, n);
        thrust::exclusive_scan(thrust::omp::par, in, in + n, out);
    } catch (const thrust::system_error& e) {
        throw BackendError(std::string("thrust::exclusive_scan (") + stage + ") failed: " + e.what() + " at " + __FILE__);
    }
}

}  // namespace ccrowd::sim
