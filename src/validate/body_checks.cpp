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

WallClearance::WallClearance(const SceneGrid& g, double reach) : reach_(reach) {
    const Exec host{Backend::Cpu, 0};
    sim::buildWallIndex(host, g.walls, g.info(), static_cast<float>(reach), index_);
    view_ = sim::wallView(host, g.info(), index_);
}

double WallClearance::distance(double x, double y) const {
    const sim::WallNear n = sim::nearestWall(view_, static_cast<float>(x), static_cast<float>(y));
    if (!(n.d < INFINITY)) return reach_;
    return n.inside ? -static_cast<double>(n.d) : std::min(static_cast<double>(n.d), reach_);
}

double smallestWallClearance(const SceneGrid& g, const AgentSnapshot& a, int* agent) {
    double best = std::numeric_limits<double>::infinity();
    if (agent) *agent = -1;
    if (a.size() == 0) return best;
    double largest = 0.0;
    for (int k = 0; k < a.size(); ++k) largest = std::max(largest, static_cast<double>(a.radius[k]));
    const WallClearance walls(g, largest + g.h);
    for (int k = 0; k < a.size(); ++k) {
        const double c = walls.distance(a.x[k], a.y[k]) - a.radius[k];
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
    // per open cell, the share of the kernel's weight that lies on open floor: cells weighted
    // by their open fraction (exact from the polygons; whole cells when a grid has none)
    const bool fractions = g.open_fraction.size() == static_cast<std::size_t>(g.nx) * g.ny;
    auto openOf = [&](int i, int j) { return fractions ? double(g.open_fraction(i, j)) : (g.blocked(i, j) ? 0.0 : 1.0); };
    openShare_.assign(static_cast<std::size_t>(g.nx) * g.ny, 0.0);
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) {
            if (g.blocked(i, j)) continue;
            double open = 0.0;
            for (int dj = -reach_; dj <= reach_; ++dj)
                for (int di = -reach_; di <= reach_; ++di) {
                    const int ii = i + di, jj = j + dj;
                    if (ii < 0 || jj < 0 || ii >= g.nx || jj >= g.ny) continue;
                    open += openOf(ii, jj) * weight_[static_cast<std::size_t>(dj + reach_) * side + (di + reach_)];
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
