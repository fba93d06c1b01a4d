/// @file faster_is_slower.cpp
/// Faster-is-slower with the social force model (Helbing, Farkas & Vicsek,
/// "Simulating dynamical features of escape panic", Nature 407, 2000, Fig.
/// 1c): 200 persons leave a 15 m x 15 m room through a 1 m door; beyond a
/// desired speed of about 1.5-3 m/s the clogging at the door (body forces
/// and friction) makes the evacuation slower, not faster.

#include <algorithm>
#include <cmath>
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

constexpr double kLimit = 600.0;   // give up after this [s]
constexpr double kSignificance = 2.0;  // the rise beyond the minimum, in standard errors of the difference, at least
constexpr int kPersons = 200;
// the finer integration's mean time within this fraction of the default's: over seeds 1-24 at 5 m/s the means of
// six seeds differed by 0.1, -1.9, -7.4 and 0.2% at step_scale 0.5 (3.7% standard deviation from the seeds alone,
// bench/results/social_force_step_scale_2026-12-03_cpu2.md); the 15% an earlier force split was off would fail
constexpr double kConverged = 0.10;

/// Mean and standard deviation (n - 1) of @p v. [Limit: v.size() >= 2]
void meanSd(const std::vector<double>& v, double& mean, double& sd) {
    double s = 0.0, q = 0.0;
    for (double x : v) s += x;
    mean = s / static_cast<double>(v.size());
    for (double x : v) q += (x - mean) * (x - mean);
    sd = std::sqrt(q / static_cast<double>(v.size() - 1));
}

}  // namespace

std::string fasterIsSlowerScene(double v0, int seed, double stepScale) {
    std::ostringstream j;
    j << R"({"format": "ccrowd-scene", "version": 1, "name": "faster_is_slower",
      "domain": {"width": 20, "height": 15, "cell": 0.25},
      "obstacles": [{"rect": {"min": [15, 0], "max": [15.5, 7]}}, {"rect": {"min": [15, 8], "max": [15.5, 15]}}],
      "goals": [{"name": "outside", "areas": [{"rect": {"min": [19, 0], "max": [20, 15]}}]}],
      "groups": [{"name": "occupants", "spawn": [{"rect": {"min": [0.5, 0.5], "max": [14.5, 14.5]}}], "count": 200,
                  "speed": )" << v0 << R"(, "radius": 0.25, "route": ["outside"]}],
      "model": {"local": "social_force", "v0": )" << v0 << R"(, "rho_min": 19, "rho_max": 20, "rho_jam": 20,
                "gamma_fd": 100, )" << (stepScale < 1.0 ? R"("social_force": {"step_scale": )" + formatValue(stepScale, 3) + "}, " : "")
      << R"("duration": 600, "seed": )" << seed << R"(}})";
    return j.str();
}

FasterIsSlowerResult fasterIsSlower(const Exec& ex, const std::vector<double>& speeds, const std::vector<int>& seeds,
                                    double stepScale) {
    if (speeds.size() < 3 || !std::is_sorted(speeds.begin(), speeds.end()))
        throw InputError("fasterIsSlower: needs >= 3 ascending speeds");
    if (seeds.size() < 2) throw InputError("fasterIsSlower: needs >= 2 seeds");
    if (!(stepScale == 0.0 || (stepScale >= 0.01 && stepScale < 1.0)))
        throw InputError("fasterIsSlower: stepScale " + std::to_string(stepScale) + " (allowed: 0, or 0.01 <= scale < 1)");
    const bool fine = stepScale > 0.0;
    const Stopwatch clock;
    FasterIsSlowerResult r;
    r.title = "Social force: faster-is-slower";
    r.description = "200 persons (social force, radius 0.25 m) leave a 15 m x 15 m room through a 1 m door at desired "
                    "speeds 1-5 m/s, " + std::to_string(seeds.size()) + " seeds each; the time of the last exit is "
                    "measured and averaged over the seeds." +
                    (fine ? " The fastest speed runs again with the integrator's outer step and sub-step times " +
                                formatValue(stepScale, 2) + ": its mean time shows whether the integration has converged."
                          : std::string());
    r.source = "Helbing, Farkas & Vicsek 2000 (Nature 407), Fig. 1c: the evacuation time has a minimum against the "
               "desired speed and rises beyond it";
    r.speeds = speeds;
    for (double v : speeds)
        r.scenes.push_back(SceneUse{"faster_is_slower_" + formatValue(v, 1) + "mps", "", fasterIsSlowerScene(v, seeds.front())});
    if (fine)
        r.scenes.push_back(SceneUse{"faster_is_slower_" + formatValue(speeds.back(), 1) + "mps_step_scale_" + formatValue(stepScale, 2),
                                    "", fasterIsSlowerScene(speeds.back(), seeds.front(), stepScale)});
    // every (speed, seed) room, at once where the backend allows, the finer integration's last: persons placed and
    // out, the last exit, the end
    struct Run { int placed = 0; long long exited = 0; double last = -1.0, end = 0.0; };
    const int S = static_cast<int>(seeds.size());
    const int V = static_cast<int>(speeds.size());
    const std::vector<Run> runs = mapRuns<Run>(ex, (V + (fine ? 1 : 0)) * S, [&](const Exec& runEx, int k) {
        const int c = k / S;  // the scene: a speed, or V for the finer integration
        const double v = c < V ? speeds[static_cast<std::size_t>(c)] : speeds.back();
        const std::string text = fasterIsSlowerScene(v, seeds[static_cast<std::size_t>(k % S)], c < V ? 1.0 : stepScale);
        Simulation sim(validationScene(parseScene(text, r.scenes[static_cast<std::size_t>(c)].name)), runEx);
        Run run;
        run.placed = sim.agentCount();
        // run until everyone left (or the limit)
        while (sim.exitedTotal() < kPersons && sim.time() < kLimit) sim.step();
        for (const ExitRecord& e : sim.exits()) run.last = std::max(run.last, e.time);
        run.exited = sim.exitedTotal();
        run.end = sim.time();
        return run;
    });
    // scene c's rooms over the seeds: fewest placed and out, persons out, the latest end, and the last exit's
    // mean and standard deviation when every room emptied (-1, 0 otherwise)
    struct Rooms { int placed = kPersons; long long exited = 0, fewest = kPersons; double latest = 0.0, mean = -1.0, sd = 0.0; };
    const auto rooms = [&](int c) {
        Rooms b;
        std::vector<double> times;
        for (int s = 0; s < S; ++s) {
            const Run& run = runs[static_cast<std::size_t>(c * S + s)];
            b.placed = std::min(b.placed, run.placed);
            b.exited += run.exited;
            b.fewest = std::min(b.fewest, run.exited);
            b.latest = std::max(b.latest, run.end);
            times.push_back(run.last);
        }
        if (b.fewest == kPersons) meanSd(times, b.mean, b.sd);
        return b;
    };
    bool allLeft = true;
    for (int k = 0; k < V; ++k) {
        const double v = speeds[static_cast<std::size_t>(k)];
        const Rooms b = rooms(k);
        r.require("persons placed at " + formatValue(v, 1, "m/s") + ", fewest of the seeds", std::to_string(b.placed),
                  std::to_string(kPersons), b.placed == kPersons);
        const bool all = b.fewest == kPersons;
        allLeft = allLeft && all;
        r.exited.push_back(b.exited / S);
        r.times.push_back(b.mean);
        r.sd.push_back(b.sd);
        r.check("all left at " + formatValue(v, 1, "m/s") + " in every seed",
                "fewest " + std::to_string(b.fewest) + " by " + formatValue(b.latest, 1, "s"),
                std::to_string(kPersons) + " within 600 s", all);
    }
    // the minimum of the seeds' means lies strictly inside the range of speeds
    const std::size_t best = static_cast<std::size_t>(std::min_element(r.times.begin(), r.times.end(),
        [](double a, double b) { return (a < 0 ? 1e300 : a) < (b < 0 ? 1e300 : b); }) - r.times.begin());
    std::ostringstream times;
    for (std::size_t k = 0; k < speeds.size(); ++k)
        times << (k ? ", " : "") << formatValue(speeds[k], 1) << ": " << formatValue(r.times[k], 1) << " +- "
              << formatValue(r.sd[k], 1, "s");
    r.check("speed of the fastest evacuation, mean of the seeds (" + times.str() + ")", formatValue(speeds[best], 1, "m/s"),
            "strictly between " + formatValue(speeds.front(), 1) + " and " + formatValue(speeds.back(), 1, "m/s"),
            allLeft && best > 0 && best + 1 < speeds.size());
    // and the time rises beyond it by more than the seeds' spread: the difference of the means in
    // standard errors (the seeds of a speed are independent rooms)
    const double se = std::sqrt((r.sd.back() * r.sd.back() + r.sd[best] * r.sd[best]) / S);
    const double rise = allLeft && se > 0.0 ? (r.times.back() - r.times[best]) / se : 0.0;
    r.check("time at " + formatValue(speeds.back(), 1, "m/s") + " over the minimum (" +
                formatValue(r.times.back() / (r.times[best] > 0.0 ? r.times[best] : 1.0), 2) + " times), in standard errors",
            formatValue(rise, 1), ">= " + formatValue(kSignificance, 1), allLeft && rise >= kSignificance);
    // the integration has converged: the fastest speed's rooms with finer steps take the same time
    if (fine) {
        const Rooms f = rooms(V);
        const double base = r.times.back();
        const bool ok = f.fewest == kPersons && base > 0.0;
        const double off = ok ? (f.mean - base) / base : 0.0;
        const double se = std::sqrt((f.sd * f.sd + r.sd.back() * r.sd.back()) / S);
        const std::string means = ok ? " (" + formatValue(f.mean, 1) + " +- " + formatValue(f.sd, 1, "s") + " against " +
                                           formatValue(base, 1) + " +- " + formatValue(r.sd.back(), 1, "s") + ": " +
                                           formatValue(se > 0.0 ? (f.mean - base) / se : 0.0, 1) + " standard errors)"
                                     : "";
        r.check("the integration converged at " + formatValue(speeds.back(), 1, "m/s") + ": mean time with step_scale " +
                    formatValue(stepScale, 2) + " against the default's" + means,
                ok ? formatValue(100.0 * off, 1) + "%" : "fewest out " + std::to_string(f.fewest) + " of " + std::to_string(kPersons),
                "within " + formatValue(100.0 * kConverged, 0) + "%", ok && std::abs(off) <= kConverged);
    }
    r.wall_seconds = clock.seconds();
    return r;
}

}  // namespace ccrowd::validate
