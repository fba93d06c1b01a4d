/// @file run_summary.cpp
#include "io/run_summary.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "io/file_bytes.hpp"

namespace ccrowd::io {

namespace {
double stepsPerSecond(const Simulation& sim, double wall) { return wall > 0 ? sim.steps() / wall : 0.0; }
}  // namespace

void printSummary(std::ostream& out, const Simulation& sim, double wallSeconds, bool interrupted) {
    out << (interrupted ? "run interrupted" : "run finished") << " at t = " << std::fixed << std::setprecision(2) << sim.time()
        << " s after " << sim.steps() << " steps (" << std::setprecision(1) << stepsPerSecond(sim, wallSeconds)
        << " steps/s, " << std::setprecision(2) << wallSeconds << " s wall, backend " << backendName(sim.exec().backend)
        << ")\n";
    out << "agents: spawned " << sim.spawnedTotal() << ", exited " << sim.exitedTotal() << ", remaining " << sim.agentCount()
        << "\n";
    out << "groups:\n";
    for (const GroupStats& g : sim.groupStats()) {
        out << "  " << std::left << std::setw(16) << g.name << std::right << " spawned " << std::setw(7) << g.spawned
            << "  exited " << std::setw(7) << g.exited << "  remaining " << std::setw(7) << g.remaining;
        if (g.remaining == 0 && g.exited > 0) out << "  evacuation time " << std::setprecision(2) << g.last_exit << " s";
        else if (g.exited > 0) out << "  last exit " << std::setprecision(2) << g.last_exit << " s (not evacuated)";
        else out << "  no exit yet";
        if (g.premovement_persons > 0)
            out << "  pre-movement " << std::setprecision(1) << g.premovement_mean << " s mean (" << g.premovement_min << "-"
                << g.premovement_max << ")";
        out << "\n";
    }
    // route choice: the network and its set-up (seed 004)
    const StreetTraffic net = sim.traffic();
    if (net.junctions() > 0) {
        long long arrivals = 0;
        for (long long n : net.junction_count) arrivals += n;
        out << "street network: " << net.junctions() << " junctions, " << net.roads() << " roads; set-up " << std::setprecision(1)
            << net.network_ms << " ms network, " << net.viewsheds_ms << " ms viewsheds, " << net.potentials_ms
            << " ms junction potentials; " << arrivals << " arrivals at junctions\n";
    }
    // CUDA: each stage's time between CUDA events around it (its GPU work included)
    out << "mean ms per step by stage" << (sim.exec().backend == Backend::Cuda ? " (CUDA events)" : "") << ":\n";
    const StageTimes& t = sim.times();
    double total = 0;
    for (std::size_t s = 0; s < t.names.size(); ++s) total += t.mean(s);
    for (std::size_t s = 0; s < t.names.size(); ++s)
        out << "  " << std::left << std::setw(17) << t.names[s] << std::right << std::setw(9) << std::setprecision(3)
            << t.mean(s) << "\n";
    out << "  " << std::left << std::setw(17) << "total" << std::right << std::setw(9) << std::setprecision(3) << total << "\n";
    const StepReport& r = sim.lastReport();
    out << "last step: pressure residual " << std::setprecision(4) << r.pressure_residual << " 1/m^2 after "
        << r.pressure_iterations << " iterations" << (r.pressure_converged ? "" : " (iteration budget reached)") << ", "
        << r.potentials_solved << " eikonal solves (" << std::setprecision(2) << r.potential_updates_per_cell
        << " updates/cell)";
    if (sim.exec().backend == Backend::Cuda) out << ", " << r.host_device_bytes << " bytes between host and device";
    out << "\n";
    out.unsetf(std::ios::floatfield);
}

nlohmann::json summaryJson(const Simulation& sim, double wallSeconds, bool interrupted, const nlohmann::json& extra) {
    nlohmann::json j;
    j["scene"] = sim.scene().path;
    j["interrupted"] = interrupted;
    j["time_s"] = sim.time();
    j["steps"] = sim.steps();
    j["wall_s"] = wallSeconds;
    j["steps_per_s"] = stepsPerSecond(sim, wallSeconds);
    j["backend"] = backendName(sim.exec().backend);
    j["last_step_host_device_bytes"] = sim.lastReport().host_device_bytes;
    j["agents"] = {{"spawned", sim.spawnedTotal()}, {"exited", sim.exitedTotal()}, {"remaining", sim.agentCount()}};
    for (const GroupStats& g : sim.groupStats()) {
        nlohmann::json gj{{"name", g.name}, {"spawned", g.spawned}, {"exited", g.exited}, {"remaining", g.remaining}};
        gj["first_exit_s"] = g.first_exit >= 0 ? nlohmann::json(g.first_exit) : nlohmann::json(nullptr);
        gj["evacuation_time_s"] = (g.remaining == 0 && g.exited > 0) ? nlohmann::json(g.last_exit) : nlohmann::json(nullptr);
        if (!sim.scene().incidents.empty()) {
            gj["switched_in"] = g.switched_in;
            gj["switched_out"] = g.switched_out;
        }
        if (sim.scene().active_region.enabled()) gj["left_region"] = g.left_region;
        if (g.units > 0) {
            auto orNull = [](double v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(nullptr); };
            gj["social"] = {{"units", g.units}, {"mean_spread_m", orNull(g.mean_spread)}, {"max_spread_m", orNull(g.max_spread)},
                            {"unit_waits", g.unit_waits}, {"mean_wait_s", orNull(g.mean_wait)}, {"max_wait_s", orNull(g.max_wait)}};
        }
        if (g.premovement_persons > 0)
            gj["premovement"] = {{"persons", g.premovement_persons}, {"mean_s", g.premovement_mean}, {"min_s", g.premovement_min},
                                 {"max_s", g.premovement_max}};
        j["groups"].push_back(gj);
    }
    // incidents: when each started and whom it switched
    for (const IncidentStats& in : sim.incidentStats())
        j["incidents"].push_back({{"name", in.name},
                                  {"started_s", in.started_at >= 0 ? nlohmann::json(in.started_at) : nlohmann::json(nullptr)},
                                  {"switched", in.switched}});
    // everybody out: the last exit of all groups
    double evacuation = -1.0;
    for (const GroupStats& g : sim.groupStats()) evacuation = g.remaining == 0 ? std::max(evacuation, g.last_exit) : 1e300;
    j["evacuation_time_s"] = evacuation >= 0 && evacuation < 1e300 && sim.exitedTotal() > 0 ? nlohmann::json(evacuation)
                                                                                           : nlohmann::json(nullptr);
    for (std::size_t s = 0; s < sim.times().names.size(); ++s) j["stage_ms_mean"][sim.times().names[s]] = sim.times().mean(s);
    for (auto it = extra.begin(); it != extra.end(); ++it) j[it.key()] = it.value();
    return j;
}

void writeSummary(const std::string& dir, const Simulation& sim, const nlohmann::json& summary) {
    const std::string text = summary.dump(2) + "\n";
    writeFileAtomic(dir + "/summary.json", text.data(), text.size());
    // exits.csv: one line per agent that left
    std::ostringstream csv;
    csv << "id,group,exit_time_s\n";
    for (const ExitRecord& e : sim.exits()) csv << e.id << ',' << sim.groupStats()[static_cast<std::size_t>(e.group)].name << ',' << e.time << "\n";
    const std::string c = csv.str();
    writeFileAtomic(dir + "/exits.csv", c.data(), c.size());
}

}  // namespace ccrowd::io
