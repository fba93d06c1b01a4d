/// @file fundamental_diagram.cpp
/// Speed against density in a corridor held at a density, compared with
/// Weidmann's (1993) fundamental diagram, the curve the speed field's free
/// speed follows (DESIGN.md §5; Treuille et al. 2006, §4.2).

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "ccrowd/scene.hpp"
#include "cases.hpp"
#include "run_pool.hpp"
#include "stopwatch.hpp"

namespace ccrowd::validate {

namespace {

constexpr double kFreeSpeed = 1.34;       // Weidmann's v0, the crowd's free speed [m/s]
constexpr double kSpeedTolerance = 0.25;  // allowed |mean speed / Weidmann - 1| (issue 17, Deliver 3)
constexpr double kHeldTolerance = 0.15;   // allowed relative deviation of the section's density
constexpr double kSectionX0 = 12.0, kSectionX1 = 22.0, kCorridorWidth = 4.0;  // measured section [m]
constexpr double kFirstSample = 2.0, kLastSample = 6.0;  // sampling window [s]
constexpr int kSampleEvery = 10;          // steps between samples (0.5 s at dt = 0.05 s)

/// Samples the middle section of the density corridor every 0.5 s for t in
/// [2, 6] s (after the start from rest, before the crowd's ends reach it).
FundamentalPoint measure(const Exec& ex, double rho, const std::string& local) {
    // the corridor under the operational model local ("": uic)
    Simulation sim(validationScene(parseScene(densityCorridorScene(rho, local), "density_corridor")), ex);
    const double area = (kSectionX1 - kSectionX0) * kCorridorWidth;
    FundamentalPoint m;
    m.target = rho;
    m.weidmann = weidmannSpeed(rho);
    m.sfpe = sfpeSpeed(rho);
    m.density_lo = std::numeric_limits<double>::infinity();
    while (sim.time() < kLastSample - 1e-9) {
        sim.step();
        if (sim.time() < kFirstSample - 1e-9 || sim.steps() % kSampleEvery != 0) continue;
        // one sample: count, mean v_x and mean |v| of the agents in the section
        const AgentSnapshot a = sim.agents();
        double vx = 0.0, v = 0.0;
        int n = 0;
        for (int k = 0; k < a.size(); ++k) {
            if (a.x[k] < kSectionX0 || a.x[k] >= kSectionX1) continue;
            vx += a.vx[k];
            v += std::hypot(a.vx[k], a.vy[k]);
            m.free_speed = std::max(m.free_speed, static_cast<double>(a.vmax[k]));
            ++n;
        }
        if (n == 0) continue;
        const double d = n / area;
        m.density += d;
        m.density_lo = std::min(m.density_lo, d);
        m.density_hi = std::max(m.density_hi, d);
        m.speed += vx / n;
        m.fastest_mean = std::max(m.fastest_mean, v / n);
        ++m.samples;
    }
    // means over the samples (NaN when the section was always empty)
    m.density = m.samples > 0 ? m.density / m.samples : std::nan("");
    m.speed = m.samples > 0 ? m.speed / m.samples : std::nan("");
    return m;
}

}  // namespace

double weidmannSpeed(double rho) { return 1.34 * (1.0 - std::exp(-1.913 * (1.0 / rho - 1.0 / 5.4))); }

double sfpeSpeed(double rho) {
    // S = k (1 - a D), k = 1.40 m/s (corridors), a = 0.266 m^2/person; free speed 0.85 k below 0.54 persons/m^2
    return std::clamp(1.40 * (1.0 - 0.266 * rho), 0.0, 0.85 * 1.40);
}

std::string densityCorridorScene(double rho, const std::string& local) {
    std::ostringstream j;
    j << R"({"format": "ccrowd-scene", "version": 1, "name": "density_corridor",
      "domain": {"width": 60, "height": 4, "cell": 0.25},
      "goals": [{"name": "end", "areas": [{"rect": {"min": [59, 0], "max": [60, 4]}}]}],
      "groups": [{"name": "crowd", "spawn": [{"rect": {"min": [2, 0], "max": [32, 4]}}], "density": )"
      << rho << R"(, "speed": 1.34, "route": ["end"]}],
      "model": {"seed": 3, "d_min": 0.4)" << (local.empty() ? "" : R"(, "local": ")" + local + "\"") << "}}";
    return j.str();
}

FundamentalDiagramResult fundamentalDiagram(const Exec& ex, const std::vector<double>& densities,
                                            const std::string& local) {
    const Stopwatch clock;
    FundamentalDiagramResult r;
    r.title = std::string("Fundamental diagram") + (local.empty() ? "" : " (" + local + ")");
    r.description = "A 60 m x 4 m corridor whose first 30 m hold a crowd at a given density walking east (free speed "
                    "1.34 m/s); density and mean speed are sampled every 0.5 s for t in 2-6 s in the section x in 12-22 m. "
                    "d_min is the bodies' diameter, 0.4 m: at the default (0.46 m, hexagonal packing at rho_limit) "
                    "4.5 and 5 persons/m^2 are 83% and 93% of the closest packing, more than the initial placement "
                    "can seed.";
    r.source = "Weidmann 1993 (U. Weidmann, Transporttechnik der Fussgaenger, IVT ETH Zurich); reported beside it: "
               "SFPE Handbook (Nelson and Mowrer, emergency movement: v = 1.40 (1 - 0.266 rho) m/s)";
    // every density's corridor, at once where the backend allows
    const std::vector<FundamentalPoint> points = mapRuns<FundamentalPoint>(
        ex, static_cast<int>(densities.size()), [&](const Exec& runEx, int k) { return measure(runEx, densities[k], local); });
    for (std::size_t k = 0; k < densities.size(); ++k) {
        const double rho = densities[k];
        const FundamentalPoint& m = points[k];
        r.points.push_back(m);
        r.scenes.push_back(SceneUse{"density_corridor_rho" + formatValue(rho, 1) + (local.empty() ? "" : "_" + local), "",
                                    densityCorridorScene(rho, local)});
        const std::string at = " at " + formatValue(rho, 1) + " persons/m^2";
        // the corridor is held at rho while measuring
        const std::string range = formatValue(m.density_lo, 2) + " to " + formatValue(m.density_hi, 2);
        r.require("section density" + at, range + " (mean " + formatValue(m.density, 2) + ")",
                formatValue((1 - kHeldTolerance) * rho, 3) + " to " + formatValue((1 + kHeldTolerance) * rho, 3) + " (+-15%)",
                m.samples > 0 && std::fabs(m.density_lo - rho) <= kHeldTolerance * rho &&
                    std::fabs(m.density_hi - rho) <= kHeldTolerance * rho);
        // Weidmann's curve within 25% (relative: a stopped crowd fails at every density), and moving
        const double rel = m.speed / m.weidmann - 1.0;
        r.check("mean speed" + at,
                formatValue(m.speed, 3, "m/s") + " (" + (rel >= 0 ? "+" : "") + formatValue(100.0 * rel, 0) +
                    "% of Weidmann; SFPE " + formatValue(m.sfpe, 3) + ")",
                "> 0 and " + formatValue((1 - kSpeedTolerance) * m.weidmann, 3) + " to " +
                    formatValue((1 + kSpeedTolerance) * m.weidmann, 3) + " m/s (Weidmann " + formatValue(m.weidmann, 3) +
                    " +- 25%)",
                m.speed > 0.0 && std::fabs(rel) <= kSpeedTolerance);
        // never above the free speed
        r.require("fastest mean |v|, largest vmax" + at,
                formatValue(m.fastest_mean, 3) + ", " + formatValue(m.free_speed, 3) + " m/s", "<= 1.340 m/s",
                m.fastest_mean <= kFreeSpeed + 1e-6 && m.free_speed <= kFreeSpeed + 1e-6);
    }
    r.wall_seconds = clock.seconds();
    return r;
}

}  // namespace ccrowd::validate
