/// @file fmm.cpp
/// Fast Marching Method (Sethian 1996) on the CPU: known / trial / far sets and
/// a binary min-heap of trial cells (lazy deletion). Uses the same local
/// solver as FIM (kernels/eikonal_update.hpp), fed with known values only.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "ccrowd/eikonal.hpp"
#include "../../kernels/potential.hpp"

namespace ccrowd {

namespace {

enum class State : std::uint8_t { Far, Trial, Known, Blocked };

struct HeapItem {
    float value;
    int cell;
    bool operator>(const HeapItem& o) const { return value > o.value || (value == o.value && cell > o.cell); }
};

}  // namespace

EikonalStats solveFmm(const EikonalProblem& p, Field<float>& phi, const EikonalOptions& opt) {
    if (opt.validate) validateEikonalProblem(p, opt);
    const int nx = p.nx(), ny = p.ny();
    const float h = p.h;
    phi.assign(nx, ny, INFINITY);
    std::vector<State> state(static_cast<std::size_t>(nx) * ny, State::Far);
    const std::uint8_t* blocked = p.blocked->host();
    const FaceCost* cost = p.cost->host();
    float* v = phi.host();
    long long open = 0;
    for (std::size_t k = 0; k < state.size(); ++k) {
        if (blocked[k]) state[k] = State::Blocked; else ++open;
    }

    std::vector<HeapItem> heap;
    heap.reserve(static_cast<std::size_t>(2 * (nx + ny)) + p.sources.size());
    const auto greater = std::greater<HeapItem>();
    // sources are known from the start (Dirichlet)
    std::vector<int> known;
    for (const EikonalSource& s : p.sources) {
        const int k = s.i + s.j * nx;
        v[k] = std::min(v[k], s.value);
        state[k] = State::Known;
        known.push_back(k);
    }
    open -= static_cast<long long>(std::count(state.begin(), state.end(), State::Known));

    EikonalStats st;
    // known value of a neighbour, +inf unless known
    auto knownAt = [&](int i, int j) {
        if (i < 0 || j < 0 || i >= nx || j >= ny) return INFINITY;
        const int k = i + j * nx;
        return state[k] == State::Known ? v[k] : INFINITY;
    };
    // recompute a far/trial neighbour from its known neighbours and push it
    auto relax = [&](int i, int j) {
        if (i < 0 || j < 0 || i >= nx || j >= ny) return;
        const int k = i + j * nx;
        if (state[k] == State::Known || state[k] == State::Blocked) return;
        const float nv = eikonalUpdate(knownAt(i + 1, j), knownAt(i - 1, j), knownAt(i, j + 1), knownAt(i, j - 1), cost[k], h);
        ++st.updates;
        if (nv < v[k]) {
            v[k] = nv;
            state[k] = State::Trial;
            heap.push_back({nv, k});
            std::push_heap(heap.begin(), heap.end(), greater);
        }
    };
    auto relaxAround = [&](int k) {
        const int i = k % nx, j = k / nx;
        relax(i + 1, j); relax(i - 1, j); relax(i, j + 1); relax(i, j - 1);
    };
    for (int k : known) relaxAround(k);
    // march: freeze the smallest trial cell, update its open neighbours
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), greater);
        const HeapItem top = heap.back();
        heap.pop_back();
        if (state[top.cell] != State::Trial || top.value != v[top.cell]) continue;  // stale entry
        state[top.cell] = State::Known;
        ++st.iterations;
        relaxAround(top.cell);
    }
    st.converged = true;
    st.updates_per_cell = open > 0 ? static_cast<double>(st.updates) / open : 0.0;
    return st;
}

}  // namespace ccrowd
