#pragma once
/// @file simulation.hpp
/// A continuum-crowd simulation (Treuille et al. 2006 + Narain et al. 2009,
/// as combined in seed 003): load a scene, step, read agents and fields.
///
/// One step runs a pipeline of named stages (DESIGN.md §2, §8) in order,
/// each timed. With the UIC operational model: active_box, splat, speed,
/// cost, potential, desired_velocity, pressure, agents, separate, exit_spawn.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ccrowd/backend.hpp"
#include "ccrowd/eikonal.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/state_view.hpp"

namespace ccrowd {

/// Accumulated wall time per stage, on the clock of the side the stage runs
/// on: the host's steady clock on the CPU backend, CUDA events on the CUDA
/// backend (so a stage's GPU work is charged to it, not to the next stage
/// that waits for the GPU). Stages are those of the simulation's pipeline,
/// in step order (Simulation::stageNames()).
struct StageTimes {
    std::vector<std::string> names;  ///< Stage names, in step order.
    std::vector<double> total_ms;    ///< Sum over steps, per stage. [Units: ms] [Size: names]
    long long steps = 0;             ///< Steps timed.
    /// Mean per step of stage @p k. [Units: ms] [Limit: 0 <= k < names.size()]
    double mean(std::size_t k) const { return steps > 0 ? total_ms.at(k) / steps : 0.0; }
    /// Mean per step of the stage named @p name; throws InputError naming
    /// the stages for a name the pipeline does not have. [Units: ms]
    double mean(const std::string& name) const;
};

/// Per-group counts and times.
struct GroupStats {
    std::string name;
    long long spawned = 0;        ///< Placed at start or spawned by sources.
    long long exited = 0;         ///< Reached their final goal and left.
    long long remaining = 0;      ///< Still in the domain.
    double first_exit = -1.0;     ///< Time of the first exit, -1 when none. [Units: s]
    double last_exit = -1.0;      ///< Time of the latest exit (evacuation time once remaining = 0). [Units: s]
    long long switched_in = 0;    ///< Joined from another group at an incident's start (Scene::incidents' switch rules).
    long long switched_out = 0;   ///< Left for another group at an incident's start.
    long long left_region = 0;    ///< Of `exited`: left the active region away from a goal (walked out, or the region moved off them).
    long long units = 0;          ///< Social units its initial agents walk in (GroupSpec::social; 0 without).
    double mean_spread = -1.0;    ///< Mean over steps of its units' (2+ members) mean member-to-centroid distance; -1 before any. [Units: m]
    double max_spread = -1.0;     ///< Largest per-step value of that mean; -1 before any. [Units: m]
    long long unit_waits = 0;     ///< Times a unit moved on from a waypoint (seed 000's gate).
    double mean_wait = -1.0;      ///< Mean time from a unit's first member reaching a waypoint to the unit moving on; -1 before any. [Units: s]
    double max_wait = -1.0;       ///< The longest such wait; -1 before any. [Units: s]
    long long premovement_persons = 0;  ///< Persons given a pre-movement time (GroupSpec::premovement; 0 without).
    double premovement_mean = -1.0;     ///< Their mean pre-movement time; -1 before any. [Units: s]
    double premovement_min = -1.0;      ///< The shortest; -1 before any. [Units: s]
    double premovement_max = -1.0;      ///< The longest; -1 before any. [Units: s]
};

/// The street network roaming groups walk (route choice, seed 004) and the
/// traffic on it so far (arrivals since the start).
struct StreetTraffic {
    std::vector<float> junction_x, junction_y;   ///< Junction centres. [Units: m]
    std::vector<float> junction_radius;          ///< People within it are at the junction. [Units: m]
    std::vector<double> viewshed_area;           ///< Area visible from the junction's centre. [Units: m^2]
    std::vector<long long> junction_count;       ///< Arrivals at each junction.
    std::vector<int> road_a, road_b;             ///< Each road's junctions.
    std::vector<std::vector<float>> road_x, road_y;  ///< Each road's polyline from a to b. [Units: m]
    std::vector<float> road_length, road_width;  ///< [Units: m]
    std::vector<long long> road_count;           ///< Arrivals along each road (either way).
    /// Per road: visible area toward it from a and from b (the affordance
    /// weights; their viewsheds' shares inside the view frustum). [Units: m^2]
    std::vector<float> weight_ab, weight_ba;
    /// Wall time of the precomputation at set-up: the network, the
    /// viewsheds and weights, the junction potentials. [Units: ms]
    double network_ms = 0.0, viewsheds_ms = 0.0, potentials_ms = 0.0;
    int junctions() const { return static_cast<int>(junction_x.size()); }
    int roads() const { return static_cast<int>(road_a.size()); }
};

/// An incident of the scene (Scene::incidents) as the run saw it.
struct IncidentStats {
    std::string name;
    double started_at = -1.0;     ///< Time of the step it started in, -1 before. [Units: s]
    long long switched = 0;       ///< Agents its switch rules moved to another group.
};

/// One agent that left, with its exit time.
struct ExitRecord {
    int id = 0;
    int group = 0;
    double time = 0.0;            ///< [Units: s]
    float x = 0.f, y = 0.f;       ///< Position when it left (inside its exit goal). [Units: m]
};

/// What the last step's solvers reported.
struct StepReport {
    float pressure_residual = 0.f;   ///< UIC residual. [Units: 1/m^2]
    int pressure_iterations = 0;
    bool pressure_converged = true;
    int potentials_solved = 0;       ///< Eikonal solves this step.
    bool potentials_converged = true;
    double potential_updates_per_cell = 0.0;  ///< Mean over the step's solves.
    long long potential_phases = 0;  ///< FIM phases of the step's one solve (every field together).
    /// The solve's EikonalStats::critical_sweeps: with the phases, what a GPU's solve time follows.
    long long potential_critical_sweeps = 0;
    /// The solve's EikonalStats::critical_fronts: what a GPU's sweeps take, front by front.
    long long potential_critical_fronts = 0;
    /// The solve's EikonalStats::gpu_profile: where its kernel's time went
    /// (CUDA, with Simulation::profilePotential on; zeros otherwise).
    EikonalGpuProfile potential_gpu_profile;
    bool potential_warm = false;     ///< The solve started from the last step's potentials (model.potential_warm_start).
    /// Bytes moved between host and device during the step, both directions
    /// (CUDA backend; 0 on the CPU, which has no device). Everything that
    /// passes through device::copyToDevice/copyToHost or reports itself with
    /// device::countCopy. [Units: bytes]
    std::uint64_t host_device_bytes = 0;
    /// The step's entries in the transfer ledger: bytes moved, and the host
    /// and device copies the step asked for, on every backend (the CPU asks
    /// what CUDA asks, and moves nothing).
    device::TransferCounts transfers;
};

/// Host copy of the agents (structure of arrays).
struct AgentSnapshot {
    std::vector<float> x, y, vx, vy, vmax, radius;
    std::vector<int> id, group, route_step;
    int size() const { return static_cast<int>(x.size()); }
};

/// The simulation. Not copyable.
class Simulation {
public:
    /// Rasterises @p scene, places the groups' initial agents and computes
    /// the fields of that initial state (the stages active_box to
    /// desired_velocity for the agents where they stand; nobody moves, the
    /// pressure stays 0 until the first step, and the first step's results
    /// are the same as without it). Throws InputError for scenes that cannot
    /// run (see rasterizeScene).
    Simulation(Scene scene, const Exec& ex);
    ~Simulation();
    Simulation(const Simulation&) = delete;
    Simulation& operator=(const Simulation&) = delete;

    /// Advances by one time step dt.
    void step();
    /// The next steps' potential solves time their kernel's parts
    /// (EikonalOptions::profile, CUDA only: StepReport::potential_gpu_profile;
    /// the results do not change, the timing does a little). Off by default.
    void profilePotential(bool on);
    /// Adds @p e to the timeline (Scene::events) of a scene that has
    /// barriers or named discomfort regions (its step then has the events
    /// stage); it applies at the first step starting at or after e.time.
    /// Throws InputError when the scene has neither, when e.time is before
    /// time(), or when the target does not exist (parseEvent checks JSON).
    void addEvent(const EventSpec& e);
    /// Adds incident @p in (Scene::incidents) while the simulation runs, to a
    /// scene that has incidents or behaviour groups (escape, hide, approach:
    /// its step then has the incidents stages); it starts at the first step
    /// starting at or after in.start. Throws InputError when the scene has
    /// neither, when in.start is before time(), when the name is taken, or
    /// when a switch rule names a group that does not exist (parseIncident
    /// checks JSON).
    void addIncident(const IncidentSpec& in);
    /// True when the duration or step limit is reached, or nobody is left
    /// and no source will spawn again.
    bool finished() const;

    double time() const;           ///< Simulated time. [Units: s]
    long long steps() const;       ///< Steps taken.
    int agentCount() const;        ///< Agents in the domain.
    long long spawnedTotal() const;
    long long exitedTotal() const;

    const Scene& scene() const;
    const SceneGrid& grid() const;
    const Exec& exec() const;
    const StageTimes& times() const;
    /// The step's stages, in order (as in timers, benchmark rows and
    /// snapshot fields).
    const std::vector<std::string>& stageNames() const;
    const StepReport& lastReport() const;
    const std::vector<GroupStats>& groupStats() const;
    /// Per scene incident, in the file's order: when it started and whom it switched.
    std::vector<IncidentStats> incidentStats() const;
    /// The incidents started so far, in start order (indices into Scene::incidents).
    const std::vector<int>& startedIncidents() const;
    /// Counts the changes of walls and goals by events and the moves of the
    /// active region (0 before any): viewers redraw grid() when it differs
    /// from the one they drew.
    int wallsVersion() const;
    /// The active region's cells now (Scene::active_region; the whole grid
    /// in scenes without one): only agents inside are simulated.
    RegionCells activeRegion() const;
    /// Each agent id's social unit (GroupSpec::social; -1: walks alone);
    /// empty in scenes without social units.
    std::vector<int> socialUnits() const;
    /// Each agent id's start time (GroupSpec::premovement: its birth plus
    /// its pre-movement time; before it the agent stands); empty in scenes
    /// without pre-movement. CUDA: downloaded. [Units: s]
    std::vector<float> startTimes() const;
    /// The street network and its traffic counts (empty in scenes without
    /// route-choice groups). CUDA: the counts are downloaded.
    StreetTraffic traffic() const;
    /// The traffic counts alone (StreetTraffic::junction_count and
    /// road_count): cheap enough for every step.
    void trafficCounts(std::vector<long long>& junctions, std::vector<long long>& roads) const;
    /// Per cell, the signed distance to the nearest started incident's harm
    /// disc (< 0 inside, +inf before any started) [Units: m]; null in scenes
    /// without incidents or behaviour groups. Host copy (kept current).
    const Field<float>* incidentDistance() const;
    const std::vector<ExitRecord>& exits() const;

    /// Agents now (a host copy; CUDA: the agent table lives on the device
    /// and is downloaded on the first call after a step).
    AgentSnapshot agents() const;
    /// Density of the last splat (at construction: of the initial agents).
    /// [Units: 1/m^2] (CUDA: downloaded on the first call after a step; each
    /// field accessor below downloads only its own field, only when called.)
    const Field<float>& density() const;
    /// Largest cell of density(), reduced on the backend's side (CUDA: one
    /// float comes back, not the grid). [Units: 1/m^2]
    float maxDensity() const;
    /// Pressure of the last UIC solve (0 before the first step). [Units: m^2/s, the UIC's p with v = v_pref - grad p]
    const Field<float>& pressure() const;
    /// Potential of field @p k (one per group and route step), complete
    /// (completePotentials). [Units: s] (+inf where the goal is unreachable.)
    const Field<float>& potential(int k) const;
    /// Completes the last step's potentials in place: on the CPU a step
    /// solves each field only until the cells its agents read are final
    /// (EikonalNeeded), leaving upper bounds elsewhere. potential(k),
    /// desiredVelocity(k) and stateView() call it; call it when holding
    /// views of the potentials across steps. Once per step; no-op after.
    void completePotentials() const;
    /// Mean velocity of the last splat, (vx, vy) per cell, row-major
    /// (cell (i, j) at 2 (i + j nx)). [Units: m/s] [Size: 2 nx ny]
    std::vector<float> meanVelocity() const;
    /// Speed field of the last step: the four face speeds (E, N, W, S) per
    /// cell, row-major. [Units: m/s] [Size: 4 nx ny]
    std::vector<float> faceSpeed() const;
    /// Desired velocity of field @p k, (vx, vy) per cell, row-major, over
    /// the last step's active box from its potential and speeds (the step
    /// computes it only where the field's agents read it; this call fills in
    /// the rest of the box, once per step). Cells outside the box keep the
    /// values of the last time they were inside it. [Units: m/s] [Size: 2 nx ny]
    std::vector<float> desiredVelocity(int k) const;
    /// Number of potential fields; fieldGroup / fieldStep say whose.
    int fieldCount() const;
    int fieldGroup(int k) const;
    int fieldStep(int k) const;

    /// Read-only views of the state where it lives (state_view.hpp): no
    /// copy of the agents or fields is made (CUDA: a potential no agent has
    /// followed yet is uploaded once, +inf); the potentials complete
    /// (completePotentials). Valid until the next step.
    StateView stateView() const;

    /// Bytes per agent held by the agent arrays and the stages' per-agent
    /// buffers (splat and separation sorts), at the current agent count.
    std::size_t agentBytes() const;
    /// Bytes held by the grid fields (all groups' potentials and velocities included).
    std::size_t gridBytes() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace ccrowd
