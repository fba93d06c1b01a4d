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

float orcaWallReach(const OrcaParams& p, float maxSpeed, float maxRadius) {
    return p.time_horizon_obst * maxSpeed + maxRadius;
}

void orcaVelocity(const Exec& ex, const AgentViews& a, const GridInfo& g, const WallView& walls, const OrcaParams& p,
                  View1<const float> radiusOf, float dt, AgentSortBuffers& sort, OrcaWorkspace& ws) {
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
    forEachIndex(ex, n, OrcaVelocityKernel{a.x, a.y, a.vx, a.vy, a.px, a.py, a.vmax, a.field, radiusOf, nb, walls, p,
                                           dt, bvx, bvy});
    forEachIndex(ex, n, CopyVelocityKernel{bvx, bvy, a.vx, a.vy});
}

}  // namespace ccrowd::sim
