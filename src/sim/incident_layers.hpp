#pragma once
/// @file incident_layers.hpp
/// The grid layers and timeline state of the scene's incidents (seed 002
/// §4.3; the incidents stage, incidents_stage.hpp): per cell the distance
/// to the nearest started incident's region of harm and that incident's
/// eq. 4.9 weight, and the escape and hide groups' unit cost.

#include <vector>

#include "ccrowd/face_cost.hpp"
#include "ccrowd/field.hpp"

namespace ccrowd::sim {

/// Incident layers and timeline (empty in scenes without incidents).
struct IncidentLayers {
    std::vector<int> order;       ///< Scene::incidents indices by start time (ties: file order).
    std::size_t next = 0;         ///< order[next] is the first incident not started.
    std::vector<int> started;     ///< Started incidents, in start order.
    std::vector<double> startedAt;  ///< Per scene incident: the step time it started (-1: not yet). [Units: s]
    std::vector<long long> switched;  ///< Per scene incident: agents its switch rules moved.
    Field<float> distance;        ///< Per cell: signed distance to the nearest started incident's harm region (< 0 inside); +inf before any. [Units: m]
    Field<float> weight;          ///< Per cell: that incident's eq. 4.9 weight c.
    Field<FaceCost> cost;         ///< Escape and hide fields' unit cost (kernels/incident.hpp). [Units: s/m]
    std::vector<int> scaledFields;  ///< Fields whose group escapes or hides.
};

}  // namespace ccrowd::sim
