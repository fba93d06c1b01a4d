/// @file report_plots.cpp
/// The report's plots, on linear axes (plot/lineplot.hpp): the fundamental
/// diagram against Weidmann's curve, the door flow against the door width
/// with the allowed band, RiMEA 1's walker position against time with
/// the allowed arrival window, and every operational model's fundamental
/// diagram.

#include <algorithm>
#include <cmath>
#include <string>

#include "../plot/lineplot.hpp"
#include "report.hpp"

namespace ccrowd::validate {

namespace {

const plot::Rgb kTolerance{170, 170, 170};  // allowed-range lines

plot::LinePlot newPlot(const std::string& title, const std::string& x, const std::string& y) {
    plot::LinePlot p;
    p.title = title;
    p.x_label = x;
    p.y_label = y;
    p.width = kPlotWidth;
    p.height = kPlotHeight;
    return p;
}

/// Mean speed against mean density, with Weidmann's curve, its +-25% band and the SFPE curve.
void fundamentalDiagramPlot(const std::string& path, const FundamentalDiagramResult& fd) {
    plot::LinePlot p = newPlot("Fundamental diagram: corridor held at a density", "density [persons/m^2]", "mean speed [m/s]");
    // Weidmann's curve up to its jam density 5.4 persons/m^2, and the allowed band around it
    plot::Series curve{"Weidmann 1993", plot::paletteColor(0), plot::Marker::None, true, {}};
    plot::Series hi{"Weidmann +- 25% (allowed)", kTolerance, plot::Marker::None, true, {}};
    plot::Series lo{"", kTolerance, plot::Marker::None, true, {}};
    plot::Series sfpe{"SFPE handbook 1.40 (1 - 0.266 rho)", plot::paletteColor(1), plot::Marker::None, true, {}};
    for (int k = 1; k <= 108; ++k) {
        const double rho = 0.05 * k, v = weidmannSpeed(rho);
        curve.points.emplace_back(rho, v);
        hi.points.emplace_back(rho, 1.25 * v);
        lo.points.emplace_back(rho, 0.75 * v);
        sfpe.points.emplace_back(rho, sfpeSpeed(rho));
    }
    // the measured points at their measured mean density
    plot::Series measured{"measured (mean v_x, section x 12-22 m)", plot::paletteColor(3), plot::Marker::Circle, false, {}};
    for (const FundamentalPoint& m : fd.points) measured.points.emplace_back(m.density, m.speed);
    p.series = {hi, lo, curve, sfpe, measured};
    plot::LinearAxes axes;
    axes.x_min = 0.0;
    axes.y_min = 0.0;
    plot::writeLinearPlot(path, p, axes);
}

/// Flow (persons/s) against door width, one line per cell size, with the
/// width series' band 1.2-1.9 persons/(m s) x width.
void doorFlowPlot(const std::string& path, const DoorSeriesResult& series, const DoorFlowResult& roomExit) {
    plot::LinePlot p = newPlot("Door flow against door width", "door width [m]", "flow [persons/s]");
    double wmax = 1.4;
    for (const DoorFlowResult& d : series.doors) wmax = std::max(wmax, d.width + 0.2);
    plot::Series hi{"allowed: 1.2-1.9 persons/(m s) x width", kTolerance, plot::Marker::None, true,
                    {{0.0, 0.0}, {wmax, 1.9 * wmax}}};
    plot::Series lo{"", kTolerance, plot::Marker::None, true, {{0.0, 0.0}, {wmax, 1.2 * wmax}}};
    p.series = {hi, lo};
    // one line per cell size, in the series' order
    const plot::Marker markers[] = {plot::Marker::Circle, plot::Marker::Square, plot::Marker::Triangle, plot::Marker::Cross};
    for (const DoorFlowResult& d : series.doors) {
        const std::string label = "room 10 m x 10 m, " + formatValue(d.cell, 3, "m") + " cells";
        if (p.series.back().name != label) {
            const int k = static_cast<int>(p.series.size()) - 2;
            p.series.push_back(plot::Series{label, plot::paletteColor(k), markers[k % 4], true, {}});
        }
        p.series.back().points.emplace_back(d.width, d.persons);
    }
    p.series.push_back(plot::Series{"scenes/room_exit.json, 0.25 m grid", plot::paletteColor(3), plot::Marker::Diamond,
                                    false, {{roomExit.width, roomExit.persons}}});
    plot::LinearAxes axes;
    axes.x_min = 0.0;
    axes.x_max = wmax;
    axes.y_min = 0.0;
    plot::writeLinearPlot(path, p, axes);
}

/// Evacuation time of the turned room against its angle: every seed's run,
/// their mean, and the +-2.5% about the mean of the means (a 5% spread).
void turnedRoomPlot(const std::string& path, const GridInvarianceResult& g) {
    plot::LinePlot p = newPlot("Turned room: evacuation time against the room's angle", "angle [degrees]",
                               "evacuation time [s]");
    double sum = 0.0;
    int n = 0;
    for (double t : g.mean_times)
        if (t > 0.0) { sum += t; ++n; }
    const double mean = n ? sum / n : 0.0, a1 = g.angles.empty() ? 45.0 : g.angles.back();
    plot::Series hi{"mean +- 2.5% (issue 12: within 5%)", kTolerance, plot::Marker::None, true,
                    {{0.0, 1.025 * mean}, {a1, 1.025 * mean}}};
    plot::Series lo{"", kTolerance, plot::Marker::None, true, {{0.0, 0.975 * mean}, {a1, 0.975 * mean}}};
    plot::Series runs{"one seed", plot::paletteColor(1), plot::Marker::Cross, false, {}};
    for (const EvacuationRun& e : g.turned)
        if (e.time >= 0.0) runs.points.emplace_back(e.angle, e.time);
    plot::Series means{"mean over the seeds", plot::paletteColor(0), plot::Marker::Circle, true, {}};
    for (std::size_t k = 0; k < g.angles.size() && k < g.mean_times.size(); ++k)
        if (g.mean_times[k] > 0.0) means.points.emplace_back(g.angles[k], g.mean_times[k]);
    p.series = {hi, lo, runs, means};
    plot::LinearAxes axes;
    axes.x_min = 0.0;
    axes.x_max = a1;
    plot::writeLinearPlot(path, p, axes);
}

/// Persons out of the smoke-filled room by the time limit against the panic
/// p, in all and through the busier exit (Helbing 2000 Fig. 3c).
void smokeRoomPlot(const std::string& path, const SmokeRoomResult& r) {
    plot::LinePlot p = newPlot("Smoke-filled room: persons out against the panic p", "panic p",
                               "persons out by " + formatValue(r.limit, 0, "s"));
    plot::Series out{"both exits", plot::paletteColor(0), plot::Marker::Circle, true, {}};
    plot::Series busier{"the busier exit", plot::paletteColor(1), plot::Marker::Square, true, {}};
    for (std::size_t k = 0; k < r.panics.size() && k < r.escaped.size() && k < r.busier_share.size(); ++k) {
        out.points.emplace_back(r.panics[k], r.escaped[k]);
        busier.points.emplace_back(r.panics[k], r.escaped[k] * r.busier_share[k]);
    }
    p.series = {out, busier};
    plot::LinearAxes axes;
    axes.x_min = 0.0;
    axes.x_max = 1.0;
    axes.y_min = 0.0;
    plot::writeLinearPlot(path, p, axes);
}

/// The walker's position along the corridor against time, with the 26-34 s window.
void corridorPlot(const std::string& path, const std::vector<CorridorResult>& runs) {
    plot::LinePlot p = newPlot("RiMEA test 1: one walker along a 40 m corridor", "time [s]", "position x [m]");
    // time axis: 0-40 s, longer when a walker took longer
    double tmax = 40.0;
    for (const CorridorResult& r : runs)
        if (!r.track.empty()) tmax = std::max(tmax, 5.0 * std::ceil(r.track.back().first / 5.0));
    plot::Series goal{"goal (far end, x >= 39.5 m)", kTolerance, plot::Marker::None, true, {{0.0, 39.5}, {tmax, 39.5}}};
    p.series.push_back(goal);
    // one sample a second (and the last): the runs overlap, so each gets its own marker
    const plot::Marker markers[] = {plot::Marker::Circle, plot::Marker::Cross, plot::Marker::Square, plot::Marker::Triangle};
    int k = 0;
    for (const CorridorResult& r : runs) {
        plot::Series s{"h = " + formatValue(r.cell, 2) + " m: arrives at " + formatValue(r.crossing_time, 2, "s"),
                       plot::paletteColor(k), markers[k % 4], true, {}};
        double next = 0.0;
        for (std::size_t i = 0; i < r.track.size(); ++i)
            if (r.track[i].first >= next - 1e-9 || i + 1 == r.track.size()) {
                s.points.push_back(r.track[i]);
                next = std::floor(r.track[i].first + 1e-9) + 1.0;
            }
        p.series.push_back(std::move(s));
        ++k;
    }
    plot::LinearAxes axes;
    axes.x_min = 0.0;
    axes.x_max = tmax;
    axes.y_min = 0.0;
    axes.y_max = 45.0;  // room above the goal line for the band label
    axes.x_bands.push_back(plot::XBand{26.0, 34.0, "allowed arrival: 26-34 s", plot::XBand{}.color});
    plot::writeLinearPlot(path, p, axes);
}

/// Every operational model's fundamental diagram on one plot, with Weidmann's curve and its +-25% band.
void modelsPlot(const std::string& path, const ModelsResult& models) {
    plot::LinePlot p = newPlot("Fundamental diagram per operational model", "density [persons/m^2]", "mean speed [m/s]");
    plot::Series curve{"Weidmann 1993", plot::Rgb{60, 60, 60}, plot::Marker::None, true, {}};
    plot::Series hi{"Weidmann +- 25%", kTolerance, plot::Marker::None, true, {}};
    plot::Series lo{"", kTolerance, plot::Marker::None, true, {}};
    for (int k = 1; k <= 108; ++k) {
        const double rho = 0.05 * k, v = weidmannSpeed(rho);
        curve.points.emplace_back(rho, v);
        hi.points.emplace_back(rho, 1.25 * v);
        lo.points.emplace_back(rho, 0.75 * v);
    }
    p.series = {hi, lo, curve};
    // one series per model, at the measured mean densities
    const plot::Marker markers[] = {plot::Marker::Circle, plot::Marker::Cross, plot::Marker::Square, plot::Marker::Triangle};
    for (std::size_t m = 0; m < models.models.size() && m < models.fundamental.size(); ++m) {
        plot::Series s{models.models[m], plot::paletteColor(static_cast<int>(m)), markers[m % 4], true, {}};
        for (const FundamentalPoint& pt : models.fundamental[m].points) s.points.emplace_back(pt.density, pt.speed);
        p.series.push_back(std::move(s));
    }
    plot::LinearAxes axes;
    axes.x_min = 0.0;
    axes.y_min = 0.0;
    plot::writeLinearPlot(path, p, axes);
}

}  // namespace

void writeReportPlots(const std::string& dir, const ValidationResults& results) {
    fundamentalDiagramPlot(dir + "/" + kFundamentalDiagramPng, results.fundamental);
    doorFlowPlot(dir + "/" + kDoorFlowPng, results.door_widths, results.room_exit);
    turnedRoomPlot(dir + "/" + kTurnedRoomPng, results.grid_invariance);
    corridorPlot(dir + "/" + kCorridorPng, results.corridor);
    modelsPlot(dir + "/" + kModelsPng, results.models);
    smokeRoomPlot(dir + "/" + kSmokeRoomPng, results.smoke_room);
}

}  // namespace ccrowd::validate
