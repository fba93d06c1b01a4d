/// @file simulation.cpp
/// The step of seed 003 as a list of named, timed stages (DESIGN.md §2).
/// Stage maths lives in kernels/; this file orders the stages, owns the
/// buffers, and handles exits, spawns and the route of each group.

#include "ccrowd/simulation.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <cmath>
#include <random>

#include "ccrowd/device_memory.hpp"
#include "ccrowd/error.hpp"
#include "ccrowd/placement.hpp"
#include "../../kernels/pressure.hpp"
#include "../../kernels/separate.hpp"
#include "../../kernels/speed.hpp"
#include "../../kernels/splat.hpp"
#include "sim/agents.hpp"
#include "sim/sim_views.hpp"
#include "sim/sources.hpp"
#include "kernels/stages.hpp"
#include "sim/stage_clock.hpp"

namespace ccrowd {

const char* stageName(Stage s) {
    static const char* names[kStageCount] = {"active_box", "splat", "speed", "cost", "potential",
                                             "desired_velocity", "pressure", "agents", "separate", "exit_spawn"};
    return names[static_cast<int>(s)];
}

struct Simulation::Impl {
    Scene scene;
    SceneGrid grid;
    GridInfo gi;
    Exec ex;
    double time = 0.0;
    long long steps = 0;
    StageTimes times;
    StepReport report;
    sim::AgentStore agents;
    std::vector<GroupStats> groups;
    std::vector<ExitRecord> exits;
    sim::SourceSpawner spawner;

    // fields (DESIGN.md §2 names)
    Field<float> density, pressure, perceivedDensity;
    Field<sim::Vel2> meanVelocity, meanPreferred, corrected, perceivedVelocity, perceivedPreferred;
    Field<sim::Face4> speed;
    Field<FaceCost> cost;
    std::vector<Field<float>> potential;         ///< One per (group, route step).
    std::vector<Field<sim::Vel2>> desired;       ///< Same indexing.
    sim::FieldTable fields;                      ///< Whose field k is; each group's field and goal per route step.
    std::vector<Field<std::uint8_t>> goalMask;   ///< Per goal: 1 on its cells.
    FimSolver solver;                            ///< Every field's potential in one solve; workspace kept between steps.
    std::vector<EikonalProblem> problems;        ///< Per field: its goal's cells as sources; costs from `cost`.
    sim::SplatWorkspace splatWs;
    sim::PressureWorkspace pressureWs;
    sim::PerceiveWorkspace perceiveWs;
    sim::SeparateWorkspace separateWs;
    sim::StageClock clock;                       ///< Stage timers on the backend's clock (CUDA events on the GPU).
    long long version = 0;                       ///< Bumped whenever stages rewrote the fields (prepare, each step).
    std::map<const void*, long long> hostVersion;  ///< Field -> version its host copy holds.

    Impl(Scene s, const Exec& e);
    void setupFields();
    void placeInitialAgents();
    /// The fields of the initial state (see prepare() in simulation.cpp).
    void prepare();
    /// One step: every stage, then time, steps, timers and the report.
    void step();
    /// Runs the stages in order; with @p moveAgents false, only those that
    /// compute fields from the agents where they stand (active_box to
    /// desired_velocity).
    void runStages(bool moveAgents);
    template <class F>
    void timed(Stage s, F&& f);
    void exitAndSpawn();
    /// @p f with its host copy holding the current values (CUDA: downloaded
    /// at most once per version, only when asked; the CPU backend's fields
    /// live on the host).
    template <class T>
    const Field<T>& onHost(Field<T>& f);
    /// The cells of @p f as a flat float array of its components.
    template <class T>
    std::vector<float> flatten(Field<T>& f);
};

template <class T>
const Field<T>& Simulation::Impl::onHost(Field<T>& f) {
    // a field the stages never wrote on the device (a potential nobody
    // followed yet) has no device copy: its host copy is the only one, and
    // toHost() moves nothing
    auto it = hostVersion.find(&f);
    if (it == hostVersion.end() || it->second != version) {
        f.toHost(ex);
        hostVersion[&f] = version;
    }
    return f;
}

template <class T>
std::vector<float> Simulation::Impl::flatten(Field<T>& f) {
    static_assert(sizeof(T) % sizeof(float) == 0, "a field of floats");
    const Field<T>& h = onHost(f);
    std::vector<float> out(h.size() * (sizeof(T) / sizeof(float)));
    std::memcpy(out.data(), h.host(), out.size() * sizeof(float));
    return out;
}

Simulation::Impl::Impl(Scene s, const Exec& e) : scene(std::move(s)), ex(e), solver(e) {
    grid = rasterizeScene(scene);
    gi = GridInfo{grid.nx, grid.ny, grid.h, grid.origin.x, grid.origin.y};
    groups.resize(scene.groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) groups[g].name = scene.groups[g].name;
    setupFields();
    agents = sim::AgentStore(fields);
    placeInitialAgents();
    spawner = sim::SourceSpawner(scene, grid);
    clock = sim::StageClock(ex, kStageCount);
    prepare();
}

void Simulation::Impl::setupFields() {
    const int nx = grid.nx, ny = grid.ny;
    density.assign(nx, ny, 0.f);
    pressure.assign(nx, ny, 0.f);
    meanVelocity.assign(nx, ny, sim::Vel2{});
    meanPreferred.assign(nx, ny, sim::Vel2{});
    corrected.assign(nx, ny, sim::Vel2{});
    perceivedDensity.assign(nx, ny, 0.f);
    perceivedVelocity.assign(nx, ny, sim::Vel2{});
    perceivedPreferred.assign(nx, ny, sim::Vel2{});
    speed.assign(nx, ny, sim::Face4{});
    cost.assign(nx, ny, FaceCost{});
    // static grids and zeroed fields live on the backend's side from now on (CUDA: uploaded)
    grid.blocked.toDevice(ex); grid.terrain.toDevice(ex); grid.discomfort.toDevice(ex);
    density.toDevice(ex); pressure.toDevice(ex);
    meanVelocity.toDevice(ex); meanPreferred.toDevice(ex); corrected.toDevice(ex);
    perceivedDensity.toDevice(ex); perceivedVelocity.toDevice(ex); perceivedPreferred.toDevice(ex);
    speed.toDevice(ex); cost.toDevice(ex);
    // goal masks: the exit test of each agent reads its goal's mask
    goalMask.resize(scene.goals.size());
    for (std::size_t k = 0; k < scene.goals.size(); ++k) {
        goalMask[k].assign(nx, ny, 0);
        for (int c : grid.goal_cells[k]) goalMask[k].host()[c] = 1;
    }
    // one potential field per (group, route step): goals change along a route
    fields.fieldOf.resize(scene.groups.size());
    fields.routeGoal.resize(scene.groups.size());
    for (std::size_t g = 0; g < scene.groups.size(); ++g) {
        for (std::size_t r = 0; r < scene.groups[g].route.size(); ++r) {
            const int goalIdx = sim::goalIndex(scene, static_cast<int>(g), static_cast<int>(r));
            fields.routeGoal[g].push_back(goalIdx);
            // the goal's cells are the eikonal sources, at its potential (Treuille 2006 eq. 5)
            EikonalProblem prob;
            prob.h = grid.h;
            prob.blocked = &grid.blocked;
            prob.cost = &cost;
            const float value = scene.goals[static_cast<std::size_t>(goalIdx)].potential;
            for (int c : grid.goal_cells[static_cast<std::size_t>(goalIdx)]) prob.sources.push_back({c % nx, c / nx, value});
            problems.push_back(std::move(prob));
            fields.fieldOf[g].push_back(static_cast<int>(potential.size()));
            fields.group.push_back(static_cast<int>(g));
            fields.step.push_back(static_cast<int>(r));
            potential.emplace_back(nx, ny, INFINITY);
            desired.emplace_back(nx, ny, sim::Vel2{});
            desired.back().toDevice(ex);
        }
    }
}

void Simulation::Impl::placeInitialAgents() {
    const float dMin = scene.params.d_min;
    for (std::size_t g = 0; g < scene.groups.size(); ++g) {
        const GroupSpec& spec = scene.groups[g];
        const std::vector<Vec2> pos = placeAgents(scene, grid, static_cast<int>(g), scene.params.seed,
                                                   std::max(dMin, placementDistance(scene, static_cast<int>(g))));
        std::mt19937_64 rng(scene.params.seed * 1000003ULL + g);
        for (const Vec2& p : pos) {
            agents.add(p.x, p.y, sim::drawSpeed(spec.speed, rng), static_cast<int>(g));
        }
        groups[g].spawned += static_cast<long long>(pos.size());
        groups[g].remaining += static_cast<long long>(pos.size());
    }
}

template <class F>
void Simulation::Impl::timed(Stage s, F&& f) {
    // on the backend's clock (CUDA events on the GPU), resolved once per step by clock.collect()
    clock.begin(static_cast<int>(s));
    f();
    clock.end(static_cast<int>(s));
}

void Simulation::Impl::prepare() {
    // The field stages for the agents where they stand, so that readers and
    // the snapshot at t = 0 see the initial density (sum of rho h^2 = the
    // agents on the grid), speeds, costs, potentials and desired velocities.
    // Nothing moves, and the first step's results do not change: its splat
    // sorts the same positions again (a stable sort of sorted agents keeps
    // their order), every potential solve starts from +inf, and the pressure
    // (warm-started from its last solve) is not run: it stays 0 until the
    // first step.
    runStages(false);
    std::array<double, kStageCount> discarded{};
    clock.collect(discarded.data());
    // the splat sorted the agents on the backend's side: the host copy follows
    agents.download(ex);
    report = StepReport{};
    ++version;
}

void Simulation::Impl::step() {
    const device::TransferCounts before = device::transferCounts();
    runStages(true);
    ++version;
    clock.collect(times.total_ms.data());
    ++times.steps;
    report.transfers = device::transferCounts() - before;
    report.host_device_bytes = report.transfers.movedBytes();
}

void Simulation::Impl::runStages(bool moveAgents) {
    const ModelParams& mp = scene.params;
    sim::AgentViews a = agents.views(ex);
    // speed field: Treuille 2006 eq. 10 capped at the free speed, read a
    // perception radius ahead (kernels/speed.hpp)
    sim::SpeedParams sp{mp.rho_min, mp.rho_max, mp.v0, mp.rho_jam, mp.gamma_fd, 0.05f};
    sp.cap_at_free = true;
    sp.ahead = sim::aheadCells(mp.perception_radius, grid.h);
    CellRange box;
    // (a) active box: per-cell work stays inside the crowd's AABB + margin (seed 003 §2.2)
    timed(Stage::ActiveBox, [&] { box = sim::activeBox(ex, a, gi, mp.box_margin); });
    // (b) splat: density and mean velocity
    timed(Stage::Splat, [&] {
        sim::sortAgents(ex, a, gi, box, splatWs);
        sim::splat(ex, a, a.vx, a.vy, gi, box, splatWs, density.view(ex), meanVelocity.view(ex));
    });
    // (c) speed on the four faces (Treuille 2006 §4.2) from the perceived density and flow
    timed(Stage::Speed, [&] {
        sim::perceive(ex, gi, box, mp.perception_radius, density.view(ex), meanVelocity.view(ex), grid.blocked.view(ex),
                      perceiveWs, perceivedDensity.view(ex), perceivedVelocity.view(ex));
        sim::speed(ex, gi, box, sp, perceivedDensity.view(ex), perceivedVelocity.view(ex), grid.terrain.view(ex),
                   grid.blocked.view(ex), speed.view(ex));
    });
    // (d) unit cost per face (Treuille 2006 eq. 4)
    timed(Stage::Cost, [&] {
        sim::unitCost(ex, gi, box, sim::CostParams{mp.alpha, mp.beta, mp.gamma}, sp, speed.view(ex),
                      grid.discomfort.view(ex), grid.terrain.view(ex), grid.blocked.view(ex), cost.view(ex));
    });
    // (e) potential per field that has agents: eikonal |grad phi| = C, goals as sources (FIM)
    const std::vector<int> used = agents.fieldsInUse(static_cast<int>(potential.size()));
    timed(Stage::Potential, [&] {
        // every field with agents in one solve: their tiles share the FIM's
        // phases (one launch and one convergence test on the GPU)
        std::vector<const EikonalProblem*> probs;
        std::vector<Field<float>*> outs;
        for (std::size_t k = 0; k < potential.size(); ++k)
            if (used[k]) { probs.push_back(&problems[k]); outs.push_back(&potential[k]); }
        EikonalOptions opt;
        opt.validate = false;  // costs come from unitCost: finite and positive by construction
        opt.download = false;  // CUDA: the potentials stay on the device; readers download
        // warm start from the last step: the cost stage wrote only the active box
        opt.warm_start = mp.potential_warm_start;
        opt.changed_i0 = box.i0; opt.changed_j0 = box.j0; opt.changed_i1 = box.i1; opt.changed_j1 = box.j1;
        const std::vector<EikonalStats> stats = solver.solveMany(probs, outs, opt);
        const int n = static_cast<int>(stats.size());
        report.potentials_solved = n;
        report.potentials_converged = true;
        report.potential_phases = 0;
        report.potential_warm = !stats.empty() && stats.front().warm;
        double upc = 0.0;
        for (const EikonalStats& st : stats) {
            report.potentials_converged = report.potentials_converged && st.converged;
            upc += st.updates_per_cell;
            report.potential_phases = std::max<long long>(report.potential_phases, st.iterations);
        }
        report.potential_updates_per_cell = n ? upc / n : 0.0;
    });
    // (f) desired velocity per field, then each agent's preferred velocity
    timed(Stage::DesiredVelocity, [&] {
        std::vector<View2<const sim::Vel2>> views(potential.size());
        for (std::size_t k = 0; k < potential.size(); ++k) {
            if (used[k])
                sim::desiredVelocity(ex, gi, box, potential[k].view(ex), speed.view(ex), grid.blocked.view(ex),
                                     desired[k].view(ex));
            views[k] = desired[k].view(ex);
        }
        sim::preferredVelocity(ex, a, gi, views.data(), static_cast<int>(views.size()), mp.v0, grid.blocked.view(ex));
    });
    // prepare(): the fields of the state as it stands; nobody moves
    if (!moveAgents) return;
    // (g) UIC pressure (Narain 2009): mean preferred velocity, then the LCP
    timed(Stage::Pressure, [&] {
        sim::splat(ex, a, a.px, a.py, gi, box, splatWs, {}, meanPreferred.view(ex));
        const sim::PressureParams pp{mp.rho_limit, mp.dt, mp.pressure_iterations, mp.pressure_tolerance,
                                     mp.pressure_omega};
        // the UIC limits the density at the same physical scale (centred window):
        // on the raw splat a lone person is up to 1/h^2 persons/m^2, above
        // the limit on any grid finer than 0.43 m
        sim::perceive(ex, gi, box, mp.perception_radius, density.view(ex), meanPreferred.view(ex), grid.blocked.view(ex),
                      perceiveWs, perceivedDensity.view(ex), perceivedPreferred.view(ex));
        const sim::PressureStats ps = sim::pressure(ex, gi, box, pp, perceivedDensity.view(ex), perceivedPreferred.view(ex),
                                                    grid.blocked.view(ex), pressureWs, pressure.view(ex), corrected.view(ex));
        report.pressure_residual = ps.residual;
        report.pressure_iterations = ps.iterations;
        report.pressure_converged = ps.converged;
    });
    // (h) agents: corrected velocity, clamp, advect (never into walls)
    timed(Stage::Agents, [&] {
        sim::agentVelocity(ex, a, gi, pressure.view(ex), grid.blocked.view(ex));
        sim::advect(ex, a, gi, grid.blocked.view(ex), mp.dt);
    });
    // (i) separate: minimum distance d_min between agents and from walls
    timed(Stage::Separate, [&] {
        sim::separate(ex, a, gi, grid.blocked.view(ex), mp.d_min, mp.separation_passes, splatWs.sort, separateWs);
        agents.download(ex);  // exits, spawns and readers work on the host copy
    });
    time += mp.dt;
    ++steps;
    // (j) exit and spawn
    timed(Stage::ExitSpawn, [&] { exitAndSpawn(); });
}

void Simulation::Impl::exitAndSpawn() {
    // agents inside their route goal: leave at an exit, else walk to the next goal
    std::vector<sim::ExitEvent> left = agents.advanceRoutes(scene, grid, goalMask);
    for (const sim::ExitEvent& e : left) {
        exits.push_back({e.id, e.group, time, e.x, e.y});
        GroupStats& gs = groups[static_cast<std::size_t>(e.group)];
        ++gs.exited;
        --gs.remaining;
        if (gs.first_exit < 0) gs.first_exit = time;
        gs.last_exit = time;
    }
    // sources: new agents at their rate, never overlapping others
    const std::vector<sim::SpawnEvent> born = spawner.spawn(time, scene.params.dt, agents, scene.params.d_min);
    for (const sim::SpawnEvent& b : born) {
        agents.add(b.x, b.y, b.vmax, b.group);
        ++groups[static_cast<std::size_t>(b.group)].spawned;
        ++groups[static_cast<std::size_t>(b.group)].remaining;
    }
}

Simulation::Simulation(Scene scene, const Exec& ex) : impl_(std::make_unique<Impl>(std::move(scene), ex)) {}
Simulation::~Simulation() = default;

void Simulation::step() { impl_->step(); }

bool Simulation::finished() const {
    const Impl& m = *impl_;
    const ModelParams& p = m.scene.params;
    if (m.time >= p.duration - 0.5 * p.dt) return true;
    if (p.max_steps >= 0 && m.steps >= p.max_steps) return true;
    return m.agents.size() == 0 && !m.spawner.pending(m.time);
}

double Simulation::time() const { return impl_->time; }
long long Simulation::steps() const { return impl_->steps; }
int Simulation::agentCount() const { return impl_->agents.size(); }
long long Simulation::spawnedTotal() const {
    long long n = 0;
    for (const GroupStats& g : impl_->groups) n += g.spawned;
    return n;
}
long long Simulation::exitedTotal() const {
    long long n = 0;
    for (const GroupStats& g : impl_->groups) n += g.exited;
    return n;
}
const Scene& Simulation::scene() const { return impl_->scene; }
const SceneGrid& Simulation::grid() const { return impl_->grid; }
const Exec& Simulation::exec() const { return impl_->ex; }
const StageTimes& Simulation::times() const { return impl_->times; }
const StepReport& Simulation::lastReport() const { return impl_->report; }
const std::vector<GroupStats>& Simulation::groupStats() const { return impl_->groups; }
const std::vector<ExitRecord>& Simulation::exits() const { return impl_->exits; }
AgentSnapshot Simulation::agents() const { return impl_->agents.snapshot(impl_->scene); }
const Field<float>& Simulation::density() const { return impl_->onHost(impl_->density); }
float Simulation::maxDensity() const { return sim::maxDensity(impl_->ex, impl_->density.view(impl_->ex)); }
const Field<float>& Simulation::pressure() const { return impl_->onHost(impl_->pressure); }
const Field<float>& Simulation::potential(int k) const {
    return impl_->onHost(impl_->potential.at(static_cast<std::size_t>(k)));
}
std::vector<float> Simulation::meanVelocity() const { return impl_->flatten(impl_->meanVelocity); }
std::vector<float> Simulation::faceSpeed() const { return impl_->flatten(impl_->speed); }
std::vector<float> Simulation::desiredVelocity(int k) const {
    return impl_->flatten(impl_->desired.at(static_cast<std::size_t>(k)));
}
int Simulation::fieldCount() const { return static_cast<int>(impl_->potential.size()); }
int Simulation::fieldGroup(int k) const { return impl_->fields.group.at(static_cast<std::size_t>(k)); }
int Simulation::fieldStep(int k) const { return impl_->fields.step.at(static_cast<std::size_t>(k)); }
sim::SimViews sim::SimAccess::views(const Simulation& s) {
    Simulation::Impl& m = *s.impl_;
    SimViews v;
    v.ex = m.ex;
    v.grid = m.gi;
    // the agents on the Exec's side (CUDA: uploads the host copy when exits or spawns changed it)
    v.agents = m.agents.views(m.ex);
    v.idEnd = m.agents.idEnd();
    v.density = m.density.view(m.ex);
    v.pressure = m.pressure.view(m.ex);
    v.meanVelocity = m.meanVelocity.view(m.ex);
    // potentials of fields nobody followed yet exist on the host only (+inf): uploaded once
    for (Field<float>& p : m.potential) {
        if (m.ex.backend == Backend::Cuda && !p.hasDevice()) p.toDevice(m.ex);
        v.potential.push_back(p.view(m.ex));
    }
    return v;
}

namespace {
/// Bytes held by 1-D arrays.
template <class... A>
std::size_t arrayBytes(const A&... a) {
    return ((static_cast<std::size_t>(a.size()) * sizeof(*a.host())) + ...);
}
}  // namespace

std::size_t Simulation::agentBytes() const {
    const Impl& m = *impl_;
    // the agent store plus the per-agent buffers of the splat and the separation
    const sim::SplatWorkspace& sp = m.splatWs;
    const sim::SeparateWorkspace& se = m.separateWs;
    const std::size_t work = arrayBytes(sp.sort.key, sp.sort.order, sp.sort.scratch) + arrayBytes(se.x, se.y);
    const int n = m.agents.size();
    return m.agents.bytesPerAgent() + (n > 0 ? work / static_cast<std::size_t>(n) : 0);
}
std::size_t Simulation::gridBytes() const {
    const Impl& m = *impl_;
    // every grid field, the per-field potentials and velocities, the FIM
    // workspaces and the stages' per-cell buffers, as allocated now
    auto bytes = [](const auto& f) { return f.size() * sizeof(*f.host()); };
    std::size_t total = bytes(m.grid.blocked) + bytes(m.grid.discomfort) + bytes(m.grid.terrain);
    for (const Field<float>* f : {&m.density, &m.pressure, &m.perceivedDensity}) total += bytes(*f);
    for (const Field<sim::Vel2>* f : {&m.meanVelocity, &m.meanPreferred, &m.corrected, &m.perceivedVelocity,
                                      &m.perceivedPreferred})
        total += bytes(*f);
    total += bytes(m.speed) + bytes(m.cost) + bytes(m.perceiveWs.rows);
    for (std::size_t k = 0; k < m.potential.size(); ++k) total += bytes(m.potential[k]) + bytes(m.desired[k]);
    for (const Field<std::uint8_t>& g : m.goalMask) total += bytes(g);
    total += m.solver.workspaceBytes();
    total += arrayBytes(m.splatWs.begin, m.splatWs.end, m.pressureWs.residual, m.separateWs.first);
    return total;
}

}  // namespace ccrowd
