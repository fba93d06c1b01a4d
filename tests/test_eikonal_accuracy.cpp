/// @file test_eikonal_accuracy.cpp
/// First-order accuracy of the eikonal solvers (FIM per backend, and FMM)
/// against exact solutions on the unit square: Euclidean distance from point
/// sources (unit cost), sources with initial potentials, a scaled isotropic
/// cost and anisotropic costs with a known answer.
///
/// The Godunov upwind scheme is first order; with a point source the error
/// near the source behaves like h log(1/h). Each case checks, over the grids
/// n = 32, 64, 128, 256 (h = 1/n; up to 512 for the anisotropic case),
/// errors scaled by the largest cost c:
///   max error  <= 0.3  c h log2(1/h)   (FMM observed 0.16 - 0.22),
///   mean error <= 0.15 c h log2(1/h)   (observed 0.07 - 0.12),
///   mean error dropping by >= 1.5x per halving of h (observed 1.56 - 1.70;
///   h log(1/h) gives 1.6 - 1.75 on these grids),
///   max error <= 0.01 c on the finest grid (observed 0.003 - 0.007).

#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ccrowd/error.hpp"
#include "cmd/direction_error.hpp"
#include "eikonal_test_util.hpp"

namespace ccrowd::test {
namespace {

/// Centre of cell (i, j) on the unit square with n cells per side.
inline double centre(int i, int n) { return (i + 0.5) / n; }
/// Cell holding the point at fraction f of the side.
inline int cellAt(double f, int n) { return std::min(n - 1, static_cast<int>(f * n)); }

struct ErrorNorms {
    double max = 0, mean = 0;
};

/// Max and mean absolute error of @p phi against exact(x, y) over all cells
/// (these grids have no walls). NaN counts as an infinite error.
ErrorNorms errors(const Field<float>& phi, const std::function<double(double, double)>& exact) {
    ErrorNorms e;
    const int n = phi.nx();
    long long count = 0;
    for (int j = 0; j < phi.ny(); ++j)
        for (int i = 0; i < n; ++i) {
            const double err = std::fabs(phi(i, j) - exact(centre(i, n), centre(j, phi.ny())));
            e.max = std::max(e.max, std::isnan(err) ? INFINITY : err);
            e.mean += err;
            ++count;
        }
    e.mean /= static_cast<double>(count);
    return e;
}

/// Bounds shared by every study (see the file comment).
constexpr double kMaxC = 0.3, kMeanC = 0.15, kMinMeanRatio = 1.5, kFinestC = 0.01;

/// Checks the first-order bounds on errors measured at grids n = sizes[k]
/// (h = 1/n) for a problem whose largest unit cost is @p c.
void checkFirstOrder(const std::vector<int>& sizes, const std::vector<ErrorNorms>& e, double c) {
    ASSERT_EQ(sizes.size(), e.size());
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        const double h = 1.0 / sizes[k], hlog = c * h * std::log2(1.0 / h);
        const std::string n = std::to_string(sizes[k]);
        ::testing::Test::RecordProperty("max_err_n" + n, std::to_string(e[k].max));
        ::testing::Test::RecordProperty("mean_err_n" + n, std::to_string(e[k].mean));
        EXPECT_LE(e[k].max, kMaxC * hlog) << "n " << n << ": max error " << e[k].max << " = " << e[k].max / hlog
                                          << " c h log2(1/h)";
        EXPECT_LE(e[k].mean, kMeanC * hlog) << "n " << n << ": mean error " << e[k].mean << " = " << e[k].mean / hlog
                                            << " c h log2(1/h)";
        if (k > 0) {
            EXPECT_GE(e[k - 1].mean / e[k].mean, kMinMeanRatio)
                << "mean error " << e[k - 1].mean << " at n " << sizes[k - 1] << ", " << e[k].mean << " at n " << n;
        }
    }
    EXPECT_LE(e.back().max, kFinestC * c) << "finest grid n " << sizes.back();
}

struct PointSource {
    double fx, fy;  ///< Fraction of the side (snapped to the cell holding it).
    double value;   ///< Initial potential.
};

class EikonalAccuracy : public ::testing::TestWithParam<SolverCase> {
protected:
    /// Unit square, isotropic cost @p cost, the given sources; exact solution
    /// min over sources of (v_s + cost |x - x_s|), x_s the centre of the
    /// source cell (sources are cells, not points).
    void pointSourceStudy(const std::vector<PointSource>& sources, float cost) {
        const std::vector<int> sizes{32, 64, 128, 256};
        std::vector<ErrorNorms> e;
        for (int n : sizes) {
            Scene s(n, n, 1.f / n, cost);
            std::vector<std::array<double, 3>> src;
            for (const PointSource& p : sources) {
                const int i = cellAt(p.fx, n), j = cellAt(p.fy, n);
                s.addSource(i, j, static_cast<float>(p.value));
                src.push_back({centre(i, n), centre(j, n), p.value});
            }
            auto exact = [&](double x, double y) {
                double best = INFINITY;
                for (const auto& q : src) best = std::min(best, q[2] + cost * std::hypot(x - q[0], y - q[1]));
                return best;
            };
            const Solution r = GetParam().run(s);
            EXPECT_TRUE(r.stats.converged) << "n " << n;
            e.push_back(errors(r.phi, exact));
        }
        checkFirstOrder(sizes, e, cost);
    }
};

TEST_P(EikonalAccuracy, PointSourceAtCentre) { pointSourceStudy({{0.5, 0.5, 0.0}}, 1.f); }

TEST_P(EikonalAccuracy, PointSourceOffCentre) { pointSourceStudy({{0.23, 0.71, 0.0}}, 1.f); }

TEST_P(EikonalAccuracy, SeveralSources) {
    pointSourceStudy({{0.15, 0.2, 0.0}, {0.8, 0.3, 0.0}, {0.4, 0.85, 0.0}}, 1.f);
}

TEST_P(EikonalAccuracy, SourcesWithInitialPotentials) {
    // values below what any other source would give them:
    // |s0 s1| = 0.71 > 0.25, |s0 s2| = 0.66 > 0.1, |s1 s2| = 0.56 > 0.15
    pointSourceStudy({{0.2, 0.25, 0.0}, {0.75, 0.7, 0.25}, {0.85, 0.15, 0.1}}, 1.f);
}

TEST_P(EikonalAccuracy, IsotropicCostTwoDoublesThePotential) {
    pointSourceStudy({{0.37, 0.52, 0.0}}, 2.f);
    // and on one grid, phi(cost 2) = 2 phi(cost 1) up to rounding
    Scene one(96, 96, 1.f / 96, 1.f), two(96, 96, 1.f / 96, 2.f);
    one.addSource(30, 61);
    two.addSource(30, 61);
    const Solution a = GetParam().run(one), b = GetParam().run(two);
    Field<float> twice = a.phi;
    for (std::size_t k = 0; k < twice.size(); ++k) twice.host()[k] *= 2.f;
    EXPECT_TRUE(fieldsClose(b.phi, twice, one.h, 1e-5));
}

/// Anisotropic constant face costs: moving east costs cE, west cW, north cN,
/// south cS. The continuous solution from a point source is the distance in
/// coordinates stretched per quadrant: phi = sqrt((cX dx)^2 + (cY dy)^2) with
/// cX = cW when the source lies west (dx > 0), else cE; likewise cY. Grids up
/// to n = 512: a solver that stops converging shows it there.
TEST_P(EikonalAccuracy, AnisotropicConstantFaceCosts) {
    const FaceCost c{1.f, 1.5f, 2.f, 0.75f};  // e, n, w, s
    const std::vector<int> sizes{32, 64, 128, 256, 512};
    std::vector<ErrorNorms> e;
    for (int n : sizes) {
        Scene s(n, n, 1.f / n);
        s.cost.fill(c);
        const int si = cellAt(0.45, n), sj = cellAt(0.55, n);
        s.addSource(si, sj);
        const double xs = centre(si, n), ys = centre(sj, n);
        auto exact = [&](double x, double y) {
            const double dx = x - xs, dy = y - ys;
            const double cx = dx > 0 ? c.w : c.e, cy = dy > 0 ? c.s : c.n;
            return std::hypot(cx * dx, cy * dy);
        };
        const Solution r = GetParam().run(s);
        EXPECT_TRUE(r.stats.converged);
        e.push_back(errors(r.phi, exact));
    }
    checkFirstOrder(sizes, e, 2.0 /* largest face cost */);
}

/// On a 1 x N (or N x 1) grid the potential is cost * distance along the
/// direction of travel, exactly up to float rounding.
TEST_P(EikonalAccuracy, AnisotropicLineIsCostTimesDistance) {
    const int N = 257;
    const float h = 0.1f;
    const FaceCost c{0.7f, 1.9f, 3.1f, 0.45f};  // e, n, w, s
    // rounding of N additions of one step
    const double rel = 2.0 * N * std::numeric_limits<float>::epsilon();
    for (bool alongX : {true, false}) {
        for (int src : {0, N - 1, 100}) {
            Scene s(alongX ? N : 1, alongX ? 1 : N, h);
            s.cost.fill(c);
            alongX ? s.addSource(src, 0) : s.addSource(0, src);
            const Solution r = GetParam().run(s);
            EXPECT_TRUE(r.stats.converged);
            for (int k = 0; k < N; ++k) {
                // a cell at k > src travels towards -axis (west / south) to reach the source
                const double unit = k > src ? (alongX ? c.w : c.s) : (alongX ? c.e : c.n);
                const double want = unit * std::abs(k - src) * h;
                const float got = alongX ? r.phi(k, 0) : r.phi(0, k);
                ASSERT_NEAR(got, want, rel * want + 1e-7) << (alongX ? "1xN" : "Nx1") << " source " << src << " cell " << k;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(PerSolver, EikonalAccuracy, ::testing::ValuesIn(testSolvers()), SolverParamName());


// ---- directional bias (issue 12, Deliver 3) ---------------------------------------------

/// A point source on open ground: 257 x 257 unit cells, the source at the
/// centre cell c.
struct OpenGroundSource {
    static constexpr int n = 257, c = n / 2;
    Field<std::uint8_t> blocked{n, n, 0};
    Field<FaceCost> cost{n, n, FaceCost{}};
    EikonalProblem p;
    OpenGroundSource() {
        p.h = 1.f;
        p.blocked = &blocked;
        p.cost = &cost;
        p.sources = {{c, c, 0.f}};
    }
    OpenGroundSource(const OpenGroundSource&) = delete;  // p points into this object
};

/// The point source's deviation from the Euclidean distance per direction
/// (bench/cmd/direction_error.hpp, as `ccrowd bench eikonal` reports it), on
/// a 257 x 257 grid of unit cells with the source at the centre: exact along
/// the axes, an overestimate in between that is largest on the diagonal and
/// shrinks relative to the distance as the distance grows (consistency).
/// The bounds guard the 4-neighbour Godunov update, the default stencil
/// (measured: +0.80% at 22.5 degrees and +1.20% at 45 degrees 126 cells
/// out).
TEST(EikonalDirectionalBias, ExactOnTheAxesLargestOnTheDiagonalShrinkingWithDistance) {
    const OpenGroundSource ps;
    const EikonalProblem& p = ps.p;
    const int c = ps.c;
    Field<float> phi;
    solveFmm(p, phi);
    ASSERT_EQ(EikonalOptions{}.stencil, 4);
    const bench::DirectionError axis = bench::directionError(phi, c, c, 1.f, 0.0, 126);
    const bench::DirectionError mid = bench::directionError(phi, c, c, 1.f, 22.5, 126);
    const bench::DirectionError diag = bench::directionError(phi, c, c, 1.f, 45.0, 126);
    const bench::DirectionError diagNear = bench::directionError(phi, c, c, 1.f, 45.0, 30);
    std::printf("[ measured ] point source, 126 cells out: 0 deg %+.3f%%, 22.5 deg %+.3f%%, 45 deg %+.3f%% (max %.2f cells)\n",
                100 * axis.rel_at_radius, 100 * mid.rel_at_radius, 100 * diag.rel_at_radius, diag.max_abs);
    EXPECT_LT(axis.max_abs, 1e-3);
    EXPECT_GT(mid.rel_at_radius, 0.0);
    EXPECT_GT(diag.rel_at_radius, mid.rel_at_radius);
    EXPECT_LT(diag.rel_at_radius, diagNear.rel_at_radius);
    EXPECT_LT(diag.rel_at_radius, 0.013);
    EXPECT_LT(diag.max_abs, 1.6);
    // a ray that leaves the grid is refused
    EXPECT_THROW(bench::directionError(phi, c, c, 1.f, 0.0, 200), InputError);
}

/// The 8-neighbour stencil (EikonalOptions::stencil 8: the triangles of the
/// diagonals) on the same point source: exact along the axes and the
/// diagonals (plane waves along them are exact), an overestimate in between
/// that is below 0.5% at 22.5 degrees 126 cells out (measured +0.32%), under
/// half the 4-neighbour stencil's largest (+1.20% at 45 degrees), and
/// shrinking with distance. FIM on the CPU gives FMM's answer.
TEST(EikonalDirectionalBias, EightNeighboursAreExactOnAxesAndDiagonalsAndBelowHalfAPercentBetween) {
    const OpenGroundSource ps;
    const EikonalProblem& p = ps.p;
    const int c = ps.c;
    EikonalOptions eight;
    eight.stencil = 8;
    Field<float> phi, four;
    solveFmm(p, phi, eight);
    solveFmm(p, four);
    const bench::DirectionError axis = bench::directionError(phi, c, c, 1.f, 0.0, 126);
    const bench::DirectionError mid = bench::directionError(phi, c, c, 1.f, 22.5, 126);
    const bench::DirectionError diag = bench::directionError(phi, c, c, 1.f, 45.0, 126);
    const bench::DirectionError worst4 = bench::directionError(four, c, c, 1.f, 45.0, 126);
    std::printf("[ measured ] 8 neighbours, point source, 126 cells out: 0 deg %+.3f%%, 22.5 deg %+.3f%%, 45 deg %+.3f%%\n",
                100 * axis.rel_at_radius, 100 * mid.rel_at_radius, 100 * diag.rel_at_radius);
    EXPECT_LT(axis.max_abs, 1e-3);
    EXPECT_LT(diag.max_abs, 1e-3);
    EXPECT_GT(mid.rel_at_radius, 0.0);
    EXPECT_LT(mid.rel_at_radius, 0.005);
    EXPECT_LT(mid.rel_at_radius, 0.5 * worst4.rel_at_radius);
    EXPECT_LT(mid.rel_at_radius, bench::directionError(phi, c, c, 1.f, 22.5, 30).rel_at_radius);
    // the FIM solves the same discrete equation
    EXPECT_TRUE(fieldsClose(runFim(Exec{Backend::Cpu, 2}, p, eight).phi, phi, p.h, 1e-5));
}

}  // namespace
}  // namespace ccrowd::test
