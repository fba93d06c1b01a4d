#pragma once
/// @file events_stage.hpp
/// The events stage (seed 002's changing environment; issue: emergencies):
/// the scene's timeline (Scene::events, timeline.hpp) applied at the start
/// of each step. Events whose time has come open, close or move barriers,
/// set, move or spread named discomfort regions, enable or disable goals,
/// change groups' routes and start incidents; motions move their targets
/// a quarter cell at a time. A change of walls or goals rasterises the
/// environment again (rasterizeEnvironment: blocked cells, open fractions,
/// apertures, closed faces, wall edges, goal cells; rasterised ahead on
/// another thread, since the timeline is known), puts it on the backend's
/// side, rebuilds the wall index, the goals' eikonal sources and exit
/// masks, and pushes the agents a barrier now covers to the nearest open
/// cell (kernels/events.hpp); a change of discomfort redoes that layer
/// only; a route change gives the group the fields of its new route and
/// puts its agents on the route's first step. Either way that step's fields
/// are computed on the whole grid from scratch (no active box, no warm
/// start), since costs changed outside the crowd. The stage exists only in
/// scenes with a timeline (hasTimeline).

#include "ccrowd/scene.hpp"
#include "sim/pipeline.hpp"

namespace ccrowd::sim {

struct SimState;

/// True when @p scene has events, barriers or named discomfort regions:
/// what events (the file's, or added while it runs) can act on.
bool hasTimeline(const Scene& scene);

/// The events stage (StagePhase::Fields, first of the step).
Stage eventsStage();

/// Inserts @p e into the timeline after the events already applied and
/// those of its time (Simulation::addEvent's checks).
void addEvent(SimState& s, const EventSpec& e);

}  // namespace ccrowd::sim
