/// @file simulation.cpp
/// A simulation: its state (sim_state.hpp) and the pipeline of its step
/// (pipeline.hpp): the continuum's stages, the operational model's, then
/// exit_spawn. This file builds them, runs steps, and serves readers: host
/// copies of fields are made only when read, at most once per step.

#include "ccrowd/simulation.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "ccrowd/device_memory.hpp"
#include "ccrowd/error.hpp"
#include "kernels/separate.hpp"
#include "kernels/speed.hpp"
#include "kernels/splat.hpp"
#include "sim/events_stage.hpp"
#include "sim/exit_spawn_stage.hpp"
#include "sim/active_region_stage.hpp"
#include "sim/field_stages.hpp"
#include "sim/route_choice_stage.hpp"
#include "sim/search_stage.hpp"
#include "sim/social_stage.hpp"
#include "sim/incidents_stage.hpp"
#include "sim/operational_model.hpp"
#include "sim/pipeline.hpp"
#include "sim/premovement_stage.hpp"
#include "sim/sim_state.hpp"

namespace ccrowd {

double StageTimes::mean(const std::string& name) const {
    for (std::size_t k = 0; k < names.size(); ++k)
        if (names[k] == name) return mean(k);
    std::string allowed;
    for (const std::string& n : names) allowed += (allowed.empty() ? "" : ", ") + n;
    throw InputError(fieldMessage("stage", "'" + name + "'", "no stage of that name in this pipeline", allowed));
}

struct Simulation::Impl {
    std::unique_ptr<sim::SimState> state;
    std::unique_ptr<sim::OperationalModel> model;
    sim::Pipeline pipeline;
    StageTimes times;
    long long version = 0;                         ///< Bumped whenever stages rewrote the fields (prepare, each step).
    std::map<const void*, long long> hostVersion;  ///< Field -> version its host copy holds.
    std::vector<long long> desiredVersion;         ///< Per field, the version its desired velocity was completed at (-1: never).

    Impl(Scene s, const Exec& e);
    /// The fields of the initial state (see prepare() in simulation.cpp).
    void prepare();
    /// One step: every stage, then the timers and the report.
    void step();
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
    // once per step version: a field with no device copy (one only the
    // host writes) lives on the host, and toHost() moves nothing
    auto it = hostVersion.find(&f);
    if (it == hostVersion.end() || it->second != version) {
        f.toHost(state->ex);
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

Simulation::Impl::Impl(Scene s, const Exec& e)
    : state(std::make_unique<sim::SimState>(std::move(s), e)),
      model(sim::makeOperationalModel(state->scene.params.local)) {
    // the step: the scene's events (when it has a timeline), the continuum's stages, the operational model's, exit_spawn
    std::vector<sim::Stage> stages;
    if (sim::hasTimeline(state->scene)) stages.push_back(sim::eventsStage());
    const bool region = state->scene.active_region.enabled();
    if (region) stages.push_back(sim::activeRegionStage());
    // incidents: their start and switches first, their cost scaling after the common cost
    const bool incidents = sim::hasIncidents(state->scene);
    if (incidents) {
        sim::setupIncidents(*state);
        stages.push_back(sim::incidentsStage());
    }
    for (sim::Stage& st : sim::continuumStages()) {
        const bool cost = st.name == "cost";
        stages.push_back(std::move(st));
        if (cost && incidents) stages.push_back(sim::incidentCostStage());
    }
    if (sim::hasRouteChoice(state->scene)) stages.push_back(sim::routeChoiceStage());
    if (sim::hasSearchers(state->scene)) stages.push_back(sim::searchStage());
    if (sim::hasSocialUnits(state->scene)) stages.push_back(sim::cohesionStage());
    if (sim::hasPremovement(state->scene)) stages.push_back(sim::premovementStage());
    for (sim::Stage& st : model->stages(*state)) stages.push_back(std::move(st));
    stages.push_back(sim::exitSpawnStage());
    if (region) stages.push_back(sim::regionSpawnStage());
    pipeline = sim::Pipeline(e, std::move(stages), sim::initialStateItems());
    times.names = pipeline.names();
    times.total_ms.assign(times.names.size(), 0.0);
    prepare();
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
    pipeline.run(*state, false);
    std::vector<double> discarded(times.names.size(), 0.0);
    pipeline.collect(discarded.data());
    state->report = StepReport{};
    ++version;
}

void Simulation::Impl::step() {
    const device::TransferCounts before = device::transferCounts();
    pipeline.run(*state, true);
    ++version;
    pipeline.collect(times.total_ms.data());
    ++times.steps;
    StepReport& r = state->report;
    r.transfers = device::transferCounts() - before;
    r.host_device_bytes = r.transfers.movedBytes();
}

Simulation::Simulation(Scene scene, const Exec& ex) : impl_(std::make_unique<Impl>(std::move(scene), ex)) {}

void Simulation::addEvent(const EventSpec& e) { sim::addEvent(*impl_->state, e); }
void Simulation::addIncident(const IncidentSpec& in) { sim::addIncident(*impl_->state, in); }
Simulation::~Simulation() = default;

void Simulation::step() { impl_->step(); }

bool Simulation::finished() const {
    const sim::SimState& m = *impl_->state;
    const ModelParams& p = m.scene.params;
    if (m.time >= p.duration - 0.5 * p.dt) return true;
    if (p.max_steps >= 0 && m.steps >= p.max_steps) return true;
    return m.agents.size() == 0 && !m.spawner.pending(m.time) && !sim::regionSpawnPending(m.scene, m.time);
}

double Simulation::time() const { return impl_->state->time; }
long long Simulation::steps() const { return impl_->state->steps; }
int Simulation::agentCount() const { return impl_->state->agents.size(); }
long long Simulation::spawnedTotal() const {
    long long n = 0;
    for (const GroupStats& g : impl_->state->groups) n += g.spawned;
    return n;
}
long long Simulation::exitedTotal() const {
    long long n = 0;
    for (const GroupStats& g : impl_->state->groups) n += g.exited;
    return n;
}
const Scene& Simulation::scene() const { return impl_->state->scene; }
const SceneGrid& Simulation::grid() const { return impl_->state->grid; }
const Exec& Simulation::exec() const { return impl_->state->ex; }
const StageTimes& Simulation::times() const { return impl_->times; }
const std::vector<std::string>& Simulation::stageNames() const { return impl_->pipeline.names(); }
const StepReport& Simulation::lastReport() const { return impl_->state->report; }
const std::vector<GroupStats>& Simulation::groupStats() const { return impl_->state->groups; }
const std::vector<ExitRecord>& Simulation::exits() const { return impl_->state->exits; }
std::vector<IncidentStats> Simulation::incidentStats() const {
    const sim::SimState& m = *impl_->state;
    std::vector<IncidentStats> out;
    for (std::size_t k = 0; k < m.scene.incidents.size(); ++k)
        out.push_back({m.scene.incidents[k].name, m.incidents.startedAt[k], m.incidents.switched[k]});
    return out;
}
const std::vector<int>& Simulation::startedIncidents() const { return impl_->state->incidents.started; }
int Simulation::wallsVersion() const { return impl_->state->wallsVersion + impl_->state->region.version; }
RegionCells Simulation::activeRegion() const { return impl_->state->region.cells; }
std::vector<int> Simulation::socialUnits() const { return impl_->state->agents.unitOfIdOnHost(); }
std::vector<float> Simulation::startTimes() const { return impl_->state->agents.startOfIdOnHost(); }
void Simulation::trafficCounts(std::vector<long long>& junctions, std::vector<long long>& roads) const {
    sim::RouteState& r = impl_->state->route;
    junctions.clear();
    roads.clear();
    if (!r.enabled()) return;
    r.junctionCount.toHost(impl_->state->ex);
    r.roadCount.toHost(impl_->state->ex);
    for (unsigned long long n : r.junctionCount.vector()) junctions.push_back(static_cast<long long>(n));
    for (unsigned long long n : r.roadCount.vector()) roads.push_back(static_cast<long long>(n));
}
StreetTraffic Simulation::traffic() const {
    sim::RouteState& r = impl_->state->route;
    StreetTraffic t;
    if (!r.enabled()) return t;
    const route::RouteMap& m = *r.map;
    trafficCounts(t.junction_count, t.road_count);
    t.network_ms = m.times.network;
    t.viewsheds_ms = m.times.viewsheds;
    t.potentials_ms = m.times.potentials;
    // the junctions
    for (std::size_t j = 0; j < m.net.junctions.size(); ++j) {
        const route::Junction& c = m.net.junctions[j];
        t.junction_x.push_back(c.x);
        t.junction_y.push_back(c.y);
        t.junction_radius.push_back(c.radius);
        t.viewshed_area.push_back(m.viewsheds[j].area());
    }
    // the roads and the weights toward them from either end
    t.weight_ab.assign(m.net.roads.size(), 0.f);
    t.weight_ba.assign(m.net.roads.size(), 0.f);
    for (std::size_t k = 0; k < m.net.roads.size(); ++k) {
        const route::Road& rd = m.net.roads[k];
        t.road_a.push_back(rd.a); t.road_b.push_back(rd.b);
        t.road_x.push_back(rd.x); t.road_y.push_back(rd.y);
        t.road_length.push_back(rd.length); t.road_width.push_back(rd.width);
    }
    for (std::size_t j = 0; j < m.net.junctions.size(); ++j)
        for (int q = m.net.first[j]; q < m.net.first[j + 1]; ++q) {
            const std::size_t k = static_cast<std::size_t>(m.net.road[static_cast<std::size_t>(q)]);
            (m.net.roads[k].a == static_cast<int>(j) ? t.weight_ab : t.weight_ba)[k] = m.weight[static_cast<std::size_t>(q)];
        }
    return t;
}
const Field<float>* Simulation::incidentDistance() const {
    const sim::SimState& m = *impl_->state;
    return sim::hasIncidents(m.scene) ? &m.incidents.distance : nullptr;
}
AgentSnapshot Simulation::agents() const { return impl_->state->agents.snapshot(impl_->state->scene); }
const Field<float>& Simulation::density() const { return impl_->onHost(impl_->state->density); }
float Simulation::maxDensity() const { return sim::maxDensity(impl_->state->ex, impl_->state->density.view(impl_->state->ex)); }
const Field<float>& Simulation::pressure() const { return impl_->onHost(impl_->state->pressure); }
const Field<float>& Simulation::potential(int k) const {
    completePotentials();
    return impl_->onHost(impl_->state->potential.at(static_cast<std::size_t>(k)));
}
void Simulation::completePotentials() const { sim::completePotentials(*impl_->state); }
void Simulation::profilePotential(bool on) { impl_->state->profilePotential = on; }
std::vector<float> Simulation::meanVelocity() const { return impl_->flatten(impl_->state->meanVelocity); }
std::vector<float> Simulation::faceSpeed() const { return impl_->flatten(impl_->state->speed); }
std::vector<float> Simulation::desiredVelocity(int k) const {
    Field<Vel2>& f = impl_->state->desired.at(static_cast<std::size_t>(k));
    // the step wrote only where the agents read: the rest of the box, once per version
    std::vector<long long>& done = impl_->desiredVersion;
    done.resize(impl_->state->desired.size(), -1);
    if (done[static_cast<std::size_t>(k)] != impl_->version) {
        sim::completeDesiredVelocity(*impl_->state, k);
        done[static_cast<std::size_t>(k)] = impl_->version;
    }
    return impl_->flatten(f);
}
int Simulation::fieldCount() const { return static_cast<int>(impl_->state->potential.size()); }
int Simulation::fieldGroup(int k) const { return impl_->state->fields.group.at(static_cast<std::size_t>(k)); }
int Simulation::fieldStep(int k) const { return impl_->state->fields.step.at(static_cast<std::size_t>(k)); }

StateView Simulation::stateView() const {
    sim::SimState& m = *impl_->state;
    StateView v;
    v.ex = m.ex;
    v.grid = m.gi;
    // the agents on the Exec's side (nothing is copied)
    v.agentCount = m.agents.size();
    v.agents = readOnly(m.agents.views());
    v.idEnd = m.agents.idEnd();
    v.density = m.density.view(m.ex);
    v.pressure = m.pressure.view(m.ex);
    v.meanVelocity = m.meanVelocity.view(m.ex);
    v.discomfort = m.grid.discomfort.view(m.ex);
    // potentials of fields nobody followed yet exist on the host only (+inf): uploaded once
    completePotentials();
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
    const sim::SimState& m = *impl_->state;
    // the agent table plus the per-agent buffers of the agent sort (shared
    // by splat, separation and exit_spawn) and of the operational model
    const sim::AgentSortBuffers& sort = m.splatWs.sort;
    const std::size_t work = arrayBytes(sort.key, sort.order, sort.scratch) + impl_->model->agentBufferBytes() + m.agents.idBytes();
    const int n = m.agents.size();
    return m.agents.bytesPerAgent() + (n > 0 ? work / static_cast<std::size_t>(n) : 0);
}
std::size_t Simulation::gridBytes() const {
    const sim::SimState& m = *impl_->state;
    // every grid field, the per-field potentials and velocities, the FIM
    // workspaces and the stages' per-cell buffers, as allocated now
    auto bytes = [](const auto& f) { return f.size() * sizeof(*f.host()); };
    std::size_t total = bytes(m.grid.blocked) + bytes(m.grid.discomfort) + bytes(m.grid.terrain);
    // the sub-cell geometry: open fractions, face apertures, closed faces, wall edges and their per-cell index
    total += bytes(m.grid.open_fraction) + bytes(m.grid.aperture_x) + bytes(m.grid.aperture_y) +
             bytes(m.grid.closed_faces);
    total += m.walls.bytes();
    for (const Field<float>* f : {&m.density, &m.pressure, &m.perceivedDensity}) total += bytes(*f);
    for (const Field<sim::Vel2>* f : {&m.meanVelocity, &m.perceivedVelocity}) total += bytes(*f);
    total += bytes(m.speed) + bytes(m.cost) + bytes(m.perceiveWs.rows) + bytes(m.perceiveWs.reading);
    for (std::size_t k = 0; k < m.potential.size(); ++k) total += bytes(m.potential[k]) + bytes(m.desired[k]);
    total += m.agents.goalMaskBytes();
    total += m.solver.workspaceBytes();
    total += arrayBytes(m.splatWs.begin, m.splatWs.end) + impl_->model->gridBufferBytes();
    return total;
}

}  // namespace ccrowd
