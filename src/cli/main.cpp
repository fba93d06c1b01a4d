/// @file main.cpp
/// ccrowd: the command-line program. Subcommands are wired in their own
/// files (cli/*_command.cpp); this file only dispatches and reports errors.

#include <CLI/CLI.hpp>

#include <iostream>

#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "cli/commands.hpp"

int main(int argc, char** argv) {
    ccrowd::cli::passiveOpenMpForViewer(argc, argv);
    CLI::App app{"ccrowd " CCROWD_VERSION ": continuum crowd simulation (Treuille et al. 2006 + Narain et al. 2009 UIC)\n"
                 "with eikonal solvers on the CPU (OpenMP) and CUDA."};
    app.require_subcommand(1);
    app.set_version_flag("--version", "ccrowd " CCROWD_VERSION);
    ccrowd::cli::Commands commands;
    ccrowd::cli::addRunCommand(app, commands);
    ccrowd::cli::addBenchCommand(app, commands);
    ccrowd::cli::addValidateCommand(app, commands);
    ccrowd::cli::addViewerCommands(app, commands);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version exit 0; any other parse error is bad input: exit 2, like InputError
        const int rc = app.exit(e);
        return rc == 0 ? 0 : 2;
    }
    try {
        return commands.run();
    } catch (const ccrowd::InputError& e) {
        std::cerr << "ccrowd: error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "ccrowd: error: " << e.what() << "\n";
        return 1;
    }
}
