#pragma once
/// @file eikonal_test_util.hpp
/// Shared helpers of the eikonal tests: a problem that owns its fields,
/// seeded scene generators (random costs, mazes, obstacles), the list of
/// solvers to run (FIM per backend, FMM) and field comparisons.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends.hpp"
#include "ccrowd/eikonal.hpp"

namespace ccrowd::test {

constexpr float kInf = std::numeric_limits<float>::infinity();

inline FaceCost isoCost(float c) { return FaceCost{c, c, c, c}; }

/// An eikonal problem that owns its fields. problem() points into this
/// object: do not move it while the problem is in use.
struct Scene {
    float h = 1.f;
    Field<std::uint8_t> blocked;
    Field<FaceCost> cost;
    std::vector<EikonalSource> sources;

    Scene() = default;
    Scene(int nx, int ny, float h_ = 1.f, float c = 1.f) : h(h_), blocked(nx, ny, 0), cost(nx, ny, isoCost(c)) {}

    int nx() const { return cost.nx(); }
    int ny() const { return cost.ny(); }
    bool open(int i, int j) const { return blocked(i, j) == 0; }
    void addSource(int i, int j, float v = 0.f) { sources.push_back(EikonalSource{i, j, v}); }

    EikonalProblem problem() const {
        EikonalProblem p;
        p.h = h;
        p.blocked = &blocked;
        p.cost = &cost;
        p.sources = sources;
        return p;
    }
};

// ---- solvers ---------------------------------------------------------------

/// Output of one solve.
struct Solution {
    Field<float> phi;
    EikonalStats stats;
};

inline Solution runFim(const Exec& ex, const EikonalProblem& p, const EikonalOptions& opt = {}) {
    FimSolver solver(ex);
    Solution r;
    r.stats = solver.solve(p, r.phi, opt);
    return r;
}
inline Solution runFim(const Exec& ex, const Scene& s, const EikonalOptions& opt = {}) { return runFim(ex, s.problem(), opt); }

inline Solution runFmm(const EikonalProblem& p, const EikonalOptions& opt = {}) {
    Solution r;
    r.stats = solveFmm(p, r.phi, opt);
    return r;
}
inline Solution runFmm(const Scene& s, const EikonalOptions& opt = {}) { return runFmm(s.problem(), opt); }

/// One solver under test: FIM on a backend, or the CPU FMM.
struct SolverCase {
    bool fmm = false;
    Exec ex{};
    Solution run(const EikonalProblem& p, const EikonalOptions& opt = {}) const {
        return fmm ? runFmm(p, opt) : runFim(ex, p, opt);
    }
    Solution run(const Scene& s, const EikonalOptions& opt = {}) const { return run(s.problem(), opt); }
    std::string name() const { return fmm ? std::string("fmm") : "fim_" + execName(ex); }
};

inline void PrintTo(const SolverCase& c, std::ostream* os) { *os << c.name(); }

/// FIM on every test backend (CPU 1 and 2 threads, CUDA when usable), and FMM.
inline std::vector<SolverCase> testSolvers() {
    std::vector<SolverCase> out;
    for (const Exec& ex : testExecs()) out.push_back(SolverCase{false, ex});
    out.push_back(SolverCase{true, Exec{}});
    return out;
}

struct SolverParamName {
    std::string operator()(const ::testing::TestParamInfo<SolverCase>& info) const { return info.param.name(); }
};

// ---- scene generators (all seeded, deterministic) --------------------------

/// Adds @p n sources on distinct random open cells with values in [0, maxValue].
inline void addRandomSources(Scene& s, std::mt19937& rng, int n, float maxValue) {
    std::vector<int> open;
    for (int j = 0; j < s.ny(); ++j)
        for (int i = 0; i < s.nx(); ++i)
            if (s.open(i, j)) open.push_back(i + j * s.nx());
    std::shuffle(open.begin(), open.end(), rng);
    std::uniform_real_distribution<float> val(0.f, maxValue);
    for (int k = 0; k < n && k < static_cast<int>(open.size()); ++k)
        s.addSource(open[k] % s.nx(), open[k] / s.nx(), k == 0 ? 0.f : val(rng));
}

/// Random isotropic cost per cell in [lo, hi], no walls.
inline Scene randomIsotropic(int nx, int ny, float h, std::uint32_t seed, int nsources, float lo = 0.2f, float hi = 5.f) {
    std::mt19937 rng(seed);
    Scene s(nx, ny, h);
    std::uniform_real_distribution<float> c(lo, hi);
    for (std::size_t k = 0; k < s.cost.size(); ++k) s.cost.host()[k] = isoCost(c(rng));
    addRandomSources(s, rng, nsources, 3.f * h);
    return s;
}

/// Random cost per face in [lo, hi], no walls.
inline Scene randomAnisotropic(int nx, int ny, float h, std::uint32_t seed, int nsources, float lo = 0.2f, float hi = 5.f) {
    std::mt19937 rng(seed);
    Scene s(nx, ny, h);
    std::uniform_real_distribution<float> c(lo, hi);
    for (std::size_t k = 0; k < s.cost.size(); ++k) {
        FaceCost& f = s.cost.host()[k];
        f.e = c(rng); f.n = c(rng); f.w = c(rng); f.s = c(rng);
    }
    addRandomSources(s, rng, nsources, 3.f * h);
    return s;
}

/// A perfect maze (randomised depth-first search): rooms on even (i, j),
/// walls between them carved along the spanning tree, then a few extra
/// openings (loops) so that shortest paths are not unique. Unit cost.
inline Scene maze(int nx, int ny, float h, std::uint32_t seed, int nsources) {
    std::mt19937 rng(seed);
    Scene s(nx, ny, h);
    s.blocked.fill(1);
    const int rx = (nx + 1) / 2, ry = (ny + 1) / 2;  // rooms per axis
    std::vector<std::uint8_t> seen(static_cast<std::size_t>(rx) * ry, 0);
    std::vector<int> stack{0};
    seen[0] = 1;
    s.blocked(0, 0) = 0;
    const int di[4] = {1, -1, 0, 0}, dj[4] = {0, 0, 1, -1};
    while (!stack.empty()) {
        const int r = stack.back(), ri = r % rx, rj = r / rx;
        int cand[4], nc = 0;
        for (int d = 0; d < 4; ++d) {
            const int qi = ri + di[d], qj = rj + dj[d];
            if (qi >= 0 && qj >= 0 && qi < rx && qj < ry && !seen[qi + qj * rx]) cand[nc++] = d;
        }
        if (nc == 0) { stack.pop_back(); continue; }
        const int d = cand[std::uniform_int_distribution<int>(0, nc - 1)(rng)];
        const int qi = ri + di[d], qj = rj + dj[d];
        seen[qi + qj * rx] = 1;
        s.blocked(2 * ri + di[d], 2 * rj + dj[d]) = 0;  // the wall between
        s.blocked(2 * qi, 2 * qj) = 0;                  // the room
        stack.push_back(qi + qj * rx);
    }
    // a few loops: open random wall cells between two open cells
    std::uniform_int_distribution<int> ui(0, nx - 1), uj(0, ny - 1);
    for (int k = 0; k < (nx * ny) / 60; ++k) {
        const int i = ui(rng), j = uj(rng);
        if (!s.blocked(i, j)) continue;
        const bool horiz = i > 0 && i + 1 < nx && !s.blocked(i - 1, j) && !s.blocked(i + 1, j);
        const bool vert = j > 0 && j + 1 < ny && !s.blocked(i, j - 1) && !s.blocked(i, j + 1);
        if (horiz != vert) s.blocked(i, j) = 0;
    }
    addRandomSources(s, rng, nsources, 3.f * h);
    return s;
}

/// Random axis-aligned rectangular obstacles over random isotropic costs.
/// Obstacles may close off pockets: those cells must stay +inf.
inline Scene obstacles(int nx, int ny, float h, std::uint32_t seed, int nrects, int nsources) {
    Scene s = randomIsotropic(nx, ny, h, seed, 0, 0.5f, 2.f);
    std::mt19937 rng(seed ^ 0x9e3779b9u);
    std::uniform_int_distribution<int> ui(0, nx - 1), uj(0, ny - 1);
    const int wmax = std::max(1, nx / 4), hmax = std::max(1, ny / 4);
    std::uniform_int_distribution<int> uw(1, wmax), uh(1, hmax);
    for (int r = 0; r < nrects; ++r) {
        const int i0 = ui(rng), j0 = uj(rng), w = uw(rng), hh = uh(rng);
        for (int j = j0; j < std::min(ny, j0 + hh); ++j)
            for (int i = i0; i < std::min(nx, i0 + w); ++i) s.blocked(i, j) = 1;
    }
    // blocked cells: the cost there is irrelevant (NaN is allowed)
    for (std::size_t k = 0; k < s.cost.size(); ++k)
        if (s.blocked.host()[k] && (k % 3 == 0)) s.cost.host()[k] = isoCost(std::numeric_limits<float>::quiet_NaN());
    addRandomSources(s, rng, nsources, 3.f * h);
    return s;
}

// ---- comparisons -------------------------------------------------------------

/// |a - b| <= rel * max(|b|, h) on every cell, and +inf exactly where b is +inf.
inline ::testing::AssertionResult fieldsClose(const Field<float>& a, const Field<float>& b, float h, double rel) {
    if (a.nx() != b.nx() || a.ny() != b.ny())
        return ::testing::AssertionFailure() << "sizes differ: " << a.nx() << "x" << a.ny() << " vs " << b.nx() << "x" << b.ny();
    long long bad = 0, badInf = 0, nanCells = 0;
    double worst = 0;
    int wi = -1, wj = -1;
    std::ostringstream firstInf;
    for (int j = 0; j < a.ny(); ++j)
        for (int i = 0; i < a.nx(); ++i) {
            const float x = a(i, j), y = b(i, j);
            if (std::isnan(x) || std::isnan(y)) { ++nanCells; continue; }
            const bool xi = std::isinf(x), yi = std::isinf(y);
            if (xi || yi) {
                if (x != y) {
                    if (badInf == 0) firstInf << " first at (" << i << ", " << j << "): " << x << " vs " << y;
                    ++badInf;
                }
                continue;
            }
            const double scale = std::max<double>(std::fabs(y), h);
            const double err = std::fabs(static_cast<double>(x) - y) / scale;
            if (err > rel) ++bad;
            if (err > worst) { worst = err; wi = i; wj = j; }
        }
    if (bad == 0 && badInf == 0 && nanCells == 0) return ::testing::AssertionSuccess();
    auto f = ::testing::AssertionFailure();
    f << bad << " cells differ by more than " << rel << " relative (worst " << worst;
    if (wi >= 0) f << " at (" << wi << ", " << wj << "): " << a(wi, wj) << " vs " << b(wi, wj);
    f << "), " << badInf << " cells differ in the +inf pattern" << firstInf.str() << ", " << nanCells << " NaN cells";
    return f;
}

/// Bitwise equality of two fields.
inline ::testing::AssertionResult fieldsIdentical(const Field<float>& a, const Field<float>& b) {
    if (a.nx() != b.nx() || a.ny() != b.ny()) return ::testing::AssertionFailure() << "sizes differ";
    long long diff = 0;
    int fi = -1, fj = -1;
    for (int j = 0; j < a.ny(); ++j)
        for (int i = 0; i < a.nx(); ++i) {
            const float x = a(i, j), y = b(i, j);
            if (std::memcmp(&x, &y, sizeof(float)) != 0) {
                if (diff++ == 0) { fi = i; fj = j; }
            }
        }
    if (diff == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << diff << " cells differ bitwise, first at (" << fi << ", " << fj
                                         << "): " << a(fi, fj) << " vs " << b(fi, fj);
}

/// Open cells reachable from a source through open 4-neighbours (flood fill).
inline std::vector<std::uint8_t> reachable(const Scene& s) {
    std::vector<std::uint8_t> r(s.cost.size(), 0);
    std::vector<int> stack;
    for (const EikonalSource& src : s.sources) {
        const int k = src.i + src.j * s.nx();
        if (!r[k]) { r[k] = 1; stack.push_back(k); }
    }
    while (!stack.empty()) {
        const int k = stack.back();
        stack.pop_back();
        const int i = k % s.nx(), j = k / s.nx();
        const int ni[4] = {i + 1, i - 1, i, i}, nj[4] = {j, j, j + 1, j - 1};
        for (int d = 0; d < 4; ++d) {
            if (ni[d] < 0 || nj[d] < 0 || ni[d] >= s.nx() || nj[d] >= s.ny()) continue;
            const int q = ni[d] + nj[d] * s.nx();
            if (!r[q] && !s.blocked.host()[q]) { r[q] = 1; stack.push_back(q); }
        }
    }
    return r;
}

}  // namespace ccrowd::test
