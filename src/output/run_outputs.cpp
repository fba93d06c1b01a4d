/// @file run_outputs.cpp
#include "output/run_outputs.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "ccrowd/error.hpp"
#include "io/snapshot.hpp"
#include "io/xml_text.hpp"
#include "io/trajectory_sqlite.hpp"
#include "io/trajectory_text.hpp"
#include "io/walkable_wkt.hpp"
#include "measure/area_meter.hpp"
#include "measure/incident_meter.hpp"
#include "measure/line_counter.hpp"
#include "measure/traffic_meter.hpp"
#include "plot/traffic_map.hpp"
#include "io/number_text.hpp"

namespace ccrowd::output {

namespace {

constexpr const char* kSqliteName = "trajectories.sqlite";
constexpr const char* kTextName = "trajectories.txt";
constexpr const char* kLinesName = "lines.csv";
constexpr const char* kTrafficJunctionsName = "traffic_junctions.csv";
constexpr const char* kTrafficRoadsName = "traffic_roads.csv";
constexpr const char* kTrafficMapName = "traffic_map.png";
/// The traffic CSVs grow by a row per junction and road per interval:
/// rewritten every this many intervals (and at the end), not every one.
constexpr long long kTrafficRewriteIntervals = 60;
constexpr const char* kAreasName = "areas.csv";
constexpr const char* kIncidentsName = "incidents.csv";

/// Adds the wall time of its scope to @p total.
class Stopwatch {
public:
    explicit Stopwatch(double& total) : total_(total), t0_(std::chrono::steady_clock::now()) {}
    ~Stopwatch() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }
    Stopwatch(const Stopwatch&) = delete;
    Stopwatch& operator=(const Stopwatch&) = delete;

private:
    double& total_;
    std::chrono::steady_clock::time_point t0_;
};

std::vector<std::string> groupNames(const Simulation& sim) {
    std::vector<std::string> names;
    for (const GroupSpec& g : sim.scene().groups) names.push_back(g.name);
    return names;
}

}  // namespace

void parseTrajectoryFormats(const std::string& list, OutputOptions& o) {
    o.trajectory_sqlite = o.trajectory_text = false;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) {
        item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
        bool& flag = item == "sqlite" ? o.trajectory_sqlite : o.trajectory_text;
        if (item != "sqlite" && item != "txt")
            throw InputError(fieldMessage("--trajectory-format", "'" + item + "'", "unknown format", "sqlite, txt"));
        if (flag) throw InputError(fieldMessage("--trajectory-format", "'" + item + "'", "listed twice", "sqlite, txt"));
        flag = true;
    }
    if (!o.trajectory_sqlite && !o.trajectory_text)
        throw InputError(fieldMessage("--trajectory-format", "'" + list + "'", "no format", "sqlite, txt"));
}

OutputOptions outputOptions(const std::string& dir, double snapshotEvery, const std::string& snapshotFormats,
                            const std::string& fields, long long trajectoryEvery, const std::string& trajectoryFormats,
                            double measureEvery) {
    OutputOptions o;
    o.dir = dir;
    o.snapshot_every = snapshotEvery;
    o.snapshot_formats = io::parseSnapshotFormats(snapshotFormats);
    o.fields = parseSnapshotFields(fields);
    o.trajectory_every = trajectoryEvery;
    parseTrajectoryFormats(trajectoryFormats, o);
    o.measure_interval = measureEvery;
    return o;
}

void removePreviousOutputs(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    // the fixed names, then the snapshot frames
    for (const char* name : {"summary.json", "exits.csv", kSqliteName, kTextName, kLinesName, kAreasName, kIncidentsName, kTrafficJunctionsName, kTrafficRoadsName, kTrafficMapName,
                             io::SnapshotWriter::kPvdName, io::SnapshotWriter::kIndexName}) {
        fs::remove(fs::path(dir) / name, ec);
        if (ec) throw InputError("--force: cannot remove '" + (fs::path(dir) / name).string() + "': " + ec.message());
    }
    const fs::path frames = fs::path(dir) / io::SnapshotWriter::kFrameDir;
    if (!fs::is_directory(frames, ec)) return;
    for (const fs::directory_entry& e : fs::directory_iterator(frames, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("frame_", 0) == 0 && e.is_regular_file()) fs::remove(e.path(), ec);
        if (ec) throw InputError("--force: cannot remove '" + e.path().string() + "': " + ec.message());
    }
}

/// The writers a run uses (absent ones are null).
struct RunOutputs::Writers {
    std::unique_ptr<io::SnapshotWriter> snapshots;
    std::unique_ptr<io::SqliteTrajectoryWriter> sqlite;
    std::unique_ptr<io::TextTrajectoryWriter> text;
    std::unique_ptr<measure::LineCounter> lines;
    std::unique_ptr<measure::AreaMeter> areas;
    std::unique_ptr<measure::IncidentMeter> incidents;
    std::unique_ptr<measure::TrafficMeter> traffic;
    std::vector<long long> junctionCounts, roadCounts;  ///< The traffic counts' buffers.
    long long frames = 0;  ///< Trajectory frames written.
};

RunOutputs::RunOutputs(OutputOptions options, const Simulation& sim) : opt_(std::move(options)), w_(std::make_unique<Writers>()) {
    if (!(opt_.snapshot_every >= 0.0) || !std::isfinite(opt_.snapshot_every))
        throw InputError(fieldMessage("--snapshot-every", io::shortestText(opt_.snapshot_every), "out of range", ">= 0 s, finite (0 = none)"));
    if (opt_.trajectory_every < 0)
        throw InputError(fieldMessage("--trajectory-every", std::to_string(opt_.trajectory_every), "out of range", ">= 0 steps (0 = none)"));
    if (!(opt_.measure_interval > 0.0) || !std::isfinite(opt_.measure_interval))
        throw InputError(fieldMessage("--measure-every", io::shortestText(opt_.measure_interval), "out of range", "> 0 s, finite"));
    const Stopwatch sw(seconds_);
    const std::string dir = opt_.dir + "/";
    // open every writer before the first step: a bad path stops the run before it starts
    if (opt_.snapshot_every > 0.0) w_->snapshots = std::make_unique<io::SnapshotWriter>(opt_.dir, opt_.snapshot_formats);
    if (opt_.trajectory_every > 0) {
        // dt as written in the scene (the float's shortest decimal), so 0.05 s gives 20 fps, not 19.9999997
        const double dt = std::stod(io::formatFloat(sim.scene().params.dt));
        const double fps = 1.0 / (dt * static_cast<double>(opt_.trajectory_every));
        if (opt_.trajectory_sqlite) {
            w_->sqlite = std::make_unique<io::SqliteTrajectoryWriter>(dir + kSqliteName, fps, io::sceneWalkableWkt(sim.scene()));
            w_->sqlite->setGroupNames(groupNames(sim));
        }
        if (opt_.trajectory_text) w_->text = std::make_unique<io::TextTrajectoryWriter>(dir + kTextName, fps);
    }
    if (!sim.scene().lines.empty())
        w_->lines = std::make_unique<measure::LineCounter>(sim.scene().lines, groupNames(sim), opt_.measure_interval);
    if (!sim.scene().areas.empty())
        w_->areas = std::make_unique<measure::AreaMeter>(sim.scene().areas, opt_.measure_interval);
    if (!sim.scene().incidents.empty())
        w_->incidents = std::make_unique<measure::IncidentMeter>(sim.scene().incidents, groupNames(sim), opt_.measure_interval);
    // route choice's traffic counts (scenes with roaming groups)
    const StreetTraffic net = sim.traffic();
    if (net.junctions() > 0) w_->traffic = std::make_unique<measure::TrafficMeter>(net, opt_.measure_interval);
    // the initial state
    exitsSeen_ = sim.exits().size();
    observe(sim);
}

RunOutputs::~RunOutputs() = default;

void RunOutputs::afterStep(const Simulation& sim) {
    const Stopwatch sw(seconds_);
    observe(sim);
}

void RunOutputs::observe(const Simulation& sim) {
    // snapshot when due (time within half a step of the schedule)
    const double t = sim.time(), halfStep = 0.5 * sim.scene().params.dt;
    if (w_->snapshots && t >= nextSnapshot_ - halfStep) {
        w_->snapshots->write(snapshotFrame(sim, opt_.fields));
        while (nextSnapshot_ <= t + halfStep) nextSnapshot_ += opt_.snapshot_every;
    }
    // the grid's highest density (reduced where the density lives: the grid stays there)
    const float top = sim.maxDensity();
    if (top > maxDensity_) { maxDensity_ = top; maxDensityTime_ = t; }
    // traffic counts: every step, the files every kTrafficRewriteIntervals intervals
    if (w_->traffic) {
        sim.trafficCounts(w_->junctionCounts, w_->roadCounts);
        const long long before = w_->traffic->intervals();
        if (w_->traffic->observe(t, w_->junctionCounts, w_->roadCounts) > 0 &&
            w_->traffic->intervals() / kTrafficRewriteIntervals != before / kTrafficRewriteIntervals)
            writeTraffic(sim, false);
    }
    const bool trajectoryDue = (w_->sqlite || w_->text) && sim.steps() % opt_.trajectory_every == 0;
    if (!trajectoryDue && !w_->lines && !w_->areas && !w_->incidents) return;
    AgentSnapshot a = sim.agents();
    // trajectory frame
    if (trajectoryDue) {
        if (w_->sqlite)
            w_->sqlite->writeFrame(w_->frames, a.size(), a.id.data(), a.group.data(), a.x.data(), a.y.data(), a.vx.data(),
                                   a.vy.data());
        if (w_->text) w_->text->writeFrame(w_->frames, a.size(), a.id.data(), a.x.data(), a.y.data());
        ++w_->frames;
    }
    // areas see the agents present; lines also the last position of those that just left
    if (w_->areas && w_->areas->observe(t, a.size(), a.x.data(), a.y.data(), a.vx.data(), a.vy.data()) > 0)
        w_->areas->writeCsv(opt_.dir + "/" + kAreasName);
    // the behaviour groups around the started incidents
    if (w_->incidents) {
        if (w_->incidents->observe(t, sim.startedIncidents(), a.size(), a.group.data(), a.x.data(), a.y.data()) > 0)
            w_->incidents->writeCsv(opt_.dir + "/" + kIncidentsName);
    }
    const std::vector<ExitRecord>& exits = sim.exits();
    for (std::size_t k = exitsSeen_; k < exits.size(); ++k) {
        a.id.push_back(exits[k].id);
        a.group.push_back(exits[k].group);
        a.x.push_back(exits[k].x);
        a.y.push_back(exits[k].y);
    }
    exitsSeen_ = exits.size();
    if (w_->lines && w_->lines->observe(t, static_cast<int>(a.x.size()), a.id.data(), a.group.data(), a.x.data(), a.y.data()) > 0)
        w_->lines->writeCsv(opt_.dir + "/" + kLinesName);
}

void RunOutputs::finish(const Simulation& sim) {
    const Stopwatch sw(seconds_);
    // the last (possibly short) measurement intervals, then the trajectory files into place
    if (w_->lines) {
        w_->lines->finish(sim.time());
        w_->lines->writeCsv(opt_.dir + "/" + kLinesName);
    }
    if (w_->areas) {
        w_->areas->finish(sim.time());
        w_->areas->writeCsv(opt_.dir + "/" + kAreasName);
    }
    if (w_->incidents) {
        w_->incidents->finish(sim.time());
        w_->incidents->writeCsv(opt_.dir + "/" + kIncidentsName);
    }
    if (w_->traffic) {
        sim.trafficCounts(w_->junctionCounts, w_->roadCounts);
        w_->traffic->finish(sim.time(), w_->junctionCounts, w_->roadCounts);
        writeTraffic(sim, true);
    }
    if (w_->sqlite) w_->sqlite->close();
    if (w_->text) w_->text->close();
}

void RunOutputs::writeTraffic(const Simulation& sim, bool map) {
    // the two tables; at the end also the map of the run's totals (seed 004 Fig. 4)
    const measure::TrafficMeter& m = *w_->traffic;
    m.junctionCsv().write(opt_.dir + "/" + kTrafficJunctionsName);
    m.roadCsv().write(opt_.dir + "/" + kTrafficRoadsName);
    if (!map) return;
    const StreetTraffic net = sim.traffic();
    plot::TrafficMap tm;
    tm.grid = sim.grid().info();
    tm.blocked = &sim.grid().blocked;
    tm.traffic = &net;
    tm.road_counts = m.roadTotals();
    tm.junction_counts = m.junctionTotals();
    char title[160];
    std::snprintf(title, sizeof title, "arrivals along each road (dots: at each junction), t = 0 .. %.1f s", sim.time());
    tm.title = title;
    plot::writeTrafficMap(opt_.dir + "/" + kTrafficMapName, tm);
    trafficMap_ = true;
}

nlohmann::json RunOutputs::summary() const {
    nlohmann::json j;
    j["max_density"] = {{"value_per_m2", maxDensity_}, {"time_s", maxDensityTime_}, {"what", "highest cell of the splat's density grid"}};
    if (w_->lines) {
        const measure::LineCounter& l = *w_->lines;
        for (int k = 0; k < static_cast<int>(l.lines().size()); ++k)
            j["lines"].push_back({{"name", l.lines()[static_cast<std::size_t>(k)].name},
                                  {"length_m", l.length(k)},
                                  {"forward", l.totalForward(k)},
                                  {"backward", l.totalBackward(k)},
                                  {"peak_flow_per_s", l.peakFlow(k)},
                                  {"peak_specific_flow_per_m_s", l.peakSpecificFlow(k)}});
    }
    if (w_->areas) {
        const measure::AreaMeter& m = *w_->areas;
        for (int k = 0; k < static_cast<int>(m.areas().size()); ++k)
            j["areas"].push_back({{"name", m.areas()[static_cast<std::size_t>(k)].name},
                                  {"area_m2", m.size(k)},
                                  {"max_density_per_m2", m.maxDensity(k)}});
    }
    if (w_->incidents) {
        // per group: how long after the first incident started someone of it was still inside a harm disc
        const measure::IncidentMeter& m = *w_->incidents;
        for (std::size_t g = 0; g < m.groups().size(); ++g) {
            const double leave = m.timeToLeaveHarm(static_cast<int>(g));
            j["incident_groups"].push_back(
                {{"name", m.groups()[g]},
                 {"time_to_leave_harm_s", leave >= 0.0 ? nlohmann::json(leave) : nlohmann::json(nullptr)}});
        }
    }
    if (w_->traffic) {
        // route choice: the network, its set-up cost and the busiest roads over the run
        const measure::TrafficMeter& m = *w_->traffic;
        const StreetTraffic& net = m.network();
        std::vector<int> order(m.roadTotals().size());
        for (std::size_t k = 0; k < order.size(); ++k) order[k] = static_cast<int>(k);
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return m.roadTotals()[static_cast<std::size_t>(a)] > m.roadTotals()[static_cast<std::size_t>(b)]; });
        nlohmann::json busiest = nlohmann::json::array();
        for (std::size_t k = 0; k < order.size() && k < 10; ++k) {
            const std::size_t r = static_cast<std::size_t>(order[k]);
            busiest.push_back({{"road", r}, {"junctions", {net.road_a[r], net.road_b[r]}}, {"arrivals", m.roadTotals()[r]},
                               {"width_m", net.road_width[r]}, {"length_m", net.road_length[r]}});
        }
        long long arrivals = 0;
        for (long long n : m.junctionTotals()) arrivals += n;
        j["traffic"] = {{"junctions", net.junctions()}, {"roads", net.roads()}, {"junction_arrivals", arrivals},
                        {"setup_ms", {{"network", net.network_ms}, {"viewsheds", net.viewsheds_ms}, {"potentials", net.potentials_ms}}},
                        {"busiest_roads", busiest}};
    }
    j["outputs"] = {{"files", files()},
                    {"snapshots", w_->snapshots ? w_->snapshots->framesWritten() : 0},
                    {"trajectory_frames", w_->frames},
                    {"write_s", seconds_},
                    {"background_write_s", backgroundSeconds()},
                    {"background_cpu_s", backgroundCpuSeconds()}};
    return j;
}

double RunOutputs::backgroundSeconds() const { return w_->sqlite ? w_->sqlite->workerSeconds() : 0.0; }
double RunOutputs::backgroundCpuSeconds() const { return w_->sqlite ? w_->sqlite->workerCpuSeconds() : 0.0; }

std::vector<std::string> RunOutputs::files() const {
    std::vector<std::string> f;
    if (w_->snapshots) {
        if (opt_.snapshot_formats.vti) f.push_back(io::SnapshotWriter::kPvdName);
        f.push_back(io::SnapshotWriter::kIndexName);
        f.push_back(std::string(io::SnapshotWriter::kFrameDir) + "/");
    }
    if (w_->sqlite) f.push_back(kSqliteName);
    if (w_->text) f.push_back(kTextName);
    if (w_->lines) f.push_back(kLinesName);
    if (w_->areas) f.push_back(kAreasName);
    if (w_->incidents) f.push_back(kIncidentsName);
    if (w_->traffic) {
        f.push_back(kTrafficJunctionsName);
        f.push_back(kTrafficRoadsName);
        if (trafficMap_) f.push_back(kTrafficMapName);
    }
    return f;
}

}  // namespace ccrowd::output
