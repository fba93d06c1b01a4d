#pragma once
/// @file cases.hpp
/// The validation cases users judge a crowd model by (DESIGN.md §6), as
/// whole simulation runs through the public API (ccrowd/simulation.hpp).
/// Each returns its measured values, the criteria it checked and the data
/// for its plot; tests/test_validation.cpp asserts the same criteria and
/// `ccrowd validate` reports them (report.hpp).
///
/// Set-ups are the cheap ones of the test suite: the density corridor is
/// 4 m x 60 m with a 30 m crowd measured over 2-6 s in its middle 10 m; the
/// rooms of the width series are 10 m x 10 m with 200 persons on a 0.2 m
/// grid, run until 70% have left. A case's independent runs go to the
/// Exec's CPU threads, one thread per run (run_pool.hpp); results are
/// bitwise identical for any thread count (tests/test_simulation.cpp,
/// Determinism; tests/test_run_pool.cpp).

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ccrowd/backend.hpp"
#include "ccrowd/simulation.hpp"
#include "case_result.hpp"

namespace ccrowd::validate {

/// Path of the bundled scene @p name ("corridor" -> .../scenes/corridor.json):
/// the directory of defaultScenePath(), so $CCROWD_SCENE_DIR, the source
/// tree and an installed tree work as for `ccrowd run`.
std::string bundledScene(const std::string& name);

/// @p scene as every case runs it, on every backend: the potential's FIM
/// band and sweep budget, where the scene leaves them to the backend, are
/// the CPU's defaults (kFimBandTilesCpu, kFimSweepsCpu), so that a GPU's
/// run, computing the CPU's arithmetic (kernels/portable_math.hpp), takes
/// the CPU's decisions and gives the CPU's report.
Scene validationScene(Scene scene);

/// The bundled scenes the cases run, in order (corridor, l_corner,
/// room_exit, bottleneck, the three seed-003 scenes).
std::vector<std::string> bundledSceneNames();

/// Weidmann (1993) fundamental diagram, v(rho) = 1.34 (1 - exp(-1.913 (1/rho
/// - 1/5.4))) (U. Weidmann, Transporttechnik der Fussgaenger, IVT ETH
/// Zurich, Schriftenreihe 90, 1993). [Units: m/s] [Limit: rho > 0]
double weidmannSpeed(double rho);

/// SFPE Handbook fundamental diagram for corridors (Nelson and Mowrer,
/// "Emergency movement"): v = 1.40 (1 - 0.266 rho), at most the free
/// 0.85 x 1.40 = 1.19 m/s (below 0.54 persons/m^2), 0 from 3.76 persons/m^2.
/// Reported beside Weidmann's, not a criterion. [Units: m/s] [Limit: rho >= 0]
double sfpeSpeed(double rho);

// ---- RiMEA test 1 ----------------------------------------------------------

/// RiMEA test 1: one walker at 1.33 m/s along a 2 m x 40 m corridor.
struct CorridorResult : CaseResult {
    float cell = 0.f;              ///< Grid cell size. [Units: m]
    int agents = 0;                ///< Agents at the start (the scene has exactly 1).
    float walker_speed = 0.f;      ///< The walker's free speed (vmax). [Units: m/s]
    double crossing_time = -1.0;   ///< Exit time at the far end; -1 when it never arrived. [Units: s]
    std::vector<std::pair<double, double>> track;  ///< (time [s], x [m]) of the walker at the start and after every step.
};

/// Runs scenes/corridor.json on a grid of cell @p cell [m] until it ends,
/// under the operational model @p local ("": the scene's own).
/// Criteria: one walker of free speed 1.33 m/s; crossing time 26-34 s.
CorridorResult corridorCrossing(const Exec& ex, float cell, const std::string& local = "");

// ---- RiMEA test 6 ----------------------------------------------------------

/// RiMEA test 6: 20 persons turn the corner of a 2 m wide L-shaped corridor.
struct LCornerResult : CaseResult {
    int agents = 0;                 ///< Agents at the start (20).
    long long exited = 0;           ///< Arrived at the corridor's end.
    int remaining = 0;              ///< Still inside when the run ended.
    double last_exit = -1.0;        ///< Time of the last arrival, -1 when none. [Units: s]
    bool turned = false;            ///< Someone reached y > 4 m (past the corner).
    long long violations = 0;       ///< Agent-steps in a wall cell or outside the L.
    std::string first_violation;    ///< The first of them ("" when none).
    /// Smallest clearance of a body from the walls over all agent-steps:
    /// distance from the centre to the nearest wall (wall cell, grid edge, or
    /// the L's outline) minus the radius; negative = the body overlaps a
    /// wall by that much. [Units: m]
    double min_clearance = 0.0;
    long long overlaps = 0;         ///< Agent-steps whose body overlaps a wall by more than kBodyTolerance.
    std::string first_overlap;      ///< The first of them ("" when none).
};

/// Overlap of a body with a wall that the wall criteria allow: float
/// rounding of positions near 10 m (a few ulp) and the 1e-3 h gap
/// moveConfined keeps, not a modelled overlap. [Units: m]
constexpr double kBodyTolerance = 1e-4;

/// Runs scenes/l_corner.json to the end, checking every agent after every
/// step: never in a wall cell, never outside the L (y <= 2 m or x >= 10 m),
/// and its body (centre plus radius) clear of every wall: of the wall cells,
/// the grid's edge and the L's inner corner (x < 10 m and y > 2 m) within
/// kBodyTolerance. Criteria: 20 agents; no violation; no body overlap;
/// someone turned; all 20 arrived and none remains. Under the operational
/// model @p local ("": the scene's own).
LCornerResult lCorner(const Exec& ex, const std::string& local = "");

// ---- RiMEA test 5 ----------------------------------------------------------

/// One person of RiMEA test 5.
struct PremovementPerson {
    int id = 0;
    double start = 0.0;         ///< Its drawn start time (Simulation::startTimes()). [Units: s]
    double still_until = 0.0;   ///< End of the last step after which it stood where it was placed (within 1 mm). [Units: s]
    double walked_at = -1.0;    ///< End of the first step after which it was 0.1 m or more from there (-1: never). [Units: s]
    double exit_time = -1.0;    ///< When it left (-1: never). [Units: s]
};

/// RiMEA test 5: 10 persons in a room with a 1 m exit (8 m x 10 m, on an
/// arc 6 m from the exit, 0.93 m apart), their pre-movement times uniform
/// on 10-100 s (each person a group of its own, drawing its own time).
struct PremovementResult : CaseResult {
    int agents = 0;                          ///< Persons at the start (10).
    std::vector<PremovementPerson> persons;  ///< In order of start time.
    double latest_start_delay = 0.0;         ///< Largest walked_at - start. [Units: s]
    double earliest_move = 0.0;              ///< Smallest still_until - start (>= -dt: nobody left early). [Units: s]
};

/// The generated scene of RiMEA test 5 (seed @p seed).
std::string premovementScene(int seed);

/// Runs premovementScene() until everyone has left. Criteria: 10 persons
/// whose start times are distinct and inside [10, 100] s (precondition);
/// each stood still until its start (within one step: a step begins at
/// most dt before it ends); each walked off 0.1 m within 1.5 s of its start
/// (accelerating from rest, tau = 0.5 s); everyone left. On one thread.
PremovementResult premovementStarts(const Exec& ex);

// ---- RiMEA test 9 ----------------------------------------------------------

/// One of RiMEA test 9's two rooms.
struct ExitsRoom {
    int exits = 0;                 ///< Open exits (4 or 2).
    int placed = 0;                ///< Persons at the start.
    long long exited = 0;          ///< Persons out.
    double time = -1.0;            ///< Time of the last exit; -1 when not all left. [Units: s]
    std::vector<long long> per_exit;  ///< Persons out through each exit, lower wall's west, east, upper wall's west, east. [Size: exits]
};

/// RiMEA test 9: 1000 persons leave a 30 m x 20 m room through four 1 m
/// exits, two in each long wall, and again with one wall's two closed.
struct ExitsClosedResult : CaseResult {
    ExitsRoom four, two;   ///< All four exits open; the upper wall's closed.
    double ratio = 0.0;    ///< two.time / four.time (0 when either did not empty).
};

/// The generated room of RiMEA test 9 with @p exits (4 or 2) open, seed @p seed.
std::string exitsRoomScene(int exits, int seed);

/// Runs both rooms (at once where @p ex allows) until they empty (at most
/// 900 s). Criteria: everyone left each room; the two-exit room's time is
/// 1.6-2.4 times the four-exit room's (RiMEA: "about double"; the range
/// JuPedSim's RiMEA 9 test accepts). Preconditions: 1000 persons placed in
/// each.
ExitsClosedResult exitsClosed(const Exec& ex);

// ---- RiMEA test 11 ---------------------------------------------------------

/// RiMEA test 11: 1000 persons in the west half of a 30 m x 20 m room
/// leave through two 1 m exits in its north wall, the near one at x = 21-22
/// m and the far one at 27-28 m.
struct ExitChoiceResult : CaseResult {
    int placed = 0;             ///< Persons at the start.
    long long near = 0, far = 0;  ///< Persons out through each exit.
    double time = -1.0;         ///< Time of the last exit; -1 when not all left. [Units: s]
    double near_share = 0.0;    ///< near / (near + far).
};

/// The generated room of RiMEA test 11 (seed @p seed).
std::string exitChoiceScene(int seed);

/// Runs exitChoiceScene() until it empties (at most 900 s). Criteria:
/// everyone left; the near exit took most (share > 0.5: "prefer the
/// nearest"); the far one at least a tenth (">= 0.1": "some choose the
/// second" as the queue at the first grows). Precondition: 1000 persons.
ExitChoiceResult exitChoice(const Exec& ex);

// ---- fundamental diagram ---------------------------------------------------

/// Means over the samples of the middle section x in [12, 22] m of the
/// density corridor.
struct FundamentalPoint {
    double target = 0.0;        ///< Density the corridor was filled with. [Units: persons/m^2]
    int samples = 0;            ///< Samples taken (every 0.5 s for t in [2, 6] s).
    double density = 0.0;       ///< Mean density. [Units: persons/m^2]
    double density_lo = 0.0;    ///< Smallest sampled density. [Units: persons/m^2]
    double density_hi = 0.0;    ///< Largest sampled density. [Units: persons/m^2]
    double speed = 0.0;         ///< Mean speed along the corridor (v_x). [Units: m/s]
    double fastest_mean = 0.0;  ///< Largest per-sample mean of |v|. [Units: m/s]
    double free_speed = 0.0;    ///< Largest vmax in the section. [Units: m/s]
    double weidmann = 0.0;      ///< weidmannSpeed(target). [Units: m/s]
    double sfpe = 0.0;          ///< sfpeSpeed(target). [Units: m/s]
};

/// The fundamental diagram: one corridor per density.
struct FundamentalDiagramResult : CaseResult {
    std::vector<FundamentalPoint> points;  ///< One per density, in the order given.
};

/// Scene text of the density corridor: 60 m x 4 m, 0.25 m cells, its first
/// 30 m (x in [2, 32]) filled at @p rho [persons/m^2] walking east at 1.34 m/s,
/// under the operational model @p local ("": the default, uic).
std::string densityCorridorScene(double rho, const std::string& local = "");

/// Runs the density corridor for each of @p densities [persons/m^2] (each
/// in 0.1..5) for 6 s. Criteria per density: the section is held within
/// 15% of it (smallest and largest sample); mean speed > 0 and within 25%
/// of Weidmann's; the fastest per-sample mean |v| and every vmax <= 1.34 m/s.
/// Under the operational model @p local ("": uic).
FundamentalDiagramResult fundamentalDiagram(const Exec& ex, const std::vector<double>& densities,
                                            const std::string& local = "");

// ---- bottleneck flow -------------------------------------------------------

/// Door flow of a room evacuation: exits per second between the 10% and 70%
/// exits (exit times at the goal behind the door).
struct DoorFlowResult : CaseResult {
    double width = 0.0;       ///< Door width. [Units: m]
    float cell = 0.f;         ///< Grid cell size. [Units: m]
    int open_cells = -1;      ///< Open cells across the door (-1: not checked).
    long long agents = 0;     ///< Agents at the start.
    long long needed = 0;     ///< Exits to measure (70% of agents).
    long long exited = 0;     ///< Exits when the run stopped.
    double end_time = 0.0;    ///< When the run stopped (70% left, or 300 s). [Units: s]
    double persons = 0.0;     ///< Flow. [Units: persons/s] (0 when not measured)
    double specific = 0.0;    ///< persons / width. [Units: persons/(m s)]
    /// roomExitFlow: each seed's specific flow (persons and specific are their mean). [Units: persons/(m s)]
    std::vector<double> seed_specific;
};

/// Runs scenes/room_exit.json (1 m door, 0.25 m grid) with its seed and
/// the next three. Criteria: 70% left within 300 s in every run; the
/// specific flow's mean over the runs 1.0-2.0 persons/(m s). Under the
/// operational model @p local ("": the scene's own). exited is the fewest
/// of the runs, end_time the latest.
DoorFlowResult roomExitFlow(const Exec& ex, const std::string& local = "");

/// The width series.
struct DoorSeriesResult : CaseResult {
    std::vector<DoorFlowResult> doors;  ///< One per width, in the order given.
};

/// Scene text of a 10 m x 10 m room with 200 persons whose 0.25 m thick east
/// wall has a door of @p width [m] centred at y = 5 m (its edges anywhere
/// between cell faces), on cells of @p cell [m]; the goal is the far metre
/// of a 3.75 m corridor behind it.
std::string roomWithDoorScene(double width, double cell);

/// Runs roomWithDoorScene for each of @p widths [m] (increasing, 0.2..9.6)
/// on each of @p cells [m]. Precondition per door: the faces on the wall's
/// line carry the door's width (sub-cell geometry). Criteria per door: 70%
/// left within 300 s; specific flow 1.2-1.9 persons/(m s); the flow
/// (persons/s) larger than through the previous, narrower door on the same
/// grid. Per width and each cell size after the first: the flow within
/// 10% of the first cell size's. `doors` holds cells[0]'s widths, then
/// cells[1]'s, ...
DoorSeriesResult doorWidthSeries(const Exec& ex, const std::vector<double>& widths, const std::vector<double>& cells);

// ---- grid invariance (issue 12) ----------------------------------------------

/// One evacuation run of gridInvariance().
struct EvacuationRun {
    std::string label;             ///< e.g. "turned 15 degrees, seed 2".
    double angle = 0.0;            ///< Turn of the room. [Units: degrees]
    double cell = 0.0;             ///< Grid cell size. [Units: m]
    int seed = 0;                  ///< The scene's seed.
    long long agents = 0;          ///< Persons at the start.
    long long exited = 0;          ///< Persons out when the run ended.
    double time = -1.0;            ///< When the last one left; -1 when not all left within 400 s. [Units: s]
    /// Smallest body clearance from the wall polygons after any step (+inf
    /// when not measured). [Units: m]
    double min_clearance = 0.0;
    /// Where and when the smallest clearance was met: the agent's id, its
    /// centre [m] and the simulated time [s] (id -1 when not measured).
    long long worst_id = -1;
    double worst_x = 0.0, worst_y = 0.0, worst_time = 0.0;
};

/// The turned-room and halved-cell series.
struct GridInvarianceResult : CaseResult {
    std::vector<double> angles;            ///< Angles run. [Units: degrees]
    std::vector<double> mean_times;        ///< Per angle: mean evacuation time over the seeds (-1: someone stayed). [Units: s]
    std::vector<EvacuationRun> turned;     ///< Every turned-room run, angle after angle, seed after seed.
    std::vector<EvacuationRun> halved;     ///< One-door room on 0.25 and 0.125 m cells, then the four-door room.
};

/// Scene text of a 10 m x 10 m room (0.3 m walls, a 1 m door in the east
/// wall, 200 persons, goal outside the door) turned by @p degrees about
/// the centre of its 20 m x 20 m domain, 0.25 m cells, seed @p seed.
std::string turnedRoomScene(double degrees, int seed);

/// turnedRoomScene(@p degrees, @p seed) run on @p ex until everyone has
/// left (400 s at most), with every body's clearance from the wall
/// polygons after every step.
EvacuationRun turnedRoomRun(const Exec& ex, double degrees, int seed);

/// Scene text of a 30 m x 20 m room in 0.3 m walls with a 1 m door in
/// each wall (no door edge on a cell face), 1000 persons, the exits all
/// round the 34 m x 24 m domain, on cells of @p cell [m].
std::string fourDoorRoomScene(double cell);

/// Runs turnedRoomScene for each of @p angles [degrees] with each of
/// @p seeds until everyone has left (400 s at most), then roomWithDoorScene
/// (1 m) and, with @p fourDoors, fourDoorRoomScene on 0.25 m and 0.125 m
/// cells (the four-door room's 1000 persons take most of the time). Criteria: every
/// run empties; no body inside a wall polygon in the turned rooms (the
/// clearance of every body after every step, tolerance kBodyTolerance); the
/// mean times over the angles within 10% (issue 12 asks 5%: not met, this
/// guards against regressions); each room's time within 5% when the cells
/// halve.
GridInvarianceResult gridInvariance(const Exec& ex, const std::vector<double>& angles, const std::vector<int>& seeds,
                                    bool fourDoors = true);

// ---- seed-003 scenes -------------------------------------------------------

/// A seed-003 scene run to the end with its invariants checked every step.
struct Seed003Result : CaseResult {
    std::string scene;              ///< Scene name, e.g. "seed003_two_groups".
    std::vector<GroupStats> groups; ///< Per group at the end.
    long long spawned = 0, exited = 0;
    int remaining = 0;              ///< Agents left when the run ended.
    double end_time = 0.0;          ///< [Units: s]
    float d_min = 0.f;              ///< The scene's minimum distance. [Units: m]
    float min_distance = 0.f;       ///< Smallest distance between two agents after any step (+inf with < 2 agents). [Units: m]
    long long blocked_hits = 0;     ///< Agent-steps in a blocked cell or outside the domain.
    long long count_errors = 0;     ///< Steps where present + exited != spawned.
};

/// Runs scenes/<name>.json to the end. Criteria: every group reaches its
/// goal; persons conserved every step; after the separation stage no two
/// agents closer than 0.9 d_min; no agent in an obstacle.
Seed003Result seed003Scene(const Exec& ex, const std::string& name);

// ---- social force: faster-is-slower ----------------------------------------

/// Helbing, Farkas & Vicsek 2000 (Nature 407, Fig. 1c): the time for 200
/// persons to leave a room through a 1 m door against their desired speed.
struct FasterIsSlowerResult : CaseResult {
    std::vector<double> speeds;  ///< Desired speeds run. [Units: m/s]
    std::vector<double> times;   ///< Time of the last exit per speed, mean over the seeds (-1: not all left by the limit in some seed). [Units: s]
    std::vector<double> sd;      ///< Standard deviation of that time over the seeds (0 when not all left). [Units: s]
    std::vector<long long> exited;  ///< Persons out per speed, mean over the seeds.
};

/// Scene text of the faster-is-slower room: 15 m x 15 m, 200 persons of
/// radius 0.25 m and free speed @p v0 [m/s], a 1 m door in the east wall, seed @p seed,
/// model.local social_force; the speed field keeps the desired speed at v0
/// whatever the density (rho_min 19, rho_max 20, Weidmann's curve flat up to
/// 20 persons/m^2), as Helbing's persons keep pushing at v0.
/// With @p stepScale (0.01..1, 1 = the default) as model.social_force.step_scale.
std::string fasterIsSlowerScene(double v0, int seed = 1, double stepScale = 1.0);

/// Runs fasterIsSlowerScene for each of @p speeds (ascending, >= 3 of them)
/// and each of @p seeds (>= 2) until everyone left or 600 s. Criteria: all
/// 200 left in every room; the evacuation time, mean over the seeds, is
/// smallest at a speed strictly inside the range; at the fastest speed it
/// lies above that minimum by at least 2 standard errors of the difference
/// (a rise the seeds' spread cannot give). With @p stepScale in (0, 1), the
/// fastest speed's rooms run again with the integrator's steps scaled by it,
/// and their mean time must lie within 10% of the default's: the
/// integration has converged (0: no such runs).
FasterIsSlowerResult fasterIsSlower(const Exec& ex, const std::vector<double>& speeds, const std::vector<int>& seeds,
                                    double stepScale = 0.0);

// ---- social force: herding in smoke ------------------------------------------

/// Helbing, Farkas & Vicsek 2000 (Nature 407, Fig. 3): persons who cannot
/// see the exits of a smoke-filled room, against the panic p.
struct SmokeRoomResult : CaseResult {
    std::vector<double> panics;        ///< Panic p run. [Limit: 0..1]
    std::vector<double> escaped;       ///< Per p: persons out by `limit`, mean over the seeds.
    std::vector<double> busier_share;  ///< Per p: the busier exit's share of those out, mean over the seeds.
    int seeds = 0;                     ///< Runs per p.
    double limit = 0.0;                ///< When persons out are counted. [Units: s]
};

/// Scene text of the smoke-filled room: 15 m x 15 m, 90 persons of radius
/// 0.25 m at 1.5 m/s, two 1 m exits in the west wall (centres 3.75 m and
/// 11.25 m from the south wall), visibility 2 m, model.local social_force
/// with panic @p panic for everyone and a herding radius of 2 m, seed @p seed.
std::string smokeRoomScene(double panic, int seed);

/// Runs smokeRoomScene for each of @p panics (ascending from 0 to 1, >= 3)
/// and @p seeds for 150 s. Criteria: at p = 0 the busier exit takes <= 60%
/// of those out (both used), at p = 1 >= 70% (one crowded); the most
/// persons are out at a p strictly between 0 and 1, and fewer at p = 1 than
/// at p = 0.
SmokeRoomResult smokeRoom(const Exec& ex, const std::vector<double>& panics, const std::vector<int>& seeds);

// ---- UIC density limit -----------------------------------------------------

/// Width R of the Gaussian kernel with which the UIC criterion measures the
/// local density of the agents' positions (LocalDensity, body_checks.hpp).
/// [Units: m]
constexpr double kLocalDensityRadius = 0.7;

/// A scene where the crowd reaches the UIC limit, run to its end: the local
/// density of the agents' positions after every step against rho_limit.
struct UicDensityResult : CaseResult {
    std::string scene;               ///< Scene name ("bottleneck", "room_exit").
    float rho_limit = 0.f;           ///< The scene's UIC limit. [Units: persons/m^2]
    float d_min = 0.f;               ///< The scene's minimum distance. [Units: m]
    long long steps = 0;             ///< Steps run.
    long long pressure_steps = 0;    ///< Steps after which some cell had pressure > 0 (the UIC acted).
    double max_density = 0.0;        ///< Largest local density after any step. [Units: persons/m^2]
    double max_at = 0.0;             ///< When it occurred. [Units: s]
    Vec2 max_where;                  ///< Where (a cell centre). [Units: m]
    long long exited = 0, spawned = 0;
};

/// Runs scenes/<name>.json to its end. Precondition: the pressure is > 0
/// somewhere after some step (the limit is reached). Criterion: after every
/// step the local density of the agents' positions (Gaussian kernel of
/// kLocalDensityRadius, per m^2 of open floor) is <= rho_limit everywhere.
UicDensityResult uicDensity(const Exec& ex, const std::string& name);

// ---- operational models compared -------------------------------------------

/// The operational models (model.local) side by side on the validation's
/// experiments: RiMEA 1 and 6 as criteria, and the fundamental diagram and
/// the room exit's door flow reported against the references (issue 14).
struct ModelsResult : CaseResult {
    std::vector<std::string> models;                    ///< Models compared, uic first.
    std::vector<FundamentalDiagramResult> fundamental;  ///< Per model, 0.5-5 persons/m^2.
    std::vector<DoorFlowResult> door;                   ///< Per model, scenes/room_exit.json.
    std::vector<CorridorResult> corridor;               ///< Per model other than uic: RiMEA 1 (h = 0.25 m).
    std::vector<LCornerResult> l_corner;                ///< Per model other than uic: RiMEA 6.
};

/// Runs every model of @p models other than "uic" through RiMEA 1 (0.25 m
/// grid), RiMEA 6, the fundamental diagram at @p densities and the room
/// exit; uic's own runs are @p uicFundamental and @p uicDoor. Criteria, per
/// model other than uic: RiMEA 1's and RiMEA 6's (their preconditions
/// too), and that the crowd slows as it densifies (mean speed > 0 at every
/// density, and at the densest below a quarter of the speed at the
/// sparsest: Weidmann gives 3%). The fundamental diagram against
/// Weidmann's +-25% and the door's specific flow against 1.0-2.0 are
/// reported per model, not counted.
ModelsResult compareModels(const Exec& ex, const std::vector<std::string>& models, const std::vector<double>& densities,
                           const FundamentalDiagramResult& uicFundamental, const DoorFlowResult& uicDoor);

// ---- everything ------------------------------------------------------------

/// Every case `ccrowd validate` runs.
struct ValidationResults {
    std::vector<CorridorResult> corridor;   ///< RiMEA 1 on 0.25 m and 0.1 m grids.
    LCornerResult l_corner;                 ///< RiMEA 6.
    PremovementResult premovement;          ///< RiMEA 5.
    ExitsClosedResult exits_closed;         ///< RiMEA 9.
    ExitChoiceResult exit_choice;           ///< RiMEA 11.
    FundamentalDiagramResult fundamental;   ///< 0.5, 1, 1.5, ..., 5 persons/m^2.
    DoorFlowResult room_exit;               ///< 1 m door, scenes/room_exit.json.
    DoorSeriesResult door_widths;           ///< 0.8-2.4 m doors on 0.25 and 0.125 m cells.
    GridInvarianceResult grid_invariance;   ///< The turned room and the halved cells.
    std::vector<UicDensityResult> uic;      ///< The UIC limit on bottleneck and room_exit.
    std::vector<Seed003Result> seed003;     ///< The three seed-003 scenes.
    FasterIsSlowerResult faster_is_slower;  ///< Social force, desired speeds 1..5 m/s.
    SmokeRoomResult smoke_room;             ///< Social force in smoke, panic 0..1.
    ModelsResult models;                    ///< Every operational model on RiMEA 1, 6, the fundamental diagram and the door.

    /// Every case, in report order.
    std::vector<const CaseResult*> cases() const;
    /// True when every case passed (and there is at least one).
    bool passed() const;
};

/// Called after each case with its result.
using CaseDone = std::function<void(const CaseResult&)>;

/// Runs every case on @p ex, calling @p done (may be empty) after each.
/// Throws InputError when a bundled scene is missing or invalid.
ValidationResults runValidation(const Exec& ex, const CaseDone& done = {});

}  // namespace ccrowd::validate
