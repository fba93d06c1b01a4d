/// @file uic_density.cpp
/// The UIC limit measured on the crowd (issue 17, Deliver 2): a scene whose
/// crowd reaches the limit (the pressure acts), run to its end, with the
/// local density of the agents' positions after every step against
/// rho_limit (Narain et al. 2009 §4: the crowd compresses up to rho_max and
/// not beyond; the UIC holds its 1 m cells there, the minimum distance
/// holds the packing inside them).

#include <algorithm>
#include <string>

#include "body_checks.hpp"
#include "ccrowd/scene.hpp"
#include "cases.hpp"
#include "stopwatch.hpp"

namespace ccrowd::validate {

UicDensityResult uicDensity(const Exec& ex, const std::string& name) {
    const Stopwatch clock;
    UicDensityResult r;
    r.scene = name;
    r.title = "UIC density limit: " + name;
    r.description = "The scene " + name + " run to its end; after every step the local density of the agents' "
                    "positions (Gaussian kernel, R = " + formatValue(kLocalDensityRadius, 1, "m") +
                    ", per m^2 of open floor) at every open cell centre, against the scene's rho_limit.";
    r.source = "Narain et al. 2009 (unilateral incompressibility: density <= rho_max); local density of Helbing, "
               "Johansson & Al-Abideen 2007; limit 5.4 persons/m^2 = Weidmann's jam density";
    const std::string path = bundledScene(name);
    r.scenes.push_back(SceneUse{name, path, ""});

    Simulation sim(validationScene(loadScene(path)), ex);
    const LocalDensity density(sim.grid(), kLocalDensityRadius);
    r.rho_limit = sim.scene().params.rho_limit;
    r.d_min = sim.scene().params.d_min;
    while (!sim.finished()) {
        sim.step();
        ++r.steps;
        // the UIC acted in this step
        const Field<float>& p = sim.pressure();
        if (std::any_of(p.host(), p.host() + p.size(), [](float v) { return v > 0.f; })) ++r.pressure_steps;
        // the crowd's density where it is highest
        Vec2 at;
        const double d = density.largest(sim.agents(), &at);
        if (d > r.max_density) {
            r.max_density = d;
            r.max_at = sim.time();
            r.max_where = at;
        }
    }
    r.exited = sim.exitedTotal();
    r.spawned = sim.spawnedTotal();

    r.require("steps with pressure > 0 (the limit is reached)",
              std::to_string(r.pressure_steps) + " of " + std::to_string(r.steps), ">= 1", r.pressure_steps > 0);
    r.check("largest local density of the positions",
            formatValue(r.max_density, 2, "persons/m^2") + " at t = " + formatValue(r.max_at, 2, "s") + ", (" +
                formatValue(r.max_where.x, 2) + ", " + formatValue(r.max_where.y, 2) + ") m",
            "<= " + formatValue(r.rho_limit, 2) + " (rho_limit)", r.max_density <= r.rho_limit);
    r.wall_seconds = clock.seconds();
    return r;
}

}  // namespace ccrowd::validate
