#pragma once
/// @file timeline.hpp
/// The scene's timeline as a state machine on the Scene alone (no grid, no
/// agents): the events whose time has come change barriers, discomfort
/// regions, goals, routes and incidents' starts, and the motions events
/// start (a barrier or a discomfort region moving along a path, a
/// discomfort edge spreading) move their targets as time goes on. The
/// events stage runs it on the simulation's scene and, to rasterise the
/// next walls ahead, on a copy.

#include <vector>

#include "ccrowd/scene.hpp"

namespace ccrowd::sim {

/// A change that goes on after its event: move, move_discomfort or
/// grow_discomfort, from its event's time until it arrives.
struct Motion {
    EventAction action = EventAction::Move;
    std::vector<int> items;             ///< Scene::barriers (move) or Scene::discomfort indices it changes.
    double start = 0.0;                 ///< Its event's time. [Units: s]
    float speed = 0.f;                  ///< [Units: m/s]
    std::vector<Vec2> path;             ///< move*: the centre at the start, then the event's points. [Units: m]
    std::vector<Polygon> from;          ///< move*: the items' polygons at the start.
    std::vector<float> spreadFrom;      ///< grow_discomfort: the items' spread at the start. [Units: m]
    float distance = 0.f;               ///< grow_discomfort: its furthest spread; move*: the path's length. [Units: m]
    float applied = 0.f;                ///< How far it had gone when last applied to the scene. [Units: m]
};

/// Where the timeline is.
struct Timeline {
    std::size_t next = 0;               ///< First of Scene::events not applied yet.
    std::vector<Motion> motions;        ///< Going on.
};

/// What one advance changed.
struct TimelineChange {
    bool walls = false;                 ///< Barriers opened, closed or moved, or goals enabled or disabled: the environment again.
    bool discomfort = false;            ///< A discomfort region's value, place or spread.
    std::vector<int> routes;            ///< Groups whose route changed (set_route).
    std::vector<int> incidents;         ///< Incidents a start_incident event started early.
    bool panic = false;                 ///< A group's panic p changed (set_panic).
    /// Something the fields read changed (walls, goals, discomfort, routes, incidents; not panic).
    bool fields() const { return walls || discomfort || !routes.empty() || !incidents.empty(); }
};

/// Applies to @p scene every event of @p tl due at @p t (time <= t, in
/// order) and moves the motions to @p t. A motion's target is moved only
/// once it has gone at least @p quantum further than when last moved (and
/// when it arrives), so a slow motion does not redo the walls every step.
/// [Units: s, m] [Limit: t non-decreasing from call to call]
TimelineChange advanceTimeline(Scene& scene, Timeline& tl, double t, float quantum);

/// True while @p tl has events to come that may change the walls (open,
/// close, move, enable_goal, disable_goal) or a barrier moving.
bool wallsMayChange(const Scene& scene, const Timeline& tl);

/// The walls' inputs of @p scene (barriers' states and polygons, goals'
/// disabled areas) as numbers: equal vectors, equal environments.
std::vector<double> environmentKey(const Scene& scene);

}  // namespace ccrowd::sim
