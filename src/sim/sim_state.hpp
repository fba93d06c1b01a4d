#pragma once
/// @file sim_state.hpp
/// The state a simulation's stages read and write (DESIGN.md §8): the
/// scene and its grid layers, the agent table, the grid fields of
/// DESIGN.md §2 (one potential and desired velocity per goal set), the step
/// clock and report, exits and sources. Fields live on the backend's side;
/// hosts read them through the Simulation's accessors.

#include <future>
#include <vector>

#include "ccrowd/eikonal.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "kernels/speed.hpp"
#include "kernels/splat.hpp"
#include "kernels/stages.hpp"
#include "kernels/walls.hpp"
#include "sim/agents.hpp"
#include "sim/incident_layers.hpp"
#include "sim/region_state.hpp"
#include "sim/route_state.hpp"
#include "sim/social_units.hpp"
#include "sim/sources.hpp"
#include "sim/timeline.hpp"

namespace ccrowd::sim {

/// Everything the stages share. Not copyable or movable (the spawner
/// points into the scene and grid).
struct SimState {
    SimState(Scene s, const Exec& e);
    SimState(const SimState&) = delete;
    SimState& operator=(const SimState&) = delete;

    Scene scene;
    SceneGrid grid;                 ///< Walls, terrain, discomfort, goals' cells (the environment's layers).
    GridInfo gi;
    WallIndex walls;                ///< grid.walls near each cell, reach: the largest body radius plus a cell.
    Exec ex;
    double time = 0.0;              ///< Simulated time. [Units: s]
    long long steps = 0;
    StepReport report;              ///< Of the step running / last run.
    CellRange box;                  ///< The step's active box (active_box stage).
    AgentStore agents;
    std::vector<GroupStats> groups;
    std::vector<ExitRecord> exits;
    SourceSpawner spawner;
    Timeline timeline;              ///< The events applied and the motions going on (events stage).
    /// The environment after the next change of walls, rasterised ahead on
    /// another thread (events stage): the environmentKey it is for, and the grid.
    struct PendingEnvironment {
        std::vector<double> key;
        std::future<SceneGrid> grid;
    } pendingEnvironment;
    /// The events stage changed walls or discomfort this step: the fields
    /// are computed on the whole grid (active_box) and the potentials from
    /// scratch (potential, which clears it).
    bool environmentChanged = false;

    // grid fields (DESIGN.md §2 names)
    Field<float> density, pressure, perceivedDensity;
    Field<Vel2> meanVelocity, perceivedVelocity;
    Field<Face4> speed;
    Field<FaceCost> cost;
    std::vector<Field<float>> potential;         ///< One per (group, route step).
    std::vector<Field<Vel2>> desired;            ///< Same indexing; each step writes only where its agents read (fieldsRead).
    Field<std::uint32_t> fieldsRead;             ///< Per cell, the fields whose agents read it (kernels/desired_velocity.hpp).
    FieldTable fields;                           ///< Whose field k is; each group's field and goal per route step.
    IncidentLayers incidents;                    ///< Scenes with incidents: their layers and timeline (incidents stage).
    RegionState region;                          ///< The active region (active_region stage); its cells are the whole grid without one.
    SocialUnits social;                          ///< Social units of the groups with `social` (cohesion stage, the waypoint gate).
    RouteState route;                            ///< Roaming groups' street network and traffic counts (route_choice stage).
    FimSolver solver;                            ///< Every field's potential in one solve; workspace kept between steps.
    std::vector<EikonalProblem> problems;        ///< Per field: its goal's cells as sources; costs from `cost`.
    SplatWorkspace splatWs;                      ///< The agent sort (shared by splat, separation and exit_spawn) and cell ranges.
    PerceiveWorkspace perceiveWs;

    /// Puts the environment's layers (grid) on the backend's side and builds
    /// the wall index from its wall edges: at set-up, and when events change walls.
    void uploadEnvironment();

    /// Fields the table has and the state not yet (set-up, set_route
    /// events): their eikonal problems, potentials and desired velocities.
    void addFields();
    /// Bumped each time the walls change (events): models that keep wall
    /// indices of their own rebuild them when it differs from theirs.
    int wallsVersion = 0;
    /// Bumped each time events change a group's parameters (set_panic):
    /// models that keep per-field copies of them copy them again.
    int groupsVersion = 0;
    /// The potential stage's solves time their kernel's parts (Simulation::profilePotential).
    bool profilePotential = false;

    /// Speed-field parameters of the scene (Treuille 2006 §4.2, capped at the
    /// free speed, read a perception radius ahead).
    SpeedParams speedParams() const;
    /// Speed in a walking direction from this step's speed stage (perceived
    /// crowd, face speeds, terrain, walls; kernels/walking_speed.hpp), as
    /// views on the backend's side.
    WalkingSpeed walkingSpeed();
};

/// Sets @p prob's sources to @p goal's open cells at the goal's potential.
void setGoalSources(const Scene& scene, const SceneGrid& grid, int goal, EikonalProblem& prob);

}  // namespace ccrowd::sim
