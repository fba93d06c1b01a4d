#pragma once
/// @file premovement.hpp
/// Pre-movement (stage "premovement", host+device): an agent whose start
/// time has not come stands, its preferred velocity zero, so every
/// operational model keeps it in place but for the pushes of others (UIC
/// pressure, separation, contact forces). The time to leave a building is
/// pre-movement plus movement (ISO/TR 16738; RiMEA test 5: persons start
/// walking at their given reaction times). Launched by premovement.cu.

#include "ccrowd/field.hpp"
#include "ccrowd/hd.hpp"
#include "launch.hpp"
#include "stages.hpp"

namespace ccrowd::sim {

/// Zeroes the preferred velocity of every agent whose start time lies
/// after @p time.
struct PremovementKernel {
    View1<const int> id;            ///< Agent id per row.
    View1<const float> startOfId;   ///< Start time per id. [Units: s]
    double time = 0.0;              ///< Now. [Units: s]
    View1<float> px, py;            ///< Preferred velocity. [Units: m/s]

    CC_HD void operator()(int k) const {
        // still reacting: stand
        if (time < static_cast<double>(startOfId[id[k]])) { px[k] = 0.f; py[k] = 0.f; }
    }
};

/// The premovement stage's work on the Exec's side: agents of @p a whose
/// start (@p startOfId, by id) is after @p time [s] stand.
/// [Limit: startOfId holds every id of a]
void premovement(const Exec& ex, const AgentViews& a, View1<const float> startOfId, double time);

}  // namespace ccrowd::sim
