/// @file closed_faces.cpp
/// Which faces of the grid the fields treat as walls (SceneGrid::closed_faces,
/// issue 12). The potential links the centres of 4-neighbour cells; a link
/// is cut when
///   1. the face between them has no open length (a wall on the face line),
///   2. the segment between the centres crosses a wall edge (a wall thinner
///      than a cell, inside one of them), or
///   3. the face lies on a passage narrower than a body: along its face
///      line, its run of consecutive faces with open length sums to less
///      than the smallest body's diameter.
/// Rule 2 tests proper crossings only: a segment that passes exactly
/// through a wall's vertex and no edge's interior is not cut.

#include "closed_faces.hpp"

#include <algorithm>
#include <cmath>

#include "ccrowd/closed_faces.hpp"

namespace ccrowd::scene_detail {

namespace {

/// Sign of the turn a -> b -> c (+1 left, -1 right, 0 collinear), in double.
int turn(double ax, double ay, double bx, double by, double cx, double cy) {
    const double d = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    return d > 0.0 ? 1 : (d < 0.0 ? -1 : 0);
}

/// True when segments pq and ab cross at a point interior to both.
bool properlyCross(double px, double py, double qx, double qy, const WallSegment& w) {
    const int d1 = turn(w.ax, w.ay, w.bx, w.by, px, py), d2 = turn(w.ax, w.ay, w.bx, w.by, qx, qy);
    const int d3 = turn(px, py, qx, qy, w.ax, w.ay), d4 = turn(px, py, qx, qy, w.bx, w.by);
    return d1 * d2 < 0 && d3 * d4 < 0;
}

/// Closes the face between (i, j) and (i + di, j + dj) on both cells.
void close(SceneGrid& grid, int i, int j, int di, int dj) {
    grid.closed_faces(i, j) |= closedFaceBit(di, dj);
    grid.closed_faces(i + di, j + dj) |= closedFaceBit(-di, -dj);
}

/// Rule 3 along one face line: runs of faces with open length
/// (aperture(k) > 0, k = 0..n-1), each closed by close(k) when its open
/// length sum(aperture) h is below @p minPassage.
template <class Aperture, class Close>
void closeNarrowRuns(int n, float h, float minPassage, Aperture aperture, Close closeFace) {
    for (int k = 0; k < n;) {
        if (!(aperture(k) > 0.f)) { ++k; continue; }
        int e = k;
        double open = 0.0;
        while (e < n && aperture(e) > 0.f) open += aperture(e++) * h;
        if (open < minPassage)
            for (int m = k; m < e; ++m) closeFace(m);
        k = e;
    }
}

}  // namespace

void closeFaces(SceneGrid& grid, float minPassage) {
    const int nx = grid.nx, ny = grid.ny;
    const float h = grid.h;
    grid.closed_faces.assign(nx, ny, 0);
    // 1. faces with no open length, the grid's edges included
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            std::uint8_t b = 0;
            if (!(grid.aperture_x(i + 1, j) > 0.f)) b |= kClosedE;
            if (!(grid.aperture_x(i, j) > 0.f)) b |= kClosedW;
            if (!(grid.aperture_y(i, j + 1) > 0.f)) b |= kClosedN;
            if (!(grid.aperture_y(i, j) > 0.f)) b |= kClosedS;
            grid.closed_faces(i, j) = b;
        }
    }
    // 2. links crossing a wall edge: per edge and row of its bounding box
    //    (one cell of margin), the columns its piece within the row's band reaches
    const double ox = grid.origin.x, oy = grid.origin.y;
    auto cx = [&](int i) { return ox + (i + 0.5) * h; };
    auto cy = [&](int j) { return oy + (j + 0.5) * h; };
    auto column = [&](double x) { return static_cast<int>(std::floor((x - ox) / h)); };
    for (const WallSegment& w : grid.walls) {
        const int j0 = std::max(0, static_cast<int>(std::floor((std::min(w.ay, w.by) - oy) / h)) - 1);
        const int j1 = std::min(ny - 1, static_cast<int>(std::floor((std::max(w.ay, w.by) - oy) / h)) + 1);
        for (int j = j0; j <= j1; ++j) {
            // the edge's x range within y in [cy(j) - 1.5 h, cy(j) + 1.5 h]
            double xa = std::min(w.ax, w.bx), xb = std::max(w.ax, w.bx);
            if (w.ay != w.by) {
                const double t0 = (cy(j) - 1.5 * h - w.ay) / (w.by - w.ay), t1 = (cy(j) + 1.5 * h - w.ay) / (w.by - w.ay);
                const double lo = std::clamp(std::min(t0, t1), 0.0, 1.0), hi = std::clamp(std::max(t0, t1), 0.0, 1.0);
                const double x0 = w.ax + lo * (w.bx - w.ax), x1 = w.ax + hi * (w.bx - w.ax);
                xa = std::min(x0, x1);
                xb = std::max(x0, x1);
            }
            const int i0 = std::max(0, column(xa) - 1), i1 = std::min(nx - 1, column(xb) + 1);
            for (int i = i0; i <= i1; ++i) {
                if (i + 1 < nx && properlyCross(cx(i), cy(j), cx(i + 1), cy(j), w)) close(grid, i, j, 1, 0);
                if (j + 1 < ny && properlyCross(cx(i), cy(j), cx(i), cy(j + 1), w)) close(grid, i, j, 0, 1);
            }
        }
    }
    // 3. passages narrower than a body, along every face line
    if (minPassage > 0.f) {
        for (int i = 1; i < nx; ++i)
            closeNarrowRuns(ny, h, minPassage, [&](int j) { return grid.aperture_x(i, j); },
                            [&](int j) { close(grid, i - 1, j, 1, 0); });
        for (int j = 1; j < ny; ++j)
            closeNarrowRuns(nx, h, minPassage, [&](int i) { return grid.aperture_y(i, j); },
                            [&](int i) { close(grid, i, j - 1, 0, 1); });
    }
}

}  // namespace ccrowd::scene_detail
