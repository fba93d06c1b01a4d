/// @file run.cpp
#include "output/run.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "ccrowd/error.hpp"
#include "io/run_summary.hpp"

namespace ccrowd::output {

namespace {
using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
}  // namespace

void prepareOutputDir(const std::string& dir, bool force, const std::string& field, const std::string& forceField) {
    // create it and its parents
    std::string path;
    for (std::size_t k = 0; k <= dir.size(); ++k) {
        if (k < dir.size() && dir[k] != '/') continue;
        path = dir.substr(0, k);
        if (path.empty()) continue;
        if (::mkdir(path.c_str(), 0777) != 0 && errno != EEXIST)
            throw InputError(fieldMessage(field, "'" + dir + "'", "cannot create '" + path + "': " + std::strerror(errno),
                                          "a writable directory"));
    }
    // a directory, empty unless forced
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw InputError(fieldMessage(field, "'" + dir + "'", "not a directory", "a writable directory"));
    std::error_code ec;
    if (std::filesystem::directory_iterator(dir, ec) != std::filesystem::directory_iterator() && !force)
        throw InputError(fieldMessage(field, "'" + dir + "'", "exists and is not empty",
                                      "a new or empty directory, or " + forceField + " to replace ccrowd's outputs in it"));
    if (force) removePreviousOutputs(dir);
}

Run::Run(Scene scene, const Exec& ex, const RunSetup& setup) : dir_(setup.outputs.dir) {
    if (!dir_.empty()) prepareOutputDir(dir_, setup.force, setup.dir_field, setup.force_field);
    sim_ = std::make_unique<Simulation>(std::move(scene), ex);
    if (!dir_.empty()) outputs_ = std::make_unique<RunOutputs>(setup.outputs, *sim_);
}

Run::~Run() = default;

bool Run::step() {
    if (!writeError_.empty() || finished_) return false;
    const auto t0 = Clock::now();
    sim_->step();
    if (outputs_) {
        try {
            outputs_->afterStep(*sim_);
        } catch (const Error& e) {
            writeError_ = e.what();
        }
    }
    wall_ += since(t0);
    return writeError_.empty();
}

nlohmann::json Run::summary(bool interrupted) const {
    nlohmann::json extra = nlohmann::json::object();
    if (outputs_) {
        extra = outputs_->summary();
        extra["outputs"]["write_fraction_of_wall"] = wall_ > 0 ? outputs_->seconds() / wall_ : 0.0;
        if (!writeError_.empty()) extra["outputs"]["error"] = writeError_;
        extra["outputs"]["background_fraction_of_wall"] = wall_ > 0 ? outputs_->backgroundSeconds() / wall_ : 0.0;
        extra["outputs"]["background_cpu_fraction_of_wall"] = wall_ > 0 ? outputs_->backgroundCpuSeconds() / wall_ : 0.0;
    }
    return io::summaryJson(*sim_, wall_, interrupted || !writeError_.empty(), extra);
}

nlohmann::json Run::finish(bool interrupted) {
    if (finished_) return final_;
    finished_ = true;
    // close the outputs (the trajectory database's queued frames are written now): part of the run's wall time
    if (outputs_) {
        const auto t0 = Clock::now();
        try {
            outputs_->finish(*sim_);
        } catch (const Error& e) {
            if (writeError_.empty()) writeError_ = e.what();
        }
        wall_ += since(t0);
    }
    final_ = summary(interrupted);
    if (!dir_.empty()) {
        try {
            io::writeSummary(dir_, *sim_, final_);
        } catch (const Error& e) {
            if (writeError_.empty()) writeError_ = e.what();
        }
    }
    return final_;
}

}  // namespace ccrowd::output
