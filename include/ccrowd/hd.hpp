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
