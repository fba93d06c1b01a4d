#pragma once
/// @file snapshot_fields.hpp
/// Which grid fields a run's snapshots hold (`--fields`), and one snapshot
/// frame of them taken from a Simulation. Field names are the pipeline's
/// stage outputs (DESIGN.md §2): density, velocity (the splat's mean
/// velocity), speed (the four face speeds E, N, W, S), pressure, potential
/// and desired_velocity (one per group and route step), blocked, and
/// open_fraction (each cell's walkable share, exact from the scene's
/// polygons: the sub-cell walls and doors).

#include <string>
#include <vector>

#include "ccrowd/simulation.hpp"
#include "../io/snapshot_frame.hpp"

namespace ccrowd::output {

/// The fields a snapshot holds.
struct SnapshotFieldSet {
    bool density = true, velocity = true, speed = false, pressure = true;
    bool potential = true, desired_velocity = false, blocked = false, open_fraction = false;
    bool discomfort = false;         ///< Treuille's discomfort g per cell, as events leave it.
    bool incident_distance = false;  ///< Written only in scenes with incidents or behaviour groups.
    bool traffic = false;            ///< Arrivals so far on each road's and junction's cells; only in scenes with route choice.
};

/// Every field name --fields accepts, comma-separated.
extern const char* const kSnapshotFieldNames;

/// Parses a comma-separated list of field names (spaces ignored). Throws
/// InputError naming --fields, the bad entry and the allowed names for an
/// unknown or repeated name or an empty list.
SnapshotFieldSet parseSnapshotFields(const std::string& list);

/// Name of potential-field @p k's snapshot arrays: "<base>_<group>" with the
/// group's name reduced to [A-Za-z0-9_-] (others become '_'), plus
/// "_step<r>" for route step r > 0, plus "_<k>" when that name is taken.
std::vector<std::string> perFieldNames(const Simulation& sim, const std::string& base);

/// Route choice's traffic as a grid layer: each open cell within half a
/// road's width of its polyline holds the road's count, each cell within
/// a junction's radius the junction's (the larger where they overlap);
/// 0 elsewhere. [Size: nx*ny]
std::vector<float> trafficLayer(const StreetTraffic& t, const SceneGrid& g);

/// The chosen fields of @p sim now, on its grid (walls from its blocked
/// mask, which must outlive the frame's use).
io::SnapshotFrame snapshotFrame(const Simulation& sim, const SnapshotFieldSet& fields);

}  // namespace ccrowd::output
