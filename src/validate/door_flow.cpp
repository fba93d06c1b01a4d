/// @file door_flow.cpp
/// Bottleneck flow: a crowded room empties through one door. The specific
/// flow through a 1 m door is about 1.3 persons/(m s) in the handbooks (e.g.
/// the SFPE Handbook's hydraulic model), Weidmann's (1993) corridor capacity
/// is 1.22 at about 1.75 persons/m^2, and bottleneck experiments reach up to
/// about 1.9 (e.g. Seyfried et al. 2009, Transportation Science 43(3)); the
/// check allows 1.0-2.0 and asks that the flow grow with the door width
/// (DESIGN.md §6). A model keeping everyone at free speed up to the density
/// cap would give ~7 persons/(m s).

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "ccrowd/scene.hpp"
#include "cases.hpp"
#include "run_pool.hpp"
#include "stopwatch.hpp"

namespace ccrowd::validate {

namespace {

constexpr double kSpecificMin = 1.0, kSpecificMax = 2.0;  // allowed specific flow [persons/(m s)]
constexpr double kTimeLimit = 300.0;                      // give up after this [s]
constexpr double kFirstShare = 0.1, kLastShare = 0.7;     // flow measured between these shares of exits
constexpr double kSeriesSpecificMin = 1.2, kSeriesSpecificMax = 1.9;  // the width series' band [persons/(m s)]
constexpr double kGridTolerance = 0.10;                   // flow change allowed between cell sizes
/// Runs of the 1 m door room, one seed each: a single run's specific flow
/// scatters by up to 20% under orca (0.90-1.35 persons/(m s) over seeds
/// 1-16 at its 0.3 s time horizon, 0.61-1.15 at 0.5 s) and 3-7% under the
/// other models, so one seed can pass or fail the band by luck; the mean
/// of 4 carries half that scatter.
constexpr int kRoomExitSeeds = 4;

/// Runs @p sim until 70% have left (or 300 s) and measures the flow between
/// the 10% and 70% exits into @p r; adds the "70% left" criterion.
void measureFlow(Simulation& sim, DoorFlowResult& r) {
    const long long n = sim.agentCount();
    const long long first = std::lround(kFirstShare * n), last = std::lround(kLastShare * n);
    r.agents = n;
    r.needed = last;
    r.cell = sim.grid().h;
    while (sim.exitedTotal() < last && sim.time() < kTimeLimit) sim.step();
    r.exited = sim.exitedTotal();
    r.end_time = sim.time();
    const std::string left = std::to_string(r.exited) + " of " + std::to_string(n) + " by " + formatValue(r.end_time, 1, "s");
    r.check("70% left within 300 s", left, ">= " + std::to_string(last), r.exited >= last);

    // flow from the sorted exit times
    std::vector<double> t;
    for (const ExitRecord& e : sim.exits()) t.push_back(e.time);
    std::sort(t.begin(), t.end());
    if (static_cast<long long>(t.size()) < last || first < 1) return;
    const double dt = t[static_cast<std::size_t>(last - 1)] - t[static_cast<std::size_t>(first - 1)];
    r.persons = static_cast<double>(last - first) / dt;
    r.specific = r.persons / r.width;
}

/// Adds the specific-flow criterion of @p r.
void checkSpecific(DoorFlowResult& r, const std::string& door) {
    r.check("specific flow" + door, formatValue(r.specific, 3, "persons/(m s)"), "1.0-2.0 persons/(m s)",
            r.specific >= kSpecificMin && r.specific <= kSpecificMax);
}

}  // namespace

DoorFlowResult roomExitFlow(const Exec& ex, const std::string& local) {
    const Stopwatch clock;
    DoorFlowResult r;
    r.title = std::string("Door flow (1 m door") + (local.empty() ? "" : ", " + local) + ")";
    r.description = "200 persons (2.5 /m^2) leave a 10 m x 10 m room through a 1 m door on a 0.25 m grid; the flow is "
                    "measured from the exit times between 10% and 70% evacuated, averaged over " +
                    std::to_string(kRoomExitSeeds) + " seeds (the scene's and the next ones).";
    r.source = "Specific flow through a 1 m door: handbooks ~1.3, Weidmann 1993 capacity 1.22, bottleneck experiments "
               "up to ~1.9 persons/(m s)";
    const std::string path = bundledScene("room_exit");
    r.scenes.push_back(SceneUse{"room_exit", path, ""});
    r.width = 1.0;
    const Scene base = loadScene(path);
    // the seeds' runs, at once where the backend allows
    struct Run { DoorFlowResult flow; std::uint64_t seed = 0; int open_cells = 0; };
    const std::vector<Run> runs = mapRuns<Run>(ex, kRoomExitSeeds, [&](const Exec& runEx, int k) {
        Scene scene = base;
        if (!local.empty()) scene.params.local = local;
        scene.params.seed = base.params.seed + static_cast<std::uint64_t>(k);
        Simulation sim(validationScene(std::move(scene)), runEx);
        Run run;
        run.seed = sim.scene().params.seed;
        // the door: the open cells of the east wall's first column (x = 10.1 m)
        const SceneGrid& g = sim.grid();
        int wallColumn = 0, row = 0;
        g.cellOf(10.1f, 0.f, wallColumn, row);
        for (int j = 0; j < g.ny; ++j) run.open_cells += g.blocked(wallColumn, j) ? 0 : 1;
        run.flow.width = r.width;
        measureFlow(sim, run.flow);
        return run;
    });
    r.open_cells = runs.front().open_cells;
    r.require("open door cells", std::to_string(r.open_cells), "4", r.open_cells == 4);
    // the result keeps the mean and every run's specific flow
    for (int k = 0; k < kRoomExitSeeds; ++k) {
        const DoorFlowResult& run = runs[k].flow;
        for (const Criterion& c : run.criteria)
            r.check(c.name + " (seed " + std::to_string(runs[k].seed) + ")", c.measured, c.allowed, c.pass);
        r.agents = run.agents;
        r.needed = run.needed;
        r.cell = run.cell;
        r.exited = k == 0 ? run.exited : std::min(r.exited, run.exited);
        r.end_time = std::max(r.end_time, run.end_time);
        r.persons += run.persons / kRoomExitSeeds;
        r.seed_specific.push_back(run.specific);
    }
    r.specific = r.persons / r.width;
    checkSpecific(r, ", mean of the seeds");
    r.wall_seconds = clock.seconds();
    return r;
}

std::string roomWithDoorScene(double width, double cell) {
    const double lo = 5.0 - 0.5 * width, hi = 5.0 + 0.5 * width;
    std::ostringstream j;
    j.precision(9);
    j << R"({"format": "ccrowd-scene", "version": 1, "name": "room_door",
      "domain": {"width": 14, "height": 10, "cell": )" << cell << R"(},
      "obstacles": [{"rect": {"min": [10, 0], "max": [10.25, )" << lo << R"(]}},
                    {"rect": {"min": [10, )" << hi << R"(], "max": [10.25, 10]}}],
      "goals": [{"name": "outside", "areas": [{"rect": {"min": [13, 0], "max": [14, 10]}}]}],
      "groups": [{"name": "occupants", "spawn": [{"rect": {"min": [0.5, 0.5], "max": [9.5, 9.5]}}], "count": 200,
                  "route": ["outside"]}],
      "model": {"seed": 5}})";
    return j.str();
}

namespace {

/// Open length of the faces on the line x = @p x (the wall's west face):
/// the door's width as the grid carries it. [Units: m]
double openLengthAlong(const SceneGrid& g, double x) {
    const int i = static_cast<int>(std::lround((x - g.origin.x) / g.h));
    double len = 0.0;
    for (int j = 0; j < g.ny; ++j) len += g.aperture_x(i, j) * g.h;
    return len;
}

}  // namespace

DoorSeriesResult doorWidthSeries(const Exec& ex, const std::vector<double>& widths, const std::vector<double>& cells) {
    const Stopwatch clock;
    DoorSeriesResult r;
    r.title = "Door flow against width and cell size";
    r.description = "200 persons leave a 10 m x 10 m room through one door of each width, centred in a 0.25 m thick wall "
                    "(door edges between cell faces), on grids of each cell size; run until 70% have left, flow measured "
                    "between 10% and 70%.";
    r.source = "Flow grows with the door width; specific flow 1.2-1.9 persons/(m s) at every width (handbooks ~1.3, "
               "bottleneck experiments up to ~1.9) and within 10% between cell sizes (issue 12: results that do not "
               "depend on the grid)";
    // every door on every grid, at once where the backend allows
    const std::size_t n = widths.size();
    std::vector<DoorFlowResult> doors = mapRuns<DoorFlowResult>(ex, static_cast<int>(cells.size() * n), [&](const Exec& runEx, int k) {
        const Stopwatch doorClock;
        const double cell = cells[k / n], w = widths[k % n];
        const std::string grid = formatValue(cell, 3, "m") + " cells";
        DoorFlowResult d;
        d.title = "Door " + formatValue(w, 1) + " m, " + grid;
        d.width = w;
        const std::string text = roomWithDoorScene(w, cell);
        d.scenes.push_back(SceneUse{"room_door_" + formatValue(w, 1) + "m_h" + formatValue(cell, 3), "", text});
        Simulation sim(validationScene(parseScene(text, "room_door")), runEx);

        // the door's faces carry its width exactly, not a whole number of cells
        const std::string door = ", " + formatValue(w, 1) + " m door, " + grid;
        const double open = openLengthAlong(sim.grid(), 10.0);
        d.require("door width on the grid" + door, formatValue(open, 4, "m"), formatValue(w, 4, "m") + " +- 0.001",
                  std::fabs(open - w) <= 1e-3);

        // flow, then the criteria on it
        measureFlow(sim, d);
        d.criteria.back().name += door;
        d.check("specific flow" + door, formatValue(d.specific, 3, "persons/(m s)"), "1.2-1.9 persons/(m s)",
                d.specific >= kSeriesSpecificMin && d.specific <= kSeriesSpecificMax);
        d.wall_seconds = doorClock.seconds();
        return d;
    });
    // the flow grows with the width on each grid
    for (std::size_t k = 0; k < doors.size(); ++k) {
        DoorFlowResult& d = doors[k];
        const double previous = k % n ? doors[k - 1].persons : 0.0;
        d.check("flow grows with width, " + formatValue(d.width, 1) + " m door, " + formatValue(cells[k / n], 3, "m") + " cells",
                formatValue(d.persons, 3, "persons/s"),
                "> " + formatValue(previous, 3, "persons/s") + (previous > 0 ? " (previous door)" : ""), d.persons > previous);
        r.scenes.push_back(d.scenes.back());
        r.criteria.insert(r.criteria.end(), d.criteria.begin(), d.criteria.end());
        r.preconditions.insert(r.preconditions.end(), d.preconditions.begin(), d.preconditions.end());
    }
    r.doors = std::move(doors);
    // each width's flow on every finer grid against the first grid's
    for (std::size_t c = 1; c < cells.size(); ++c)
        for (std::size_t k = 0; k < n; ++k) {
            const DoorFlowResult& a = r.doors[k];
            const DoorFlowResult& b = r.doors[c * n + k];
            const double change = a.persons > 0.0 ? (b.persons - a.persons) / a.persons : 1.0;
            r.check("flow independent of the grid, " + formatValue(widths[k], 1) + " m door, " +
                        formatValue(cells[c], 3, "m") + " against " + formatValue(cells[0], 3, "m") + " cells",
                    formatValue(100.0 * change, 1, "%"), "within +-10%", std::fabs(change) <= kGridTolerance);
        }
    r.wall_seconds = clock.seconds();
    return r;
}

}  // namespace ccrowd::validate
