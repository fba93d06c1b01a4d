#pragma once
/// @file body_checks.hpp
/// Measurements of the crowd's bodies and positions that the validation
/// criteria (cases.hpp) and the whole-run tests (tests/test_simulation.cpp)
/// share: how far a body's centre is from the walls, and the local density
/// of the agents' positions (issue 17, Deliver 2 and 4).

#include <vector>

#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "kernels/walls.hpp"

namespace ccrowd::validate {

/// Signed distance from a point to the scene's walls (issue 12, Deliver 4):
/// to the nearest wall edge (SceneGrid::walls, the boundary of the open
/// region exact from the scene's polygons; the domain's edge included),
/// negative inside a wall. A body of radius r is clear of the walls when
/// distance(centre) >= r. Built once per grid: the edges near each cell.
class WallClearance {
public:
    /// Edges within @p reach [m] of each cell of @p g are searched.
    WallClearance(const SceneGrid& g, double reach);
    /// Signed distance from (x, y) [m] to the nearest wall edge: @p reach
    /// when none is that close, < 0 inside a wall. [Units: m]
    double distance(double x, double y) const;

private:
    sim::WallIndex index_;
    sim::WallView view_;
    double reach_ = 0.0;
};

/// Smallest WallClearance distance(centre) - radius over the agents of
/// @p a (+inf with no agent): negative when a body overlaps a wall by that
/// much. @p agent receives the index of that agent (-1 with none). [Units: m]
double smallestWallClearance(const SceneGrid& g, const AgentSnapshot& a, int* agent = nullptr);

/// Local density of the agents' positions, the Gaussian kernel estimate of
/// Helbing, Johansson & Al-Abideen 2007 (Phys. Rev. E 75, 046109):
/// rho(x) = sum_j exp(-|x_j - x|^2 / R^2) / (pi R^2), evaluated at the
/// centre of every open cell and divided by the share of the kernel that
/// falls on open floor (cells weighted by their open fraction: persons per
/// m^2 of floor beside walls too, slanted ones included). A smooth
/// kernel reads a crowd packed at density rho as rho wherever it samples it,
/// where counting centres in small boxes scatters: 25 agents on a 0.46 m
/// square lattice fit a 2 m box (6.25 persons/m^2) though the lattice holds
/// 4.7 (Vackova & Bukacek 2022 review kernel estimates; they find kernels
/// about 0.7-1.2 m wide smooth and trend-true).
class LocalDensity {
public:
    /// Kernel width @p radius [m] (> 0) on the grid of @p g; the kernel is
    /// cut at 3 radius (exp(-9): 0.01% of its weight).
    LocalDensity(const SceneGrid& g, double radius);
    /// The largest local density over the open cells. @p at receives the
    /// centre of that cell. 0 with no agent. [Units: persons/m^2]
    double largest(const AgentSnapshot& a, Vec2* at = nullptr) const;

private:
    GridInfo g_;                   ///< The grid's geometry (its walls are in openShare_).
    double r2_ = 0.0;              ///< Kernel radius squared. [Units: m^2]
    int reach_ = 0;                ///< Kernel cut-off in cells.
    std::vector<double> weight_;   ///< Kernel weight per cell offset, (2 reach + 1)^2. [Units: 1/m^2]
    std::vector<double> openShare_;  ///< Per cell: share of the kernel on open cells (0 for blocked cells).
};

}  // namespace ccrowd::validate
