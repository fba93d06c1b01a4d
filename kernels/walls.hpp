#pragma once
/// @file walls.hpp
/// Agents against true walls (issue 12, Deliver 2): the scene's wall edges
/// (SceneGrid::walls, the open region's boundary exact from its polygons)
/// with, per grid cell, the edges within a reach of its square, and the
/// queries the operational models share: the nearest wall point with the
/// side a point is on, a move that never crosses a wall from its open side
/// (sliding along it), keeping a body's clearance, sliding a velocity
/// along a wall it touches. A slanted wall is a straight line to the crowd,
/// not the staircase of its blocked cells. Host+device; the index is built
/// on the host (walls.cu) and read by kernels through WallView.

#include <math.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ccrowd/backend.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/grid_info.hpp"
#include "ccrowd/hd.hpp"
#include "ccrowd/wall_segment.hpp"

namespace ccrowd::sim {

/// Gap kept between an agent stopped at a wall and the wall. [Units: cells]
constexpr float kWallGap = 1e-3f;
/// Longest move moveConfined makes, in substeps of at most a cell.
constexpr int kMaxMoveSubsteps = 256;
/// Passes of keepClearOfWalls: a concave corner needs two (one per wall).
constexpr int kClearancePasses = 4;

/// Wall edges and, per cell, the edges within `reach` of the cell's square
/// (compressed rows), on the host and mirrored on the device.
struct WallIndex {
    Array<WallSegment> segments;  ///< [Size: edges]
    Array<int> first;             ///< Row starts. [Size: nx*ny + 1]
    Array<int> list;              ///< Edge ids per cell, ascending. [Size: first[nx*ny]]
    float reach = 0.f;            ///< Every edge within this of a cell's square is in its row. [Units: m] [Limit: >= h]

    /// Host bytes of the edges and rows (the device copy is the same size).
    std::size_t bytes() const {
        return static_cast<std::size_t>(first.size() + list.size()) * sizeof(int) +
               static_cast<std::size_t>(segments.size()) * sizeof(WallSegment);
    }
};

/// Non-owning view of a WallIndex for kernels.
struct WallView {
    GridInfo g;
    View1<const WallSegment> seg;
    View1<const int> first, list;
    float reach = 0.f;  ///< [Units: m]

    /// Row of the cell holding (x, y), clamped to the grid.
    CC_HD void rowOf(float x, float y, int& b, int& e) const {
        int i, j;
        g.cellOf(x, y, i, j);
        i = i < 0 ? 0 : (i >= g.nx ? g.nx - 1 : i);
        j = j < 0 ? 0 : (j >= g.ny ? g.ny - 1 : j);
        const int c = i + j * g.nx;
        b = first.data ? first[c] : 0;
        e = first.data ? first[c + 1] : 0;
    }
    /// No wall edge within reach of (x, y)'s cell.
    CC_HD bool clearAt(float x, float y) const {
        int b, e;
        rowOf(x, y, b, e);
        return b == e;
    }
};

/// Nearest wall point of a position.
struct WallNear {
    float d = INFINITY;        ///< Distance to the nearest edge within reach (+inf: none). [Units: m]
    float qx = 0.f, qy = 0.f;  ///< Nearest point. [Units: m]
    float ox = 0.f, oy = 0.f;  ///< Unit direction at the nearest point into the open side. [Units: 1]
    bool inside = false;       ///< The position lies on the wall's side (inside a wall).
};

/// Nearest point (qx, qy) [m] of wall edge @p s to (x, y) [m], and the
/// edge's unit left normal (sx, sy) (towards its open side). False for an
/// edge of zero length.
CC_HD inline bool wallEdgePoint(const WallSegment& s, float x, float y, float& qx, float& qy, float& sx, float& sy) {
    const float ux = s.bx - s.ax, uy = s.by - s.ay, l2 = ux * ux + uy * uy;
    if (!(l2 > 0.f)) return false;
    const float t = ((x - s.ax) * ux + (y - s.ay) * uy) / l2;
    // an end is its own coordinates (a + 1 * (b - a) need not round to b), so
    // the two edges of a corner give the same nearest point, bit for bit
    qx = t <= 0.f ? s.ax : (t >= 1.f ? s.bx : s.ax + t * ux);
    qy = t <= 0.f ? s.ay : (t >= 1.f ? s.by : s.ay + t * uy);
    const float il = 1.f / sqrtf(l2);
    sx = -uy * il;
    sy = ux * il;
    return true;
}

/// Nearest point of the edges within reach of (x, y)'s cell, and the side.
/// Nearest an edge's inside, its normal gives the side. Nearest a corner
/// (an end of the nearest edge, where another edge of the row starts or
/// ends bit for bit), the side is decided by the two edges' lines through it:
/// where the boundary turns left (the open side is the narrower sector)
/// the point is open when left of both, where it turns right when left of
/// either. Unlike a pseudonormal (Bærentzen & Aanæs 2005), this stays
/// exact for points on the line of an edge beyond the corner and for points
/// about as near an edge's inside as the corner, where one normal is
/// perpendicular to the offset and rounding would pick the side (bodies read
/// 0.2-0.36 m inside the H100's turned room). Other contacts (several
/// polygons at one point) add their normals. Fixed scan order: deterministic.
CC_HD inline WallNear nearestWall(const WallView& w, float x, float y) {
    WallNear r;
    int b, e;
    w.rowOf(x, y, b, e);
    // rounding of the coordinates [m]
    const float tol = 1e-6f * (w.g.h + fabsf(x) + fabsf(y));
    float nx = 0.f, ny = 0.f;  // summed normals at the nearest point
    bool corner = false;       // the nearest point is an end of the nearest edge
    for (int k = b; k < e; ++k) {
        // nearest point of the edge and its normal towards the open side
        const WallSegment sg = w.seg[w.list[k]];
        float qx, qy, sx, sy;
        if (!wallEdgePoint(sg, x, y, qx, qy, sx, sy)) continue;
        const float d = sqrtf((x - qx) * (x - qx) + (y - qy) * (y - qy));
        if (r.d < INFINITY && fabsf(qx - r.qx) <= tol && fabsf(qy - r.qy) <= tol) {
            nx += sx; ny += sy;  // another edge at the same point
        } else if (d < r.d) {
            r.d = d; r.qx = qx; r.qy = qy; nx = sx; ny = sy;
            corner = (qx == sg.ax && qy == sg.ay) || (qx == sg.bx && qy == sg.by);
        }
    }
    if (!(r.d < INFINITY)) return r;
    const float px = x - r.qx, py = y - r.qy;
    r.inside = px * nx + py * ny < 0.f;
    if (corner) {
        // a corner: the edges ending and starting there, whatever their own nearest points
        float inX = 0.f, inY = 0.f, outX = 0.f, outY = 0.f;
        int ins = 0, outs = 0;
        for (int k = b; k < e; ++k) {
            const WallSegment sg = w.seg[w.list[k]];
            if (sg.bx == r.qx && sg.by == r.qy) { inX = sg.bx - sg.ax; inY = sg.by - sg.ay; ++ins; }
            if (sg.ax == r.qx && sg.ay == r.qy) { outX = sg.bx - sg.ax; outY = sg.by - sg.ay; ++outs; }
        }
        if (ins == 1 && outs == 1) {
            const bool leftIn = inX * py - inY * px > 0.f, leftOut = outX * py - outY * px > 0.f;
            const bool turnsLeft = inX * outY - inY * outX > 0.f;
            r.inside = !(turnsLeft ? (leftIn && leftOut) : (leftIn || leftOut));
        }
    }
    // direction into the open side
    if (r.d > 0.f) {
        const float s = (r.inside ? -1.f : 1.f) / r.d;
        r.ox = px * s;
        r.oy = py * s;
    } else {
        const float n = sqrtf(nx * nx + ny * ny);
        r.ox = n > 0.f ? nx / n : 0.f;
        r.oy = n > 0.f ? ny / n : 0.f;
    }
    return r;
}

/// Result of a wall-confined move.
struct ConfinedMove {
    float x = 0.f, y = 0.f;    ///< End position. [Units: m]
    bool hit = false;          ///< The move met a wall.
    float nx = 0.f, ny = 0.f;  ///< Unit normal (into the open side) of the last wall met. [Units: 1]
};

/// Moves (x, y) by (dx, dy) [m] without crossing a wall edge from its open
/// side: substeps of at most a cell (so every edge a substep can meet is
/// in its start cell's row); at an edge the point stops kWallGap short
/// along its path, and at least kWallGap off the edge's line, and the rest
/// of the substep slides along the edge (its component into the wall
/// removed). A point already on a wall's side
/// (inside a wall) crosses freely: keepClearOfWalls moves it out. Moves
/// longer than kMaxMoveSubsteps cells are shortened; non-finite ones ignored.
CC_HD inline ConfinedMove moveConfined(const WallView& w, float x, float y, float dx, float dy) {
    ConfinedMove m;
    m.x = x;
    m.y = y;
    const float len = sqrtf(dx * dx + dy * dy);
    if (!(len > 0.f) || !(len < INFINITY)) return m;
    const float sub = len / w.g.h;
    const int n = sub < kMaxMoveSubsteps ? (sub > 1.f ? static_cast<int>(ceilf(sub)) : 1) : kMaxMoveSubsteps;
    const float scale = sub < kMaxMoveSubsteps ? 1.f : kMaxMoveSubsteps / sub;
    const float eps = 1e-5f * w.g.h, gap = kWallGap * w.g.h;
    for (int s = 0; s < n; ++s) {
        float rx = dx * scale / n, ry = dy * scale / n;
        // at most two edges per substep: the first stops it, the slide may meet a second (a corner)
        for (int attempt = 0; attempt < 3; ++attempt) {
            int b, e;
            w.rowOf(m.x, m.y, b, e);
            float best = 2.f, hx = 0.f, hy = 0.f, hax = 0.f, hay = 0.f;
            for (int k = b; k < e; ++k) {
                const WallSegment sg = w.seg[w.list[k]];
                const float ux = sg.bx - sg.ax, uy = sg.by - sg.ay, l = sqrtf(ux * ux + uy * uy);
                if (!(l > 0.f)) continue;
                const float nx = -uy / l, ny = ux / l;
                // signed distances of start and end from the edge's line (open side > 0)
                const float dp = (m.x - sg.ax) * nx + (m.y - sg.ay) * ny;
                const float dq = dp + rx * nx + ry * ny;
                if (!(dq < 0.f) || !(dq < dp) || dp < -eps) continue;
                // where the path meets the line, within the edge
                const float t = dp > 0.f ? dp / (dp - dq) : 0.f;
                const float along = ((m.x + t * rx - sg.ax) * ux + (m.y + t * ry - sg.ay) * uy) / l;
                if (along < -eps || along > l + eps || !(t < best)) continue;
                best = t; hx = nx; hy = ny; hax = sg.ax; hay = sg.ay;
            }
            if (best > 1.f) { m.x += rx; m.y += ry; break; }
            // stop short of the edge along the path, at least kWallGap off its line (a grazing path
            // would otherwise stop within float rounding of the line), then slide along it
            const float r = sqrtf(rx * rx + ry * ry);
            const float tb = best - gap / r > 0.f ? best - gap / r : 0.f;
            m.x += tb * rx;
            m.y += tb * ry;
            const float off = (m.x - hax) * hx + (m.y - hay) * hy;
            if (off < gap) { m.x += (gap - off) * hx; m.y += (gap - off) * hy; }
            m.hit = true; m.nx = hx; m.ny = hy;
            rx *= 1.f - tb;
            ry *= 1.f - tb;
            const float into = rx * hx + ry * hy;
            if (into < 0.f) { rx -= into * hx; ry -= into * hy; }
            if (!(rx * rx + ry * ry > eps * eps)) break;
        }
    }
    return m;
}

/// The box escapeWalls clamps a point into: the grid shrunk by kWallGap
/// cells on every side, and that gap.
struct EscapeBox {
    float x0, x1, y0, y1;  ///< [Units: m]
    float gap;             ///< [Units: m]
};
CC_HD inline EscapeBox escapeBox(const WallView& w) {
    const float gap = kWallGap * w.g.h;
    return EscapeBox{w.g.ox + gap, w.g.ox + w.g.nx * w.g.h - gap, w.g.oy + gap, w.g.oy + w.g.ny * w.g.h - gap, gap};
}

/// A point inside a wall (on a wall's side of its nearest edge) or outside
/// the grid moves to the nearest open point (kWallGap past the edge), so
/// that a later move starts on the open side.
CC_HD inline void escapeWalls(const WallView& w, float& x, float& y) {
    // into the grid
    const EscapeBox b = escapeBox(w);
    x = x < b.x0 ? b.x0 : (x > b.x1 ? b.x1 : x);
    y = y < b.y0 ? b.y0 : (y > b.y1 ? b.y1 : y);
    // out of a wall, through its nearest edge
    const WallNear n = nearestWall(w, x, y);
    if (!n.inside) return;
    x = n.qx + n.ox * b.gap;
    y = n.qy + n.oy * b.gap;
}

/// escapeWalls then moveConfined from (x, y) by (dx, dy) [m], with the
/// common case first: a start inside the grid by kWallGap (the escape's
/// clamp does nothing) whose cell has no wall edge within the index's reach
/// (nothing to escape from, and a move of at most a cell, one substep,
/// meets no edge) moves by (dx, dy) alone, as moveConfined does then. One
/// look at the cell's row instead of three; the same bits as the two calls.
CC_HD inline ConfinedMove escapeAndMove(const WallView& w, float x, float y, float dx, float dy) {
    const EscapeBox b = escapeBox(w);
    if (x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1 && w.clearAt(x, y)) {
        // moveConfined's first substep when it is the only one (len <= h) and meets nothing
        const float len = sqrtf(dx * dx + dy * dy);
        ConfinedMove m;
        m.x = x;
        m.y = y;
        if (!(len > 0.f) || !(len < INFINITY)) return m;
        if (len / w.g.h <= 1.f) {
            m.x += dx;
            m.y += dy;
            return m;
        }
    }
    escapeWalls(w, x, y);
    return moveConfined(w, x, y, dx, dy);
}

/// Keeps a body's centre (x, y) [m] at least @p clearance [m] (its radius)
/// from every wall edge: each of kClearancePasses passes takes the nearest
/// edge and, when it is closer than the clearance (or the centre is inside
/// the wall), moves the centre straight away from it to the clearance,
/// confined by the other walls (moveConfined). Two walls closer than 2
/// clearance cannot both be cleared; the centre then ends between them.
CC_HD inline void keepClearOfWalls(const WallView& w, float clearance, float& x, float& y) {
    // no wall edge within the index's reach of the cell (most of the floor): nothing is near
    if (!(clearance > 0.f) || w.clearAt(x, y)) return;
    for (int pass = 0; pass < kClearancePasses; ++pass) {
        const WallNear n = nearestWall(w, x, y);
        if (!(n.d < INFINITY) || (!n.inside && !(n.d < clearance))) return;
        // the point at the clearance straight out from the nearest wall point
        const float tx = n.qx + n.ox * clearance, ty = n.qy + n.oy * clearance;
        if (n.inside) { x = tx; y = ty; continue; }
        const ConfinedMove mv = moveConfined(w, x, y, tx - x, ty - y);
        if (mv.x == x && mv.y == y) return;
        x = mv.x;
        y = mv.y;
    }
}

/// A body touching a wall slides along it: when the nearest wall edge lies
/// within @p clearance [m] plus a tenth of a cell of (x, y) [m] and the
/// velocity (vx, vy) [m/s] points into it, the component along the normal
/// is removed and the rest scaled back to the velocity's speed, as a
/// navigation-mesh agent moves along the surface (Recast/Detour's
/// moveAlongSurface). Round a door's corner the normal is diagonal, so the
/// velocity turns round the corner. Unchanged away from walls, moving away
/// from them, or straight into a wall (nothing is left to slide along).
CC_HD inline void slideAlongWalls(const WallView& w, float clearance, float x, float y, float& vx, float& vy) {
    const float speed = sqrtf(vx * vx + vy * vy);
    if (!(speed > 0.f)) return;
    const WallNear n = nearestWall(w, x, y);
    if (!(n.d < clearance + 0.1f * w.g.h) || n.inside) return;
    // the component into the wall removed
    const float into = vx * n.ox + vy * n.oy;
    if (!(into < 0.f)) return;
    const float tx = vx - into * n.ox, ty = vy - into * n.oy;
    const float t = sqrtf(tx * tx + ty * ty);
    if (!(t > 1e-6f * speed)) return;
    // the rest at the velocity's speed
    vx = tx * (speed / t);
    vy = ty * (speed / t);
}

/// Builds the per-cell rows of @p segments on grid @p g for a reach of at
/// least @p reach [m] (raised to h: moveConfined's substeps are a cell
/// long) and copies them to @p ex's side, once (the walls do not move).
/// Throws InputError for a reach that is negative or not finite.
void buildWallIndex(const Exec& ex, const std::vector<WallSegment>& segments, const GridInfo& g, float reach,
                    WallIndex& out);

/// The wall edges of a blocked mask (1 = blocked; the grid's edge counts as
/// blocked): every face between an open cell and a blocked or outside one,
/// the open cell on its left, faces in a row joined into one edge. For
/// floor-plan walls (whole cells) and for tests.
std::vector<WallSegment> maskWallSegments(const GridInfo& g, const View2<const std::uint8_t>& blocked);

/// View of @p index (built by buildWallIndex for grid @p g) on @p ex's side.
WallView wallView(const Exec& ex, const GridInfo& g, WallIndex& index);

}  // namespace ccrowd::sim
