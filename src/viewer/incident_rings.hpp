#pragma once
/// @file incident_rings.hpp
/// The started incidents as the viewer and `render` draw them: each harm
/// disc's edge as a ring of line segments in world coordinates (issue 13,
/// Deliver 5). GL-free; Renderer::setIncidents draws them.

#include <vector>

#include "ccrowd/scene.hpp"

namespace ccrowd::viewer {

/// Segments per ring.
constexpr int kIncidentRingSegments = 48;

/// Rings of @p scene's incidents @p started (indices into Scene::incidents):
/// kIncidentRingSegments segments (x0, y0, x1, y1) each, on the harm radius.
/// [Units: m] [Size: 4 per segment]
std::vector<float> incidentRings(const Scene& scene, const std::vector<int>& started);

}  // namespace ccrowd::viewer
