/// @file models_compared.cpp
/// The operational models side by side (issue 14, Deliver 2): every model
/// behind model.local walks RiMEA tests 1 and 6 (criteria), and the
/// fundamental diagram is measured per model and reported against
/// Weidmann's curve, and the room exit's door flow is held to the 1.0-2.0
/// persons/(m s) band the uic passes (issue 14), on one plot and one table.

#include <algorithm>
#include <string>

#include "cases.hpp"
#include "run_pool.hpp"
#include "stopwatch.hpp"

namespace ccrowd::validate {

namespace {

/// Copies @p from's criteria and preconditions into @p to, each name
/// prefixed with @p from's title.
void adopt(CaseResult& to, const CaseResult& from) {
    for (const Criterion& c : from.criteria) to.check(from.title + ": " + c.name, c.measured, c.allowed, c.pass);
    for (const Criterion& c : from.preconditions) to.require(from.title + ": " + c.name, c.measured, c.allowed, c.pass);
    to.scenes.insert(to.scenes.end(), from.scenes.begin(), from.scenes.end());
}

}  // namespace

ModelsResult compareModels(const Exec& ex, const std::vector<std::string>& models, const std::vector<double>& densities,
                           const FundamentalDiagramResult& uicFundamental, const DoorFlowResult& uicDoor) {
    const Stopwatch clock;
    ModelsResult r;
    r.title = "Operational models compared";
    r.description = "Every operational model (model.local) other than uic walks RiMEA tests 1 and 6 and holds the "
                    "density corridors of the fundamental diagram; the room exit's door flow is measured per model. "
                    "RiMEA 1 and 6, a crowd that slows as it densifies and the door flow within 1.0-2.0 persons/(m s) "
                    "are criteria; the fundamental diagram against Weidmann's +-25% is reported, not counted.";
    r.source = "RiMEA guideline tests 1 and 6; Weidmann 1993; door flow as in the door-flow cases";
    // uic first, from the runs its own cases made
    r.models.push_back("uic");
    r.fundamental.push_back(uicFundamental);
    r.door.push_back(uicDoor);
    // RiMEA 1 and 6 are one small run each (one thread); the diagram's densities and the door's seeds run at once
    const Exec lone = loneRun(ex);
    for (const std::string& m : models) {
        if (m == "uic") continue;
        r.models.push_back(m);
        // RiMEA 1 and 6 under this model: their criteria count here
        r.corridor.push_back(corridorCrossing(lone, 0.25f, m));
        adopt(r, r.corridor.back());
        r.l_corner.push_back(lCorner(lone, m));
        adopt(r, r.l_corner.back());
        // the fundamental diagram: the crowd slows as it densifies (Weidmann: 3% of the sparse speed at 5 persons/m^2)
        r.fundamental.push_back(fundamentalDiagram(ex, densities, m));
        for (const Criterion& c : r.fundamental.back().preconditions)
            r.require(r.fundamental.back().title + ": " + c.name, c.measured, c.allowed, c.pass);
        const std::vector<FundamentalPoint>& pts = r.fundamental.back().points;
        if (!pts.empty()) {
            const bool moving = std::all_of(pts.begin(), pts.end(), [](const FundamentalPoint& p) { return p.speed > 0.0; });
            const double sparse = pts.front().speed, dense = pts.back().speed;
            r.check("fundamental diagram (" + m + "): slows as it densifies",
                    formatValue(dense, 3, "m/s") + " at " + formatValue(pts.back().target, 1) + " persons/m^2, " +
                        formatValue(sparse, 3, "m/s") + " at " + formatValue(pts.front().target, 1),
                    "> 0 at every density, densest < 0.25 x sparsest", moving && dense < 0.25 * sparse);
        }
        // the door: the band the uic passes (its criteria count here)
        r.door.push_back(roomExitFlow(ex, m));
        adopt(r, r.door.back());
    }
    r.wall_seconds = clock.seconds();
    return r;
}

}  // namespace ccrowd::validate
