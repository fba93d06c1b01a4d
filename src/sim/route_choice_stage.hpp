#pragma once
/// @file route_choice_stage.hpp
/// Affordance-based route choice (seed 004, Nicosia et al.), in scenes
/// whose groups have `route_choice`:
///  - "route_choice" (after desired_velocity): members of roaming groups
///    walk junction to junction of the street network; at each junction
///    they choose the next by the walkable area visible toward it
///    (affordance) or uniformly (random), never back unless at a dead end,
///    and walk there down that junction's walking-distance potential at the
///    continuum's speed; arrivals are counted per junction and per road
///    (kernels/route_choice.hpp). When walls change (events) the viewsheds
///    near the change and the junction potentials are computed again.

#include "ccrowd/scene.hpp"
#include "sim/pipeline.hpp"

namespace ccrowd::sim {

/// True when some group of @p scene roams the street network.
bool hasRouteChoice(const Scene& scene);

/// The route choice stage (StagePhase::Fields, after desired_velocity).
Stage routeChoiceStage();

}  // namespace ccrowd::sim
