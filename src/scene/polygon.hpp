#pragma once
/// @file polygon.hpp
/// Polygon geometry for scenes, in double precision on float vertices:
/// area, point-in-polygon, segment intersection, self-intersection, clipped
/// area, and scanline runs of grid cells whose centres are inside.
///
/// Inside rule (crossing number, Franklin's pnpoly): a point on a polygon's
/// lower or left edge is inside, on its upper or right edge outside, so
/// polygons that tile the plane give every point exactly one owner. The
/// scanline runs use the same crossing formula (crossingX) and comparisons,
/// so they agree with pointInPolygon cell for cell.

#include <cstddef>
#include <utility>
#include <vector>

#include "ccrowd/scene.hpp"

namespace ccrowd::geom {

/// Axis-aligned box. [Units: m]
struct Box {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

/// Bounding box of a non-empty polygon.
Box bounds(const Polygon& p);

/// Shoelace area: > 0 counter-clockwise. [Units: m^2]
double signedArea(const Polygon& p);

/// True when edge a-b crosses the horizontal line at @p y (half-open in y).
inline bool edgeCrossesY(const Vec2& a, const Vec2& b, double y) {
    return (static_cast<double>(a.y) > y) != (static_cast<double>(b.y) > y);
}

/// x where edge a-b (with edgeCrossesY true) meets the line at @p y.
double crossingX(const Vec2& a, const Vec2& b, double y);

/// Crossing-number point-in-polygon (see file comment for edges).
bool pointInPolygon(const Polygon& p, double x, double y);

/// True when closed segments p1-p2 and q1-q2 share a point (touching and
/// collinear overlap included).
bool segmentsIntersect(const Vec2& p1, const Vec2& p2, const Vec2& q1, const Vec2& q2);

/// First pair of edges (i, j), i < j, edge k = vertex k -> k+1, that
/// intersect although they are not neighbours, or neighbours that overlap
/// beyond their shared vertex (a spike). (-1, -1) when the polygon is simple.
/// Repeated consecutive vertices count as a self-intersection (i == j).
/// O(n^2): callers cap n.
std::pair<int, int> findSelfIntersection(const Polygon& p);

/// Area of polygon @p p intersected with box @p b (Sutherland-Hodgman
/// clipping against the convex box). [Units: m^2]
double clippedArea(const Polygon& p, const Box& b);

/// Grid geometry in double precision: centre of column i is ox + (i + 0.5) h.
struct GridGeom {
    int nx = 0, ny = 0;
    double ox = 0, oy = 0, h = 1;
    double cx(int i) const { return ox + (i + 0.5) * h; }
    double cy(int j) const { return oy + (j + 0.5) * h; }
    /// First column whose centre is >= x (0..nx).
    int firstColumnAtOrAfter(double x) const;
    /// First row whose centre is >= y (0..ny).
    int firstRowAtOrAfter(double y) const;
};

/// A run of cells [i0, i1) in row j.
struct Run {
    int j = 0, i0 = 0, i1 = 0;
};

/// Runs of grid cells whose centres are inside @p p (same rule as
/// pointInPolygon). Cost: O(rows crossed by edges * log + cells). Appends to @p out.
void polygonRuns(const Polygon& p, const GridGeom& g, std::vector<Run>& out);

/// Crossing x values of the polygon's edges with the line at @p y, sorted;
/// a point (x, y) is inside iff x lies in [c0, c1), [c2, c3), ...
void rowCrossings(const Polygon& p, double y, std::vector<double>& out);

/// Cells (index i + j*nx) whose square overlaps @p p with positive area
/// (> 1e-9 h^2), found along the polygon's edges; for polygons too thin to
/// contain a cell centre. Sorted, unique.
std::vector<int> overlappedCells(const Polygon& p, const GridGeom& g);

}  // namespace ccrowd::geom
