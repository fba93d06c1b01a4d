#pragma once
/// @file sim_views.hpp
/// Internal access to a simulation's own arrays and fields on the side its
/// Exec runs on (device views on the CUDA backend, host views on the CPU),
/// for the viewer, which publishes them for drawing without a trip through
/// the host. Not public API: the views are valid until the next step, and
/// only on the thread that steps the simulation.

#include <vector>

#include "ccrowd/simulation.hpp"
#include "kernels/stages.hpp"

namespace ccrowd::sim {

/// The arrays of a simulation between two steps.
struct SimViews {
    Exec ex;                   ///< Side of every view.
    GridInfo grid;
    AgentViews agents;         ///< The agents now, in storage order (the splat's cell sort permutes them every step).
    int idEnd = 0;             ///< One past the largest agent id so far (ids are 0, 1, 2, ... in order of arrival).
    View2<const float> density;            ///< Of the last splat. [Units: 1/m^2]
    View2<const float> pressure;           ///< Of the last UIC solve. [Units: m^2/s]
    View2<const Vel2> meanVelocity;        ///< Of the last splat. [Units: m/s]
    std::vector<View2<const float>> potential;  ///< Per field (+inf where unreachable). [Units: s]
};

/// The one door to a Simulation's internals (a friend of Simulation).
struct SimAccess {
    /// Views of @p s. On the CUDA backend the device copy of the agents is
    /// brought up to date first (exits and spawns change the host copy) and
    /// potentials not yet solved are uploaded; nothing is copied on the CPU.
    static SimViews views(const Simulation& s);
};

/// SimAccess::views(@p s).
inline SimViews simViews(const Simulation& s) { return SimAccess::views(s); }

}  // namespace ccrowd::sim
