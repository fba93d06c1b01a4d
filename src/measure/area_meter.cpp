/// @file area_meter.cpp
#include "area_meter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "ccrowd/error.hpp"
#include "io/number_text.hpp"
#include "scene/polygon.hpp"

namespace ccrowd::measure {

namespace {

/// Speed quantum of the integer sums. [Units: m/s]
constexpr double kSpeedQuantum = 1e-6;

}  // namespace

AreaMeter::AreaMeter(std::vector<AreaSpec> areas, double interval)
    : areas_(std::move(areas)),
      slices_("area meter", interval),
      csv_({"t_start [s]", "t_end [s]", "area", "samples", "agents_mean [persons]", "density_mean [persons/m^2]",
            "density_max [persons/m^2]", "speed_mean [m/s]"}) {
    // Areas (the interval: slices_): names, finite vertices, non-zero size.
    for (std::size_t a = 0; a < areas_.size(); ++a) {
        const AreaSpec& s = areas_[a];
        const std::string field = "measurement area " + std::to_string(a) + " '" + s.name + "'";
        if (s.name.empty()) throw InputError(fieldMessage(field + " name", "\"\"", "empty name", "non-empty"));
        if (s.area.size() < 3)
            throw InputError(fieldMessage(field, std::to_string(s.area.size()) + " vertices", "not a polygon", ">= 3 vertices"));
        float bx0 = s.area[0].x, by0 = s.area[0].y, bx1 = bx0, by1 = by0;
        for (const Vec2& v : s.area) {
            if (!std::isfinite(v.x) || !std::isfinite(v.y))
                throw InputError(fieldMessage(field, "non-finite vertex", "bad coordinates", "finite metres"));
            bx0 = std::min(bx0, v.x), bx1 = std::max(bx1, v.x);
            by0 = std::min(by0, v.y), by1 = std::max(by1, v.y);
        }
        const double size = std::fabs(geom::signedArea(s.area));
        if (!(size > 0)) throw InputError(fieldMessage(field + " area", "0", "zero area", "> 0 m^2"));
        size_.push_back(size);
        x0_.push_back(bx0), y0_.push_back(by0), x1_.push_back(bx1), y1_.push_back(by1);
    }
    acc_.assign(areas_.size(), Acc{});
    maxDensity_.assign(areas_.size(), 0.0);
}

double AreaMeter::maxDensity(int area) const { return maxDensity_.at(static_cast<std::size_t>(area)); }
double AreaMeter::size(int area) const { return size_.at(static_cast<std::size_t>(area)); }

void AreaMeter::closeInterval(double t0, double t1) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t a = 0; a < areas_.size(); ++a) {
        // Means over the interval's observations (NaN when there were none).
        const Acc& c = acc_[a];
        AreaDensityRow r;
        r.t_start = t0;
        r.t_end = t1;
        r.area = static_cast<int>(a);
        r.samples = c.samples;
        const double s = static_cast<double>(c.samples);
        r.agents_mean = c.samples ? static_cast<double>(c.agents) / s : nan;
        r.density_mean = c.samples ? c.densitySum / s : nan;
        r.density_max = c.samples ? c.densityMax : nan;
        r.speed_mean = c.speedSamples ? static_cast<double>(c.speedMicro) * kSpeedQuantum / static_cast<double>(c.speedSamples) : nan;
        rows_.push_back(r);
        csv_.addRow({csvNumber(t0), csvNumber(t1), areas_[a].name, std::to_string(r.samples), csvNumber(r.agents_mean),
                     csvNumber(r.density_mean), csvNumber(r.density_max), csvNumber(r.speed_mean)});
    }
    acc_.assign(areas_.size(), Acc{});
}

int AreaMeter::observe(double time, int n, const float* x, const float* y, const float* vx, const float* vy) {
    // Arguments: order in time, sizes, finite values.
    slices_.check(time);
    if (n < 0) throw Error("area meter: negative agent count " + std::to_string(n));
    if (n > 0 && (!x || !y || !vx || !vy)) throw Error("area meter: null agent array");
    for (int k = 0; k < n; ++k) {
        if (!std::isfinite(x[k]) || !std::isfinite(y[k]) || !std::isfinite(vx[k]) || !std::isfinite(vy[k]))
            throw Error("area meter: agent " + std::to_string(k) + " has a non-finite position or velocity at t = " + io::shortestText(time) + " s");
    }
    const std::size_t before = rows_.size();
    slices_.advance(time, [this](double t0, double t1) { closeInterval(t0, t1); });
    // Each area: agents inside (box test first), their integer speed sum.
    for (std::size_t a = 0; a < areas_.size(); ++a) {
        long long inside = 0, speedMicro = 0;
        for (int k = 0; k < n; ++k) {
            if (x[k] < x0_[a] || x[k] > x1_[a] || y[k] < y0_[a] || y[k] > y1_[a]) continue;
            if (!geom::pointInPolygon(areas_[a].area, x[k], y[k])) continue;
            ++inside;
            const double speed = std::hypot(static_cast<double>(vx[k]), static_cast<double>(vy[k]));
            speedMicro += std::llround(speed / kSpeedQuantum);
        }
        const double density = static_cast<double>(inside) / size_[a];
        Acc& c = acc_[a];
        ++c.samples;
        c.agents += inside;
        c.speedSamples += inside;
        c.speedMicro += speedMicro;
        c.densitySum += density;
        c.densityMax = std::max(c.densityMax, density);
        maxDensity_[a] = std::max(maxDensity_[a], density);
    }
    return static_cast<int>(rows_.size() - before);
}

int AreaMeter::finish(double time) {
    const std::size_t before = rows_.size();
    slices_.finish(time, [this](double t0, double t1) { closeInterval(t0, t1); });
    return static_cast<int>(rows_.size() - before);
}

}  // namespace ccrowd::measure
