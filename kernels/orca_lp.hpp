#pragma once
/// @file orca_lp.hpp
/// The velocity-space linear programs of ORCA (van den Berg, Guy, Lin &
/// Manocha, "Reciprocal n-body collision avoidance", ISRR 2009 / STAR 70,
/// 2011, §5.2; the RVO2 library's linearProgram1/2/3): the velocity nearest
/// to the preferred one inside a disc of radius vmax and on the permitted
/// side of every ORCA half-plane, found by Seidel-style incremental 2D
/// linear programming; when the half-planes leave nothing (dense crowds),
/// the 3D program that minimises the largest violation of the agent lines
/// while keeping the obstacle lines hard. Written from the paper and RVO2's
/// documented algorithm; fixed-size arrays, no allocation. Host+device.

#include <math.h>

#include "ccrowd/hd.hpp"

namespace ccrowd::sim {

/// Tolerance of the parallel-line tests (RVO2's RVO_EPSILON). [Units: m/s]
constexpr float kOrcaEpsilon = 1e-5f;

/// A 2D vector of velocity space. [Units: m/s]
struct OrcaVec {
    float x = 0.f, y = 0.f;
};

CC_HD inline OrcaVec operator+(OrcaVec a, OrcaVec b) { return {a.x + b.x, a.y + b.y}; }
CC_HD inline OrcaVec operator-(OrcaVec a, OrcaVec b) { return {a.x - b.x, a.y - b.y}; }
CC_HD inline OrcaVec operator*(float s, OrcaVec a) { return {s * a.x, s * a.y}; }
CC_HD inline float dot(OrcaVec a, OrcaVec b) { return a.x * b.x + a.y * b.y; }
/// The 2D cross product a.x b.y - a.y b.x (RVO2's det).
CC_HD inline float det(OrcaVec a, OrcaVec b) { return a.x * b.y - a.y * b.x; }

/// A directed line in velocity space; the permitted half-plane lies to its
/// left: det(direction, v - point) >= 0.
struct OrcaLine {
    OrcaVec point;      ///< A point on the line. [Units: m/s]
    OrcaVec direction;  ///< Unit direction.
};

/// RVO2 linearProgram1: the best point on line @p lineNo that satisfies
/// lines 0..lineNo-1 and lies in the disc of radius @p radius: the end of
/// the feasible interval furthest along @p opt when @p directionOpt (opt is
/// then a unit direction), else the point nearest to @p opt. Returns false
/// (result untouched) when the interval is empty.
CC_HD inline bool orcaProgram1(const OrcaLine* lines, int lineNo, float radius, OrcaVec opt, bool directionOpt,
                               OrcaVec& result) {
    const OrcaLine& L = lines[lineNo];
    // the line's chord of the speed disc: t in [tLeft, tRight]
    const float pd = dot(L.point, L.direction);
    const float disc = pd * pd + radius * radius - dot(L.point, L.point);
    if (disc < 0.f) return false;
    const float sq = sqrtf(disc);
    float tLeft = -pd - sq, tRight = -pd + sq;
    // clip the chord by every earlier half-plane
    for (int i = 0; i < lineNo; ++i) {
        const float denom = det(L.direction, lines[i].direction);
        const float numer = det(lines[i].direction, L.point - lines[i].point);
        if (fabsf(denom) <= kOrcaEpsilon) {
            // parallel: all of the line is permitted by line i, or none of it
            if (numer < 0.f) return false;
            continue;
        }
        const float t = numer / denom;
        if (denom >= 0.f) tRight = t < tRight ? t : tRight;
        else tLeft = t > tLeft ? t : tLeft;
        if (tLeft > tRight) return false;
    }
    // optimum on the interval
    if (directionOpt) {
        result = L.point + (dot(opt, L.direction) > 0.f ? tRight : tLeft) * L.direction;
    } else {
        float t = dot(L.direction, opt - L.point);
        t = t < tLeft ? tLeft : (t > tRight ? tRight : t);
        result = L.point + t * L.direction;
    }
    return true;
}

/// RVO2 linearProgram2: the point of the speed disc of radius @p radius
/// within all @p n half-planes nearest to @p opt (or furthest along the
/// unit direction @p opt when @p directionOpt), adding one line at a time
/// and re-solving on a line only when the current result violates it.
/// Returns n on success, else the index of the first line that left the
/// program infeasible (result then satisfies lines 0..index-1).
CC_HD inline int orcaProgram2(const OrcaLine* lines, int n, float radius, OrcaVec opt, bool directionOpt,
                              OrcaVec& result) {
    // start from the unconstrained optimum in the disc
    if (directionOpt) {
        result = radius * opt;
    } else if (dot(opt, opt) > radius * radius) {
        result = (radius / sqrtf(dot(opt, opt))) * opt;
    } else {
        result = opt;
    }
    // incremental: only a violated line moves the result onto it
    for (int i = 0; i < n; ++i) {
        if (det(lines[i].direction, lines[i].point - result) > 0.f) {
            const OrcaVec keep = result;
            if (!orcaProgram1(lines, i, radius, opt, directionOpt, result)) {
                result = keep;
                return i;
            }
        }
    }
    return n;
}

/// RVO2 linearProgram3: when orcaProgram2 failed at line @p begin, the
/// velocity that minimises the largest distance by which it violates the
/// agent lines (index >= @p obstacleLines), keeping the first
/// @p obstacleLines (obstacle) lines hard: for each line still violated by
/// more than the current worst, a 2D program on the projected lines (the
/// bisectors with every earlier agent line) pushed as far as possible into
/// the violated line's half-plane. @p scratch holds >= n lines. [Limit:
/// n <= the capacity of lines and scratch]
CC_HD inline void orcaProgram3(const OrcaLine* lines, int n, int obstacleLines, int begin, float radius,
                               OrcaLine* scratch, OrcaVec& result) {
    float distance = 0.f;
    for (int i = begin; i < n; ++i) {
        const OrcaLine& Li = lines[i];
        if (!(det(Li.direction, Li.point - result) > distance)) continue;
        // the obstacle lines stay as they are
        int m = 0;
        for (int j = 0; j < obstacleLines; ++j) scratch[m++] = lines[j];
        // each earlier agent line becomes the bisector of it and line i
        for (int j = obstacleLines; j < i; ++j) {
            const OrcaLine& Lj = lines[j];
            OrcaLine b;
            const float d = det(Li.direction, Lj.direction);
            if (fabsf(d) <= kOrcaEpsilon) {
                // parallel and pointing the same way: line j adds nothing
                if (dot(Li.direction, Lj.direction) > 0.f) continue;
                // opposite: the midline
                b.point = 0.5f * (Li.point + Lj.point);
            } else {
                b.point = Li.point + (det(Lj.direction, Li.point - Lj.point) / d) * Li.direction;
            }
            const OrcaVec dir = Lj.direction - Li.direction;
            const float len = sqrtf(dot(dir, dir));
            b.direction = len > 0.f ? (1.f / len) * dir : dir;
            scratch[m++] = b;
        }
        // as far as possible along line i's inward normal; keep the old result should rounding fail it
        const OrcaVec keep = result;
        if (orcaProgram2(scratch, m, radius, OrcaVec{-Li.direction.y, Li.direction.x}, true, result) < m)
            result = keep;
        distance = det(Li.direction, Li.point - result);
    }
}

}  // namespace ccrowd::sim
