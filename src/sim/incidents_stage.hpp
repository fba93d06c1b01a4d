#pragma once
/// @file incidents_stage.hpp
/// Incidents (seed 002 §4.3; issue: emergencies). Two stages in scenes with
/// incidents:
///  - "incidents" (first of the step, after the events): an incident whose
///    start has come joins the started ones; the distance and weight layers
///    are recomputed; the escape and hide fields' goal potentials are set
///    from the distance to the incidents (eq. 4.7: one incident, Euclidean
///    distance times the constant cost C_p = alpha + beta / v0; eq. 4.8:
///    several, a fast-marching solve from all of them at that constant cost,
///    each starting at its offset); agents switch group by the incident's
///    rules (drawn per agent from the scene's seed, so the same on every
///    backend and thread count); that step's fields are computed afresh.
///  - "incident_cost" (after cost): the escape and hide fields' unit cost,
///    eq. 4.9 (kernels/incident.hpp).

#include "ccrowd/scene.hpp"
#include "sim/pipeline.hpp"

namespace ccrowd::sim {

struct SimState;

/// True when @p scene has incidents or behaviour groups (escape, hide,
/// approach): what incidents (the file's, or added while it runs) act on.
bool hasIncidents(const Scene& scene);

/// Allocates the incident layers of @p s (every cell +inf distance: no
/// incident yet) and points the escape and hide fields' eikonal problems at
/// the incident cost. Call once, before the first step.
void setupIncidents(SimState& s);

/// Adds @p in to @p s's incidents, to start at the first step at or after
/// in.start (Simulation::addIncident's checks).
void addIncident(SimState& s, const IncidentSpec& in);

/// The incidents stage (StagePhase::Fields).
Stage incidentsStage();

/// Fields @p first.. (set-up, or a set_route event's new fields) of escape
/// and hide groups: solved on the incident cost.
void setupIncidentFields(SimState& s, int first);

/// start_incident events moved incidents' starts earlier: the timeline of
/// those not started in start order again.
void incidentsStartedEarly(SimState& s);

/// The incident_cost stage (StagePhase::Fields, between cost and potential).
Stage incidentCostStage();

/// The goal potential of a source cell at distance-cost @p t [s] from the
/// incidents when the farthest of its field's sources is at @p tMax: the
/// farther from the incidents, the lower (eq. 4.7, shifted by tMax so that
/// every source value is >= 0, which leaves the potential's gradient as it is).
inline float incidentGoalValue(double t, double tMax) { return static_cast<float>(tMax - t); }

}  // namespace ccrowd::sim
