/// @file sort_by_key.cu
/// sortByKey (kernels/sort_by_key.hpp). Compiled by nvcc in CUDA builds and
/// by the C++ compiler (OpenMP, Thrust's OMP system) otherwise.

#include "sort_by_key.hpp"

#include <string>

#include <thrust/sort.h>
#include <thrust/system/omp/execution_policy.h>
#include <thrust/system_error.h>

#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "omp_threads.hpp"

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
#include <thrust/system/cuda/execution_policy.h>
#endif

namespace ccrowd::sim {

void sortByKey(const Exec& ex, int* key, int* order, int n, const char* stage) {
    try {
        if (ex.backend == Backend::Cuda) {
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
            thrust::stable_sort_by_key(thrust::cuda::par, key, key + n, order);
            return;
#else
            throw BackendError(std::string(stage) + ": CUDA backend requested but this build has no CUDA backend");
#endif
        }
        const OmpThreads threads(ex, n);
        thrust::stable_sort_by_key(thrust::omp::par, key, key + n, order);
    } catch (const thrust::system_error& e) {
        throw BackendError(std::string("thrust::stable_sort_by_key (") + stage + ") failed: " + e.what() + " at " +
                           __FILE__);
    }
}

}  // namespace ccrowd::sim
