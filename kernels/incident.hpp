#pragma once
/// @file incident.hpp
/// Incident cost (seed 002 §4.3, eq. 4.9): the unit cost of the escape and
/// hide groups' fields is the common cost (kernels/cost.hpp) with every
/// move toward an incident made dearer. For the move from cell A to its
/// neighbour B, with d_A, d_B the distances of their centres to the nearest
/// incident's region of harm:
///
///     S(A -> B) = c d_A / d_B   if d_B < d_A,   1 otherwise.
///
/// The seed's extraction reads c d_B / d_A, which is below c and falls as
/// B nears the incident, so approaching would get cheaper the closer one
/// is; the issue asks for the form that makes approaching harder the closer
/// one gets, which is the ratio inverted, implemented here (c >= 1). The
/// distance is signed (negative inside the harm region): every move into
/// the region and every move of a cell inside it takes the largest factor
/// kMaxIncidentScale, so that the region is a hill of the potential: no
/// escape or hide path crosses it (the desired velocity follows the upwind
/// gradient, which a region of low potential would draw agents into), and
/// those caught inside descend its slope outward. S is capped at
/// kMaxIncidentScale, so every cost stays finite. Host+device.

#include "ccrowd/face_cost.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "grid.hpp"
#include "launch.hpp"

namespace ccrowd::sim {

/// Largest cost factor of a move toward an incident.
constexpr float kMaxIncidentScale = 1000.f;

/// S(A -> B) of eq. 4.9 (inverted ratio, see the file's comment) for
/// signed distances @p dA, @p dB to the harm region [m] and weight @p c (>= 1).
CC_HD inline float incidentScale(float dA, float dB, float c) {
    if (!(dA > 0.f) || !(dB > 0.f)) return kMaxIncidentScale;  // inside the harm region, or into it
    if (!(dB < dA)) return 1.f;
    const float s = c * dA / dB;
    return s < kMaxIncidentScale ? s : kMaxIncidentScale;
}

/// Per cell: the cost of the four moves out of it, scaled by eq. 4.9.
struct IncidentCostKernel {
    GridInfo g;
    View2<const FaceCost> cost;     ///< The common unit cost. [Units: s/m]
    View2<const float> distance;    ///< Per cell: signed distance to the nearest incident's harm region, < 0 inside (+inf: none started). [Units: m]
    View2<const float> weight;      ///< Per cell: c of that incident. [Limit: >= 1]
    View2<FaceCost> out;

    CC_HD void operator()(int i, int j) const {
        FaceCost c = cost(i, j);
        const float dA = distance(i, j), w = weight(i, j);
        // E, N, W, S neighbours (the grid's edge: no move, cost unchanged)
        if (i + 1 < g.nx) c.e *= incidentScale(dA, distance(i + 1, j), w);
        if (j + 1 < g.ny) c.n *= incidentScale(dA, distance(i, j + 1), w);
        if (i > 0) c.w *= incidentScale(dA, distance(i - 1, j), w);
        if (j > 0) c.s *= incidentScale(dA, distance(i, j - 1), w);
        out(i, j) = c;
    }
};

/// The incident cost of every cell (IncidentCostKernel).
void incidentCost(const Exec& ex, const GridInfo& g, View2<const FaceCost> cost, View2<const float> distance,
                  View2<const float> weight, View2<FaceCost> out);

}  // namespace ccrowd::sim
