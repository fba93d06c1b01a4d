#pragma once
/// @file report.hpp
/// The validation report of `ccrowd validate`: one line per criterion for
/// the terminal, and a directory holding report.md (Markdown: the criteria
/// table, run information, the scenes used) with its PNG plots and the
/// generated scenes. Every file is written atomically.

#include <string>
#include <vector>

#include "cases.hpp"

namespace ccrowd::validate {

/// File names inside the report directory.
constexpr const char* kReportFile = "report.md";
constexpr const char* kFundamentalDiagramPng = "fundamental_diagram.png";  ///< Speed against density with Weidmann's curve.
constexpr const char* kDoorFlowPng = "door_flow.png";                      ///< Flow against door width.
constexpr const char* kCorridorPng = "corridor_crossing.png";              ///< RiMEA 1: walker position against time.
constexpr const char* kTurnedRoomPng = "turned_room.png";                  ///< Evacuation time against the room's turn.
constexpr const char* kModelsPng = "models_fundamental_diagram.png";       ///< Every operational model's fundamental diagram.
constexpr const char* kSmokeRoomPng = "smoke_room.png";                    ///< Persons out of the smoke-filled room against the panic p.
constexpr const char* kSceneSubdir = "scenes";                             ///< Generated scenes, as JSON files.
/// Size of every plot. [Units: px]
constexpr int kPlotWidth = 1000, kPlotHeight = 650;

/// How the run was made, for the report's header.
struct ReportInfo {
    std::string date;            ///< When the run ended, e.g. "2025-01-31 14:05 UTC".
    std::string version;         ///< Build, e.g. "ccrowd 0.1.0 (GCC 12.2.0, optimised, CUDA backend not built)".
    std::string backend;         ///< "cpu" or "cuda".
    int threads = 1;             ///< CPU threads used. [Limit: >= 1]
    double wall_seconds = 0.0;   ///< Wall time of all cases. [Units: s]
};

/// Exit status of `ccrowd validate`: 0 when every criterion passed, 1 when
/// any failed (or nothing was checked).
int exitStatus(const ValidationResults& results);

/// One line per criterion of @p r: "PASS  <case>: <criterion>: <measured> (allowed <range>)".
std::vector<std::string> criterionLines(const CaseResult& r);

/// "<build version> (<compiler>, <optimised|debug>, CUDA backend built|not built)" of this build.
std::string buildDescription();

/// The Markdown text of report.md.
std::string reportMarkdown(const ValidationResults& results, const ReportInfo& info);

/// Creates @p dir (and its parents) when missing and checks that it is a
/// writable directory without a report.md (unless @p force). Throws
/// InputError naming @p field ("--out"), the path and the reason.
void prepareReportDir(const std::string& dir, bool force, const std::string& field = "--out");

/// Writes the plots, the generated scenes (<dir>/scenes/<name>.json) and,
/// last, report.md into @p dir (which must exist). Throws InputError / Error
/// naming the path of a file that cannot be written.
void writeReport(const std::string& dir, const ValidationResults& results, const ReportInfo& info);

/// Writes the plots into @p dir (part of writeReport).
void writeReportPlots(const std::string& dir, const ValidationResults& results);

}  // namespace ccrowd::validate
