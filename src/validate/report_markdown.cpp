/// @file report_markdown.cpp
/// The text of the report: terminal lines per criterion, and report.md
/// (GitHub-flavoured Markdown: a summary, run information, the criteria
/// table, the plots, each case with its scenes).

#include <cmath>
#include <set>
#include <sstream>
#include <string>

#include "ccrowd/config.hpp"
#include "report.hpp"

namespace ccrowd::validate {

namespace {

/// A table cell: '|' escaped, line breaks as spaces.
std::string cell(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '|') out += "\\|";
        else if (c == '\n' || c == '\r') out += ' ';
        else out += c;
    }
    return out;
}

const char* verdict(bool pass) { return pass ? "PASS" : "FAIL"; }

/// Link to a scene: generated ones are written under scenes/ next to the report.
std::string sceneLink(const SceneUse& s) {
    if (!s.json.empty()) {
        const std::string rel = std::string(kSceneSubdir) + "/" + s.name + ".json";
        return "[`" + rel + "`](" + rel + ") (generated)";
    }
    return "`" + s.path + "`";
}

}  // namespace

int exitStatus(const ValidationResults& results) { return results.passed() ? 0 : 1; }

std::vector<std::string> criterionLines(const CaseResult& r) {
    std::vector<std::string> lines;
    for (const Criterion& c : r.preconditions)
        lines.push_back(std::string(verdict(c.pass)) + "  " + r.title + ": (precondition) " + c.name + ": " + c.measured +
                        " (allowed " + c.allowed + ")");
    for (const Criterion& c : r.criteria)
        lines.push_back(std::string(verdict(c.pass)) + "  " + r.title + ": " + c.name + ": " + c.measured + " (allowed " +
                        c.allowed + ")");
    return lines;
}

std::string buildDescription() {
    std::string compiler =
#if defined(__clang__)
        "Clang " __clang_version__;
#elif defined(__GNUC__)
        "GCC " __VERSION__;
#else
        "unknown compiler";
#endif
#if defined(__OPTIMIZE__)
    const char* optimised = "optimised";
#else
    const char* optimised = "not optimised";
#endif
#if defined(NDEBUG)
    const char* asserts = "assertions off";
#else
    const char* asserts = "assertions on";
#endif
    return std::string("ccrowd ") + CCROWD_VERSION + " (" + compiler + ", C++" + std::to_string(__cplusplus / 100 % 100) + ", " +
           optimised + ", " + asserts + ", CUDA backend " + (CCROWD_HAVE_CUDA ? "built" : "not built") + ")";
}

std::string reportMarkdown(const ValidationResults& results, const ReportInfo& info) {
    const std::vector<const CaseResult*> cases = results.cases();
    int total = 0, failed = 0, pre = 0, preFailed = 0;
    for (const CaseResult* c : cases) {
        for (const Criterion& k : c->criteria) {
            ++total;
            failed += k.pass ? 0 : 1;
        }
        for (const Criterion& k : c->preconditions) {
            ++pre;
            preFailed += k.pass ? 0 : 1;
        }
    }
    std::ostringstream md;

    // summary and run information
    md << "# ccrowd validation report\n\n";
    if (exitStatus(results) == 0) md << "**PASS**: all " << total << " criteria passed";
    else if (total == 0) md << "**FAIL**: no criterion was checked";
    else md << "**FAIL**: " << failed << " of " << total << " criteria failed";
    md << " (and " << pre - preFailed << " of " << pre << " set-up preconditions held; they are listed, not counted).\n\n";
    md << "| Run | |\n|---|---|\n";
    md << "| Date | " << cell(info.date) << " |\n";
    md << "| Build | " << cell(info.version) << " |\n";
    md << "| Backend | " << cell(info.backend) << ", " << info.threads << (info.threads == 1 ? " thread" : " threads") << " |\n";
    md << "| Wall time | " << formatValue(info.wall_seconds, 1, "s") << " |\n\n";
    md << "Made by `ccrowd validate`, which exits with 0 when every criterion passes and 1 otherwise. The checks are "
          "those of DESIGN.md §6 (RiMEA tests 1 and 6, Weidmann's fundamental diagram, bottleneck flow) and the "
          "invariants of the seed-003 scenes; tests/test_validation.cpp asserts the same criteria.\n\n";

    // every criterion, then the preconditions
    md << "## Criteria\n\nEach measures the crowd (positions, bodies, flows) against a reference.\n\n"
          "| Case | Criterion | Measured | Allowed | Result |\n|---|---|---|---|---|\n";
    for (const CaseResult* c : cases)
        for (const Criterion& k : c->criteria)
            md << "| " << cell(c->title) << " | " << cell(k.name) << " | " << cell(k.measured) << " | " << cell(k.allowed)
               << " | " << (k.pass ? "PASS" : "**FAIL**") << " |\n";
    md << "\n## Preconditions\n\nChecks that a case set up the experiment it claims (its persons, speeds, door, "
          "density); not validation of the model, so not counted, but a failed one fails its case.\n\n"
          "| Case | Precondition | Measured | Allowed | Result |\n|---|---|---|---|---|\n";
    for (const CaseResult* c : cases)
        for (const Criterion& k : c->preconditions)
            md << "| " << cell(c->title) << " | " << cell(k.name) << " | " << cell(k.measured) << " | " << cell(k.allowed)
               << " | " << (k.pass ? "held" : "**FAILED**") << " |\n";

    // plots
    md << "\n## Plots\n\n";
    md << "### Fundamental diagram\n\n![Mean speed against density with Weidmann's curve](" << kFundamentalDiagramPng
       << ")\n\nMean walking speed in a corridor held at 0.5-5 persons/m^2 against Weidmann's (1993) curve and the "
          "SFPE handbook's corridor curve; the grey lines are the allowed +-25% of Weidmann's.\n\n";
    md << "| density target [persons/m^2] | measured density | mean speed [m/s] | Weidmann [m/s] | vs Weidmann | SFPE [m/s] |\n"
          "|---|---|---|---|---|---|\n";
    for (const FundamentalPoint& m : results.fundamental.points)
        md << "| " << formatValue(m.target, 1) << " | " << formatValue(m.density, 2) << " | " << formatValue(m.speed, 3) << " | "
           << formatValue(m.weidmann, 3) << " | " << formatValue(100.0 * (m.speed / m.weidmann - 1.0), 0) << "% | "
           << formatValue(m.sfpe, 3) << " |\n";
    md << "\n";
    md << "### Door flow\n\n![Flow against door width](" << kDoorFlowPng
       << ")\n\nFlow through one door out of a crowded room against the door width, on two cell sizes (the doors' "
          "edges fall between cell faces; the grid carries their exact width); the grey lines bound the allowed "
          "specific flow of 1.2-1.9 persons/(m s).\n\n";
    md << "| door [m] | cells [m] | flow [persons/s] | specific flow [persons/(m s)] |\n|---|---|---|---|\n";
    for (const DoorFlowResult& d : results.door_widths.doors)
        md << "| " << formatValue(d.width, 1) << " | " << formatValue(d.cell, 3) << " | " << formatValue(d.persons, 3)
           << " | " << formatValue(d.specific, 3) << " |\n";
    md << "\n";
    md << "### Turned room\n\n![Evacuation time against the room's angle](" << kTurnedRoomPng
       << ")\n\nThe same room with a door, turned on the grid: evacuation time of every seed and their mean; the grey "
          "lines are +-2.5% about the mean of the means (issue 12 asks the angles to agree within 5%).\n\n";
    md << "| run | cells [m] | persons | evacuation time [s] |\n|---|---|---|---|\n";
    for (const std::vector<EvacuationRun>* runs : {&results.grid_invariance.turned, &results.grid_invariance.halved})
        for (const EvacuationRun& e : *runs)
            md << "| " << e.label << " | " << formatValue(e.cell, 3) << " | " << e.agents << " | "
               << (e.time >= 0.0 ? formatValue(e.time, 1) : std::string("not all left")) << " |\n";
    md << "\n";
    md << "### RiMEA test 1\n\n![Walker position against time](" << kCorridorPng
       << ")\n\nPosition of the lone walker along the 40 m corridor against time; it must arrive within the shaded "
          "26-34 s.\n\n";

    md << "### RiMEA test 5\n\nEach person of the room, in order of its drawn pre-movement time: the end of the last "
          "step after which it still stood on its spot (within 1 mm), of the first after which it was 0.1 m away, and "
          "when it left.\n\n";
    md << "| person | pre-movement [s] | stood until [s] | walked off at [s] | left at [s] |\n|---|---|---|---|---|\n";
    for (const PremovementPerson& p : results.premovement.persons)
        md << "| " << p.id << " | " << formatValue(p.start, 2) << " | " << formatValue(p.still_until, 2) << " | "
           << (p.walked_at >= 0.0 ? formatValue(p.walked_at, 2) : std::string("never")) << " | "
           << (p.exit_time >= 0.0 ? formatValue(p.exit_time, 2) : std::string("never")) << " |\n";
    md << "\n";

    md << "### RiMEA test 9\n\nThe room with four exits and with the upper wall's two closed: persons out through each "
          "exit and the time of the last.\n\n";
    md << "| exits open | persons out: lower west / lower east / upper west / upper east | last exit [s] |\n|---|---|---|\n";
    for (const ExitsRoom* room : {&results.exits_closed.four, &results.exits_closed.two}) {
        std::string counts;
        for (std::size_t d = 0; d < 4; ++d)
            counts += (d ? " / " : "") + (d < room->per_exit.size() ? std::to_string(room->per_exit[d]) : std::string("closed"));
        md << "| " << room->exits << " | " << counts << " | "
           << (room->time > 0.0 ? formatValue(room->time, 1) : std::string("not all left")) << " |\n";
    }
    md << "\n";

    const ExitChoiceResult& ec = results.exit_choice;
    md << "### RiMEA test 11\n\nPersons out through the nearer and the farther exit: the potential counts the queue "
          "ahead as walking time (Treuille et al. 2006), so the crowd splits almost as the exits' flows allow, the "
          "nearer taking the larger part.\n\n| nearer exit | farther exit | nearer's share | last exit [s] |\n|---|---|---|---|\n"
       << "| " << ec.near << " | " << ec.far << " | " << formatValue(ec.near_share, 3) << " | "
       << (ec.time > 0.0 ? formatValue(ec.time, 1) : std::string("not all left")) << " |\n\n";

    md << "### Smoke-filled room\n\n![Persons out against the panic p](" << kSmokeRoomPng
       << ")\n\nPersons who see the two exits only within 2 m search and herd by the panic p (Helbing 2000 Fig. 3); "
          "means over " << results.smoke_room.seeds << " seeds.\n\n";
    md << "| panic p | persons out by " << formatValue(results.smoke_room.limit, 0, "s")
       << " | busier exit's share |\n|---|---|---|\n";
    for (std::size_t k = 0; k < results.smoke_room.panics.size() && k < results.smoke_room.escaped.size() &&
                            k < results.smoke_room.busier_share.size(); ++k)
        md << "| " << formatValue(results.smoke_room.panics[k], 1) << " | " << formatValue(results.smoke_room.escaped[k], 1)
           << " | " << formatValue(results.smoke_room.busier_share[k], 2) << " |\n";
    md << "\n";
    md << "### Operational models\n\n![Fundamental diagram per operational model](" << kModelsPng
       << ")\n\nThe same density corridors and the same room exit under every operational model (model.local). "
          "The fundamental diagram is reported, not counted; the criteria of this comparison are RiMEA 1 and 6, a "
          "crowd that slows as it densifies and the door flow (case \"Operational models compared\").\n\n";
    md << "| model | speed vs Weidmann at 0.5 / 1 / ... / 5 persons/m^2 | within 25% at | room exit: specific flow "
          "[persons/(m s)], mean (allowed 1.0-2.0) and each seed's |\n|---|---|---|---|\n";
    const ModelsResult& mr = results.models;
    for (std::size_t m = 0; m < mr.models.size() && m < mr.fundamental.size() && m < mr.door.size(); ++m) {
        std::string devs;
        int within = 0;
        for (const FundamentalPoint& pt : mr.fundamental[m].points) {
            const double d = pt.speed / pt.weidmann - 1.0;
            devs += (devs.empty() ? "" : " / ") + std::string(d >= 0 ? "+" : "") + formatValue(100.0 * d, 0) + "%";
            within += std::fabs(d) <= 0.25 ? 1 : 0;
        }
        md << "| " << mr.models[m] << " | " << devs << " | " << within << " of " << mr.fundamental[m].points.size()
           << " densities | " << formatValue(mr.door[m].specific, 2) << (mr.door[m].specific >= 1.0 && mr.door[m].specific <= 2.0 ? "" : " (outside)");
        for (std::size_t k = 0; k < mr.door[m].seed_specific.size(); ++k)
            md << (k ? ", " : " (") << formatValue(mr.door[m].seed_specific[k], 2) << (k + 1 == mr.door[m].seed_specific.size() ? ")" : "");
        md << " |\n";
    }
    md << "\n";

    // the cases, with their sources and scenes
    md << "## Cases\n\n";
    for (const CaseResult* c : cases) {
        md << "### " << c->title << ": " << verdict(c->passed()) << "\n\n" << c->description << "\n\n";
        md << "- Criterion source: " << c->source << "\n";
        md << "- Scenes:";
        for (std::size_t k = 0; k < c->scenes.size(); ++k) md << (k ? ", " : " ") << sceneLink(c->scenes[k]);
        md << "\n- Wall time: " << formatValue(c->wall_seconds, 2, "s") << "\n\n";
    }

    // every scene file once
    md << "## Scene files\n\n";
    std::set<std::string> seen;
    for (const CaseResult* c : cases)
        for (const SceneUse& s : c->scenes)
            if (seen.insert(s.json.empty() ? s.path : s.name).second) md << "- " << sceneLink(s) << "\n";
    return md.str();
}

}  // namespace ccrowd::validate
