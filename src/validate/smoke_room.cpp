/// @file smoke_room.cpp
/// Herding in a smoke-filled room with the social force model (Helbing,
/// Farkas & Vicsek, "Simulating dynamical features of escape panic", Nature
/// 407, 2000, Fig. 3): persons who cannot see the two exits search
/// (stage `search`, a group's `visibility`) and mix their own direction with
/// their neighbours' by the panic p. Individualists (p = 0) use both exits
/// alike, herds (p = 1) crowd into one, and a mixture escapes best.

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "ccrowd/error.hpp"
#include "ccrowd/scene.hpp"
#include "cases.hpp"
#include "run_pool.hpp"
#include "stopwatch.hpp"

namespace ccrowd::validate {

namespace {

constexpr int kPersons = 90;
constexpr double kLimit = 150.0;        // persons out are counted at this time [s]
constexpr double kEqualShare = 0.6;     // p = 0: the busier exit's share, at most
constexpr double kOneExitShare = 0.7;   // p = 1: the busier exit's share, at least

}  // namespace

std::string smokeRoomScene(double panic, int seed) {
    std::ostringstream j;
    j << R"({"format": "ccrowd-scene", "version": 1, "name": "smoke_room",
      "domain": {"width": 16.5, "height": 15, "cell": 0.25},
      "obstacles": [{"rect": {"min": [1, 0], "max": [1.5, 3.25]}}, {"rect": {"min": [1, 4.25], "max": [1.5, 10.75]}},
                    {"rect": {"min": [1, 11.75], "max": [1.5, 15]}}],
      "goals": [{"name": "outside", "areas": [{"rect": {"min": [0, 0], "max": [0.75, 15]}}]}],
      "groups": [{"name": "occupants", "spawn": [{"rect": {"min": [2, 0.5], "max": [16, 14.5]}}], "count": )" << kPersons
      << R"(, "speed": 1.5, "radius": 0.25, "route": ["outside"], "panic": )" << panic << R"(, "visibility": 2}],
      "model": {"local": "social_force", "v0": 1.5, "social_force": {"panic_radius": 2}, "duration": 150, "seed": )"
      << seed << R"(}})";
    return j.str();
}

SmokeRoomResult smokeRoom(const Exec& ex, const std::vector<double>& panics, const std::vector<int>& seeds) {
    if (panics.size() < 3 || !std::is_sorted(panics.begin(), panics.end()) || panics.front() != 0.0 || panics.back() != 1.0)
        throw InputError("smokeRoom: needs >= 3 ascending panics from 0 to 1");
    if (seeds.empty()) throw InputError("smokeRoom: needs >= 1 seed");
    const Stopwatch clock;
    SmokeRoomResult r;
    r.title = "Social force: herding in a smoke-filled room";
    r.description = "90 persons (social force, 1.5 m/s, radius 0.25 m) in a 15 m x 15 m room whose two 1 m exits (west "
                    "wall, 7.5 m apart) they see only within 2 m; farther away they search (own heading, along walls) "
                    "and herd with the neighbours within 2 m by the panic p; persons out after 150 s and the busier "
                    "exit's share, averaged over the seeds.";
    r.source = "Helbing, Farkas & Vicsek 2000 (Nature 407), Fig. 3: individualists use both exits, herds crowd into one, "
               "a mixture (p about 0.4) escapes best";
    r.panics = panics;
    r.seeds = static_cast<int>(seeds.size());
    r.limit = kLimit;
    // every panic with every seed, at once where the backend allows: persons placed, out of each exit
    struct Run { int placed = 0, south = 0, north = 0; };
    const std::size_t n = seeds.size();
    for (double p : panics)
        for (int seed : seeds)
            r.scenes.push_back(SceneUse{"smoke_room_p" + formatValue(p, 1) + "_seed" + std::to_string(seed), "", smokeRoomScene(p, seed)});
    const std::vector<Run> runs = mapRuns<Run>(ex, static_cast<int>(panics.size() * n), [&](const Exec& runEx, int k) {
        Simulation sim(validationScene(parseScene(r.scenes[k].json, r.scenes[k].name)), runEx);
        Run run;
        run.placed = sim.agentCount();
        while (sim.exitedTotal() < kPersons && sim.time() < kLimit - 1e-9) sim.step();
        // which exit: the south one below the room's middle
        for (const ExitRecord& e : sim.exits()) (e.y < 7.5f ? run.south : run.north)++;
        return run;
    });
    r.require("persons placed", std::to_string(runs.front().placed), std::to_string(kPersons), runs.front().placed == kPersons);
    for (std::size_t a = 0; a < panics.size(); ++a) {
        double out = 0.0, busier = 0.0;
        for (std::size_t k = 0; k < n; ++k) {
            const Run& run = runs[a * n + k];
            const int both = run.south + run.north;
            out += both;
            busier += both > 0 ? static_cast<double>(std::max(run.south, run.north)) / both : 0.0;
        }
        r.escaped.push_back(out / static_cast<double>(n));
        r.busier_share.push_back(busier / static_cast<double>(n));
    }
    const std::size_t last = panics.size() - 1;
    // individualists use both exits alike, herds crowd into one
    r.check("busier exit's share at p = 0", formatValue(r.busier_share.front(), 2), "<= " + formatValue(kEqualShare, 2),
            r.busier_share.front() <= kEqualShare);
    r.check("busier exit's share at p = 1", formatValue(r.busier_share[last], 2), ">= " + formatValue(kOneExitShare, 2),
            r.busier_share[last] >= kOneExitShare);
    // a mixture escapes best, herding alone worst of the ends
    const std::size_t best = static_cast<std::size_t>(std::max_element(r.escaped.begin(), r.escaped.end()) - r.escaped.begin());
    std::ostringstream all;
    for (std::size_t k = 0; k < panics.size(); ++k)
        all << (k ? ", " : "") << formatValue(panics[k], 1) << ": " << formatValue(r.escaped[k], 1);
    r.check("panic with the most persons out by 150 s (" + all.str() + ")", formatValue(panics[best], 1),
            "strictly between 0 and 1", best > 0 && best < last);
    r.check("persons out by 150 s at p = 1 against p = 0", formatValue(r.escaped[last], 1) + " vs " +
            formatValue(r.escaped.front(), 1), "fewer at p = 1", r.escaped[last] < r.escaped.front());
    r.wall_seconds = clock.seconds();
    return r;
}

}  // namespace ccrowd::validate
