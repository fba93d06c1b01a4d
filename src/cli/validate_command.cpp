/// @file validate_command.cpp
/// `ccrowd validate`: runs the validation cases (src/validate/), prints one
/// line per criterion and writes a Markdown report with plots. Exit status
/// 0 when every criterion passes, 1 when any fails, 2 on bad input.

#include <ctime>
#include <iostream>
#include <memory>
#include <string>

#include "ccrowd/backend.hpp"
#include "ccrowd/error.hpp"
#include "cli/commands.hpp"
#include "validate/report.hpp"
#include "validate/stopwatch.hpp"

namespace ccrowd::cli {

namespace {

/// Current UTC time as "YYYY-MM-DD HH:MM UTC".
std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm);
    return text;
}

int runValidate(const std::string& out, const std::string& backend, int threads, bool force) {
    // check every input before the first case runs; no usable GPU for --backend cuda is bad input here
    // (exit status 1 means a criterion failed)
    std::string note;
    Exec ex;
    try {
        ex = selectBackend(parseBackendChoice(backend), threads, &note);
    } catch (const BackendError& e) {
        throw InputError(e.what());
    }
    if (!note.empty()) std::cerr << "note: " << note << "\n";
    validate::prepareReportDir(out, force);
    validate::ReportInfo info;
    info.backend = backendName(ex.backend);
    info.threads = cpuThreads(ex);
    info.version = validate::buildDescription();
    std::cerr << "validating " << info.version << " on " << info.backend << " (" << info.threads
              << (info.threads == 1 ? " thread" : " threads") << "); report in " << out << "/\n";

    // run the cases, printing each criterion as its case ends
    const validate::Stopwatch clock;
    int total = 0, failed = 0, pre = 0, preFailed = 0;
    const validate::ValidationResults results = validate::runValidation(ex, [&](const validate::CaseResult& r) {
        for (const std::string& line : validate::criterionLines(r)) std::cout << line << "\n";
        for (const validate::Criterion& c : r.criteria) {
            ++total;
            failed += c.pass ? 0 : 1;
        }
        for (const validate::Criterion& c : r.preconditions) {
            ++pre;
            preFailed += c.pass ? 0 : 1;
        }
        std::cout.flush();
    });
    info.wall_seconds = clock.seconds();
    info.date = utcNow();

    // the report, then the verdict
    validate::writeReport(out, results, info);
    const int status = validate::exitStatus(results);
    std::cout << (status == 0 ? "PASS" : "FAIL") << ": " << total - failed << " of " << total << " criteria passed ("
              << pre - preFailed << " of " << pre << " set-up preconditions held, not counted) in "
              << validate::formatValue(info.wall_seconds, 1, "s") << "; report: " << out << "/" << validate::kReportFile << "\n";
    return status;
}

}  // namespace

void addValidateCommand(CLI::App& app, Commands& commands) {
    CLI::App* v = app.add_subcommand(
        "validate",
        "Run the validation checks of DESIGN.md §6 and the seed-003 scenes: RiMEA test 1 (one walker crosses a 40 m "
        "corridor in 26-34 s, on 0.25 m and 0.1 m grids), RiMEA test 5 (10 persons start walking at their "
        "pre-movement times, uniform on 10-100 s), RiMEA test 6 (20 persons turn an L corner without entering "
        "the wall, bodies included), RiMEA test 9 (1000 persons, a room with 4 exits and with 2: 1.6-2.4 times as "
        "long), RiMEA test 11 (two exits: the nearer takes most, the other at least a tenth), the fundamental diagram (corridor held at 0.5-5 persons/m^2: mean speed > 0 and "
        "within 25% of Weidmann 1993, never above the free speed), door flow (1.0-2.0 persons/(m s) through a 1 m door; "
        "0.8-2.4 m doors on 0.25 m and 0.125 m cells), the turned room and halved cells, the UIC density limit, social "
        "force's faster-is-slower (200 persons, one door, desired speeds 1-5 m/s) and herding in a smoke-filled room "
        "(panic p 0-1, two exits), seed 003's three scenes (every group arrives, 0.9 d_min kept, nobody in an obstacle) "
        "and every operational model on RiMEA 1 and 6. Prints one PASS/FAIL line per criterion (measured vs "
        "allowed) and writes DIR/report.md with the criteria table, run information, the scene files used and PNG "
        "plots; generated scenes go to DIR/scenes/. Takes about three minutes on 2 cores: a case's runs "
        "(seeds, angles, doors, densities) go to the CPU threads, one run per thread. Exit status: 0 all criteria "
        "pass, 1 any fails, 2 bad input (an unwritable --out, an "
        "existing report without --force, --backend cuda without a usable GPU, a missing bundled scene).");
    struct Args {
        std::string out = "validation-report", backend = "auto";
        int threads = 0;
        bool force = false;
    };
    auto a = std::make_shared<Args>();
    v->add_option("--out", a->out, "Report directory (created if missing)")->capture_default_str();
    v->add_flag("--force", a->force, "Overwrite an existing report in --out");
    v->add_option("--threads", a->threads,
                  "CPU threads (0 = all cores): runs at a time, each on one thread (these scenes are small); the "
                  "report is identical for any count")
        ->check(CLI::Range(0, 1024))
        ->capture_default_str();
    v->add_option("--backend", a->backend, "auto (CUDA when a GPU works, else CPU), cpu, or cuda")
        ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
        ->capture_default_str();
    v->callback([a, &commands] {
        commands.action = [a] { return runValidate(a->out, a->backend, a->threads, a->force); };
    });
}

}  // namespace ccrowd::cli
