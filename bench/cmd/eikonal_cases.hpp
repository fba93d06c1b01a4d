#pragma once
/// @file eikonal_cases.hpp
/// The eikonal benchmark's test grids, shared by `ccrowd bench eikonal` and
/// the Google Benchmark target so both time the same problems.

#include <cstdint>
#include <string>
#include <vector>

#include "ccrowd/eikonal.hpp"
#include "ccrowd/field.hpp"

namespace ccrowd::bench {

/// Benchmark cases.
enum class EikonalCase {
    Uniform,   ///< Unit speed, source at the centre.
    Random,    ///< Smoothly varying speed in 0.5..1.5 m/s.
    Obstacles, ///< Random's speed plus rectangular obstacles on about 15% of cells.
    /// Obstacles' walls and speed, and a crowd's flow (Treuille 2006 eq. 10's
    /// flow term): walking along a smoothly turning flow direction costs
    /// less than against it, so a cell's four face costs differ, as they do
    /// in every simulation step (the local update's anisotropic path).
    Crowd
};

/// "uniform", "random", "obstacles", "crowd".
const char* caseName(EikonalCase c);
/// All cases, in table order.
std::vector<EikonalCase> allCases();
/// Parses a case name (or "all") into a list; throws InputError naming @p field.
std::vector<EikonalCase> parseCases(const std::string& text, const std::string& field = "--case");

/// One benchmark grid: the speed (for scikit-fmm), the blocked mask, the face
/// costs (1 / speed of the cell on all four faces; the crowd case's differ
/// by direction, which scikit-fmm's isotropic speed cannot hold) and the
/// centre source.
struct EikonalGrid {
    int n = 0;                        ///< Cells per side.
    float h = 0.25f;                  ///< Cell size. [Units: m]
    Field<float> speed;               ///< [Units: m/s] [Size: n*n]
    Field<std::uint8_t> blocked;      ///< 1 = obstacle. [Size: n*n]
    Field<FaceCost> cost;             ///< [Units: s/m] [Size: n*n]
    int srcI = 0, srcJ = 0;           ///< Source cell (the centre, always open).
    double blockedFraction = 0.0;     ///< Share of blocked cells.

    /// The eikonal problem on this grid (points into this object).
    EikonalProblem problem() const;
};

/// Builds case @p c on an n-by-n grid. Deterministic: same n, same grid.
/// @param n Cells per side. [Limit: 2..16384]
EikonalGrid makeEikonalGrid(EikonalCase c, int n);

}  // namespace ccrowd::bench
