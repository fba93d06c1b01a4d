#pragma once
/// @file stages.hpp
/// The simulation step as named stages (DESIGN.md §2). Each stage's maths is
/// a host+device functor in kernels/<stage>.hpp, launched by
/// kernels/<stage>.cu (CUDA grid or OpenMP loop, forEachCell/forEachIndex).
/// These are the launchers the Simulation calls, in pipeline order. Views are
/// on the side the Exec runs on (host views for the CPU backend).
///
/// Determinism: on the CPU every stage gives bitwise-identical results for
/// any thread count (no order-dependent float atomics; sums over agents go
/// through a sort by cell and a fixed-order gather).

#include <cstdint>
#include <vector>

#include "ccrowd/backend.hpp"
#include "ccrowd/eikonal.hpp"
#include "ccrowd/field.hpp"
#include "ccrowd/agent_columns.hpp"
#include "ccrowd/vel2.hpp"
#include "grid.hpp"
#include "launch.hpp"
#include "walls.hpp"

namespace ccrowd::sim {

/// Per-agent arrays (structure of arrays; the columns of agent_columns.hpp).
/// All views have n elements.
struct AgentViews : AgentColumns<View1> {
    int n = 0;  ///< Agents. [Limit: >= 0]
};

/// Views of every column of @p cols on @p ex's side (nothing is copied;
/// n = cols.x.size()).
inline AgentViews viewsOf(const Exec& ex, AgentColumns<Array>& cols) {
    AgentViews v;
    v.n = cols.x.size();
    forEachColumnPair(cols, v, [&](auto& column, auto& view) { view = column.view(ex); });
    return v;
}

/// Per-agent buffers of an agent sort, shared by the splat (sort by cell)
/// and the separation (sort by neighbour cell), which run at different
/// times of the step. On the CUDA backend the device copies are used.
struct AgentSortBuffers {
    Array<int> key;        ///< Sort key per agent. [Size: agents]
    Array<int> order;      ///< Agent index per sorted slot. [Size: agents]
    Array<float> scratch;  ///< Float columns' permutation buffer of sortAgents() (swapped with them). [Size: agents]
};

/// Fundamental diagram and speed-field parameters (Treuille 2006 §4.2;
/// Weidmann 1993).
struct SpeedParams {
    float rho_min = 0.5f;    ///< Below: free speed. [Units: 1/m^2]
    float rho_max = 4.0f;    ///< Above: the flow's direction alone (faceSpeed()). [Units: 1/m^2] [Limit: > rho_min]
    float v0 = 1.34f;        ///< Free speed. [Units: m/s]
    float rho_jam = 5.4f;    ///< Weidmann jam density. [Units: 1/m^2]
    float gamma_fd = 1.913f; ///< Weidmann shape. [Units: 1/m^2]
    /// Lowest speed on an open face, and the flow speed below which the
    /// crowd ahead gives no direction: below Weidmann's 0.037 m/s at 5
    /// persons/m^2, so the diagram holds up to there. [Units: m/s] [Limit: > 0]
    float eps = 0.02f;
    /// Cells between a cell and the point whose density and flow its faces
    /// read (Treuille's x + r n, r = ahead h; 1: the neighbour). The
    /// Simulation uses aheadCells(perception_radius, h). [Limit: >= 1]
    int ahead = 1;
};

/// Unit-cost weights (Treuille 2006 eq. 4): C = (alpha f + beta + gamma g) / f.
struct CostParams {
    float alpha = 1.f, beta = 1.f, gamma = 1.f;
};

/// Four values per cell, one per face direction (E = +x, N = +y, W, S).
struct alignas(16) Face4 {
    float e = 0.f, n = 0.f, w = 0.f, s = 0.f;
};

/// A 2-vector per cell (include/ccrowd/vel2.hpp).
using Vel2 = ccrowd::Vel2;

// ---- events (when the scene has a timeline) --------------------------------

/// Events stage: every agent on a blocked cell moves to the nearest open
/// cell, @p nearestOpen per cell (i + j nx; -1: none) (kernels/events.hpp).
void pushOutOfBlocked(const Exec& ex, const AgentViews& a, const GridInfo& g, View2<const std::uint8_t> blocked,
                      View2<const int> nearestOpen);

// ---- (a) active box --------------------------------------------------------

/// AABB of the agents grown by @p margin [m], as a cell range clamped to the
/// grid: the cells whose centre is within the grown AABB plus every cell of
/// the agents' splat stencils (so splat() loses no weight for any margin
/// >= 0); empty when there are no agents (seed 003 §2.2).
CellRange activeBox(const Exec& ex, const AgentViews& a, const GridInfo& g, float margin);

// ---- (b) splat -------------------------------------------------------------

/// Reusable buffers of the splat: the agent sort and each cell's range of
/// sorted agents.
struct SplatWorkspace;

/// Sorts the agents by the lower-left cell of their bilinear stencil (agents
/// outside the grid last): every column of @p cols (cols.x.size() agents)
/// is put in sorted order, stable (ties keep their order), so the result
/// does not depend on threads. Then records, for every stencil origin the
/// cells of @p box gather from, its range of sorted agents, for splat().
/// Agents stay sorted until they move. The float and int columns trade
/// storage with the workspace's scratch: views of the columns taken before
/// are stale (take them again). Nothing is done for an empty box.
void sortAgents(const Exec& ex, AgentColumns<Array>& cols, const GridInfo& g, const CellRange& box, SplatWorkspace& ws);

/// Mass-conserving bilinear splat (DESIGN.md §5) of agents sorted by
/// sortAgents() with the same @p box: rho [persons/m^2] with sum(rho h^2) =
/// number of agents inside the grid, and the weighted mean of the per-agent
/// vector (ux, uy) (the velocity or the preferred velocity; 0 where the
/// weight is 0). Deterministic: each cell gathers from its four stencil
/// origins in a fixed order. Positions are clamped to the band of cell
/// centres (no weight leaves the grid); agents outside the grid are skipped.
/// Cells outside @p box are set to 0 (activeBox()'s range drops no weight).
/// @param rho May be an empty view: only the mean is written.
void splat(const Exec& ex, const AgentViews& a, View1<const float> ux, View1<const float> uy, const GridInfo& g,
           const CellRange& box, SplatWorkspace& ws, View2<float> rho, View2<Vel2> mean);

/// Largest cell of a density grid (0 for an empty grid), reduced on @p ex's
/// side: on the CUDA backend one float comes back, not the grid.
/// [Units: 1/m^2]
float maxDensity(const Exec& ex, View2<const float> rho);

// ---- (c) speed -------------------------------------------------------------

/// Reusable buffers of perceive() (kernels/speed.hpp).
struct PerceiveWorkspace;
struct WalkingSpeed;  // kernels/walking_speed.hpp

/// Perceived density and velocity (kernels/speed.hpp, PerceiveRowsKernel,
/// PerceiveColumnsKernel): the crowd seen over a square window of half-width
/// @p radius [m] centred on each cell, rho~ = persons in the window / open
/// area of the window [persons/m^2] (mass splatted into wall cells counts,
/// wall area does not: each cell adds @p openFraction of its area, null =
/// whole cells) and v~ = momentum / mass in the window [m/s] (0 where
/// empty). Written on @p box grown by aheadCells(radius, h) cells (faces read
/// that far ahead), clamped to the grid; other cells are not written. A
/// radius below h/2 gives each cell its own values. Deterministic: two
/// separable passes, fixed summation order. Throws InputError for a negative
/// or non-finite radius.
void perceive(const Exec& ex, const GridInfo& g, const CellRange& box, float radius, View2<const float> rho,
              View2<const Vel2> velocity, View2<const float> openFraction, PerceiveWorkspace& ws,
              View2<float> rhoOut, View2<Vel2> velocityOut);

/// Speed on the four faces of every open cell of @p box (Treuille 2006 §4.2):
/// with a = x + p.ahead h n (the neighbour for ahead = 1), faceSpeed() of
/// rho(a) and v(a): f = fT below rho_min, the flow speed fv (fT, down to eps
/// against the flow at a) above rho_max, linear in between; fT = Weidmann
/// free speed of rho(a) times the neighbour's terrain factor. Faces towards blocked or outside
/// cells, and faces closed in @p closed (SceneGrid::closed_faces; default: none), get eps.
/// @p rho and @p meanVelocity are the splat's fields or perceive()'s. With
/// @p ws (perceive()'s workspace) what the faces read of each cell
/// (FaceReading: its Weidmann speed, blend and flow direction) is computed
/// once, not once per face reading it (the same bits).
void speed(const Exec& ex, const GridInfo& g, const CellRange& box, const SpeedParams& p, View2<const float> rho,
           View2<const Vel2> meanVelocity, View2<const float> terrain, View2<const std::uint8_t> blocked,
           View2<Face4> speedOut, View2<const std::uint8_t> closed = {}, PerceiveWorkspace* ws = nullptr);

// ---- (d) cost --------------------------------------------------------------

/// Unit cost per face: C = (alpha f + beta + gamma g) / f with g the
/// discomfort of the neighbour cell (Treuille 2006 eq. 4). Cells outside
/// @p box get the free-flow cost of speed v0 (so one eikonal over the whole
/// grid still routes around the crowd's area). Faces closed in @p closed
/// (SceneGrid::closed_faces; default: none) cost +inf.
void unitCost(const Exec& ex, const GridInfo& g, const CellRange& box, const CostParams& c, const SpeedParams& sp,
              View2<const Face4> speedIn, View2<const float> discomfort, View2<const float> terrain,
              View2<const std::uint8_t> blocked, View2<FaceCost> costOut, View2<const std::uint8_t> closed = {});

// ---- (f) desired velocity --------------------------------------------------

/// Desired velocity per cell from a potential (Treuille 2006 eq. 5,
/// v = -f(theta) grad phi / |grad phi|): upwind one-sided differences (per
/// axis the neighbour with the lower finite potential; none when both are
/// higher), direction -grad phi / |grad phi|, magnitude @p walk's speed in
/// that direction (kernels/walking_speed.hpp: the crowd read r ahead along
/// the direction on open floor, the face speeds blended next to walls).
/// Zero in blocked cells, in goal cells (phi at its source value and no
/// lower neighbour) and where phi is +inf. Neighbours across faces closed
/// in walk.closed are never upwind; walk.blocked are the blocked cells.
/// With a fields-read mask @p read (fieldsRead()), only the box's cells
/// where some agent of field @p field reads are written; the others keep
/// their values. [Limit: field >= 0 when read is given]
void desiredVelocity(const Exec& ex, const GridInfo& g, const CellRange& box, View2<const float> phi,
                     const WalkingSpeed& walk, View2<Vel2> out, View2<const std::uint32_t> read = {}, int field = 0);

/// Fields-read mask: cleared over the box, then per cell bit
/// fieldReadBit(f) (kernels/desired_velocity.hpp; fields 31 and above share
/// bit 31) set when an agent at (@p x, @p y) following field @p field = f
/// has the cell in its bilinear stencil (clamped to the grid, as the
/// preferred velocity reads it). The same mask for any thread count.
void fieldsRead(const Exec& ex, const GridInfo& g, const CellRange& box, View1<const float> x, View1<const float> y,
                View1<const int> field, View2<std::uint32_t> out);

/// Preferred velocity of every agent: bilinear interpolation of its field's
/// desired velocity (fields[a.field[k]]; the splat's stencil, weights of
/// blocked cells dropped and the rest renormalised), scaled by vmax / v0 and
/// clamped to vmax; written to a.px, a.py. Agents with a field index outside
/// [0, fieldCount) get 0. @p fields is a host array of views on the Exec's
/// side; @p blocked (1 = blocked; default: none) drops weights of wall cells,
/// @p closed (SceneGrid::closed_faces; default: none) those of cells the
/// agent's own cell does not reach within the stencil (across a thin wall).
void preferredVelocity(const Exec& ex, const AgentViews& a, const GridInfo& g, const View2<const Vel2>* fields,
                       int fieldCount, float v0, View2<const std::uint8_t> blocked = {},
                       View2<const std::uint8_t> closed = {});

// ---- (g) pressure (UIC) ----------------------------------------------------

/// Narain et al. 2009 unilateral incompressibility: pressure p >= 0 with the
/// corrected flux keeping the predicted density at or below the limit,
/// complementarity p (rho_limit - rho') = 0. Solved by red-black projected
/// SOR (over-relaxed Gauss-Seidel, Cryer 1971) within @p box.
struct PressureParams {
    float rho_limit = 5.4f;  ///< [Units: 1/m^2] [Limit: > 0]
    float dt = 0.05f;        ///< [Units: s]
    int iterations = 60;     ///< Sweep budget. [Limit: >= 1]
    float tolerance = 1e-3f; ///< Stop when max violation (rho' - rho_limit)+ and complementarity residual are below. [Units: 1/m^2]
    float omega = 1.8f;      ///< Over-relaxation of the projected SOR sweep (1: projected Gauss-Seidel). [Limit: > 0, < 2]
    /// Sweeps between two residual checks (each check is a reduction whose
    /// one value the host reads: on the GPU a round trip). The residual is
    /// checked after the first sweep (a warm start that is already a
    /// solution stops there), every check_every sweeps, and at the budget's
    /// end. [Limit: >= 1]
    int check_every = 4;
};
struct PressureStats {
    int iterations = 0;       ///< Red-black sweeps run.
    int checks = 0;           ///< Residual checks made (reductions read by the host).
    float residual = 0.f;     ///< Max over cells of max(rho' - rho_limit, 0) and of p>0 cells' |rho' - rho_limit|. [Units: 1/m^2]
    bool converged = false;   ///< residual <= tolerance within the budget.
};

/// Reusable buffers of the pressure solve.
struct PressureWorkspace;

/// Solves for @p pressure (warm-started from its contents) and writes the
/// corrected grid velocity v = meanPreferred - grad p to @p corrected.
/// @p aperture: open fraction of each face (null: 1 between open cells).
PressureStats pressure(const Exec& ex, const GridInfo& g, const CellRange& box, const PressureParams& p,
                       View2<const float> rho, View2<const Vel2> meanPreferred, View2<const std::uint8_t> blocked,
                       View2<const Face4> aperture, PressureWorkspace& ws, View2<float> pressureOut,
                       View2<Vel2> corrected);

// ---- (h) agents ------------------------------------------------------------

/// Velocity of every agent: its preferred velocity plus the pressure
/// correction -grad p interpolated at its position from the faces of @p g's
/// cells (v = p_pref - grad p, Narain 2009 §4), clamped to vmax; written to
/// a.vx, a.vy. @p g is the pressure's grid (the UIC's coarse grid);
/// @p aperture its faces' open fractions (null: 1 between open cells).
/// With @p gradient (a buffer of @p g's size) each face's gradient is
/// computed once there and read by the agents around it (the same bits);
/// without, every agent computes the eight faces it reads.
void agentVelocity(const Exec& ex, const AgentViews& a, const GridInfo& g, View2<const float> pressureIn,
                   View2<const std::uint8_t> blocked, View2<const Face4> aperture, View2<Vel2> gradient = {});

/// Moves every agent by v dt without crossing a wall edge of @p walls (the
/// scene's true walls, walls.hpp): a move that meets a wall stops short of
/// it and slides along it, and the velocity loses its part into the wall;
/// an agent inside a wall is first moved out through its nearest edge. Centres
/// end >= @p clearance [m] (the body radius; 0: the centre only) from
/// every wall where the free space allows (keepClearOfWalls).
void advect(const Exec& ex, const AgentViews& a, const WallView& walls, float dt, float clearance = 0.f);

// ---- (i) separate ----------------------------------------------------------

/// Reusable buffers of the separation (uniform grid of cell >= d_min built by
/// sorting agents by cell with the AgentSortBuffers).
struct SeparateWorkspace;

/// Minimum distance d_min between agent centres: @p passes Jacobi relaxation
/// passes, each pushing every pair closer than d_min apart symmetrically
/// along their line (half the overlap each), never across a wall edge of
/// @p walls, then pushing agents out of walls and @p clearance [m] (the
/// body radius) away from them (keepClearOfWalls). @p g is the grid the
/// neighbour search is laid on. With @p dt > 0 [s] (the step) the agents'
/// velocities gain their displacement / dt: the velocity of the step is
/// then the one actually walked. Deterministic (reads old positions,
/// writes new ones).
void separate(const Exec& ex, const AgentViews& a, const GridInfo& g, const WallView& walls, float dMin, int passes,
              AgentSortBuffers& sort, SeparateWorkspace& ws, float clearance = 0.f, float dt = 0.f);

// ---- (j) exit and spawn ----------------------------------------------------

/// What RouteTable::next says of a route step's goal besides a next field.
constexpr int kRouteLeave = -1;  ///< The group's last step, at an exit: the agent leaves.
constexpr int kRouteStay = -2;   ///< The group's last step, not an exit: the agent stays.

/// Per potential field (a group's route step): the goal whose cells end the
/// step, and what follows it (the next step's field, kRouteLeave or
/// kRouteStay). Views on the Exec's side. [Size: fields]
struct RouteTable {
    View1<const int> goal;
    View1<const int> next;
};

/// Social units at waypoints (seed 000's gate): each agent's unit by id
/// (-1: alone; empty: no units) and, per unit, its members now and those
/// inside the goal of a waypoint step (counts[2u], counts[2u + 1]).
struct UnitGate {
    View1<const int> unitOfId;             ///< [Size: ids]
    View1<unsigned long long> counts;      ///< [Size: 2 * units]
};

/// An agent that left through its final goal, as the device writes it.
struct ExitRow {
    int id = 0;
    int field = 0;           ///< The field it followed (its group and last route step).
    float x = 0.f, y = 0.f;  ///< Where it left. [Units: m]
};

/// What the host learns of the agent table from the step's one small read.
struct AgentRecord {
    int kept = 0;                  ///< Agents in the table afterwards.
    int left = 0;                  ///< Agents that left.
    std::vector<int> fieldsInUse;  ///< 1 for every field some agent follows. [Size: fields]
};

/// Reusable buffers of the exit_spawn stage (kernels/exit_spawn.hpp); the
/// launchers below also borrow the agent sort's buffers (@p sort).
struct ExitSpawnWorkspace;

/// Route advance and exits on the Exec's side (RouteAdvanceKernel): agents
/// inside their route step's goal (@p goalMasks stacked per goal, 1 on its
/// cells) take the next step's field or leave at a final exit; leavers'
/// rows are appended to @p left (in table order) and every column of @p cols
/// (cols.x.size() agents) is compacted, stable (the kept agents fill
/// [0, kept) in their order; the float and int columns trade storage with
/// the scratch buffers, so views taken before are stale). The caller
/// shrinks the columns to AgentRecord::kept. On CUDA the
/// host reads the record (8 + 4 fields bytes) and, when somebody left, 16
/// bytes per leaver. Agents outside @p active (the active region's cells;
/// the whole grid without one) leave as well. Members of a social unit
/// (@p gate; no units when its unitOfId is empty) move on from a waypoint
/// only together; @p gate's counts are left as UnitArrivalKernel set them.
AgentRecord advanceRoutes(const Exec& ex, AgentColumns<Array>& cols, const GridInfo& g, View1<const std::uint8_t> goalMasks,
                          const RouteTable& route, const CellRange& active, const UnitGate& gate, int fieldCount,
                          AgentSortBuffers& sort, ExitSpawnWorkspace& ws, std::vector<ExitRow>& left);

/// The record of the table as it stands (every agent kept): the fields in use.
AgentRecord recordAgents(const Exec& ex, const AgentViews& a, int fieldCount, AgentSortBuffers& sort,
                         ExitSpawnWorkspace& ws);

/// Positions of the agents inside [x0, x1) x [y0, y1) [m], in table order,
/// copied to the host (what a source's overlap test needs, not the table).
void positionsIn(const Exec& ex, const AgentViews& a, float x0, float y0, float x1, float y1, AgentSortBuffers& sort,
                 ExitSpawnWorkspace& ws,
                 std::vector<float>& xs, std::vector<float>& ys);

}  // namespace ccrowd::sim
