/// @file colormap.cpp
#include "colormap.hpp"

#include "viridis.hpp"

namespace ccrowd::plot {

Rgb viridis(float t) {
    std::uint8_t c[3];
    viridisRgb(t, c);
    return {c[0], c[1], c[2]};
}

}  // namespace ccrowd::plot
