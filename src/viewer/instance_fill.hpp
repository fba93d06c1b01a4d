#pragma once
/// @file instance_fill.hpp
/// The viewer's per-agent and per-cell maths, written once as host+device
/// functors (DESIGN.md §4) and launched by forEachIndex / forEachCell on the
/// simulation's side: an OpenMP loop on the CPU, a CUDA grid on a GPU. No GL
/// and no CUDA headers here.
///
/// After each step the simulation's thread publishes (published_state.hpp):
/// RememberKernel files the previous publication by agent id (the cell sort
/// permutes the agents every step, so indices do not match), then
/// SnapshotKernel writes one AgentState per agent. Whenever the renderer
/// needs new instance records, InstanceFillKernel writes them into the
/// mapped GL buffer, and OverlayFillKernel writes the overlay texture's
/// pixel buffer.

#include <math.h>

#include <cstdint>

#include "ccrowd/hd.hpp"
#include "plot/viridis.hpp"
#include "ccrowd/state_view.hpp"
#include "kernels/stages.hpp"
#include "viewer/agent_instances.hpp"
#include "viewer/options.hpp"

namespace ccrowd::viewer {

/// Below this speed an agent keeps its previous heading (atan2 of noise
/// would spin its marker). [Units: m/s]
constexpr float kRestSpeed = 1e-3f;

/// An sRGB colour with alpha.
struct Rgba8 {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
};

/// One agent as published after a step. 32 bytes.
struct AgentState {
    float x = 0.f, y = 0.f;  ///< Position. [Units: m]
    float heading = 0.f;     ///< Direction of motion, counter-clockwise from +x (kept while at rest). [Units: rad]
    float speed = 0.f;       ///< Speed as a fraction of the agent's vmax. [Limit: >= 0]
    float pressure = 0.f;    ///< UIC pressure of the agent's cell. [Units: m^2/s]
    float radius = 0.f;      ///< Body radius of its group. [Units: m]
    int id = 0;              ///< Identity (unique in a run). [Limit: >= 0]
    int group = 0;           ///< Group index. [Limit: 0..groups-1]
};

/// An agent's values at an earlier publication, filed by id.
struct PrevById {
    float x = 0.f, y = 0.f;  ///< [Units: m]
    float heading = 0.f;     ///< [Units: rad]
    int serial = -1;         ///< Publication they belong to (-1: none).
};

/// True for a finite @p v (not NaN, not +-inf).
CC_HD inline bool finiteValue(float v) { return v == v && v != INFINITY && v != -INFINITY; }

/// The entry of agent @p id filed at publication @p serial, or null.
CC_HD inline const PrevById* previousOf(View1<const PrevById> byId, int id, int serial) {
    if (id < 0 || id >= byId.n) return nullptr;
    const PrevById* p = &byId[id];
    return p->serial == serial ? p : nullptr;
}

/// Empties the by-id table. Per entry k.
struct ForgetKernel {
    View1<PrevById> byId;
    CC_HD void operator()(int k) const { byId[k] = PrevById{}; }
};

/// Files agent k of the last publication under its id with @p serial. Per
/// agent; ids are unique, so every thread writes its own entry.
struct RememberKernel {
    View1<const AgentState> last;
    View1<PrevById> byId;  ///< [Size: > every id of last]
    int serial = 0;
    CC_HD void operator()(int k) const {
        const AgentState& s = last[k];
        if (s.id >= 0 && s.id < byId.n) byId[s.id] = PrevById{s.x, s.y, s.heading, serial};
    }
};

/// Publishes agent k of the simulation: position, heading (the previous one
/// while at rest), speed fraction, the pressure of its cell (clamped into
/// the grid, as SceneGrid::cellOf), group and radius. Per agent.
struct SnapshotKernel {
    AgentColumnsView a;              ///< The agents (read-only).
    GridInfo g;
    View2<const float> pressure;     ///< [Size: g.nx*g.ny, or empty: pressure 0]
    View1<const int> fieldGroup;     ///< Group of each potential field (an agent's field says its group).
    View1<const float> groupRadius;  ///< [Units: m] [Size: groups, >= 1]
    View1<const PrevById> byId;      ///< The previous publication, filed by RememberKernel.
    int prevSerial = -1;
    View1<AgentState> out;           ///< [Size: a.n]

    CC_HD void operator()(int k) const {
        AgentState s;
        s.x = a.x[k];
        s.y = a.y[k];
        s.id = a.id[k];
        // heading from the velocity, or the previous heading while standing
        const float vx = a.vx[k], vy = a.vy[k];
        const float v = sqrtf(vx * vx + vy * vy);
        const PrevById* prev = previousOf(byId, s.id, prevSerial);
        s.heading = v > kRestSpeed ? atan2f(vy, vx) : (prev ? prev->heading : 0.f);
        s.speed = a.vmax[k] > 0.f ? v / a.vmax[k] : 0.f;
        // pressure of the agent's cell, clamped into the grid
        if (pressure.nx > 0) {
            int i = 0, j = 0;
            g.cellOf(s.x, s.y, i, j);
            i = i < 0 ? 0 : (i >= g.nx ? g.nx - 1 : i);
            j = j < 0 ? 0 : (j >= g.ny ? g.ny - 1 : j);
            s.pressure = pressure(i, j);
        }
        // group from the field, radius from the group
        const int f = a.field[k];
        const int grp = f >= 0 && f < fieldGroup.n ? fieldGroup[f] : 0;
        s.group = grp >= 0 && grp < groupRadius.n ? grp : 0;
        s.radius = groupRadius[s.group];
        out[k] = s;
    }
};

/// Writes instance record k for the renderer: the last published position,
/// the previous one by id (the same for an agent new in the last
/// publication), heading, radius, and the colour of @p colour: the group's,
/// or viridis of the speed fraction, or of the pressure over the largest
/// agent pressure. Per agent.
struct InstanceFillKernel {
    View1<const AgentState> now;
    View1<const PrevById> byId;
    int prevSerial = -1;
    ColourBy colour = ColourBy::Group;
    View1<const Rgba8> groupColour;  ///< [Size: groups]
    float pressureScale = 0.f;       ///< 1 / largest published pressure (0 when none is positive). [Units: s/m^2]
    AgentInstance* out = nullptr;    ///< [Size: now.n]

    CC_HD void operator()(int k) const {
        const AgentState& s = now[k];
        const PrevById* p = previousOf(byId, s.id, prevSerial);
        AgentInstance r;
        r.prev_x = p ? p->x : s.x;
        r.prev_y = p ? p->y : s.y;
        r.x = s.x;
        r.y = s.y;
        r.heading = s.heading;
        r.radius = s.radius;
        // colour by group, speed or pressure
        if (colour == ColourBy::Group) {
            const Rgba8 c = groupColour[s.group];
            r.rgba[0] = c.r;
            r.rgba[1] = c.g;
            r.rgba[2] = c.b;
        } else {
            plot::viridisRgb(colour == ColourBy::Speed ? s.speed : s.pressure * pressureScale, r.rgba);
        }
        r.rgba[3] = 255;
        out[k] = r;
    }
};

/// The scalar an overlay shows at cell (i, j): the cell's value of @p scalar
/// (density, pressure, potential), or the magnitude of @p velocity (the
/// speed overlay) when that view is set. Per cell.
struct OverlayValueKernel {
    View2<const float> scalar;
    View2<const sim::Vel2> velocity;  ///< Empty unless the speed overlay.
    View2<float> out;

    CC_HD void operator()(int i, int j) const {
        if (velocity.nx > 0) {
            const sim::Vel2 v = velocity(i, j);
            out(i, j) = sqrtf(v.x * v.x + v.y * v.y);
        } else {
            out(i, j) = scalar(i, j);
        }
    }
};

/// Writes overlay texel (i, j) of the pixel buffer: the published value,
/// or @p hi where it is not finite (unreachable cells at the top of the
/// colour map; the texture needs finite values). Per cell.
struct OverlayFillKernel {
    View2<const float> values;
    float hi = 1.f;
    float* out = nullptr;  ///< Row-major. [Size: values.nx*values.ny]

    CC_HD void operator()(int i, int j) const {
        const float v = values(i, j);
        out[i + static_cast<std::ptrdiff_t>(j) * values.nx] = finiteValue(v) ? v : hi;
    }
};

/// Reduction helpers (Thrust transform_reduce with MaxOf, initial value 0).
struct FiniteOrZero {
    CC_HD float operator()(float v) const { return finiteValue(v) ? v : 0.f; }
};
struct PressureOf {
    CC_HD float operator()(const AgentState& s) const { return s.pressure; }
};
struct MaxOf {
    CC_HD float operator()(float a, float b) const { return a > b ? a : b; }
};

}  // namespace ccrowd::viewer
