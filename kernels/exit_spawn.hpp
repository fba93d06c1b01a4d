#pragma once
/// @file exit_spawn.hpp
/// Exit/spawn stage (j), host+device: agents inside their route goal move
/// on to the next route step or leave at a final exit, and the agent table
/// is compacted on the backend's side (a stable stream compaction: an
/// exclusive scan of the keep flags gives every kept agent its new slot, so
/// the order of the others is kept and the result does not depend on
/// threads); the host reads one small record per step, and the exit rows
/// only when somebody left. Launched by exit_spawn.cu.

#include <cstdint>

#include "atomics.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Reusable buffers of the exit_spawn stage, on the Exec's side. The keep
/// flags, their scan and the float compaction buffer are the agent sort's
/// buffers (AgentSortBuffers: key, order, scratch), free at this point of
/// the step, so the stage adds 4 bytes per agent.
struct ExitSpawnWorkspace {
    Array<int> intScratch;        ///< Compaction buffer of an int column. [Size: agents]
    Array<ExitRow> rows;          ///< Leavers of the step. [Size: leavers]
    Array<std::uint32_t> record;  ///< The step record (see RecordKernel). [Size: 2 + fields]
    Array<float> nearX, nearY;    ///< Positions inside a box (spawn overlap tests). [Size: agents inside]
};

/// Cell of a point clamped to the grid: SceneGrid::cellOf's rule (floor in
/// double precision, NaN to 0), so the device and the host agree.
CC_HD inline void clampedCellOf(const GridInfo& g, float x, float y, int& i, int& j) {
    const double fi = floor((static_cast<double>(x) - g.ox) / g.h);
    const double fj = floor((static_cast<double>(y) - g.oy) / g.h);
    const double ci = fi != fi ? 0.0 : (fi < 0.0 ? 0.0 : (fi > g.nx - 1 ? g.nx - 1 : fi));
    const double cj = fj != fj ? 0.0 : (fj < 0.0 ? 0.0 : (fj > g.ny - 1 ? g.ny - 1 : fj));
    i = static_cast<int>(ci);
    j = static_cast<int>(cj);
}

/// Pass 0 (scenes with social units): each member counted in its unit,
/// and counted as arrived when it stands in the goal of a waypoint step
/// (not a final goal: members leave there one by one).
struct UnitArrivalKernel {
    AgentViews a;
    GridInfo g;
    View1<const std::uint8_t> goalMasks;
    RouteTable route;
    UnitGate gate;
    CC_HD void operator()(int k) const {
        const int u = gate.unitOfId[a.id[k]];
        if (u < 0) return;
        atomicAddRelaxed(&gate.counts[2 * u], 1ull);
        int i = 0, j = 0;
        clampedCellOf(g, a.x[k], a.y[k], i, j);
        const int f = a.field[k];
        const long long cell = static_cast<long long>(route.goal[f]) * g.nx * g.ny + i + static_cast<long long>(j) * g.nx;
        if (route.next[f] >= 0 && goalMasks[cell]) atomicAddRelaxed(&gate.counts[2 * u + 1], 1ull);
    }
};

/// Pass 1: an agent inside the goal of its route step (goalMasks, stacked
/// per goal, [Size: goals * nx * ny]) takes the field of the next route
/// step, or is marked to leave (keep = 0) when the step is its group's last
/// and the goal an exit (RouteTable::next). An agent outside the active
/// cells [ai0, ai1) x [aj0, aj1) leaves too (seed 002's active grid: only
/// its inside is simulated). A member of a social unit stays at a waypoint
/// until every member of its unit stands in it (seed 000's gate).
struct RouteAdvanceKernel {
    AgentViews a;
    GridInfo g;
    View1<const std::uint8_t> goalMasks;
    RouteTable route;
    int ai0, aj0, ai1, aj1;
    UnitGate gate;
    View1<int> keep;
    CC_HD void operator()(int k) const {
        int i = 0, j = 0;
        clampedCellOf(g, a.x[k], a.y[k], i, j);
        const int f = a.field[k];
        keep[k] = i >= ai0 && i < ai1 && j >= aj0 && j < aj1 ? 1 : 0;
        if (!keep[k]) return;
        const long long cell = static_cast<long long>(route.goal[f]) * g.nx * g.ny + i + static_cast<long long>(j) * g.nx;
        if (!goalMasks[cell]) return;
        const int next = route.next[f];
        if (next >= 0 && gate.unitOfId.n > 0) {
            // the unit moves on whole: wait while some member has not arrived
            const int u = gate.unitOfId[a.id[k]];
            if (u >= 0 && gate.counts[2 * u + 1] < gate.counts[2 * u]) return;
        }
        if (next >= 0) a.field[k] = next;
        else if (next == kRouteLeave) keep[k] = 0;
    }
};

/// Sets every count to 0.
struct ClearCountsKernel {
    View1<unsigned long long> v;
    CC_HD void operator()(int k) const { v[k] = 0ull; }
};

/// keep = 1 for every agent (a record of the table as it stands).
struct KeepAllKernel {
    View1<int> keep;
    CC_HD void operator()(int k) const { keep[k] = 1; }
};

/// keep = 1 for agents inside [x0, x1) x [y0, y1) (spawn overlap tests).
struct InBoxKernel {
    View1<const float> x, y;
    float x0, y0, x1, y1;
    View1<int> keep;
    CC_HD void operator()(int k) const { keep[k] = x[k] >= x0 && x[k] < x1 && y[k] >= y0 && y[k] < y1 ? 1 : 0; }
};

/// The step record, one thread: [0] agents kept, [1] agents not kept, and
/// [2 + f] cleared for FieldUseKernel, which then marks (nonzero) every
/// field f a kept agent follows.
struct RecordKernel {
    View1<const int> keep, slot;
    int n;
    int fieldCount;
    View1<std::uint32_t> record;
    CC_HD void operator()(int) const {
        const int kept = n > 0 ? slot[n - 1] + keep[n - 1] : 0;
        record[0] = static_cast<std::uint32_t>(kept);
        record[1] = static_cast<std::uint32_t>(n - kept);
        for (int f = 0; f < fieldCount; ++f) record[2 + f] = 0u;
    }
};

/// Marks the field of every kept agent in the record (order-independent
/// atomic or: the record does not depend on threads). A field's word is
/// read before it is written: once its first kept agent has set it, the
/// others only read it (an atomic per agent on a few shared words made
/// the stage take 21 ms at 1M agents on 2 CPU threads and 27 ms on 16).
struct FieldUseKernel {
    View1<const int> keep, field;
    View1<std::uint32_t> record;
    CC_HD void operator()(int k) const {
        if (!keep[k]) return;
        std::uint32_t* used = &record[2 + field[k]];
        if (!atomicLoadRelaxed(used)) atomicOrRelaxed(used, 1u);
    }
};

/// Row of every agent not kept, at its rank among them (k - slot[k]).
struct ExitRowKernel {
    AgentViews a;
    View1<const int> keep, slot;
    View1<ExitRow> rows;
    CC_HD void operator()(int k) const {
        if (!keep[k]) rows[k - slot[k]] = ExitRow{a.id[k], a.field[k], a.x[k], a.y[k]};
    }
};

/// Scatter of one column: every kept agent's value to its slot.
template <class T>
struct CompactKernel {
    View1<const int> keep, slot;
    View1<const T> in;
    View1<T> out;
    CC_HD void operator()(int k) const {
        if (keep[k]) out[slot[k]] = in[k];
    }
};

/// Positions of the agents inside the box (keep = 1), at their slot.
struct GatherPositionsKernel {
    View1<const float> x, y;
    View1<const int> keep, slot;
    View1<float> outX, outY;
    CC_HD void operator()(int k) const {
        if (keep[k]) { outX[slot[k]] = x[k]; outY[slot[k]] = y[k]; }
    }
};

}  // namespace ccrowd::sim
