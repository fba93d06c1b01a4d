/// @file run_validation.cpp
/// Every case of `ccrowd validate`, in report order.

#include "ccrowd/scene.hpp"
#include "cases.hpp"
#include "run_pool.hpp"
#include "sim/operational_model.hpp"

namespace ccrowd::validate {

std::vector<const CaseResult*> ValidationResults::cases() const {
    std::vector<const CaseResult*> all;
    for (const CorridorResult& c : corridor) all.push_back(&c);
    all.push_back(&l_corner);
    all.push_back(&premovement);
    all.push_back(&exits_closed);
    all.push_back(&exit_choice);
    all.push_back(&fundamental);
    all.push_back(&room_exit);
    all.push_back(&door_widths);
    all.push_back(&grid_invariance);
    for (const UicDensityResult& u : uic) all.push_back(&u);
    for (const Seed003Result& s : seed003) all.push_back(&s);
    all.push_back(&faster_is_slower);
    all.push_back(&smoke_room);
    all.push_back(&models);
    return all;
}

bool ValidationResults::passed() const {
    const std::vector<const CaseResult*> all = cases();
    if (all.empty()) return false;
    for (const CaseResult* c : all)
        if (!c->passed()) return false;
    return true;
}

ValidationResults runValidation(const Exec& ex, const CaseDone& done) {
    // every bundled scene loads before the first run: a broken install fails fast
    for (const std::string& name : bundledSceneNames()) (void)loadScene(bundledScene(name));

    // cases of several runs run them at once on the CPU (run_pool.hpp), cases of one small run on one thread
    const Exec lone = loneRun(ex);
    ValidationResults v;
    auto report = [&](const CaseResult& r) {
        if (done) done(r);
    };
    // RiMEA 1 on the shipped grid and on a 0.1 m grid (one person splats up to 100 persons/m^2 into a cell there)
    for (float h : {0.25f, 0.1f}) {
        v.corridor.push_back(corridorCrossing(lone, h));
        report(v.corridor.back());
    }
    v.l_corner = lCorner(lone);
    report(v.l_corner);
    v.premovement = premovementStarts(lone);
    report(v.premovement);
    v.exits_closed = exitsClosed(ex);
    report(v.exits_closed);
    v.exit_choice = exitChoice(lone);
    report(v.exit_choice);
    const std::vector<double> densities{0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0};
    v.fundamental = fundamentalDiagram(ex, densities);
    report(v.fundamental);
    v.room_exit = roomExitFlow(ex);
    report(v.room_exit);
    v.door_widths = doorWidthSeries(ex, {0.8, 1.0, 1.2, 1.4, 1.6, 2.0, 2.4}, {0.25, 0.125});
    report(v.door_widths);
    // eight seeds per angle: one run's evacuation time scatters by about 2.8 s (2%), so the mean of three
    // carried 1.6 s and the spread over the angles moved by a percent with any change of the arithmetic
    // (4.6% and 5.1% on the CPU, 5.3% on an H200); the mean of eight carries 1 s
    v.grid_invariance = gridInvariance(ex, {0.0, 15.0, 30.0, 45.0}, {1, 2, 3, 4, 5, 6, 7, 8});
    report(v.grid_invariance);
    for (const char* name : {"bottleneck", "room_exit"}) {
        v.uic.push_back(uicDensity(lone, name));
        report(v.uic.back());
    }
    for (const char* name : {"seed003_single_goal", "seed003_two_groups", "seed003_four_groups"}) {
        v.seed003.push_back(seed003Scene(lone, name));
        report(v.seed003.back());
    }
    v.faster_is_slower = fasterIsSlower(ex, {1.0, 2.0, 3.0, 4.0, 5.0}, {1, 2, 3, 4, 5, 6}, 0.5);
    report(v.faster_is_slower);
    v.smoke_room = smokeRoom(ex, {0.0, 0.2, 0.4, 0.6, 0.8, 1.0}, {1, 2, 3, 4, 5, 6});
    report(v.smoke_room);
    v.models = compareModels(ex, sim::operationalModelNames(), densities, v.fundamental, v.room_exit);
    report(v.models);
    return v;
}

}  // namespace ccrowd::validate
