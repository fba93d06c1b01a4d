#pragma once
/// @file state_view.hpp
/// Read-only views of a simulation's state on the side its Exec runs on
/// (device pointers on the CUDA backend, host pointers on the CPU), for
/// code that reads the state where it lives without copying it: the
/// viewer's publication (a kernel fills its draw buffers), or a caller's
/// own kernels and CUDA interop. Valid until the next step or the
/// simulation's end, on the thread that steps it.

#include <vector>

#include "ccrowd/agent_columns.hpp"
#include "ccrowd/backend.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/grid_info.hpp"
#include "ccrowd/vel2.hpp"

namespace ccrowd {

/// A read-only 1-D view (for AgentColumns).
template <class T>
using ConstView1 = View1<const T>;

/// The agent table's columns, read-only.
using AgentColumnsView = AgentColumns<ConstView1>;

/// Read-only views of @p v's columns.
inline AgentColumnsView readOnly(const AgentColumns<View1>& v) {
    AgentColumnsView r;
    forEachColumnPair(v, r, [](const auto& column, auto& view) { view = column; });
    return r;
}

/// The state of a simulation between two steps.
struct StateView {
    Exec ex;                                ///< Side of every view.
    GridInfo grid;
    int agentCount = 0;                     ///< Agents (every column has this many values).
    AgentColumnsView agents;                ///< In table order (the splat's cell sort permutes it every step).
    int idEnd = 0;                          ///< One past the largest agent id so far (ids are 0, 1, 2, ... in order of arrival).
    View2<const float> density;             ///< Of the last splat. [Units: 1/m^2]
    View2<const float> pressure;            ///< Of the last UIC solve. [Units: m^2/s]
    View2<const Vel2> meanVelocity;         ///< Of the last splat. [Units: m/s]
    std::vector<View2<const float>> potential;  ///< Per field (+inf where unreachable). [Units: s]
    View2<const float> discomfort;          ///< Discomfort g per cell, as events leave it (Treuille 2006 eq. 4).
};

}  // namespace ccrowd
