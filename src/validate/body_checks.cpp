/// @file body_checks.cpp
/// Wall clearance of bodies and the local density of positions (body_checks.hpp).

#include "body_checks.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ccrowd::validate {

namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

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

LocalDensity::LocalDensity(const SceneGrid& g, double radius) : g_(g.info()), r2_(radius * radius) {
    const double h = g.h;
    reach_ = static_cast<int>(std::ceil(3.0 * radius / h));
    // the kernel per cell offset (Helbing et al. 2007)
    const int side = 2 * reach_ + 1;
    weight_.resize(static_cast<std::size_t>(side) * side);
    double total = 0.0;
    for (int dj = -reach_; dj <= reach_; ++dj)
        for (int di = -reach_; di <= reach_; ++di) {
            const double d2 = (di * h) * (di * h) + (dj * h) * (dj * h);
            const double w = std::exp(-d2 / r2_) / (kPi * r2_);
            weight_[static_cast<std::size_t>(dj + reach_) * side + (di + reach_)] = w;
            total += w;
        }
    // per open cell, the share of the kernel's weight that lies on open cells
    openShare_.assign(static_cast<std::size_t>(g.nx) * g.ny, 0.0);
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) {
            if (g.blocked(i, j)) continue;
            double open = 0.0;
            for (int dj = -reach_; dj <= reach_; ++dj)
                for (int di = -reach_; di <= reach_; ++di) {
                    const int ii = i + di, jj = j + dj;
                    if (ii < 0 || jj < 0 || ii >= g.nx || jj >= g.ny || g.blocked(ii, jj)) continue;
                    open += weight_[static_cast<std::size_t>(dj + reach_) * side + (di + reach_)];
                }
            openShare_[static_cast<std::size_t>(j) * g.nx + i] = open / total;
        }
}

double LocalDensity::largest(const AgentSnapshot& a, Vec2* at) const {
    const int nx = g_.nx, ny = g_.ny;
    const double h = g_.h;
    // every agent's kernel, evaluated at the cell centres it reaches
    std::vector<double> rho(static_cast<std::size_t>(nx) * ny, 0.0);
    for (int k = 0; k < a.size(); ++k) {
        int ci = 0, cj = 0;
        g_.cellOf(a.x[k], a.y[k], ci, cj);
        for (int j = std::max(0, cj - reach_); j <= std::min(ny - 1, cj + reach_); ++j)
            for (int i = std::max(0, ci - reach_); i <= std::min(nx - 1, ci + reach_); ++i) {
                const double dx = g_.ox + (i + 0.5) * h - a.x[k], dy = g_.oy + (j + 0.5) * h - a.y[k];
                rho[static_cast<std::size_t>(j) * nx + i] += std::exp(-(dx * dx + dy * dy) / r2_);
            }
    }
    // persons per open m^2: the kernel's norm 1 / (pi R^2), divided by its open share
    const double norm = 1.0 / (kPi * r2_);
    double best = 0.0;
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const std::size_t c = static_cast<std::size_t>(j) * nx + i;
            if (openShare_[c] <= 0.0) continue;
            const double d = norm * rho[c] / openShare_[c];
            if (d > best) {
                best = d;
                if (at) *at = Vec2{static_cast<float>(g_.ox + (i + 0.5) * h), static_cast<float>(g_.oy + (j + 0.5) * h)};
            }
        }
    return best;
}

}  // namespace ccrowd::validate
