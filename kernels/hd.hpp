#pragma once
/// @file hd.hpp
/// CC_HD marks functions compiled for both host and device. In CPU builds it
/// is empty, so kernel headers need no CUDA headers.

#ifdef __CUDACC__
#define CC_HD __host__ __device__
#else
#define CC_HD
#endif
