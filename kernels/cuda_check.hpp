#pragma once
/// @file cuda_check.hpp
/// CC_CUDA_CHECK(expr): runs a CUDA runtime call and throws BackendError
/// naming the call, its error, the file and the line when it fails.
/// CUDA builds only.

#include <cuda_runtime.h>

#include <string>

#include "ccrowd/error.hpp"

namespace ccrowd::detail {
[[noreturn]] inline void cudaFail(cudaError_t e, const char* expr, const char* file, int line) {
    throw BackendError(std::string(expr) + " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ") at " + file +
                       ":" + std::to_string(line));
}
}  // namespace ccrowd::detail

#define CC_CUDA_CHECK(expr)                                                           \
    do {                                                                              \
        const cudaError_t cc_err_ = (expr);                                           \
        if (cc_err_ != cudaSuccess) ::ccrowd::detail::cudaFail(cc_err_, #expr, __FILE__, __LINE__); \
    } while (0)
