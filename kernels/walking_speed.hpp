#pragma once
/// @file walking_speed.hpp
/// The speed of a person walking in a given direction from the speed stage's
/// inputs: Treuille et al. 2006's f(x, theta) (§4.2, eq. 10), read at
/// x + r n_theta for the walking direction theta itself, not only for the
/// four face directions. Used by the desired velocity (stage f) and by
/// the route choice of roaming groups.
///
/// Why: the four face speeds read the crowd r ahead along the axes. A
/// blend of them for a walker heading at 45 degrees reads points r/sqrt(2)
/// ahead of him and r/sqrt(2) to his side, so in a crowd thinning towards a
/// door turned by 45 degrees he perceives it denser than he would at 0
/// degrees: the turned room of `ccrowd validate` emptied 8.2% slower at 45
/// than at 0 and 15 degrees (issue 12). On open floor the density and flow
/// are therefore interpolated to x + r u (u the walking direction) and the
/// face speed formula is evaluated there with u as the normal. Next to walls
/// (a blocked cell among the reading points, a closed face of the walker's
/// cell) the face speeds are blended instead: their eps towards a wall is
/// what keeps walkers from pressing into it.

#include <math.h>

#include <cstdint>

#include "ccrowd/closed_faces.hpp"
#include "ccrowd/field.hpp"
#include "grid.hpp"
#include "ccrowd/hd.hpp"
#include "speed.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Walking speed in a direction at a cell. Without perceived density
/// (rho null) it is the blend of the face speeds alone.
struct WalkingSpeed {
    GridInfo g;
    SpeedParams p;                      ///< The speed stage's parameters (p.ahead: r in cells).
    View2<const Face4> faces;           ///< Face speeds (speed stage). [Units: m/s]
    View2<const float> rho;             ///< Density the faces read (perceived). [Units: persons/m^2] (null: faces only)
    View2<const Vel2> flow;             ///< Flow the faces read (perceived). [Units: m/s]
    View2<const float> terrain;         ///< Speed factor. [Limit: >= 0] (null: 1)
    View2<const std::uint8_t> blocked;  ///< 1 = blocked. (null: none)
    View2<const std::uint8_t> closed;   ///< Closed faces, ccrowd/closed_faces.hpp bits. (null: none)

    /// Face speeds of cell (i, j) blended by the squared components of the
    /// unit direction (@p ux, @p uy): the weights sum to 1, so exactly f
    /// when the faces agree. [Units: m/s]
    CC_HD float blend(int i, int j, float ux, float uy) const {
        const Face4 f = faces(i, j);
        const float fx = ux >= 0.f ? f.e : f.w, fy = uy >= 0.f ? f.n : f.s;
        return ux * ux * fx + uy * uy * fy;
    }

    /// Value at x + r u on the plane through a cell's value @p c and its two
    /// reading points' @p a (along x) and @p b (along y), @p ax, @p ay = |u|'s
    /// components (first order, exact for fields linear in space).
    CC_HD static float plane(float c, float a, float b, float ax, float ay) { return c + ax * (a - c) + ay * (b - c); }

    /// True when the cells of the box from (i, j) to (i + sx a, j + sy a)
    /// (@p sx, @p sy = +-1, a = p.ahead) are all open: the reading points of a
    /// walker at its corner lie on the same floor. A thin wall (closed faces
    /// without blocked cells) between them is not seen, as the perception
    /// window does not stop at walls either (speed.hpp).
    CC_HD bool clear(int i, int j, int sx, int sy) const {
        if (!blocked.data) return true;
        bool open = true;
        for (int dj = 0; dj <= p.ahead; ++dj)
            for (int di = 0; di <= p.ahead; ++di) open &= blocked(i + sx * di, j + sy * dj) == 0;
        return open;
    }

    /// Speed of a walker in open cell (i, j) heading along the unit vector
    /// (@p ux, @p uy). [Units: m/s] [Limit: eps..v0 x terrain]
    CC_HD float operator()(int i, int j, float ux, float uy) const {
        if (!rho.data) return blend(i, j, ux, uy);
        // the two face reading points on the walker's side (Treuille's x + r n), inside the grid
        const int sx = ux >= 0.f ? 1 : -1, sy = uy >= 0.f ? 1 : -1;
        const int ai = i + sx * p.ahead, bj = j + sy * p.ahead;
        // next to a wall (a closed face of the walker's cell, a blocked cell among the readings) or the grid's edge: the faces
        if ((closed.data && closed(i, j)) || ai < 0 || ai >= g.nx || bj < 0 || bj >= g.ny || !clear(i, j, sx, sy))
            return blend(i, j, ux, uy);
        // density at x + r u: the plane through the cell and its two reading points
        const float ax = fabsf(ux), ay = fabsf(uy);
        const float r = maxf(plane(rho(i, j), rho(ai, j), rho(i, bj), ax, ay), 0.f);
        // terrain of the faces' neighbours, blended as the face speeds are
        const float t = terrain.data ? ux * ux * terrain(i + sx, j) + uy * uy * terrain(i, j + sy) : 1.f;
        // sparse (most of the floor): the free speed, the flow does not matter (faceSpeed())
        const float w = weidmannSpeed(p, r);
        if (!(r > p.rho_min)) return maxf(w * t, p.eps);
        // the flow at x + r u on the same plane
        const Vel2 vc = flow(i, j), va = flow(ai, j), vb = flow(i, bj);
        const Vel2 v{plane(vc.x, va.x, vb.x, ax, ay), plane(vc.y, va.y, vb.y, ax, ay)};
        // Treuille 2006 eq. 10 with the walking direction as the normal (faceSpeed())
        return faceSpeed(p, w, r, v, ux, uy, t);
    }
};

}  // namespace ccrowd::sim
