/// @file splat.cu
/// Splat stage launchers (b): sortAgents() stores the agents by cell,
/// splat() gathers density and mean velocities (kernels/splat.hpp). Compiled by nvcc in CUDA builds and by the
/// C++ compiler (OpenMP) otherwise.

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "ccrowd/error.hpp"
#include "launch.hpp"
#include "reduce.hpp"
#include "sort_by_key.hpp"
#include "splat.hpp"

namespace ccrowd::sim {
namespace {

/// Throws InputError unless @p v is nx-by-ny of @p g.
template <class T>
void checkSize(const View2<T>& v, const GridInfo& g, const char* name) {
    if (v.nx == g.nx && v.ny == g.ny && (v.data || v.size() == 0)) return;
    throw InputError(fieldMessage(std::string("splat.") + name, std::to_string(v.nx) + "x" + std::to_string(v.ny),
                                  "output field size differs from the grid",
                                  std::to_string(g.nx) + "x" + std::to_string(g.ny)));
}

/// A 4-byte column into sorted order: gathered into @p scratch (its type's
/// scratch), which then becomes the column (the two swap storage, on the
/// device too), so nothing is copied back. The old column is the scratch now.
template <class T>
void permuteBySwap(const Exec& ex, View1<const int> order, Array<T>& column, Array<T>& scratch) {
    const View1<T> out = scratch.view(ex);
    forEachIndex(ex, order.n, PermuteKernel<T>{order, column.view(ex), out});
    std::swap(column, scratch);
}
/// Every column type's way into sorted order: floats through the float
/// scratch, ints through the int one (both swapped in)...
void permuteColumn(const Exec& ex, View1<const int> order, Array<float>& c, Array<float>& fs, Array<int>&) {
    permuteBySwap(ex, order, c, fs);
}
void permuteColumn(const Exec& ex, View1<const int> order, Array<int>& c, Array<float>&, Array<int>& is) {
    permuteBySwap(ex, order, c, is);
}
/// ... and a 16-bit column through the int scratch's first half and back
/// (no 16-bit scratch of its own: issue 11's 64 bytes per agent).
void permuteColumn(const Exec& ex, View1<const int> order, Array<std::int16_t>& c, Array<float>&, Array<int>& is) {
    const View1<std::int16_t> a = c.view(ex), tmp{reinterpret_cast<std::int16_t*>(is.view(ex).data), a.n};
    forEachIndex(ex, a.n, PermuteKernel<std::int16_t>{order, a, tmp});
    forEachIndex(ex, a.n, CopyKernel<std::int16_t>{tmp, a});
}

}  // namespace

void sortAgents(const Exec& ex, AgentColumns<Array>& cols, const GridInfo& g, const CellRange& boxIn, SplatWorkspace& ws) {
    const CellRange box = boxIn.clampedTo(g.nx, g.ny);
    const int n = cols.x.size();
    // size the workspace (device copies grow on first view)
    ws.sort.key.resize(n);
    ws.sort.order.resize(n);
    ws.sort.scratch.resize(n);
    ws.begin.resize(g.nx * g.ny);
    ws.end.resize(g.nx * g.ny);
    if (box.empty()) return;
    const View1<int> key = ws.sort.key.view(ex), order = ws.sort.order.view(ex);
    const View1<int> begin = ws.begin.view(ex), end = ws.end.view(ex);
    // 1. stencil origin per agent; 2. stable sort of agent indices by it
    if (n > 0) {
        forEachIndex(ex, n, SplatKeyKernel{g, cols.x.view(ex), cols.y.view(ex), key, order});
        sortByKey(ex, key.data, order.data, n, g.nx * g.ny + 1, "splat");
    }
    // 3. sorted range of every stencil origin the box's cells gather from
    const CellRange origins{std::max(box.i0 - 1, 0), std::max(box.j0 - 1, 0), box.i1, box.j1};
    forEachCell(ex, origins, SplatClearKernel{g, begin, end});
    forEachIndex(ex, n, SplatBoundsKernel{g, key, begin, end});
    // 4. every column into sorted order (the keys are no longer needed: the ints' scratch)
    forEachColumn(cols, [&](auto& column) { permuteColumn(ex, order, column, ws.sort.scratch, ws.sort.key); });
}

void splat(const Exec& ex, const AgentViews& a, View1<const float> ux, View1<const float> uy, const GridInfo& g,
           const CellRange& boxIn, SplatWorkspace& ws, View2<float> rho, View2<Vel2> mean) {
    if (rho.data || rho.size() != 0) checkSize(rho, g, "rho");
    checkSize(mean, g, "mean");
    if (ux.n != a.n || uy.n != a.n)
        throw InputError(fieldMessage("splat.u", std::to_string(ux.n) + "/" + std::to_string(uy.n),
                                      "per-agent vector size differs from the agent count", std::to_string(a.n)));
    const CellRange box = boxIn.clampedTo(g.nx, g.ny);
    if (!box.empty() && (ws.begin.size() != g.nx * g.ny || ws.sort.order.size() != a.n))
        throw Error("splat: the workspace was not prepared by sortAgents() for these agents and this grid");
    // 5. gather per cell (zero outside the box)
    const View1<const int> begin = ws.begin.view(ex), end = ws.end.view(ex);
    forEachCell(ex, CellRange{0, 0, g.nx, g.ny}, SplatGatherKernel{g, box, begin, end, a.x, a.y, ux, uy, rho, mean});
}

float maxDensity(const Exec& ex, View2<const float> rho) {
    return maxOf(ex, rho.data, static_cast<int>(rho.size()), "maxDensity");
}

}  // namespace ccrowd::sim
