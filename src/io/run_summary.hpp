#pragma once
/// @file run_summary.hpp
/// The end-of-run summary: printed for people, and written as summary.json
/// (and exits.csv) into the output directory.

#include <iosfwd>
#include <string>

#include <nlohmann/json.hpp>

#include "ccrowd/simulation.hpp"

namespace ccrowd::io {

/// Human-readable summary: agents spawned / exited / remaining, each group's
/// evacuation time, steps/s, mean ms per stage.
/// @param wallSeconds Wall time of the stepping loop. [Units: s]
void printSummary(std::ostream& out, const Simulation& sim, double wallSeconds, bool interrupted);

/// What summary.json holds: the scene, steps, simulated and wall time,
/// agents, each group's exit times and evacuation time, the overall
/// evacuation time, mean ms per stage, plus the keys of @p extra (e.g. the
/// outputs' peaks and write time).
/// @param wallSeconds Wall time of the stepping loop. [Units: s]
nlohmann::json summaryJson(const Simulation& sim, double wallSeconds, bool interrupted,
                           const nlohmann::json& extra = nlohmann::json::object());

/// Writes @p summary (summaryJson) as <dir>/summary.json and the exits of
/// @p sim as <dir>/exits.csv, atomically. Throws InputError / Error naming
/// the path on failure.
void writeSummary(const std::string& dir, const Simulation& sim, const nlohmann::json& summary);

}  // namespace ccrowd::io
