#pragma once
/// @file hash.hpp
/// The integer hash behind the stages' random draws (search headings,
/// route choices): the same bits on every backend and thread count.

#include <stdint.h>

#include "ccrowd/hd.hpp"

namespace ccrowd::sim {

/// Chris Wellons' "lowbias32" 32-bit integer hash (finaliser).
CC_HD inline uint32_t lowbias32(uint32_t h) {
    h ^= h >> 16; h *= 0x7feb352du;
    h ^= h >> 15; h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

}  // namespace ccrowd::sim
