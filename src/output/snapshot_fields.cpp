/// @file snapshot_fields.cpp
#include "output/snapshot_fields.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

#include "ccrowd/error.hpp"

namespace ccrowd::output {

const char* const kSnapshotFieldNames =
    "density, velocity, speed, pressure, potential, desired_velocity, blocked, open_fraction, discomfort, incident_distance, traffic";

SnapshotFieldSet parseSnapshotFields(const std::string& list) {
    SnapshotFieldSet s;
    s.density = s.velocity = s.speed = s.pressure = s.potential = s.desired_velocity = s.blocked = s.open_fraction =
        s.discomfort = s.incident_distance = s.traffic = false;
    bool* flags[] = {&s.density, &s.velocity,  &s.speed,         &s.pressure,         &s.potential,
                     &s.desired_velocity, &s.blocked, &s.open_fraction, &s.discomfort, &s.incident_distance, &s.traffic};
    const char* names[] = {"density", "velocity", "speed", "pressure", "potential", "desired_velocity",
                           "blocked", "open_fraction", "discomfort", "incident_distance", "traffic"};
    std::stringstream in(list);
    std::string item;
    int count = 0;
    while (std::getline(in, item, ',')) {
        // trim spaces, then look the name up
        item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
        const auto* it = std::find_if(std::begin(names), std::end(names), [&](const char* n) { return item == n; });
        if (it == std::end(names))
            throw InputError(fieldMessage("--fields", "'" + item + "'", "unknown field", kSnapshotFieldNames));
        bool& flag = *flags[it - std::begin(names)];
        if (flag) throw InputError(fieldMessage("--fields", "'" + item + "'", "listed twice", kSnapshotFieldNames));
        flag = true;
        ++count;
    }
    if (count == 0) throw InputError(fieldMessage("--fields", "'" + list + "'", "no field", kSnapshotFieldNames));
    return s;
}

std::vector<std::string> perFieldNames(const Simulation& sim, const std::string& base) {
    std::vector<std::string> names;
    std::set<std::string> taken;
    for (int k = 0; k < sim.fieldCount(); ++k) {
        // the group's name in file-name-safe characters
        std::string group = sim.scene().groups[static_cast<std::size_t>(sim.fieldGroup(k))].name;
        for (char& c : group)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
        std::string name = base + "_" + group;
        if (sim.fieldStep(k) > 0) name += "_step" + std::to_string(sim.fieldStep(k));
        if (taken.count(name) || name.size() > 60) name = base + "_" + std::to_string(k);
        taken.insert(name);
        names.push_back(name);
    }
    return names;
}

std::vector<float> trafficLayer(const StreetTraffic& t, const SceneGrid& g) {
    std::vector<float> out(static_cast<std::size_t>(g.nx) * static_cast<std::size_t>(g.ny), 0.f);
    // cells within @p r of segment (ax, ay)-(bx, by) take at least @p v
    auto paint = [&](float ax, float ay, float bx, float by, float r, float v) {
        const int i0 = std::max(0, static_cast<int>(std::floor((std::min(ax, bx) - r - g.origin.x) / g.h)));
        const int i1 = std::min(g.nx - 1, static_cast<int>(std::floor((std::max(ax, bx) + r - g.origin.x) / g.h)));
        const int j0 = std::max(0, static_cast<int>(std::floor((std::min(ay, by) - r - g.origin.y) / g.h)));
        const int j1 = std::min(g.ny - 1, static_cast<int>(std::floor((std::max(ay, by) + r - g.origin.y) / g.h)));
        const float dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
        for (int j = j0; j <= j1; ++j)
            for (int i = i0; i <= i1; ++i) {
                if (g.blocked(i, j)) continue;
                const float px = g.origin.x + (static_cast<float>(i) + 0.5f) * g.h - ax, py = g.origin.y + (static_cast<float>(j) + 0.5f) * g.h - ay;
                const float u = l2 > 0.f ? std::clamp((px * dx + py * dy) / l2, 0.f, 1.f) : 0.f;
                const float ex = px - u * dx, ey = py - u * dy;
                float& c = out[static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * static_cast<std::size_t>(g.nx)];
                if (ex * ex + ey * ey <= r * r) c = std::max(c, v);
            }
    };
    // roads along their polylines, then the junctions' discs
    for (int k = 0; k < t.roads(); ++k) {
        const std::vector<float>& x = t.road_x[static_cast<std::size_t>(k)];
        const std::vector<float>& y = t.road_y[static_cast<std::size_t>(k)];
        const float r = std::max(0.5f * t.road_width[static_cast<std::size_t>(k)], g.h);
        for (std::size_t p = 1; p < x.size(); ++p)
            paint(x[p - 1], y[p - 1], x[p], y[p], r, static_cast<float>(t.road_count[static_cast<std::size_t>(k)]));
    }
    for (int j = 0; j < t.junctions(); ++j)
        paint(t.junction_x[static_cast<std::size_t>(j)], t.junction_y[static_cast<std::size_t>(j)], t.junction_x[static_cast<std::size_t>(j)],
              t.junction_y[static_cast<std::size_t>(j)], t.junction_radius[static_cast<std::size_t>(j)],
              static_cast<float>(t.junction_count[static_cast<std::size_t>(j)]));
    return out;
}

io::SnapshotFrame snapshotFrame(const Simulation& sim, const SnapshotFieldSet& fields) {
    const SceneGrid& g = sim.grid();
    io::SnapshotFrame f;
    f.time = sim.time();
    f.step = sim.steps();
    f.nx = g.nx;
    f.ny = g.ny;
    f.h = g.h;
    f.origin_x = g.origin.x;
    f.origin_y = g.origin.y;
    f.blocked = g.blocked.host();
    auto scalar = [](const Field<float>& field) { return std::vector<float>(field.host(), field.host() + field.size()); };
    // the stages' outputs, in pipeline order
    if (fields.density) f.fields.push_back({"density", "1/m^2", 1, scalar(sim.density())});
    if (fields.velocity) f.fields.push_back({"velocity", "m/s", 2, sim.meanVelocity()});
    if (fields.speed) f.fields.push_back({"speed", "m/s", 4, sim.faceSpeed()});
    if (fields.potential) {
        const std::vector<std::string> names = perFieldNames(sim, "potential");
        for (int k = 0; k < sim.fieldCount(); ++k)
            f.fields.push_back({names[static_cast<std::size_t>(k)], "s", 1, scalar(sim.potential(k))});
    }
    if (fields.desired_velocity) {
        const std::vector<std::string> names = perFieldNames(sim, "desired_velocity");
        for (int k = 0; k < sim.fieldCount(); ++k)
            f.fields.push_back({names[static_cast<std::size_t>(k)], "m/s", 2, sim.desiredVelocity(k)});
    }
    if (fields.pressure) f.fields.push_back({"pressure", "m^2/s", 1, scalar(sim.pressure())});
    if (fields.blocked) {
        std::vector<float> b(g.blocked.size());
        for (std::size_t c = 0; c < b.size(); ++c) b[c] = g.blocked.host()[c] ? 1.f : 0.f;
        f.fields.push_back({"blocked", "", 1, std::move(b)});
    }
    if (fields.open_fraction) f.fields.push_back({"open_fraction", "", 1, scalar(g.open_fraction)});
    // the discomfort g of now (events change it: smoke spreading, a fire moving)
    if (fields.discomfort) f.fields.push_back({"discomfort", "", 1, scalar(g.discomfort)});
    // the incidents' layer, in scenes that have one
    if (fields.incident_distance && sim.incidentDistance())
        f.fields.push_back({"incident_distance", "m", 1, scalar(*sim.incidentDistance())});
    // route choice's traffic counts so far, in scenes with roaming groups
    if (fields.traffic) {
        const StreetTraffic t = sim.traffic();
        if (t.junctions() > 0) f.fields.push_back({"traffic", "persons", 1, trafficLayer(t, g)});
    }
    return f;
}

}  // namespace ccrowd::output
