/// @file agents.cpp
#include "sim/agents.hpp"

#include <algorithm>
#include <cmath>

#include "ccrowd/error.hpp"

namespace ccrowd::sim {

namespace {
/// std::vector with one template parameter (for AgentColumns).
template <class T>
using HostVector = std::vector<T>;
}  // namespace

// every column of the table is in columnsOf(): a member left out of the list changes the size
static_assert(sizeof(AgentColumns<View1>) == kAgentColumnCount * sizeof(View1<float>),
              "AgentColumns has a column that columnsOf() does not list");
static_assert(std::tuple_size<decltype(columnsOf(std::declval<AgentColumns<View1>&>()))>::value == kAgentColumnCount,
              "kAgentColumnCount differs from columnsOf()");

int goalIndex(const Scene& scene, const std::string& name, const std::string& where) {
    for (std::size_t k = 0; k < scene.goals.size(); ++k)
        if (scene.goals[k].name == name) return static_cast<int>(k);
    throw InputError(where + " = '" + name + "': no goal of that name");
}

std::vector<int> routeGoals(const Scene& scene, const std::vector<std::string>& route, const std::string& where) {
    std::vector<int> goals;
    for (std::size_t r = 0; r < route.size(); ++r) goals.push_back(goalIndex(scene, route[r], where + "[" + std::to_string(r) + "]"));
    return goals;
}

int FieldTable::addRoute(int g, const std::vector<int>& goals) {
    const std::size_t gi = static_cast<std::size_t>(g);
    if (fieldOf.size() <= gi) fieldOf.resize(gi + 1);
    // a route the group has had: its fields again (a route's fields are consecutive, from step 0)
    for (int f = 0; f < size(); ++f) {
        if (group[static_cast<std::size_t>(f)] != g || step[static_cast<std::size_t>(f)] != 0) continue;
        std::vector<int> fs;
        for (int k = f; k >= 0 && fs.size() < goals.size(); k = next[static_cast<std::size_t>(k)]) fs.push_back(k);
        bool same = fs.size() == goals.size() && next[static_cast<std::size_t>(fs.back())] < 0;
        for (std::size_t r = 0; same && r < goals.size(); ++r) same = goal[static_cast<std::size_t>(fs[r])] == goals[r];
        if (same) {
            fieldOf[gi] = fs;
            return size();
        }
    }
    // else one new field per route step
    const int first = size();
    fieldOf[gi].clear();
    for (std::size_t r = 0; r < goals.size(); ++r) {
        const int f = size();
        group.push_back(g);
        step.push_back(static_cast<int>(r));
        goal.push_back(goals[r]);
        next.push_back(r + 1 < goals.size() ? f + 1 : -1);
        fieldOf[gi].push_back(f);
    }
    return first;
}

float drawSpeed(const SpeedDistribution& d, std::mt19937_64& rng) {
    std::normal_distribution<float> normal(d.mean, d.sd > 0.f ? d.sd : 1e-9f);
    return std::min(d.max, std::max(d.min, d.sd > 0.f ? normal(rng) : d.mean));
}

float drawPremovement(const PremovementDistribution& d, std::mt19937_64& rng) {
    using Kind = PremovementDistribution::Kind;
    switch (d.kind) {
        case Kind::Fixed: return d.mean;
        case Kind::Uniform: return std::uniform_real_distribution<float>(d.min, d.max)(rng);
        case Kind::Normal: {
            if (!(d.sd > 0.f)) return d.mean;
            return std::min(d.max, std::max(d.min, std::normal_distribution<float>(d.mean, d.sd)(rng)));
        }
        case Kind::Lognormal: {
            if (!(d.sd > 0.f)) return d.mean;
            // the log's parameters for a log-normal of this mean and sd
            const double m = d.mean, v = static_cast<double>(d.sd) * d.sd;
            const double s2 = std::log1p(v / (m * m)), mu = std::log(m) - 0.5 * s2;
            const double t = std::lognormal_distribution<double>(mu, std::sqrt(s2))(rng);
            return std::min(d.max, std::max(d.min, static_cast<float>(t)));
        }
    }
    return d.mean;
}

bool hasPremovement(const Scene& scene) {
    return std::any_of(scene.groups.begin(), scene.groups.end(), [](const GroupSpec& g) { return g.premovement.enabled(); });
}

AgentStore::AgentStore(FieldTable table, const Scene& scene, const SceneGrid& grid, const Exec& ex)
    : ex_(ex), table_(std::move(table)), grid_(grid.info()), active_{0, 0, grid.nx, grid.ny} {
    setGoalCells(scene, grid);
    buildRoutes(scene);
}

void AgentStore::setGoalCells(const Scene& scene, const SceneGrid& grid) {
    // the goals' cells, stacked per goal, on the Exec's side
    const std::size_t cells = static_cast<std::size_t>(grid.nx) * grid.ny;
    goalMasks_.vector().assign(cells * scene.goals.size(), 0);
    for (std::size_t k = 0; k < scene.goals.size(); ++k)
        for (int c : grid.goal_cells[k]) goalMasks_[k * cells + static_cast<std::size_t>(c)] = 1;
    goalMasks_.toDevice(ex_);
}

void AgentStore::setGoalCells(const Scene& scene, const SceneGrid& grid, const std::vector<int>& goals) {
    // those goals' slices of the stacked masks again
    const std::size_t cells = static_cast<std::size_t>(grid.nx) * grid.ny;
    if (static_cast<std::size_t>(goalMasks_.size()) != cells * scene.goals.size()) return setGoalCells(scene, grid);
    for (int k : goals) {
        const std::size_t base = static_cast<std::size_t>(k) * cells;
        std::fill(goalMasks_.vector().begin() + static_cast<std::ptrdiff_t>(base),
                  goalMasks_.vector().begin() + static_cast<std::ptrdiff_t>(base + cells), std::uint8_t{0});
        for (int c : grid.goal_cells[static_cast<std::size_t>(k)]) goalMasks_[base + static_cast<std::size_t>(c)] = 1;
    }
    goalMasks_.toDevice(ex_);
}

void AgentStore::setUnits(int units) {
    units_ = units;
    unitCounts_.vector().assign(2 * static_cast<std::size_t>(units), 0ull);
    unitCounts_.toDevice(ex_);
}

const std::vector<unsigned long long>& AgentStore::unitCounts() {
    unitCounts_.toHost(ex_, device::Payload::Record);
    return unitCounts_.vector();
}

void AgentStore::setTable(FieldTable table, const Scene& scene) {
    table_ = std::move(table);
    buildRoutes(scene);
}

void AgentStore::buildRoutes(const Scene& scene) {
    // per field: the goal ending its route step and what follows it
    routeGoal_.vector().clear();
    routeNext_.vector().clear();
    for (int f = 0; f < table_.size(); ++f) {
        const int goal = table_.goal[static_cast<std::size_t>(f)];
        const int next = table_.next[static_cast<std::size_t>(f)];
        routeGoal_.vector().push_back(goal);
        routeNext_.vector().push_back(next >= 0 ? next : scene.goals[static_cast<std::size_t>(goal)].exit ? kRouteLeave : kRouteStay);
    }
    for (Array<int>* a : {&routeGoal_, &routeNext_}) a->toDevice(ex_);
    record_.fieldsInUse.resize(static_cast<std::size_t>(table_.size()), 0);
}

void AgentStore::append(const std::vector<NewAgent>& born) {
    const int m = static_cast<int>(born.size());
    if (m == 0) return;
    // the new rows on the host: at rest on their group's first route step
    AgentColumns<HostVector> rows;
    for (const NewAgent& b : born) {
        rows.x.push_back(b.x); rows.y.push_back(b.y);
        rows.vx.push_back(0.f); rows.vy.push_back(0.f);
        rows.px.push_back(0.f); rows.py.push_back(0.f);
        rows.vmax.push_back(b.vmax);
        rows.field.push_back(table_.fieldOf.at(static_cast<std::size_t>(b.group)).at(0));
        rows.id.push_back(nextId_++);
        rows.junction.push_back(-1); rows.came.push_back(-1);
    }
    // social units: each new id's unit
    if (units_ > 0) {
        std::vector<int> units;
        for (const NewAgent& b : born) units.push_back(b.unit);
        const int ids = nextId_ - m;
        unitOfId_.resizeOn(ex_, nextId_);
        unitOfId_.writeOn(ex_, ids, units.data(), m);
    }
    // pre-movement: each new id's start time
    if (premovement_) {
        std::vector<float> starts;
        for (const NewAgent& b : born) starts.push_back(b.start);
        const int ids = nextId_ - m;
        startOfId_.resizeOn(ex_, nextId_);
        startOfId_.writeOn(ex_, ids, starts.data(), m);
    }
    // every column grows on the Exec's side and takes its new rows there
    const int n = n_;
    forEachColumnPair(cols_, rows, [&](auto& column, const auto& values) {
        column.resizeOn(ex_, n + m);
        column.writeOn(ex_, n, values.data(), m);
    });
    n_ = n + m;
    hostCurrent_ = false;  // CUDA: the new rows were written on the device only
}

AgentViews AgentStore::views() { return viewsOf(ex_, cols_); }

void AgentStore::sortByCell(const GridInfo& g, const CellRange& box, SplatWorkspace& ws) {
    sortAgents(ex_, cols_, g, box, ws);
    hostCurrent_ = false;
}

void AgentStore::toHost() {
    if (hostCurrent_) return;
    // CUDA downloads every column; the CPU moves nothing but asks the same (transfer ledger)
    if (n_ > 0) forEachColumn(cols_, [&](auto& column) { column.toHost(ex_); });
    hostCurrent_ = true;
}

std::vector<ExitEvent> AgentStore::advanceRoutes(AgentSortBuffers& sort) {
    std::vector<ExitEvent> left;
    if (n_ == 0) return left;
    std::vector<ExitRow> rows;
    const RouteTable route{routeGoal_.view(ex_), routeNext_.view(ex_)};
    record_ = sim::advanceRoutes(ex_, cols_, grid_, goalMasks_.view(ex_), route, active_, UnitGate{unitOfId_.view(ex_), unitCounts_.view(ex_)},
                                 static_cast<int>(table_.group.size()),
                                 sort, ws_, rows);
    for (const ExitRow& r : rows)
        left.push_back({r.id, table_.group[static_cast<std::size_t>(r.field)], r.x, r.y});
    // route steps and compaction changed the columns on the Exec's side
    hostCurrent_ = false;
    // the kept agents fill the front of every column: shrink to them
    if (record_.kept != n_) {
        forEachColumn(cols_, [&](auto& column) { column.resizeOn(ex_, record_.kept); });
        n_ = record_.kept;
    }
    return left;
}

void AgentStore::recordFields(AgentSortBuffers& sort) {
    record_ = recordAgents(ex_, views(), static_cast<int>(table_.group.size()), sort, ws_);
}

void AgentStore::positionsIn(float x0, float y0, float x1, float y1, AgentSortBuffers& sort, std::vector<float>& xs,
                             std::vector<float>& ys) {
    sim::positionsIn(ex_, views(), x0, y0, x1, y1, sort, ws_, xs, ys);
}

long long AgentStore::reassignFields(const std::function<int(int, int, float, float)>& to, AgentSortBuffers& sort) {
    if (n_ == 0) return 0;
    toHost();
    // each agent's new field, on the host
    long long moved = 0;
    std::vector<int>& field = cols_.field.vector();
    for (int k = 0; k < n_; ++k) {
        const int f = to(field[static_cast<std::size_t>(k)], cols_.id[static_cast<std::size_t>(k)], cols_.x[static_cast<std::size_t>(k)],
                         cols_.y[static_cast<std::size_t>(k)]);
        if (f != field[static_cast<std::size_t>(k)]) {
            field[static_cast<std::size_t>(k)] = f;
            ++moved;
        }
    }
    // the field column back on the Exec's side; the host copy stays current
    cols_.field.toDevice(ex_);
    recordFields(sort);
    return moved;
}

AgentSnapshot AgentStore::snapshot(const Scene& scene) {
    toHost();
    AgentSnapshot s;
    s.x = cols_.x.vector(); s.y = cols_.y.vector(); s.vx = cols_.vx.vector(); s.vy = cols_.vy.vector();
    s.vmax = cols_.vmax.vector(); s.id = cols_.id.vector();
    // group, route step and radius from each agent's field
    const std::size_t n = cols_.field.vector().size();
    s.group.reserve(n);
    s.route_step.reserve(n);
    s.radius.reserve(n);
    for (int f : cols_.field.vector()) {
        const int g = table_.group[static_cast<std::size_t>(f)];
        s.group.push_back(g);
        s.route_step.push_back(table_.step[static_cast<std::size_t>(f)]);
        s.radius.push_back(scene.groups[static_cast<std::size_t>(g)].radius);
    }
    return s;
}

std::size_t AgentStore::bytesPerAgent() const {
    std::size_t b = sizeof(int);  // the int compaction buffer of exit_spawn
    forEachColumn(cols_, [&](const auto& column) { b += sizeof(*column.host()); });
    return b;
}

}  // namespace ccrowd::sim
