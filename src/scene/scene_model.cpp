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

/// Unless @p ok, fails at member @p hiKey (at @p loKey when @p hiKey is
/// absent): "<hiKey> <relation> <loKey> (<loKey> lo, <hiKey> hi)", naming
/// the allowed order.
void requireOrder(const Node& n, bool ok, const char* loKey, float lo, const char* hiKey, float hi,
                  const char* relation, const std::string& allowed) {
    if (ok) return;
    (n.has(hiKey) ? n.get(hiKey, "") : n.get(loKey, ""))
        .fail(std::string(hiKey) + " " + relation + " " + loKey + " (" + loKey + " " + formatNumber(lo) + ", " + hiKey +
                  " " + formatNumber(hi) + ")",
              allowed);
}

/// "social_force": {...} (Helbing 2000's parameters).
SocialForceSpec parseSocialForce(const Node& n) {
    n.object({"A", "B", "k", "kappa", "tau", "mass", "range", "panic", "panic_radius", "max_speed", "injury_threshold",
              "step_scale"});
    SocialForceSpec p;
    readF(n, "A", closed(0, 1e6, "N"), p.A);
    readF(n, "B", openClosed(0, 10, "m"), p.B);
    readF(n, "k", closed(0, 1e7, "kg/s^2"), p.k);
    readF(n, "kappa", closed(0, 1e7, "kg/(m s)"), p.kappa);
    readF(n, "tau", openClosed(0, 100, "s"), p.tau);
    readF(n, "mass", openClosed(0, 1000, "kg"), p.mass);
    readF(n, "range", openClosed(0, 10, "m"), p.range);
    readF(n, "panic", closed(0, 1), p.panic);
    readF(n, "panic_radius", openClosed(0, 10, "m"), p.panic_radius);
    readF(n, "max_speed", openClosed(0, 20, "m/s"), p.max_speed);
    readF(n, "injury_threshold", closed(0, 1e6, "N/m"), p.injury_threshold);
    readF(n, "step_scale", closed(0.01, 1), p.step_scale);
    return p;
}

/// "zones": {...} (seed 000's zone radii and strengths).
ZonesSpec parseZones(const Node& n) {
    n.object({"d1", "d2", "d3", "f1", "f2", "f3", "push_cap"});
    ZonesSpec z;
    readF(n, "d1", openClosed(0, 20, "m"), z.d1);
    readF(n, "d2", openClosed(0, 20, "m"), z.d2);
    readF(n, "d3", openClosed(0, 20, "m"), z.d3);
    readF(n, "f1", closed(0, 10, "m/s"), z.f1);
    readF(n, "f2", closed(0, 10, "m/s"), z.f2);
    readF(n, "f3", closed(0, 10, "m/s"), z.f3);
    readF(n, "push_cap", closed(0, 10), z.push_cap);
    // the zones nest and the strengths fall outward (seed 000 eqs. 4.4-4.5)
    requireOrder(n, z.d1 < z.d2, "d1", z.d1, "d2", z.d2, "must exceed", "0 < d1 < d2 < d3 [m]");
    requireOrder(n, z.d2 < z.d3, "d2", z.d2, "d3", z.d3, "must exceed", "0 < d1 < d2 < d3 [m]");
    requireOrder(n, z.f1 >= z.f2, "f1", z.f1, "f2", z.f2, "must not exceed", "f1 >= f2 >= f3 >= 0 [m/s]");
    requireOrder(n, z.f2 >= z.f3, "f2", z.f2, "f3", z.f3, "must not exceed", "f1 >= f2 >= f3 >= 0 [m/s]");
    return z;
}

/// "orca": {...} (van den Berg et al. 2011, RVO2's agent parameters).
OrcaSpec parseOrca(const Node& n) {
    n.object({"time_horizon", "time_horizon_obst", "neighbour_dist", "max_neighbours"});
    OrcaSpec o;
    readF(n, "time_horizon", openClosed(0, 100, "s"), o.time_horizon);
    readF(n, "time_horizon_obst", openClosed(0, 100, "s"), o.time_horizon_obst);
    readF(n, "neighbour_dist", openClosed(0, 20, "m"), o.neighbour_dist);
    if (n.has("max_neighbours")) o.max_neighbours = static_cast<int>(n.get("max_neighbours", "").integer(1, kOrcaNeighbourLimit));
    return o;
}

}  // namespace

ModelParams parseModel(const Node& n) {
    n.object({"alpha", "beta", "gamma", "rho_min", "rho_max", "rho_limit", "v0", "rho_jam", "gamma_fd", "d_min", "dt",
              "duration", "max_steps", "seed", "box_margin", "pressure_iterations", "pressure_tolerance",
              "separation_passes", "perception_radius", "pressure_omega", "pressure_grid_shift", "potential_warm_start", "potential_stencil",
              "potential_sweeps", "potential_band_tiles", "potential_front_budget", "wall_clearance", "wall_discomfort", "local",
              "social_force", "zones", "orca"});
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
    requireOrder(n, p.rho_max > p.rho_min, "rho_min", p.rho_min, "rho_max", p.rho_max, "must exceed",
                 "rho_min < rho_max [1/m^2]");
    readF(n, "perception_radius", closed(0, 100, "m"), p.perception_radius);  // speed field's density window
    readF(n, "rho_limit", openClosed(0, 20, "1/m^2"), p.rho_limit);
    readF(n, "v0", openClosed(0, 10, "m/s"), p.v0);
    readF(n, "rho_jam", openClosed(0, 20, "1/m^2"), p.rho_jam);
    readF(n, "gamma_fd", openClosed(0, 100, "1/m^2"), p.gamma_fd);
    // Minimum distance, time stepping, randomness.
    readF(n, "d_min", closed(0, 5, "m"), p.d_min);
    if (!n.has("d_min")) p.d_min = minDistanceForDensity(p.rho_limit);  // Narain 2009 §4.1, alpha = 1
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
    if (n.has("pressure_grid_shift")) p.pressure_grid_shift = n.get("pressure_grid_shift", "").boolean();
    if (n.has("separation_passes")) {
        p.separation_passes = static_cast<int>(n.get("separation_passes", "").integer(0, 100));
    }
    // Boundary layer along walls in the discomfort layer (omitted clearance: automatic).
    readF(n, "wall_clearance", closed(0, 10, "m"), p.wall_clearance);
    readF(n, "wall_discomfort", closed(0, 1e6), p.wall_discomfort);
    // Potential stage: each step's FIM starts from the last step's potentials.
    if (n.has("potential_warm_start")) p.potential_warm_start = n.get("potential_warm_start", "").boolean();
    // Potential stage: the local update's stencil, 4 or 8 neighbours.
    if (n.has("potential_stencil")) {
        const Node v = n.get("potential_stencil", "");
        p.potential_stencil = static_cast<int>(v.integer(4, 8, "4 or 8"));
        if (p.potential_stencil != 4 && p.potential_stencil != 8) v.fail("out of range", "4 or 8");
    }
    // Potential stage: the FIM's sweep and front budgets per tile activation and its band.
    if (n.has("potential_sweeps")) p.potential_sweeps = static_cast<int>(n.get("potential_sweeps", "").integer(1, 64));
    readF(n, "potential_band_tiles", closed(0, 1e6, "tile widths"), p.potential_band_tiles);
    if (n.has("potential_front_budget"))
        p.potential_front_budget = static_cast<int>(n.get("potential_front_budget", "").integer(0, 1000000));
    // Operational (local) model that turns preferred velocities into moves.
    if (n.has("local")) {
        const Node v = n.get("local", "");
        p.local = v.string();
        if (p.local != "uic" && p.local != "social_force" && p.local != "orca" && p.local != "zones")
            v.fail("no such operational model", "'uic' (UIC pressure + minimum distance), 'social_force' (Helbing "
                                                 "2000), 'orca' (van den Berg 2011, RVO2) or 'zones' (seed 000)");
    }
    if (n.has("social_force")) p.social_force = parseSocialForce(n.get("social_force", ""));
    if (n.has("zones")) p.zones = parseZones(n.get("zones", ""));
    if (n.has("orca")) p.orca = parseOrca(n.get("orca", ""));
    return p;
}

}  // namespace ccrowd::scene_detail
