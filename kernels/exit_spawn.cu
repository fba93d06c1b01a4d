/// @file exit_spawn.cu
/// Exit/spawn stage launchers (j): route advance, exits and the stable
/// compaction of the agent table on the Exec's side (kernels/exit_spawn.hpp),
/// and the positions a source's overlap test reads. Compiled by nvcc in CUDA
/// builds and by the C++ compiler (OpenMP) otherwise.

#include <cstdint>
#include <string>
#include <utility>

#include "ccrowd/error.hpp"
#include "exit_spawn.hpp"
#include "launch.hpp"
#include "scan.hpp"
#include "splat.hpp"

namespace ccrowd::sim {
namespace {

/// Keep flags and slots for @p n agents; the flags are filled by @p flagKernel.
template <class K>
void flagAndScan(const Exec& ex, int n, AgentSortBuffers& sort, K flagKernel) {
    sort.key.resize(n);
    sort.order.resize(n);
    flagKernel.keep = sort.key.view(ex);
    forEachIndex(ex, n, flagKernel);
    exclusiveScan(ex, sort.key.view(ex).data, sort.order.view(ex).data, n, "exit_spawn");
}

/// The record after flagAndScan(): counts and fields in use, one read.
AgentRecord readRecord(const Exec& ex, const AgentViews& a, int fieldCount, AgentSortBuffers& sort, ExitSpawnWorkspace& ws) {
    const int n = a.n;
    ws.record.resize(2 + fieldCount);
    const View1<const int> keep = sort.key.view(ex), slot = sort.order.view(ex);
    const View1<std::uint32_t> rec = ws.record.view(ex);
    forEachIndex(ex, 1, RecordKernel{keep, slot, n, fieldCount, rec});
    if (fieldCount > 0) forEachIndex(ex, n, FieldUseKernel{keep, a.field, rec});
    ws.record.toHost(ex, device::Payload::Record);
    AgentRecord r;
    r.kept = static_cast<int>(ws.record[0]);
    r.left = static_cast<int>(ws.record[1]);
    r.fieldsInUse.resize(static_cast<std::size_t>(fieldCount));
    for (int f = 0; f < fieldCount; ++f) r.fieldsInUse[static_cast<std::size_t>(f)] = ws.record[2 + f] ? 1 : 0;
    return r;
}

/// A 4-byte column's kept values scattered to their slots in @p scratch
/// (its type's), which then becomes the column (the two swap storage, on the
/// device too): nothing is copied back.
template <class T>
void compactBySwap(const Exec& ex, AgentSortBuffers& sort, Array<T>& column, Array<T>& scratch) {
    scratch.resize(column.size());
    const View1<T> out = scratch.view(ex);
    forEachIndex(ex, column.size(), CompactKernel<T>{sort.key.view(ex), sort.order.view(ex), column.view(ex), out});
    std::swap(column, scratch);
}
/// compactBySwap() of a float column with the float scratch, of an int one with the int scratch.
void compactColumn(const Exec& ex, AgentSortBuffers& sort, ExitSpawnWorkspace&, Array<float>& c, int) {
    compactBySwap(ex, sort, c, sort.scratch);
}
void compactColumn(const Exec& ex, AgentSortBuffers& sort, ExitSpawnWorkspace& ws, Array<int>& c, int) {
    compactBySwap(ex, sort, c, ws.intScratch);
}
/// A 16-bit column through the int scratch's first half and back (no
/// 16-bit scratch of its own: issue 11's 64 bytes per agent).
void compactColumn(const Exec& ex, AgentSortBuffers& sort, ExitSpawnWorkspace& ws, Array<std::int16_t>& c, int kept) {
    ws.intScratch.resize(c.size());
    const View1<std::int16_t> a = c.view(ex), tmp{reinterpret_cast<std::int16_t*>(ws.intScratch.view(ex).data), a.n};
    forEachIndex(ex, a.n, CompactKernel<std::int16_t>{sort.key.view(ex), sort.order.view(ex), a, tmp});
    forEachIndex(ex, kept, CopyKernel<std::int16_t>{tmp, a});
}

}  // namespace

AgentRecord advanceRoutes(const Exec& ex, AgentColumns<Array>& cols, const GridInfo& g, View1<const std::uint8_t> goalMasks,
                          const RouteTable& route, const CellRange& active, const UnitGate& gate, int fieldCount,
                          AgentSortBuffers& sort, ExitSpawnWorkspace& ws, std::vector<ExitRow>& left) {
    const AgentViews a = viewsOf(ex, cols);
    const int n = a.n;
    // 0. social units: their members and arrivals at waypoints
    if (gate.unitOfId.n > 0) {
        forEachIndex(ex, gate.counts.n, ClearCountsKernel{gate.counts});
        forEachIndex(ex, n, UnitArrivalKernel{a, g, goalMasks, route, gate});
    }
    // 1. route advance and keep flags; 2. slots (exclusive scan); 3. the record
    flagAndScan(ex, n, sort, RouteAdvanceKernel{a, g, goalMasks, route, active.i0, active.j0, active.i1, active.j1, gate, {}});
    const AgentRecord r = readRecord(ex, a, fieldCount, sort, ws);
    if (r.left == 0) return r;
    // 4. the leavers' rows, in table order (16 bytes each come back)
    ws.rows.resize(r.left);
    forEachIndex(ex, n, ExitRowKernel{a, sort.key.view(ex), sort.order.view(ex), ws.rows.view(ex)});
    ws.rows.toHost(ex, device::Payload::Record);
    left.insert(left.end(), ws.rows.vector().begin(), ws.rows.vector().end());
    // 5. every column compacted, stable
    forEachColumn(cols, [&](auto& column) { compactColumn(ex, sort, ws, column, r.kept); });
    return r;
}

AgentRecord recordAgents(const Exec& ex, const AgentViews& a, int fieldCount, AgentSortBuffers& sort, ExitSpawnWorkspace& ws) {
    flagAndScan(ex, a.n, sort, KeepAllKernel{});
    return readRecord(ex, a, fieldCount, sort, ws);
}

void positionsIn(const Exec& ex, const AgentViews& a, float x0, float y0, float x1, float y1, AgentSortBuffers& sort, ExitSpawnWorkspace& ws,
                 std::vector<float>& xs, std::vector<float>& ys) {
    const int n = a.n;
    flagAndScan(ex, n, sort, InBoxKernel{a.x, a.y, x0, y0, x1, y1, {}});
    const AgentRecord r = readRecord(ex, a, 0, sort, ws);
    ws.nearX.resize(r.kept);
    ws.nearY.resize(r.kept);
    if (r.kept > 0) {
        forEachIndex(ex, n, GatherPositionsKernel{a.x, a.y, sort.key.view(ex), sort.order.view(ex), ws.nearX.view(ex),
                                                  ws.nearY.view(ex)});
        ws.nearX.toHost(ex, device::Payload::Record);
        ws.nearY.toHost(ex, device::Payload::Record);
    }
    xs = ws.nearX.vector();
    ys = ws.nearY.vector();
}

}  // namespace ccrowd::sim
