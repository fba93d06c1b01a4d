/// @file test_validate_report.cpp
/// The plumbing of `ccrowd validate` without running a case: the report
/// written from hand-made results (a failing criterion gives a FAIL row and
/// exit status 1; the plots decode at their size; generated scenes are
/// written and parse), the terminal lines, and the checks of the report
/// directory.

#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "png_image.hpp"
#include "temp_dir.hpp"

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "src/validate/report.hpp"


namespace ccrowd::test {
namespace {

namespace fs = std::filesystem;
using validate::Criterion;

class ValidateReport : public TempDirTest {};

/// Results as the cases would return them, every criterion passing.
validate::ValidationResults handMadeResults() {
    validate::ValidationResults v;
    for (float h : {0.25f, 0.1f}) {
        validate::CorridorResult c;
        c.title = "RiMEA test 1 (h = " + validate::formatValue(h, 2) + " m)";
        c.cell = h;
        c.crossing_time = 29.0;
        for (int k = 0; k <= 290; ++k) c.track.emplace_back(0.1 * k, 0.75 + 1.33 * 0.1 * k);
        c.scenes.push_back({"corridor", "/somewhere/scenes/corridor.json", ""});
        c.check("crossing time", "29.00 s", "26-34 s", true);
        v.corridor.push_back(c);
    }
    v.l_corner.title = "RiMEA test 6 (L corner)";
    v.l_corner.check("agent-steps in a wall or outside the L", "0", "0", true);
    v.premovement.title = "RiMEA test 5 (pre-movement)";
    validate::PremovementPerson p;
    p.id = 3; p.start = 42.5; p.still_until = 42.5; p.walked_at = 42.65; p.exit_time = 50.1;
    v.premovement.persons.push_back(p);
    v.premovement.check("walked off 0.1 m after its start (largest delay)", "0.15 s", "<= 1.5 s", true);
    v.exits_closed.title = "RiMEA test 9 (exits closed)";
    v.exits_closed.four.exits = 4;
    v.exits_closed.four.time = 150.0;
    v.exits_closed.four.per_exit = {250, 251, 249, 250};
    v.exits_closed.two.exits = 2;
    v.exits_closed.two.time = 290.0;
    v.exits_closed.two.per_exit = {500, 500};
    v.exits_closed.check("time with 2 exits over time with 4", "1.933", "1.6-2.4", true);
    v.exit_choice.title = "RiMEA test 11 (choice of exit)";
    v.exit_choice.near = 534;
    v.exit_choice.far = 466;
    v.exit_choice.near_share = 0.534;
    v.exit_choice.time = 330.3;
    v.exit_choice.check("share of the nearer exit", "0.534", "> 0.5", true);
    v.fundamental.title = "Fundamental diagram";
    for (double rho : {0.5, 2.0, 4.0}) {
        validate::FundamentalPoint m;
        m.target = m.density = rho;
        m.speed = m.weidmann = validate::weidmannSpeed(rho);
        m.sfpe = validate::sfpeSpeed(rho);
        v.fundamental.points.push_back(m);
        v.fundamental.check("mean speed at " + validate::formatValue(rho, 1), validate::formatValue(m.speed, 3, "m/s"), "+-0.2",
                            true);
    }
    v.fundamental.scenes.push_back({"density_corridor_rho0.5", "", validate::densityCorridorScene(0.5)});
    v.room_exit.title = "Door flow (1 m door)";
    v.room_exit.width = 1.0;
    v.room_exit.persons = v.room_exit.specific = 1.7;
    v.room_exit.check("specific flow", "1.700 persons/(m s)", "1.0-2.0 persons/(m s)", true);
    v.door_widths.title = "Door flow against width";
    for (double w : {0.8, 1.0, 1.2}) {
        validate::DoorFlowResult d;
        d.width = w;
        d.persons = 1.8 * w;
        v.door_widths.doors.push_back(d);
    }
    v.door_widths.check("flow grows with width", "2.160 persons/s", "> 1.800 persons/s", true);
    v.grid_invariance.title = "Results that do not depend on the grid";
    v.grid_invariance.angles = {0.0, 45.0};
    v.grid_invariance.mean_times = {120.0, 123.0};
    for (double a : {0.0, 45.0}) {
        validate::EvacuationRun e;
        e.label = "turned " + validate::formatValue(a, 0) + " degrees, seed 1";
        e.angle = a;
        e.cell = 0.25;
        e.agents = e.exited = 200;
        e.time = a > 0.0 ? 123.0 : 120.0;
        v.grid_invariance.turned.push_back(e);
    }
    v.grid_invariance.check("spread of the mean evacuation time over the angles", "2.5 %", "<= 10%", true);
    validate::Seed003Result s;
    s.title = "Seed 003: two_groups";
    s.check("smallest pair distance after separation", "0.380 m", ">= 0.360 m (0.9 d_min)", true);
    v.seed003.push_back(s);
    v.faster_is_slower.title = "Social force: faster-is-slower";
    v.faster_is_slower.check("time at 5.0 m/s over the minimum", "1.40", ">= 1.15", true);
    v.smoke_room.title = "Social force: herding in a smoke-filled room";
    v.smoke_room.panics = {0.0, 0.5, 1.0};
    v.smoke_room.escaped = {80.0, 85.0, 40.0};
    v.smoke_room.busier_share = {0.5, 0.6, 0.9};
    v.smoke_room.seeds = 2;
    v.smoke_room.limit = 150.0;
    v.smoke_room.check("busier exit's share at p = 1", "0.90", ">= 0.70", true);
    v.models.title = "Operational models compared";
    v.models.check("RiMEA test 1 (h = 0.25 m, zones): crossing time", "28.90 s", "26-34 s", true);
    return v;
}

validate::ReportInfo info() {
    validate::ReportInfo i;
    i.date = "2025-01-31 14:05 UTC";
    i.version = "ccrowd test build";
    i.backend = "cpu";
    i.threads = 1;
    i.wall_seconds = 12.5;
    return i;
}

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST_F(ValidateReport, AllPassingGivesExitStatusZeroAndAPassSummary) {
    const validate::ValidationResults v = handMadeResults();
    EXPECT_TRUE(v.passed());
    EXPECT_EQ(validate::exitStatus(v), 0);
    const std::string md = validate::reportMarkdown(v, info());
    EXPECT_NE(md.find("**PASS**: all 16 criteria passed (and 0 of 0 set-up preconditions held"), std::string::npos) << md;
    EXPECT_EQ(md.find("FAIL"), std::string::npos);
    // run information and the scenes used
    for (const char* s : {"2025-01-31 14:05 UTC", "ccrowd test build", "| Backend | cpu, 1 thread |",
                          "`/somewhere/scenes/corridor.json`",
                          "[`scenes/density_corridor_rho0.5.json`](scenes/density_corridor_rho0.5.json)",
                          "| 3 | 42.50 | 42.50 | 42.65 | 50.10 |",  // RiMEA 5's person row
                          "| 2 | 500 / 500 / closed / closed | 290.0 |",  // RiMEA 9's room with two exits
                          "| 534 | 466 | 0.534 | 330.3 |"})  // RiMEA 11's split
        EXPECT_NE(md.find(s), std::string::npos) << s;
}

TEST_F(ValidateReport, OneFailingCriterionGivesAFailRowAndExitStatusOne) {
    validate::ValidationResults v = handMadeResults();
    v.room_exit.check("specific flow | bad", "7.000 persons/(m s)", "1.0-2.0 persons/(m s)", false);
    EXPECT_FALSE(v.room_exit.passed());
    EXPECT_EQ(validate::exitStatus(v), 1);
    const std::string md = validate::reportMarkdown(v, info());
    EXPECT_NE(md.find("**FAIL**: 1 of 17 criteria failed ("), std::string::npos) << md;
    // the row: case, criterion ('|' escaped), measured, allowed, verdict
    const std::string row =
        "| Door flow (1 m door) | specific flow \\| bad | 7.000 persons/(m s) | 1.0-2.0 persons/(m s) | **FAIL** |";
    EXPECT_NE(md.find(row), std::string::npos) << md;
    EXPECT_NE(md.find("### Door flow (1 m door): FAIL"), std::string::npos);
    // and the terminal lines
    const std::vector<std::string> lines = validate::criterionLines(v.room_exit);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0], "PASS  Door flow (1 m door): specific flow: 1.700 persons/(m s) (allowed 1.0-2.0 persons/(m s))");
    EXPECT_EQ(lines[1].rfind("FAIL  Door flow (1 m door): specific flow | bad: 7.000", 0), 0u) << lines[1];
}

TEST_F(ValidateReport, NothingCheckedIsAFailure) {
    const validate::ValidationResults empty;
    EXPECT_EQ(validate::exitStatus(empty), 1);
    EXPECT_NE(validate::reportMarkdown(empty, info()).find("**FAIL**: no criterion was checked ("), std::string::npos);
}

TEST_F(ValidateReport, PreconditionsAreListedApartAndNotCountedButAFailedOneFails) {
    validate::ValidationResults v = handMadeResults();
    v.corridor[0].require("one walker of free speed 1.33 m/s", "1 walker at 1.330 m/s", "1 walker at 1.330 m/s", true);
    std::string md = validate::reportMarkdown(v, info());
    // still 16 criteria; the precondition in its own table
    EXPECT_NE(md.find("**PASS**: all 16 criteria passed (and 1 of 1 set-up preconditions held"), std::string::npos) << md;
    const std::size_t pre = md.find("## Preconditions");
    ASSERT_NE(pre, std::string::npos);
    EXPECT_GT(md.find("| one walker of free speed 1.33 m/s |"), pre);
    // a failed precondition fails the case and the run, without adding a criterion
    v.corridor[0].require("persons", "2", "1", false);
    EXPECT_FALSE(v.corridor[0].passed());
    EXPECT_EQ(validate::exitStatus(v), 1);
    md = validate::reportMarkdown(v, info());
    EXPECT_NE(md.find("0 of 16 criteria failed (and 1 of 2 set-up preconditions held"), std::string::npos) << md;
    EXPECT_NE(md.find("| persons | 2 | 1 | **FAILED** |"), std::string::npos) << md;
    const std::vector<std::string> lines = validate::criterionLines(v.corridor[0]);
    EXPECT_EQ(lines[1].rfind("FAIL  ", 0), 0u) << lines[1];
    EXPECT_NE(lines[1].find("(precondition) persons"), std::string::npos) << lines[1];
}

TEST_F(ValidateReport, WritesReportPlotsAndGeneratedScenes) {
    const std::string dir = path("report");
    validate::prepareReportDir(dir, false);
    validate::writeReport(dir, handMadeResults(), info());
    // report.md embeds every plot, and each decodes at the plot size
    const std::string md = readText(dir + "/report.md");
    for (const char* png : {validate::kFundamentalDiagramPng, validate::kDoorFlowPng, validate::kTurnedRoomPng,
                            validate::kCorridorPng, validate::kModelsPng, validate::kSmokeRoomPng}) {
        EXPECT_NE(md.find(std::string("](") + png + ")"), std::string::npos) << png;
        const std::string file = dir + "/" + png;
        const PngImage img = loadPng(file);
        ASSERT_TRUE(img.px) << file;
        EXPECT_EQ(img.w, validate::kPlotWidth) << png;
        EXPECT_EQ(img.h, validate::kPlotHeight) << png;
    }
    // the generated scene is there and is a valid scene
    const std::string scene = dir + "/scenes/density_corridor_rho0.5.json";
    ASSERT_TRUE(fs::exists(scene));
    EXPECT_NO_THROW(loadScene(scene));
    // nothing half-written is left
    for (const auto& e : fs::recursive_directory_iterator(dir)) EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

TEST_F(ValidateReport, ReportDirIsCreatedAndAnExistingReportIsKeptWithoutForce) {
    const std::string dir = path("a/b/report");
    validate::prepareReportDir(dir, false);
    EXPECT_TRUE(fs::is_directory(dir));
    write("a/b/report/report.md", "earlier report");
    try {
        validate::prepareReportDir(dir, false);
        ADD_FAILURE() << "an existing report.md was accepted";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("--out"), std::string::npos) << m;
        EXPECT_NE(m.find(dir + "/report.md"), std::string::npos) << m;
        EXPECT_NE(m.find("--force"), std::string::npos) << m;
    }
    EXPECT_NO_THROW(validate::prepareReportDir(dir, true));
    EXPECT_EQ(readText(dir + "/report.md"), "earlier report");  // checking never touches it
}

TEST_F(ValidateReport, UnusableReportDirNamesThePath) {
    const std::string file = write("plain-file", "x");
    for (const std::string& dir : {file, file + "/sub"}) {
        try {
            validate::prepareReportDir(dir, false);
            ADD_FAILURE() << "accepted " << dir;
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("'" + dir + "'"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("--out"), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(validate::prepareReportDir("", false), InputError);
}

}  // namespace
}  // namespace ccrowd::test
