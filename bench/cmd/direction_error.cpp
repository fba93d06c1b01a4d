/// @file direction_error.cpp
#include "cmd/direction_error.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "ccrowd/error.hpp"

namespace ccrowd::bench {

DirectionError directionError(const Field<float>& phi, int ci, int cj, float h, double angleDeg, int radius) {
    DirectionError e;
    e.angle = angleDeg;
    e.radius = radius;
    const double a = angleDeg * 3.14159265358979323846 / 180.0;
    for (int r = 4; r <= radius; ++r) {
        // the cell nearest the ray at distance r, and its exact distance
        const int i = ci + static_cast<int>(std::lround(r * std::cos(a))), j = cj + static_cast<int>(std::lround(r * std::sin(a)));
        if (i < 0 || j < 0 || i >= phi.nx() || j >= phi.ny())
            throw InputError("directionError: the ray at " + std::to_string(angleDeg) + " degrees leaves the grid before " +
                             std::to_string(radius) + " cells");
        const double d = std::hypot(i - ci, j - cj), p = phi(i, j) / h;
        if (!std::isfinite(p)) throw InputError("directionError: no potential at cell (" + std::to_string(i) + ", " + std::to_string(j) + ")");
        e.max_abs = std::max(e.max_abs, std::fabs(p - d));
        e.max_rel = std::max(e.max_rel, std::fabs(p / d - 1.0));
        e.rel_at_radius = p / d - 1.0;
    }
    return e;
}

}  // namespace ccrowd::bench
