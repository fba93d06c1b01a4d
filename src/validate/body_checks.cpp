/// @file body_checks.cpp
/// Wall clearance of bodies and window densities of positions (body_checks.hpp).

#include "body_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ccrowd::validate {

double wallDistance(const SceneGrid& g, double x, double y, double reach) {
    const double x0 = g.origin.x, y0 = g.origin.y, x1 = x0 + g.nx * double(g.h), y1 = y0 + g.ny * double(g.h);
    // the outside of the grid is a wall
    double best = std::min({reach, x - x0, x1 - x, y - y0, y1 - y});
    if (best <= 0.0) return 0.0;
    const int ci = static_cast<int>(std::floor((x - x0) / g.h)), cj = static_cast<int>(std::floor((y - y0) / g.h));
    const int m = static_cast<int>(std::ceil(reach / g.h)) + 1;
    for (int j = std::max(cj - m, 0); j <= std::min(cj + m, g.ny - 1); ++j)
        for (int i = std::max(ci - m, 0); i <= std::min(ci + m, g.nx - 1); ++i) {
            if (!g.blocked(i, j)) continue;
            // nearest point of the cell's square
            const double lx = x0 + i * double(g.h), ly = y0 + j * double(g.h);
            const double qx = std::clamp(x, lx, lx + g.h), qy = std::clamp(y, ly, ly + g.h);
            best = std::min(best, std::hypot(x - qx, y - qy));
        }
    return best;
}

double smallestWallClearance(const SceneGrid& g, const AgentSnapshot& a, int* agent) {
    double best = std::numeric_limits<double>::infinity();
    if (agent) *agent = -1;
    for (int k = 0; k < a.size(); ++k) {
        const double r = a.radius[k];
        const double c = wallDistance(g, a.x[k], a.y[k], r + g.h) - r;
        if (c < best) {
            best = c;
            if (agent) *agent = k;
        }
    }
    return best;
}

double largestWindowDensity(const SceneGrid& g, const AgentSnapshot& a, double side) {
    const int w = std::max(1, static_cast<int>(std::lround(side / g.h)));
    if (w > g.nx || w > g.ny) return 0.0;
    // persons and open cells per cell, then summed-area tables
    const int nx = g.nx, ny = g.ny;
    std::vector<double> persons((nx + 1) * static_cast<std::size_t>(ny + 1), 0.0), open(persons.size(), 0.0);
    auto at = [&](std::vector<double>& t, int i, int j) -> double& { return t[static_cast<std::size_t>(j) * (nx + 1) + i]; };
    for (int k = 0; k < a.size(); ++k) {
        int i = 0, j = 0;
        g.cellOf(a.x[k], a.y[k], i, j);
        at(persons, i + 1, j + 1) += 1.0;
    }
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) at(open, i + 1, j + 1) = g.blocked(i, j) ? 0.0 : 1.0;
    for (std::vector<double>* t : {&persons, &open})
        for (int j = 1; j <= ny; ++j)
            for (int i = 1; i <= nx; ++i) at(*t, i, j) += at(*t, i - 1, j) + at(*t, i, j - 1) - at(*t, i - 1, j - 1);
    auto box = [&](std::vector<double>& t, int i, int j) {
        return at(t, i + w, j + w) - at(t, i, j + w) - at(t, i + w, j) + at(t, i, j);
    };
    // every window of w x w cells at least half open
    double best = 0.0;
    const double cellArea = double(g.h) * g.h;
    for (int j = 0; j + w <= ny; ++j)
        for (int i = 0; i + w <= nx; ++i) {
            const double cells = box(open, i, j);
            if (cells < 0.5 * w * w) continue;
            best = std::max(best, box(persons, i, j) / (cells * cellArea));
        }
    return best;
}

}  // namespace ccrowd::validate
