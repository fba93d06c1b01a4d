/// @file test_eikonal_errors.cpp
/// Bad eikonal input gives InputError naming the field, never a crash or a
/// hang, for FIM (every backend) and FMM (DESIGN.md §7, JuPedSim style:
/// "validation errors name the field, the value and the allowed range").
/// Messages follow fieldMessage(): "<field> = <value>: <problem> (allowed: ...)".

#include <cmath>
#include <climits>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "eikonal_test_util.hpp"

namespace ccrowd::test {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

class EikonalErrors : public ::testing::TestWithParam<SolverCase> {
protected:
    /// A valid 6x5 problem, h = 0.5, one source at (0, 0), a wall cell at (4, 1).
    static Scene valid() {
        Scene s(6, 5, 0.5f);
        s.blocked(4, 1) = 1;
        s.addSource(0, 0);
        return s;
    }

    /// Runs the solver and expects an InputError whose message contains every
    /// string in @p parts. Any other outcome is a failure.
    void expectInputError(const EikonalProblem& p, const EikonalOptions& opt, const std::vector<std::string>& parts,
                          const std::string& what) {
        SCOPED_TRACE(what);
        try {
            GetParam().run(p, opt);
            ADD_FAILURE() << "no error for " << what;
        } catch (const InputError& e) {
            const std::string msg = e.what();
            for (const std::string& part : parts) EXPECT_NE(msg.find(part), std::string::npos) << "'" << part << "' not in: " << msg;
        } catch (const std::exception& e) {
            ADD_FAILURE() << "expected InputError, got another exception: " << e.what();
        }
    }
    void expectInputError(const Scene& s, const std::vector<std::string>& parts, const std::string& what,
                          const EikonalOptions& opt = {}) {
        expectInputError(s.problem(), opt, parts, what);
    }
};

std::string faceName(int f) { return std::string(1, "enws"[f]); }
float& face(FaceCost& c, int f) { return f == 0 ? c.e : f == 1 ? c.n : f == 2 ? c.w : c.s; }

// ---- costs ------------------------------------------------------------------------

TEST_P(EikonalErrors, BadCostOnOpenCell) {
    const std::vector<std::pair<float, std::string>> bad{
        {0.f, "0"}, {-1.f, "-1"}, {-1e-30f, "-1e-30"}, {kNaN, "nan"}, {-kInf, "-inf"}};  // +inf closes a face (test_closed_faces.cpp)
    for (int f = 0; f < 4; ++f)
        for (const auto& [v, text] : bad) {
            Scene s = valid();
            face(s.cost(2, 3), f) = v;
            expectInputError(s, {"cost", "(2, 3)", text, "allowed"}, "cost(2, 3)." + faceName(f) + " = " + text);
        }
    // the first and last cells too (no off-by-one in the scan)
    Scene first = valid();
    first.cost(0, 0).s = 0.f;
    expectInputError(first, {"cost", "(0, 0)"}, "cost on the source cell (0, 0)");
    Scene last = valid();
    last.cost(5, 4).w = kNaN;
    expectInputError(last, {"cost", "(5, 4)"}, "cost on the last cell");
}

TEST_P(EikonalErrors, BadCostOnBlockedCellIsAllowed) {
    Scene ref = valid();
    const Solution want = GetParam().run(ref);
    for (float v : {kNaN, 0.f, -3.f, kInf}) {
        Scene s = valid();
        s.cost(4, 1) = isoCost(v);  // (4, 1) is the wall
        s.cost(4, 1).e = 1.f;       // mixed faces too
        Solution got;
        EXPECT_NO_THROW(got = GetParam().run(s)) << v;
        EXPECT_EQ(got.phi(4, 1), kInf);
        EXPECT_TRUE(fieldsIdentical(got.phi, want.phi)) << "a blocked cell's cost must not matter: " << v;
    }
}

// ---- sources ----------------------------------------------------------------------

TEST_P(EikonalErrors, SourceOnBlockedCell) {
    Scene s = valid();
    s.sources[0] = EikonalSource{4, 1, 0.f};
    expectInputError(s, {"sources[0]", "(4, 1)", "blocked"}, "first source on the wall");
    Scene t = valid();
    t.addSource(4, 1, 2.f);
    expectInputError(t, {"sources[1]", "(4, 1)"}, "second source on the wall");
}

TEST_P(EikonalErrors, SourceOutsideTheGrid) {
    const std::vector<std::pair<int, int>> outside{{-1, 0}, {0, -1}, {6, 0}, {0, 5}, {6, 5}, {INT_MIN, 2}, {2, INT_MAX}, {-7, -7}};
    for (auto [i, j] : outside) {
        Scene s = valid();
        s.addSource(i, j);
        const std::string cell = "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
        expectInputError(s, {"sources[1]", cell, "outside"}, "source at " + cell);
    }
}

TEST_P(EikonalErrors, NonFiniteSourceValue) {
    for (const auto& [v, text] : std::vector<std::pair<float, std::string>>{{kNaN, "nan"}, {kInf, "inf"}, {-kInf, "-inf"}}) {
        Scene s = valid();
        s.sources[0].value = v;
        expectInputError(s, {"sources[0]", "value", text}, "source value " + text);
    }
}

TEST_P(EikonalErrors, NoSources) {
    Scene s = valid();
    s.sources.clear();
    expectInputError(s, {"sources"}, "no sources");
}

// ---- grid -------------------------------------------------------------------------

TEST_P(EikonalErrors, BadCellSize) {
    for (const auto& [h, text] : std::vector<std::pair<float, std::string>>{
             {0.f, "0"}, {-0.5f, "-0.5"}, {kNaN, "nan"}, {kInf, "inf"}, {-kInf, "-inf"}}) {
        Scene s = valid();
        s.h = h;
        expectInputError(s, {"h = " + text, "allowed"}, "h = " + text);
    }
}

TEST_P(EikonalErrors, EmptyGrid) {
    for (auto [nx, ny] : std::vector<std::pair<int, int>>{{0, 7}, {7, 0}, {0, 0}}) {
        Scene s(nx, ny, 1.f);
        s.addSource(0, 0);
        const std::string size = std::to_string(nx) + "x" + std::to_string(ny);
        expectInputError(s, {"grid", size}, "empty grid " + size);
    }
}

TEST_P(EikonalErrors, MismatchedFieldSizes) {
    for (auto [nx, ny] : std::vector<std::pair<int, int>>{{5, 5}, {6, 4}, {5, 6}, {30, 1}}) {
        Scene s = valid();
        s.blocked.assign(nx, ny, 0);
        const std::string size = std::to_string(nx) + "x" + std::to_string(ny);
        expectInputError(s, {"blocked", size, "6x5"}, "blocked " + size + " vs cost 6x5");
    }
}

TEST_P(EikonalErrors, MissingFields) {
    Scene s = valid();
    EikonalProblem noCost = s.problem();
    noCost.cost = nullptr;
    expectInputError(noCost, {}, {"cost"}, "cost field missing");
    EikonalProblem noBlocked = s.problem();
    noBlocked.blocked = nullptr;
    expectInputError(noBlocked, {}, {"blocked"}, "blocked field missing");
}

// ---- options ----------------------------------------------------------------------

TEST_P(EikonalErrors, BadOptions) {
    const Scene s = valid();
    for (float tol : {0.f, -1e-3f, 1.f, 5.f, kNaN, kInf}) {
        EikonalOptions opt;
        opt.tolerance = tol;
        expectInputError(s, {"tolerance"}, "tolerance " + std::to_string(tol), opt);
    }
    for (int inner : {0, -3}) {
        EikonalOptions opt;
        opt.inner_iterations = inner;
        expectInputError(s, {"inner_iterations", std::to_string(inner)}, "inner_iterations " + std::to_string(inner), opt);
    }
    EikonalOptions opt;
    opt.max_iterations = -1;
    expectInputError(s, {"max_iterations", "-1"}, "max_iterations -1", opt);
    // EikonalOptions::front_budget [Limit: 0..1e6]
    for (int fronts : {-1, 1000001}) {
        EikonalOptions o;
        o.front_budget = fronts;
        expectInputError(s, {"front_budget", std::to_string(fronts), "0..1000000"}, "front_budget " + std::to_string(fronts), o);
    }
    for (int fronts : {0, 1, 1000000}) {
        EikonalOptions o;
        o.front_budget = fronts;
        EXPECT_NO_THROW(GetParam().run(s, o)) << fronts;
    }
}

TEST_P(EikonalErrors, BadBandTiles) {
    // EikonalOptions::band_tiles [Limit: >= 0]
    const Scene s = valid();
    for (float band : {-1.f, -1e-3f, kNaN, -kInf}) {
        EikonalOptions opt;
        opt.band_tiles = band;
        expectInputError(s, {"band_tiles"}, "band_tiles " + std::to_string(band), opt);
    }
    // the limits themselves are fine
    for (float band : {0.f, 0.5f, 1e6f}) {
        EikonalOptions opt;
        opt.band_tiles = band;
        EXPECT_NO_THROW(GetParam().run(s, opt)) << band;
    }
}

TEST_P(EikonalErrors, BadStencil) {
    // EikonalOptions::stencil [Limit: 4 or 8], on FIM and FMM alike
    const Scene s = valid();
    for (int stencil : {0, 3, 5, 6, 9, -4}) {
        EikonalOptions opt;
        opt.stencil = stencil;
        expectInputError(s, {"stencil", std::to_string(stencil), "4 or 8"}, "stencil " + std::to_string(stencil), opt);
    }
    for (int stencil : {4, 8}) {
        EikonalOptions opt;
        opt.stencil = stencil;
        EXPECT_NO_THROW(GetParam().run(s, opt)) << stencil;
    }
}

// ---- after an error ----------------------------------------------------------------

TEST_P(EikonalErrors, SolverUsableAfterAnError) {
    const Scene good = valid();
    Scene bad = valid();
    bad.cost(1, 1).n = kNaN;
    const Solution want = GetParam().run(good);
    if (GetParam().fmm) {
        EXPECT_THROW(GetParam().run(bad), InputError);
        EXPECT_TRUE(fieldsIdentical(GetParam().run(good).phi, want.phi));
        return;
    }
    FimSolver solver(GetParam().ex);
    Field<float> phi;
    EXPECT_THROW(solver.solve(bad.problem(), phi), InputError);
    EXPECT_NO_THROW(solver.solve(good.problem(), phi));
    EXPECT_TRUE(fieldsIdentical(phi, want.phi));
}

INSTANTIATE_TEST_SUITE_P(PerSolver, EikonalErrors, ::testing::ValuesIn(testSolvers()), SolverParamName());

}  // namespace
}  // namespace ccrowd::test
