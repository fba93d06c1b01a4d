#pragma once
/// @file agent_columns.hpp
/// The columns of the agent table, listed once (DESIGN.md §8). The same
/// template gives the kernels' views (AgentColumns<View1>, in AgentViews),
/// the simulation's storage (AgentColumns<Array>), its public read-only view
/// (AgentColumns<ConstView1>, state_view.hpp) and the tests' crowds;
/// sorting, compaction, spawning, transfers and outputs loop over
/// columnsOf(), so a new per-agent value is one member here plus its entry
/// in columnsOf() (a static_assert in src/sim/agents.cpp catches a member left out).

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>

namespace ccrowd {

/// One value per agent in each column, over a container template @p C
/// (View1 for kernels, Array for storage).
template <template <class> class C>
struct AgentColumns {
    C<float> x, y;    ///< Position. [Units: m]
    C<float> vx, vy;  ///< Velocity of the last step. [Units: m/s]
    C<float> px, py;  ///< Preferred (desired) velocity of this step. [Units: m/s]
    C<float> vmax;    ///< Free speed. [Units: m/s] [Limit: > 0]
    C<int> field;     ///< Index of the potential / desired-velocity field the agent follows.
    C<int> id;        ///< Identity, unique in a run (every permutation moves it with the agent).
    /// Route choice (seed 004): the street-network junction it walks to (-1:
    /// none yet, or not roaming). 16 bits, as `came`: issue 11's 64 bytes
    /// per agent. [Limit: < kMaxJunctions]
    C<std::int16_t> junction;
    C<std::int16_t> came;  ///< Route choice: the junction it last passed, not chosen again unless a dead end (-1: none).
};

/// Every column of @p t, in table order, as a tuple of references: the one
/// list the loops over columns use.
template <class T>
auto columnsOf(T& t) {
    return std::tie(t.x, t.y, t.vx, t.vy, t.px, t.py, t.vmax, t.field, t.id, t.junction, t.came);
}

/// Most junctions a street network may have (the agent columns junction
/// and came hold 16 bits).
constexpr int kMaxJunctions = 32767;

/// Number of agent columns.
constexpr int kAgentColumnCount = 11;

/// Calls f(column) for every column of @p t, in table order.
template <class T, class F>
void forEachColumn(T& t, F&& f) {
    std::apply([&](auto&... c) { (f(c), ...); }, columnsOf(t));
}

namespace detail {
template <class A, class B, class F, std::size_t... K>
void zipColumns(A& a, B& b, F& f, std::index_sequence<K...>) {
    auto ca = columnsOf(a);
    auto cb = columnsOf(b);
    (f(std::get<K>(ca), std::get<K>(cb)), ...);
}
}  // namespace detail

/// Calls f(column of a, same column of b) for every column, in table order
/// (e.g. an Array and its View1).
template <class A, class B, class F>
void forEachColumnPair(A& a, B& b, F&& f) {
    detail::zipColumns(a, b, f, std::make_index_sequence<kAgentColumnCount>{});
}

}  // namespace ccrowd
