#pragma once
/// @file social_units.hpp
/// Social units (seed 000's small groups; Moussaïd et al. 2010; the
/// cohesion stage, social_stage.hpp): who walks with whom, the units'
/// parameters on the backend's side, and their measurements.

#include <cstdint>
#include <random>
#include <vector>

#include "ccrowd/field.hpp"
#include "ccrowd/scene.hpp"
#include "sim/agents.hpp"

namespace ccrowd::sim {

/// The scene's social units (empty in scenes without `social`).
struct SocialUnits {
    int count = 0;                      ///< Units (of 1 or more members).
    std::vector<int> group;             ///< Per unit: its group.
    std::vector<int> size;              ///< Per unit: members at the start.
    Array<float> spread, cohesion;      ///< Per unit: SocialSpec's. [Units: m, 1/s]
    Array<unsigned long long> sums;     ///< Per unit: kUnitSums fixed-point sums (kernels/social.hpp).
    std::vector<double> waitStart;      ///< Per unit: when its first member reached the waypoint it waits at (-1: none). [Units: s]
    /// Per group: running sums of the measurements.
    struct Sums {
        double spread = 0.0;            ///< Sum over steps of the mean member-to-centroid distance of its units. [Units: m]
        long long steps = 0;
        long long waits = 0;
        double wait = 0.0;              ///< [Units: s]
    };
    std::vector<Sums> sums_;            ///< [Size: groups]
};

/// Splits group @p g's placed agents @p placed into units drawn from its
/// SocialSpec::sizes (a unit of k members with probability proportional to
/// share_k / k, so share_k of the persons walk in units of k), neighbours
/// in space together, and puts each unit's members on seed 000's starting
/// circle around its first member (neighbours @p spacing apart) where the
/// circle's points are open and at least @p minDistance from everyone else,
/// else where they were placed. Appends the units to @p units and sets each
/// agent's NewAgent::unit. Deterministic for @p rng's seed.
void formUnits(const Scene& scene, const SceneGrid& grid, int g, float minDistance, std::mt19937_64& rng,
               std::vector<NewAgent>& placed, SocialUnits& units);

}  // namespace ccrowd::sim
