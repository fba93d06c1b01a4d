/// @file eikonal_cases.cpp
#include "cmd/eikonal_cases.hpp"

#include <cmath>
#include <random>

#include "ccrowd/error.hpp"

namespace ccrowd::bench {

const char* caseName(EikonalCase c) {
    switch (c) {
        case EikonalCase::Uniform: return "uniform";
        case EikonalCase::Random: return "random";
        case EikonalCase::Obstacles: return "obstacles";
        default: return "crowd";
    }
}

std::vector<EikonalCase> allCases() {
    return {EikonalCase::Uniform, EikonalCase::Random, EikonalCase::Obstacles, EikonalCase::Crowd};
}

std::vector<EikonalCase> parseCases(const std::string& text, const std::string& field) {
    if (text == "all") return allCases();
    for (EikonalCase c : allCases())
        if (text == caseName(c)) return {c};
    throw InputError(fieldMessage(field, "'" + text + "'", "unknown case", "uniform, random, obstacles, crowd, all"));
}

EikonalProblem EikonalGrid::problem() const {
    EikonalProblem p;
    p.h = h;
    p.blocked = &blocked;
    p.cost = &cost;
    p.sources = {{srcI, srcJ, 0.f}};
    return p;
}

namespace {

/// A smooth field over the unit square: the mean of six seeded plane waves
/// (wavelengths 0.15-0.65 domain widths), in -1..1.
class SmoothField {
public:
    explicit SmoothField(unsigned seed) {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> phase(0.f, 6.2831853f), dir(0.f, 6.2831853f);
        for (int k = 0; k < 6; ++k) {
            const float a = dir(rng), wavelength = 0.15f + 0.1f * k;  // in domain widths
            const float kk = 6.2831853f / wavelength;
            waves_.push_back({kk * std::cos(a), kk * std::sin(a), phase(rng)});
        }
    }
    /// The field at (x, y) in the unit square.
    float operator()(float x, float y) const {
        float s = 0.f;
        for (const Wave& w : waves_) s += std::sin(w.kx * x + w.ky * y + w.ph);
        return s / static_cast<float>(waves_.size());
    }

private:
    struct Wave { float kx, ky, ph; };
    std::vector<Wave> waves_;
};

/// Smooth speed in 0.5..1.5.
void smoothSpeed(EikonalGrid& g) {
    const SmoothField field(20260101u);
    for (int j = 0; j < g.n; ++j)
        for (int i = 0; i < g.n; ++i) g.speed(i, j) = 1.f + 0.5f * field((i + 0.5f) / g.n, (j + 0.5f) / g.n) * 1.6f;
    // clamp the rare extremes into 0.5..1.5
    for (std::size_t k = 0; k < g.speed.size(); ++k) g.speed.host()[k] = std::min(1.5f, std::max(0.5f, g.speed.host()[k]));
}

/// The crowd case's face costs: a flow of direction theta(x, y) (a smooth
/// field's angle, turning over a few tenths of the domain) makes the speed
/// towards face direction n the cell's speed times 0.7 + 0.3 (flow . n),
/// Treuille 2006 eq. 10's blend of the topographical and the flow speed at
/// half the crowd's weight: 0.4 to 1 times the speed, so a cell's four face
/// costs differ by up to 2.5 times.
void crowdFlow(EikonalGrid& g) {
    const SmoothField angle(20261130u);
    for (int j = 0; j < g.n; ++j)
        for (int i = 0; i < g.n; ++i) {
            const float theta = 3.1415927f * angle((i + 0.5f) / g.n, (j + 0.5f) / g.n) * 2.f;
            const float cx = std::cos(theta), cy = std::sin(theta), s = g.speed(i, j);
            g.cost(i, j) = FaceCost{1.f / (s * (0.7f + 0.3f * cx)), 1.f / (s * (0.7f + 0.3f * cy)),
                                    1.f / (s * (0.7f - 0.3f * cx)), 1.f / (s * (0.7f - 0.3f * cy))};
        }
}

/// Seeded axis-aligned rectangles until about 15% of cells are blocked,
/// keeping a clear square around the source.
void rectangles(EikonalGrid& g) {
    std::mt19937 rng(1234567u);
    const long long target = static_cast<long long>(0.15 * g.n * g.n);
    std::uniform_int_distribution<int> pos(0, g.n - 1);
    const int maxSide = std::max(2, g.n / 10);
    std::uniform_int_distribution<int> side(std::max(1, g.n / 64), maxSide);
    const int clear = std::max(1, g.n / 32);
    long long blocked = 0;
    for (int attempt = 0; blocked < target && attempt < 100000; ++attempt) {
        const int x0 = pos(rng), y0 = pos(rng), w = side(rng), h = std::max(1, side(rng) / 3);
        const bool tall = (attempt & 1) != 0;  // alternate wall orientations
        const int x1 = std::min(g.n, x0 + (tall ? h : w)), y1 = std::min(g.n, y0 + (tall ? w : h));
        for (int j = y0; j < y1; ++j)
            for (int i = x0; i < x1; ++i) {
                if (std::abs(i - g.srcI) <= clear && std::abs(j - g.srcJ) <= clear) continue;
                if (!g.blocked(i, j)) { g.blocked(i, j) = 1; ++blocked; }
            }
    }
}

}  // namespace

EikonalGrid makeEikonalGrid(EikonalCase c, int n) {
    if (n < 2 || n > 16384) throw InputError(fieldMessage("--sizes", std::to_string(n), "grid size out of range", "2..16384 cells per side"));
    EikonalGrid g;
    g.n = n;
    g.speed.assign(n, n, 1.f);
    g.blocked.assign(n, n, 0);
    g.cost.assign(n, n, FaceCost{});
    g.srcI = n / 2;
    g.srcJ = n / 2;
    if (c != EikonalCase::Uniform) smoothSpeed(g);
    if (c == EikonalCase::Obstacles || c == EikonalCase::Crowd) rectangles(g);
    long long blocked = 0;
    for (std::size_t k = 0; k < g.speed.size(); ++k) {
        const float inv = 1.f / g.speed.host()[k];
        g.cost.host()[k] = FaceCost{inv, inv, inv, inv};
        blocked += g.blocked.host()[k];
    }
    if (c == EikonalCase::Crowd) crowdFlow(g);
    g.blockedFraction = static_cast<double>(blocked) / (static_cast<double>(n) * n);
    return g;
}

}  // namespace ccrowd::bench
