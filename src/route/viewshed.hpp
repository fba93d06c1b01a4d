#pragma once
/// @file viewshed.hpp
/// Exact visibility polygons (isovists: Turner & Penn, "From isovists to
/// visibility graph analysis", 2001; the polygons depthmapX draws) for
/// affordance-based route choice after Nicosia et al., "Automatic High Level
/// Avatar Guidance Based on Affordance of Movement": at each street junction
/// the walkable area visible from its centre is computed, and the share of it
/// inside a view frustum toward each neighbour junction is that neighbour's
/// choice weight (wedgeArea).
///
/// Walls are ccrowd::WallSegment (open side on the left). They may touch,
/// overlap or cross; the domain rectangle bounds every view (its border acts
/// as a wall). A viewpoint inside a blocked region (most of what it sees are
/// walls' closed sides) gets an empty viewshed.
///
/// Determinism: every viewshed depends only on its own centre, so
/// viewsheds() gives the same bits for any thread count.

#include <vector>

#include "ccrowd/wall_segment.hpp"

namespace ccrowd::route {

/// Uniform bucket grid over the wall segments for ray casting (each bucket
/// lists the segments crossing it). Coordinates are kept in double.
class SegmentIndex {
public:
    /// A wall or domain-border piece from (ax, ay) to (bx, by), open side on
    /// the left. [Units: m]
    struct Segment {
        double ax = 0, ay = 0, bx = 0, by = 0;
    };
    /// First hit of a ray p + t d: parameter t (in units of |d|, so metres
    /// for a unit d) and the segment hit (index into segment(); -1: none
    /// before the cast's limit, or p outside the domain with t = 0).
    struct Hit {
        double t = 0;
        int seg = -1;
    };

    /// Indexes @p walls (degenerate or non-finite ones are dropped) over the
    /// domain [x0, x1] x [y0, y1] [Units: m] with square buckets of side
    /// @p bucket [Units: m] (non-positive: 4 m).
    SegmentIndex(const std::vector<WallSegment>& walls, float x0, float y0, float x1, float y1,
                 float bucket = 4.f);

    /// Distance [m] along the unit ray (dx, dy) from (px, py) [m] to the
    /// first wall or domain border; 0 when (px, py) lies outside the domain.
    float cast(float px, float py, float dx, float dy) const;

    /// First hit of the ray (px, py) + t (dx, dy), t in [0, maxT]; a DDA walk
    /// over the buckets that stops at the bucket holding the first hit.
    /// (dx, dy) need not be unit. [Units: m for points]
    Hit castRay(double px, double py, double dx, double dy, double maxT) const;

    /// Walls kept, then the four border pieces (bottom, right, top, left,
    /// counter-clockwise, so the domain lies on their left).
    const std::vector<Segment>& segments() const { return segs_; }
    /// Number of walls kept (segments() indices below it are walls).
    int wallCount() const { return nWalls_; }
    /// Distinct wall endpoints inside the domain plus its four corners:
    /// the candidate polygon vertices. [Units: m]
    const std::vector<double>& endpointsX() const { return ex_; }
    const std::vector<double>& endpointsY() const { return ey_; }
    /// True when (px, py) [m] lies in the closed domain rectangle.
    bool inside(double px, double py) const {
        return px >= x0_ && px <= x1_ && py >= y0_ && py <= y1_;
    }

private:
    double x0_, y0_, x1_, y1_;  ///< Domain. [Units: m]
    double b_;                  ///< Bucket side. [Units: m]
    int nx_, ny_;               ///< Buckets per row, per column.
    int nWalls_ = 0;
    std::vector<Segment> segs_;
    std::vector<int> cellStart_;  ///< CSR offsets, nx*ny + 1 entries.
    std::vector<int> cellSegs_;   ///< Segment indices per bucket.
    std::vector<double> ex_, ey_;
};

/// A star-shaped polygon around its centre, vertices counter-clockwise by
/// angle (empty for a blocked or outside viewpoint). [Units: m]
struct Viewshed {
    float cx = 0, cy = 0;      ///< Viewpoint. [Units: m]
    std::vector<float> x, y;   ///< Vertices. [Units: m]
    /// Area of the polygon as a fan of triangles around the centre. [Units: m^2]
    double area() const;
};

/// The exact visibility polygon from (cx, cy) [m]: rays toward every
/// segment endpoint (and the domain corners) that is visible (the ray toward
/// it reaches it first), each at the endpoint's angle and a tiny angle either
/// side, sorted by angle; the polygon through the hits, plus the points
/// where crossing walls meet between two rays.
Viewshed viewshed(const SegmentIndex& idx, float cx, float cy);

/// Area [m^2] of the part of @p v inside the wedge of full opening angle
/// @p opening [rad] (0 < opening <= 2 pi) centred on direction (dx, dy)
/// seen from v's centre; exact (each fan triangle (c, p_i, p_i+1) clipped
/// by the wedge's two rays). 0 for an empty viewshed or opening <= 0.
double wedgeArea(const Viewshed& v, float dx, float dy, float opening);

/// Viewsheds of the points (px[i], py[i]) [m], OpenMP parallel over points
/// on @p threads threads (<= 0: OpenMP's default); the result does not
/// depend on the thread count.
std::vector<Viewshed> viewsheds(const SegmentIndex& idx, const std::vector<float>& px,
                                const std::vector<float>& py, int threads);

}  // namespace ccrowd::route
