/// @file fmm.cpp
/// Fast Marching Method (Sethian 1996) on the CPU: known / trial / far cells
/// and an indexed binary min-heap of trial cells with decrease-key. Uses the
/// same local solver as FIM (kernels/eikonal_update.hpp, the stencil of
/// EikonalOptions::stencil), fed with known values only (+inf for trial and
/// far neighbours); a frozen cell relaxes its four or eight neighbours.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ccrowd/eikonal.hpp"
#include "../../kernels/potential.hpp"

namespace ccrowd {

namespace {

/// A trial cell and its tentative potential.
struct Entry {
    float key;
    int cell;
};

/// Indexed binary min-heap of trial cells with decrease-key. Entries hold
/// their key, so sifting reads contiguous memory.
class TrialHeap {
public:
    explicit TrialHeap(std::size_t cells) : pos_(cells, -1) {}
    bool empty() const { return heap_.empty(); }

    /// Inserts @p cell with @p key, or lowers its key (callers only lower).
    void push(int cell, float key) {
        int k = pos_[cell];
        if (k < 0) {
            k = static_cast<int>(heap_.size());
            heap_.push_back({key, cell});
        }
        up(k, {key, cell});
    }

    /// Removes the entry with the lowest key; returns its cell and key.
    Entry pop() {
        const Entry top = heap_.front();
        pos_[top.cell] = -1;
        const Entry last = heap_.back();
        heap_.pop_back();
        if (!heap_.empty()) down(0, last);
        return top;
    }

private:
    void place(int k, const Entry& e) { heap_[k] = e; pos_[e.cell] = k; }
    void up(int k, const Entry& e) {
        while (k > 0) {
            const int parent = (k - 1) / 2;
            if (!(e.key < heap_[parent].key)) break;
            place(k, heap_[parent]);
            k = parent;
        }
        place(k, e);
    }
    void down(int k, const Entry& e) {
        const int n = static_cast<int>(heap_.size());
        for (;;) {
            int child = 2 * k + 1;
            if (child >= n) break;
            if (child + 1 < n && heap_[child + 1].key < heap_[child].key) ++child;
            if (!(heap_[child].key < e.key)) break;
            place(k, heap_[child]);
            k = child;
        }
        place(k, e);
    }

    std::vector<Entry> heap_;  ///< Heap order.
    std::vector<int> pos_;     ///< Heap position per cell, -1 when not in the heap.
};

}  // namespace

EikonalStats solveFmm(const EikonalProblem& p, Field<float>& phi, const EikonalOptions& opt) {
    if (opt.validate) validateEikonalProblem(p, opt);
    const int nx = p.nx(), ny = p.ny();
    const FimGrid g = makeFimGrid(nx, ny, p.h, opt.tolerance);  // padded indexing
    const std::size_t padded = static_cast<std::size_t>(g.pitch) * (ny + 2);
    // known: potentials of frozen cells, +inf elsewhere (border included)
    std::vector<float> known(padded, INFINITY);
    // trial keys; a cell may enter the heap only while it is not frozen
    std::vector<float> tentative(padded, INFINITY);
    std::vector<std::uint8_t> frozen(padded, 1);
    // open grid cells (not blocked, not the border): the triangles' axis neighbours
    std::vector<std::uint8_t> isOpen(padded, 0);
    const std::uint8_t* blocked = p.blocked->host();
    const FaceCost* cost = p.cost->host();
    long long open = 0;
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) {
            const bool b = blocked[g.cell(i, j)] != 0;
            frozen[g.padded(i, j)] = b ? 1 : 0;
            isOpen[g.padded(i, j)] = b ? 0 : 1;
            open += b ? 0 : 1;
        }

    EikonalStats st;
    TrialHeap heap(padded);
    // sources are known from the start (Dirichlet)
    std::vector<int> seeds;
    for (const EikonalSource& s : p.sources) {
        const int k = g.padded(s.i, s.j);
        open -= frozen[k] ? 0 : 1;
        known[k] = frozen[k] ? std::min(known[k], s.value) : s.value;
        frozen[k] = 1;
        seeds.push_back(k);
    }
    const bool diagonals = opt.stencil == 8;
    // the triangles of the 8-neighbour stencil of padded cell k (grid cell c)
    // that may carry the front: axis neighbour open, its face towards the diagonal open
    // (the axis neighbours' own face costs; they are read only when the neighbour is open)
    auto triangles = [&](int k, int c) {
        const int P = g.pitch;
        const bool oe = isOpen[k + 1], ow = isOpen[k - 1], on = isOpen[k + P], os = isOpen[k - P];
        auto faceOpen = [&](bool o, int a, float FaceCost::*face) { return o && cost[a].*face < INFINITY; };
        return eikonalTriangles(oe, ow, on, os, faceOpen(oe, c + 1, &FaceCost::n), faceOpen(oe, c + 1, &FaceCost::s),
                                faceOpen(ow, c - 1, &FaceCost::n), faceOpen(ow, c - 1, &FaceCost::s),
                                faceOpen(on, c + nx, &FaceCost::e), faceOpen(on, c + nx, &FaceCost::w),
                                faceOpen(os, c - nx, &FaceCost::e), faceOpen(os, c - nx, &FaceCost::w));
    };
    // recompute an open neighbour from its known neighbours; keep it if lower
    auto relax = [&](int k, int cellIndex) {
        if (frozen[k]) return;
        const int P = g.pitch;
        const EikonalStencil n = diagonals ? EikonalStencil{known[k + 1], known[k - 1], known[k + P], known[k - P],
                                                            known[k + 1 + P], known[k - 1 + P], known[k - 1 - P],
                                                            known[k + 1 - P], triangles(k, cellIndex)}
                                           : EikonalStencil{known[k + 1], known[k - 1], known[k + P], known[k - P],
                                                            INFINITY, INFINITY, INFINITY, INFINITY, 0u};
        const float v = eikonalUpdateStencil(n, cost[cellIndex], g.h, diagonals);
        ++st.updates;
        if (v < tentative[k]) {
            tentative[k] = v;
            heap.push(k, v);
        }
    };
    auto relaxAround = [&](int k) {
        const int i = k % g.pitch - 1, j = k / g.pitch - 1;
        const int c = g.cell(i, j);
        relax(k + 1, c + 1); relax(k - 1, c - 1); relax(k + g.pitch, c + nx); relax(k - g.pitch, c - nx);
        if (!diagonals) return;
        relax(k + 1 + g.pitch, c + 1 + nx); relax(k - 1 + g.pitch, c - 1 + nx);
        relax(k - 1 - g.pitch, c - 1 - nx); relax(k + 1 - g.pitch, c + 1 - nx);
    };
    for (int k : seeds) relaxAround(k);
    // march: freeze the lowest trial cell, update its open neighbours
    while (!heap.empty()) {
        const Entry e = heap.pop();
        const int k = e.cell;
        frozen[k] = 1;
        known[k] = e.key;
        ++st.iterations;
        relaxAround(k);
    }
    // copy out
    phi.assign(nx, ny, INFINITY);
    for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) phi(i, j) = known[g.padded(i, j)];
    st.converged = true;
    st.updates_per_cell = open > 0 ? static_cast<double>(st.updates) / open : 0.0;
    return st;
}

}  // namespace ccrowd
