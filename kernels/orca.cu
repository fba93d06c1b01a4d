/// @file orca.cu
/// ORCA velocity stage launcher (van den Berg et al. 2011, RVO2; maths in
/// orca.hpp and orca_lp.hpp): the parameters checked, the shared neighbour
/// grid over the old positions, a velocity per agent into a second buffer,
/// copied back. Compiled by nvcc in CUDA builds and by the C++ compiler
/// (OpenMP) otherwise.

#include <algorithm>
#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "launch.hpp"
#include "orca.hpp"

namespace ccrowd::sim {

namespace {

void check(bool ok, const char* field, const std::string& v, const std::string& allowed) {
    if (!ok) throw InputError(fieldMessage(std::string("orca ") + field, v, "out of range", allowed));
}

/// Copies the new velocities over the agents'.
struct CopyVelocityKernel {
    View1<const float> vxIn, vyIn;
    View1<float> vxOut, vyOut;
    CC_HD void operator()(int k) const {
        vxOut[k] = vxIn[k];
        vyOut[k] = vyIn[k];
    }
};

}  // namespace

void markNearWalls(const Field<std::uint8_t>& blocked, int reach, Field<std::uint8_t>& nearWall) {
    const int nx = blocked.nx(), ny = blocked.ny();
    // separable dilation of "blocked or outside" by reach cells: rows, then columns
    Field<std::uint8_t> rows(nx, ny, 0);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            bool hit = i - reach < 0 || i + reach >= nx;
            for (int d = -reach; d <= reach && !hit; ++d) hit = blocked(i + d, j) != 0;
            rows(i, j) = hit ? 1 : 0;
        }
    nearWall.assign(nx, ny, 0);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            bool hit = j - reach < 0 || j + reach >= ny;
            for (int d = -reach; d <= reach && !hit; ++d) hit = rows(i, j + d) != 0;
            nearWall(i, j) = hit ? 1 : 0;
        }
}

int orcaWallReachCells(const OrcaParams& p, float maxSpeed, float maxRadius, float h) {
    // the kernel's scan half-width ceil(range / h) + 1, and the row beyond it that the face scan reads
    return static_cast<int>(std::ceil((p.time_horizon_obst * maxSpeed + maxRadius) / h)) + 2;
}

void orcaVelocity(const Exec& ex, const AgentViews& a, const GridInfo& g, View2<const std::uint8_t> blocked,
                  const WallReach& walls, const OrcaParams& p, View1<const float> radiusOf, float dt,
                  AgentSortBuffers& sort, OrcaWorkspace& ws) {
    check(p.time_horizon > 0.f && std::isfinite(p.time_horizon), "time_horizon", std::to_string(p.time_horizon),
          "> 0 s, finite");
    check(p.time_horizon_obst > 0.f && std::isfinite(p.time_horizon_obst), "time_horizon_obst",
          std::to_string(p.time_horizon_obst), "> 0 s, finite");
    check(p.neighbour_dist > 0.f && std::isfinite(p.neighbour_dist), "neighbour_dist", std::to_string(p.neighbour_dist),
          "> 0 m, finite");
    check(p.max_neighbours >= 1 && p.max_neighbours <= kOrcaMaxNeighbours, "max_neighbours",
          std::to_string(p.max_neighbours), "1.." + std::to_string(kOrcaMaxNeighbours));
    check(dt > 0.f && std::isfinite(dt), "dt", std::to_string(dt), "> 0 s, finite");
    const int n = a.n;
    if (n == 0) return;
    // the shared neighbour grid: cells >= neighbour_dist / 2, so every neighbour is in the 5x5 cells
    const NeighbourView nb =
        buildNeighbourGrid(ex, a.x, a.y, n, makeNeighbourGrid(g, p.neighbour_dist, 2), sort, ws.grid, "orca");
    // new velocities from the old state (Jacobi), then over the agents'
    ws.vx.resize(n);
    ws.vy.resize(n);
    const View1<float> bvx = ws.vx.view(ex), bvy = ws.vy.view(ex);
    forEachIndex(ex, n, OrcaVelocityKernel{a.x, a.y, a.vx, a.vy, a.px, a.py, a.vmax, a.field, radiusOf, nb, g, blocked,
                                           walls, p, dt, bvx, bvy});
    forEachIndex(ex, n, CopyVelocityKernel{bvx, bvy, a.vx, a.vy});
}

}  // namespace ccrowd::sim
