/// @file incident_rings.cpp
/// Rings of the started incidents (incident_rings.hpp).

#include "viewer/incident_rings.hpp"

#include <cmath>

namespace ccrowd::viewer {

std::vector<float> incidentRings(const Scene& scene, const std::vector<int>& started) {
    std::vector<float> out;
    const double step = 2.0 * 3.14159265358979323846 / kIncidentRingSegments;
    for (int k : started) {
        const IncidentSpec& in = scene.incidents.at(static_cast<std::size_t>(k));
        // the harm disc's edge, one chord per segment
        for (int s = 0; s < kIncidentRingSegments; ++s) {
            const double a = s * step, b = (s + 1) * step;
            out.insert(out.end(), {static_cast<float>(in.position.x + in.radius * std::cos(a)),
                                   static_cast<float>(in.position.y + in.radius * std::sin(a)),
                                   static_cast<float>(in.position.x + in.radius * std::cos(b)),
                                   static_cast<float>(in.position.y + in.radius * std::sin(b))});
        }
    }
    return out;
}

}  // namespace ccrowd::viewer
