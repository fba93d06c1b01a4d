#pragma once
/// @file agents.hpp
/// The agent table of a simulation: the columns of ccrowd/agent_columns.hpp
/// kept on the backend's side (the CUDA backend's master copy is on the
/// device; the host copy is downloaded only when a reader asks), with the
/// route rules of the exit_spawn stage (per-field goals and what follows
/// them, the goals' cells) and the host-side parts of spawning.

#include <cstdint>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "ccrowd/field.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "kernels/exit_spawn.hpp"
#include "kernels/stages.hpp"

namespace ccrowd::sim {

/// An agent that left through its final goal.
struct ExitEvent {
    int id = 0;
    int group = 0;
    float x = 0.f, y = 0.f;  ///< Where it left. [Units: m]
};

/// An agent to add (initial placement or a source's birth).
struct NewAgent {
    float x = 0.f, y = 0.f;  ///< [Units: m]
    float vmax = 1.34f;      ///< Free speed. [Units: m/s] [Limit: > 0]
    int group = 0;
    int unit = -1;           ///< Social unit (AgentStore::setUnits), -1: walks alone.
    float start = 0.f;       ///< When it starts walking (AgentStore::setPremovement): its birth plus its pre-movement time. [Units: s]
};

/// Index of the goal named @p name (routes name goals); throws InputError
/// naming @p where when there is none.
int goalIndex(const Scene& scene, const std::string& name, const std::string& where);
/// The goal indices of @p route (goal names); errors name @p where[k].
std::vector<int> routeGoals(const Scene& scene, const std::vector<std::string>& route, const std::string& where);

/// Draws a free speed from normal(mean, sd) clamped to [min, max].
float drawSpeed(const SpeedDistribution& d, std::mt19937_64& rng);
/// Offset of the seeds of the pre-movement draws (initial agents: per
/// group; sources: one stream), apart from every other stream.
constexpr unsigned long long kPremovementStream = 0x70726d76ULL << 20;
/// Draws a pre-movement time [s] from @p d (PremovementDistribution: fixed,
/// uniform, or normal / log-normal clamped to [min, max]).
float drawPremovement(const PremovementDistribution& d, std::mt19937_64& rng);
/// True when some group of @p scene has a pre-movement time.
bool hasPremovement(const Scene& scene);

/// Who follows a potential field, and which field a group follows at each
/// route step: an agent's field says its group and route step. A group
/// whose route a set_route event changes has fields for each of its routes;
/// `fieldOf` is its route of now.
struct FieldTable {
    std::vector<int> group, step;               ///< [field] -> group, route step.
    std::vector<int> goal;                      ///< [field] -> the goal ending its route step.
    std::vector<int> next;                      ///< [field] -> the field of the route's next step (-1: the route's last).
    std::vector<std::vector<int>> fieldOf;      ///< [group][route step] -> field, on the group's route of now.

    /// The fields of @p group's route @p goals (goal indices): existing
    /// ones when the group has had that route, else new ones appended.
    /// Returns the first appended field (size() when none was).
    int addRoute(int group, const std::vector<int>& goals);
    int size() const { return static_cast<int>(group.size()); }
};

/// The agent table: 40 bytes per agent in 11 columns (position, velocity,
/// preferred velocity, free speed, field, id, route choice's junction and
/// the one it came from). Group, route step and radius
/// follow from the field (FieldTable) and the group's spec.
class AgentStore {
public:
    AgentStore() = default;
    /// An empty table for @p scene's groups and goals on @p grid, on @p ex's side.
    AgentStore(FieldTable table, const Scene& scene, const SceneGrid& grid, const Exec& ex);
    int size() const { return n_; }
    /// Appends agents at rest on the first route step of their group, ids in
    /// order, on the Exec's side (CUDA: the new rows are uploaded, nothing
    /// else moves).
    void append(const std::vector<NewAgent>& born);
    /// Views of the columns on the Exec's side (nothing is copied).
    AgentViews views();
    /// The stages changed the columns: the host copy is stale.
    void changed() { hostCurrent_ = false; }
    /// The splat's sort (kernels/stages.hpp, sortAgents()): every column in
    /// order of stencil origin cell on @p g, ranges for the cells of @p box
    /// in @p ws. Views taken before are stale.
    void sortByCell(const GridInfo& g, const CellRange& box, SplatWorkspace& ws);
    /// Route advance and exits on the Exec's side (kernels/exit_spawn.hpp):
    /// agents inside their route goal move on or leave at a final exit; the
    /// leavers are returned in table order and the table compacted (order of
    /// the others kept). Also refreshes fieldsInUse(). Borrows the agent
    /// sort's buffers @p sort (free at the end of a step).
    std::vector<ExitEvent> advanceRoutes(AgentSortBuffers& sort);
    /// Refreshes fieldsInUse() for the table as it stands.
    void recordFields(AgentSortBuffers& sort);
    /// The field table grew or a group's route changed (set_route): the
    /// route table again, for @p table.
    void setTable(FieldTable table, const Scene& scene);
    /// The goals' cells changed (events): the goal masks again, from @p grid.
    void setGoalCells(const Scene& scene, const SceneGrid& grid);
    /// Only @p goals' cells changed (an active region moved its goals).
    void setGoalCells(const Scene& scene, const SceneGrid& grid, const std::vector<int>& goals);
    /// The active region's cells: advanceRoutes() removes the agents outside (as leavers).
    void setActiveCells(const CellRange& r) { active_ = r; }
    /// The scene has @p units social units (seed 000's small groups; call
    /// before the first append): from now on each agent's unit is kept by
    /// id (NewAgent::unit) and advanceRoutes() holds a unit's members at a
    /// waypoint until all of them stand in it.
    void setUnits(int units);
    int units() const { return units_; }
    /// Some group stands before walking (call before the first append): from
    /// now on each agent's start time (NewAgent::start) is kept by id.
    void setPremovement() { premovement_ = true; }
    /// Each id's start time on the Exec's side (empty without pre-movement). [Units: s] [Size: idEnd()]
    View1<const float> startOfId() { return startOfId_.view(ex_); }
    /// Each id's start time on the host (empty without pre-movement; CUDA: downloaded). [Units: s]
    const std::vector<float>& startOfIdOnHost() {
        startOfId_.toHost(ex_);
        return startOfId_.vector();
    }
    /// Bytes of the per-id columns (social units, start times). [Units: bytes]
    std::size_t idBytes() const {
        return static_cast<std::size_t>(unitOfId_.size()) * sizeof(int) + static_cast<std::size_t>(startOfId_.size()) * sizeof(float);
    }
    /// Each id's unit on the Exec's side (-1: alone). [Size: idEnd()]
    View1<const int> unitOfId() { return unitOfId_.view(ex_); }
    /// Per unit, after advanceRoutes(): its members and those standing in a
    /// waypoint's goal (2 values per unit), on the host (CUDA: downloaded).
    const std::vector<unsigned long long>& unitCounts();
    /// Each id's unit on the host (-1: alone; empty without units; CUDA: downloaded).
    const std::vector<int>& unitOfIdOnHost() {
        unitOfId_.toHost(ex_);
        return unitOfId_.vector();
    }
    /// Moves agents to other fields (a rare event: an incident's switch
    /// rules): @p to(field, id, x, y) gives each agent's new field, decided
    /// on the host (CUDA: the columns come to the host once and the field
    /// column goes back). Refreshes fieldsInUse(). Returns how many moved.
    long long reassignFields(const std::function<int(int, int, float, float)>& to, AgentSortBuffers& sort);
    /// 1 for every field some agent follows, as of the last advanceRoutes()
    /// or recordFields(). [Size: fields]
    const std::vector<int>& fieldsInUse() const { return record_.fieldsInUse; }
    /// Positions of the agents inside [x0, x1) x [y0, y1) [m] (CUDA: only
    /// those come to the host).
    void positionsIn(float x0, float y0, float x1, float y1, AgentSortBuffers& sort, std::vector<float>& xs,
                     std::vector<float>& ys);
    /// Host copy for readers (radius from each group's spec); CUDA: the
    /// columns are downloaded once per change.
    AgentSnapshot snapshot(const Scene& scene);
    /// Bytes of per-agent storage held here (the columns and the exit_spawn
    /// stage's own per-agent buffer), per agent.
    std::size_t bytesPerAgent() const;
    /// Bytes of the goals' cell masks. [Units: bytes]
    std::size_t goalMaskBytes() const { return static_cast<std::size_t>(goalMasks_.size()); }
    /// One past the largest id given so far (ids are 0, 1, 2, ... in order of arrival).
    int idEnd() const { return nextId_; }

private:
    /// The host copy of every column current (CUDA: downloads once per change).
    void toHost();

    Exec ex_;
    FieldTable table_;
    GridInfo grid_;
    AgentColumns<Array> cols_;
    int n_ = 0;
    int nextId_ = 0;
    bool hostCurrent_ = true;          ///< The host copy equals the columns on the Exec's side.
    Array<std::uint8_t> goalMasks_;    ///< Per goal, 1 on its cells. [Size: goals * nx * ny]
    Array<int> routeGoal_, routeNext_; ///< RouteTable per field. [Size: fields]
    CellRange active_;                 ///< Cells agents may stay in (the active region; the whole grid without one).
    int units_ = 0;                    ///< Social units (0: none, no gate).
    Array<int> unitOfId_;              ///< Unit per agent id (-1: alone). [Size: ids, empty without units]
    Array<unsigned long long> unitCounts_;  ///< UnitGate::counts. [Size: 2 * units]
    bool premovement_ = false;         ///< Start times kept (setPremovement).
    Array<float> startOfId_;           ///< Start time per agent id. [Units: s] [Size: ids, empty without pre-movement]

    /// routeGoal_ and routeNext_ from table_.
    void buildRoutes(const Scene& scene);
    ExitSpawnWorkspace ws_;
    AgentRecord record_;
};

}  // namespace ccrowd::sim
