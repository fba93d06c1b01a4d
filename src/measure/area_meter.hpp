#pragma once
/// @file area_meter.hpp
/// Density and speed in the scene's measurement areas (areas.csv). At each
/// observation, per area: N = agents inside (crossing-number rule of
/// scene/polygon.hpp, the one the rasteriser uses), classic density
/// N / |area| [persons/m^2] (PedPy's compute_classic_density) and the mean
/// speed |v| of those agents [m/s]. Per output interval a row averages the
/// observations: mean N, mean density, the highest density of one
/// observation, and the mean speed over all agent observations inside.
///
/// Determinism: speeds are summed as integers (micrometres per second), so
/// the result does not depend on the order of agents in the arrays.

#include <string>
#include <vector>

#include "ccrowd/scene.hpp"
#include "csv_text.hpp"
#include "interval_clock.hpp"

namespace ccrowd::measure {

/// One row of areas.csv: one area, one interval.
struct AreaDensityRow {
    double t_start = 0, t_end = 0;  ///< Interval. [Units: s]
    int area = 0;                   ///< Index of the area.
    long long samples = 0;          ///< Observations in the interval.
    double agents_mean = 0;         ///< Mean N. [Units: persons] (NaN without samples)
    double density_mean = 0;        ///< Mean N / |area|. [Units: persons/m^2] (NaN without samples)
    double density_max = 0;         ///< Highest N / |area| of one observation. [Units: persons/m^2] (NaN without samples)
    double speed_mean = 0;          ///< Mean speed of the agents inside. [Units: m/s] (NaN when nobody was inside)
};

class AreaMeter {
public:
    /// @param areas     Measurement areas. [Limit: names non-empty, >= 3 finite vertices, |area| > 0]
    /// @param interval  Output interval. [Units: s] [Limit: finite, > 0]
    /// Throws InputError naming the area or field for bad input.
    AreaMeter(std::vector<AreaSpec> areas, double interval);

    /// Samples the agents at simulated time @p time (non-decreasing).
    /// Arrays are indexed 0..n-1 (may be null when n == 0).
    /// @param x,y    Positions. [Units: m] [Limit: finite]
    /// @param vx,vy  Velocities. [Units: m/s] [Limit: finite]
    /// Emits the rows of every interval that ended before @p time.
    /// @return Number of rows emitted (rewrite areas.csv when > 0).
    /// Throws Error for time going back or a non-finite value.
    int observe(double time, int n, const float* x, const float* y, const float* vx, const float* vy);

    /// Ends the measurement at @p time: emits the last (possibly shorter)
    /// interval. Later observe() calls throw. @return rows emitted.
    int finish(double time);

    /// All emitted rows, in time / area order.
    const std::vector<AreaDensityRow>& rows() const { return rows_; }
    /// areas.csv text: header "t_start [s],t_end [s],area,samples,agents_mean [persons],
    /// density_mean [persons/m^2],density_max [persons/m^2],speed_mean [m/s]";
    /// missing values (NaN) are empty fields.
    const std::string& csv() const { return csv_.text(); }
    /// Writes csv() atomically to @p path.
    void writeCsv(const std::string& path) const { csv_.write(path); }

    /// Highest density of one observation in area @p area since the start. [Units: persons/m^2]
    double maxDensity(int area) const;
    /// Size of area @p area. [Units: m^2]
    double size(int area) const;
    const std::vector<AreaSpec>& areas() const { return areas_; }

private:
    /// Accumulated observations of one area in the current interval.
    struct Acc {
        long long samples = 0, agents = 0, speedSamples = 0;
        long long speedMicro = 0;  ///< Sum of speeds. [Units: um/s]
        double densitySum = 0, densityMax = 0;
    };
    void closeInterval(double t0, double t1);

    std::vector<AreaSpec> areas_;
    std::vector<double> size_;
    std::vector<float> x0_, y0_, x1_, y1_;  ///< Bounding boxes.
    IntervalSlices slices_;
    CsvText csv_;
    std::vector<AreaDensityRow> rows_;
    std::vector<Acc> acc_;
    std::vector<double> maxDensity_;
};

}  // namespace ccrowd::measure
