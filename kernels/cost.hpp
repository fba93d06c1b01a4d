#pragma once
/// @file cost.hpp
/// Cost stage (d): the unit cost C(x, theta) per face (Treuille et al. 2006
/// eq. 4; DESIGN.md §5 "Unit cost"), C = (alpha f + beta + gamma g) / f with
/// f the face speed and g the discomfort of the neighbour across the face.
/// Inside the active box f is the speed stage's field; elsewhere (no crowd)
/// f is the free-flow speed v0 times the neighbour's terrain factor.

#include <math.h>

#include <cstdint>

#include "ccrowd/closed_faces.hpp"
#include "ccrowd/field.hpp"
#include "eikonal_update.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Lowest unit cost written (a guard against negative discomfort; with
/// alpha, beta, gamma, g >= 0 and alpha + beta > 0 it never applies).
/// [Units: s/m]
constexpr float kMinUnitCost = 1e-6f;

/// Unit cost of one face (Treuille et al. 2006 eq. 4).
/// @param f Face speed. [Units: m/s] [Limit: > 0]
/// @param g Discomfort of the neighbour. [Limit: >= 0]
/// @return [Units: s/m] [Limit: >= kMinUnitCost, finite]
CC_HD inline float unitCostOf(const CostParams& c, float f, float g) {
    return maxf((c.alpha * f + c.beta + c.gamma * g) / f, kMinUnitCost);
}

/// Sets the faces of @p c closed in @p bits (ccrowd/closed_faces.hpp) to
/// +inf: the eikonal solve never crosses them.
CC_HD inline void closeFaces(FaceCost& c, std::uint8_t bits) {
    if (bits & kClosedE) c.e = INFINITY;
    if (bits & kClosedN) c.n = INFINITY;
    if (bits & kClosedW) c.w = INFINITY;
    if (bits & kClosedS) c.s = INFINITY;
}

/// Per-cell unit-cost functor over the whole grid. Closed faces
/// (SceneGrid::closed_faces) cost +inf: the eikonal solve never crosses
/// them. Null discomfort / terrain / blocked / closed views mean 0 / 1 /
/// none blocked / none closed.
struct UnitCostKernel {
    GridInfo g;
    CellRange box;                      ///< Where speedIn holds the crowd's speeds.
    CostParams c;
    SpeedParams sp;                     ///< v0 and eps for the free-flow speed.
    View2<const Face4> speedIn;         ///< Face speeds inside the box. [Units: m/s]
    View2<const float> discomfort;      ///< g per cell. [Limit: >= 0] (null: 0)
    View2<const float> terrain;         ///< Speed factor. [Limit: >= 0] (null: 1)
    View2<const std::uint8_t> blocked;  ///< 1 = blocked. (null: none)
    View2<FaceCost> out;                ///< [Units: s/m]
    View2<const std::uint8_t> closed;   ///< Closed faces, ccrowd/closed_faces.hpp bits. (null: none)

    CC_HD bool open(int i, int j) const { return g.inside(i, j) && !(blocked.data && blocked(i, j)); }
    CC_HD bool inBox(int i, int j) const { return i >= box.i0 && j >= box.j0 && i < box.i1 && j < box.j1; }

    /// Discomfort across the face towards (ni, nj): 0 for blocked / outside.
    CC_HD float discomfortAt(int ni, int nj) const {
        return discomfort.data && open(ni, nj) ? discomfort(ni, nj) : 0.f;
    }
    /// Free-flow speed of the face towards (ni, nj): v0 x terrain, at least
    /// eps; eps towards blocked / outside cells (as the speed stage).
    CC_HD float freeFlowAt(int ni, int nj) const {
        if (!open(ni, nj)) return sp.eps;
        return maxf(sp.v0 * (terrain.data ? terrain(ni, nj) : 1.f), sp.eps);
    }

    CC_HD void operator()(int i, int j) const {
        // face speeds: the crowd's inside the box, free flow elsewhere
        Face4 f;
        if (inBox(i, j) && open(i, j)) {
            f = speedIn(i, j);
        } else {
            f.e = freeFlowAt(i + 1, j); f.n = freeFlowAt(i, j + 1);
            f.w = freeFlowAt(i - 1, j); f.s = freeFlowAt(i, j - 1);
        }
        // C = (alpha f + beta + gamma g) / f per face
        FaceCost r;
        r.e = unitCostOf(c, f.e, discomfortAt(i + 1, j));
        r.n = unitCostOf(c, f.n, discomfortAt(i, j + 1));
        r.w = unitCostOf(c, f.w, discomfortAt(i - 1, j));
        r.s = unitCostOf(c, f.s, discomfortAt(i, j - 1));
        // closed faces: never crossed
        if (closed.data) closeFaces(r, closed(i, j));
        out(i, j) = r;
    }
};

}  // namespace ccrowd::sim
