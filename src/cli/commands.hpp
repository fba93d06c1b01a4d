#pragma once
/// @file commands.hpp
/// Subcommand registration: each add*Command declares its options on the
/// CLI11 app and sets the action to run once parsing succeeded.

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <functional>

namespace ccrowd::cli {

/// The action chosen on the command line. run() returns the exit code.
struct Commands {
    std::function<int()> action;
    int run() const { return action ? action() : 0; }
};

/// Rejects NaN and infinities, which CLI11's number checks let through
/// (every comparison with NaN is false): combine with them, finite & CLI::Range(...).
inline CLI::Validator finiteNumber() {
    return CLI::Validator(
        [](const std::string& v) { return std::isfinite(std::strtod(v.c_str(), nullptr)) ? std::string() : std::string("not a finite number"); },
        "FINITE");
}

/// `ccrowd run [SCENE] ...`
void addRunCommand(CLI::App& app, Commands& commands);

/// `ccrowd bench eikonal ...`
void addBenchCommand(CLI::App& app, Commands& commands);

/// `ccrowd validate [--out DIR] ...`
void addValidateCommand(CLI::App& app, Commands& commands);

/// `ccrowd render [SCENE] ...` and `ccrowd view [SCENE] ...` (exit 2 naming
/// the packages to install in builds without the viewer).
void addViewerCommands(CLI::App& app, Commands& commands);

/// For `view` and `render`: when OMP_WAIT_POLICY is unset, re-executes the
/// program with OMP_WAIT_POLICY=passive. OpenMP's default spinning workers
/// otherwise starve Mesa's llvmpipe threads between steps (measured: 0.85 s
/// per frame instead of 13 ms for seed 003's 240 agents on 2 cores).
void passiveOpenMpForViewer(int argc, char** argv);

}  // namespace ccrowd::cli
