/// @file scene_model.cpp
/// "model": {...} -> ModelParams. Absent keys keep ModelParams' defaults.

#include "parse_shapes.hpp"
#include "scene_internal.hpp"

namespace ccrowd::scene_detail {

namespace {

/// Reads member @p key into @p out when present.
void readF(const Node& n, const char* key, const Range& r, float& out) {
    if (n.has(key)) out = n.get(key, "").numberF(r);
}

}  // namespace

ModelParams parseModel(const Node& n) {
    n.object({"alpha", "beta", "gamma", "rho_min", "rho_max", "rho_limit", "v0", "rho_jam", "gamma_fd", "d_min", "dt",
              "duration", "max_steps", "seed", "box_margin", "pressure_iterations", "pressure_tolerance",
              "separation_passes", "perception_radius", "pressure_omega", "potential_warm_start", "local"});
    ModelParams p;
    // Unit-cost weights (Treuille 2006 eq. 4).
    readF(n, "alpha", closed(0, 1e3), p.alpha);
    readF(n, "beta", closed(0, 1e3), p.beta);
    readF(n, "gamma", closed(0, 1e3), p.gamma);
    if (!(p.alpha + p.beta > 0)) {
        (n.has("beta") ? n.get("beta", "") : n.get("alpha", ""))
            .fail("alpha and beta are both 0: the unit cost would be 0", "alpha + beta > 0");
    }
    // Speed field and fundamental diagram (Treuille 2006 §4.2; Weidmann 1993).
    readF(n, "rho_min", closed(0, 20, "1/m^2"), p.rho_min);
    readF(n, "rho_max", openClosed(0, 20, "1/m^2"), p.rho_max);
    if (!(p.rho_max > p.rho_min)) {
        (n.has("rho_max") ? n.get("rho_max", "") : n.get("rho_min", ""))
            .fail("rho_max must exceed rho_min (rho_min " + formatNumber(p.rho_min) + ", rho_max " +
                      formatNumber(p.rho_max) + ")",
                  "rho_min < rho_max [1/m^2]");
    }
    readF(n, "perception_radius", closed(0, 100, "m"), p.perception_radius);  // speed field's density window
    readF(n, "rho_limit", openClosed(0, 20, "1/m^2"), p.rho_limit);
    readF(n, "v0", openClosed(0, 10, "m/s"), p.v0);
    readF(n, "rho_jam", openClosed(0, 20, "1/m^2"), p.rho_jam);
    readF(n, "gamma_fd", openClosed(0, 100, "1/m^2"), p.gamma_fd);
    // Minimum distance, time stepping, randomness.
    readF(n, "d_min", closed(0, 5, "m"), p.d_min);
    readF(n, "dt", openClosed(0, 1, "s"), p.dt);
    if (n.has("duration")) p.duration = n.get("duration", "").number(openClosed(0, 1e7, "s"));
    if (n.has("max_steps")) {
        const Node v = n.get("max_steps", "");
        const char* allowed = "-1 (no limit) or an integer 1..1000000000000";
        p.max_steps = v.integer(-1, 1'000'000'000'000, allowed);
        if (p.max_steps == 0) v.fail("out of range", allowed);
    }
    if (n.has("seed")) p.seed = n.get("seed", "").uint64();
    readF(n, "box_margin", closed(0, 1e4, "m"), p.box_margin);
    // UIC pressure solve and separation.
    if (n.has("pressure_iterations")) {
        p.pressure_iterations = static_cast<int>(n.get("pressure_iterations", "").integer(1, 100000));
    }
    readF(n, "pressure_tolerance", openClosed(0, 10, "1/m^2"), p.pressure_tolerance);
    readF(n, "pressure_omega", Range{1, 2, false, true, ""}, p.pressure_omega);  // [1, 2): SOR converges below 2
    if (n.has("separation_passes")) {
        p.separation_passes = static_cast<int>(n.get("separation_passes", "").integer(0, 100));
    }
    // Potential stage: each step's FIM starts from the last step's potentials.
    if (n.has("potential_warm_start")) p.potential_warm_start = n.get("potential_warm_start", "").boolean();
    // Operational (local) model that turns preferred velocities into moves.
    if (n.has("local")) {
        const Node v = n.get("local", "");
        p.local = v.string();
        if (p.local != "uic") v.fail("no such operational model", "'uic' (UIC pressure + minimum distance)");
    }
    return p;
}

}  // namespace ccrowd::scene_detail
