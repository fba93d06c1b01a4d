/// @file report_files.cpp
/// The report directory: checked before the cases run (so a bad --out fails
/// at once, not after the runs), then filled with atomically written files,
/// report.md last so that its presence means the report is complete.

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "ccrowd/error.hpp"
#include "../io/file_bytes.hpp"
#include "report.hpp"

namespace ccrowd::validate {

namespace fs = std::filesystem;

void prepareReportDir(const std::string& dir, bool force, const std::string& field) {
    const std::string value = "'" + dir + "'";
    const char* allowed = "a writable directory (created when missing)";
    if (dir.empty()) throw InputError(fieldMessage(field, value, "empty path", allowed));
    // create it and its parents when missing
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError(fieldMessage(field, value, "cannot create directory '" + dir + "': " + ec.message(), allowed));
    if (!fs::is_directory(dir, ec)) throw InputError(fieldMessage(field, value, "not a directory", allowed));
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw InputError(fieldMessage(field, value, std::string("not writable: ") + std::strerror(errno), allowed));
    // never overwrite an earlier report by accident
    const std::string report = (fs::path(dir) / kReportFile).string();
    if (!force && fs::exists(report, ec))
        throw InputError(fieldMessage(field, value, "'" + report + "' already exists",
                                      "a directory without report.md, or --force to overwrite it"));
}

void writeReport(const std::string& dir, const ValidationResults& results, const ReportInfo& info) {
    // generated scenes, so every run in the report can be repeated with `ccrowd run`
    bool anyGenerated = false;
    for (const CaseResult* c : results.cases())
        for (const SceneUse& s : c->scenes) anyGenerated = anyGenerated || !s.json.empty();
    if (anyGenerated) {
        const fs::path sub = fs::path(dir) / kSceneSubdir;
        std::error_code ec;
        fs::create_directories(sub, ec);
        if (ec) throw InputError("cannot create directory '" + sub.string() + "': " + ec.message());
        for (const CaseResult* c : results.cases())
            for (const SceneUse& s : c->scenes)
                if (!s.json.empty()) {
                    const std::string text = s.json + "\n";
                    io::writeFileAtomic((sub / (s.name + ".json")).string(), text.data(), text.size());
                }
    }
    // plots, then the report that embeds them
    writeReportPlots(dir, results);
    const std::string md = reportMarkdown(results, info);
    io::writeFileAtomic((fs::path(dir) / kReportFile).string(), md.data(), md.size());
}

}  // namespace ccrowd::validate
