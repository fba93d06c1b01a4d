/// @file test_closed_faces.cpp
/// Closed faces (issue 12, Deliver 1): a wall thinner than a cell, on a face
/// line or inside a cell, and a gap narrower than a body close the faces
/// they lie on; the unit cost, the eikonal solves (FIM and FMM), the
/// desired velocity and the preferred velocity never cross them, and a crowd
/// behind a thin wall walks round it.

#include <algorithm>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "ccrowd/closed_faces.hpp"
#include "ccrowd/eikonal.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"
#include "kernels/eikonal_update.hpp"
#include "kernels/stages.hpp"
#include "kernels/walking_speed.hpp"

namespace ccrowd::test {
namespace {

Polygon rect(float x0, float y0, float x1, float y1) { return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}; }

/// A 10 m x 4 m hall on 0.25 m cells split at x = 5 by @p walls (gaps
/// between them), a group spawning in the west half and its exit in the
/// east half's south-east corner.
Scene hall(const std::vector<Polygon>& walls, int count = 1) {
    Scene s;
    s.label = "closed-faces-test";
    s.width = 10.f;
    s.height = 4.f;
    s.cell = 0.25f;
    s.obstacles = walls;
    s.goals.push_back({"exit", {rect(9.f, 0.f, 10.f, 1.f)}, 0.f, true, {}});
    GroupSpec g;
    g.name = "g";
    g.spawn = {rect(0.5f, 0.25f, 4.f, 2.75f)};
    g.count = count;
    g.route = {"exit"};
    s.groups.push_back(g);
    s.params.seed = 3;
    s.params.duration = 200.0;
    return s;
}

/// True when the face of cell (i, j) towards (i + di, j + dj) is closed, checked on both cells.
bool closedBetween(const SceneGrid& g, int i, int j, int di, int dj) {
    const bool a = g.closed_faces(i, j) & closedFaceBit(di, dj);
    const bool b = g.closed_faces(i + di, j + dj) & closedFaceBit(-di, -dj);
    EXPECT_EQ(a, b) << "face (" << i << ", " << j << ") -> (" << i + di << ", " << j + dj << ") closed on one side only";
    return a;
}

/// The free-flow unit cost of @p g (the cost stage with no crowd) with its closed faces.
Field<FaceCost> freeFlowCost(SceneGrid& g) {
    Field<FaceCost> cost(g.nx, g.ny);
    const Exec ex{Backend::Cpu, 0};
    sim::unitCost(ex, g.info(), CellRange{0, 0, 0, 0}, sim::CostParams{}, sim::SpeedParams{}, {}, {}, {},
                  g.blocked.view(ex), cost.view(ex), g.closed_faces.view(ex));
    return cost;
}

TEST(ClosedFaces, EikonalUpdateNeverReadsAcrossAClosedFace) {
    const float inf = INFINITY;
    // the east neighbour is lowest but its face is closed: the west one decides
    EXPECT_FLOAT_EQ(eikonalUpdate(0.f, 5.f, inf, inf, FaceCost{inf, 1.f, 1.f, 1.f}, 1.f), 6.f);
    // anisotropic costs, both x faces closed: only the south neighbour
    EXPECT_FLOAT_EQ(eikonalUpdate(0.f, 0.f, inf, 2.f, FaceCost{inf, 1.f, inf, 3.f}, 0.5f), 3.5f);
    // every face closed: unreachable, never NaN
    EXPECT_EQ(eikonalUpdate(0.f, 0.f, 0.f, 0.f, FaceCost{inf, inf, inf, inf}, 1.f), inf);
    // a closed face is a valid input, a NaN or non-positive one is not
    EXPECT_TRUE(eikonalCostOk(FaceCost{inf, 1.f, 1.f, 1.f}));
    EXPECT_FALSE(eikonalCostOk(FaceCost{NAN, 1.f, 1.f, 1.f}));
    EXPECT_FALSE(eikonalCostOk(FaceCost{1.f, 0.f, 1.f, 1.f}));
}

TEST(ClosedFaces, ThinWallOnAFaceLineClosesItsFacesNotTheGap) {
    // 4 cm wall centred on the face line x = 5 (between columns 19 and 20), a 1 m gap above y = 3
    const SceneGrid g = rasterizeScene(hall({rect(4.98f, 0.f, 5.02f, 3.f)}));
    for (int j = 0; j < g.ny; ++j) {
        ASSERT_FALSE(g.blocked(19, j) || g.blocked(20, j)) << "row " << j << ": the wall is thinner than a cell";
        EXPECT_EQ(closedBetween(g, 19, j, 1, 0), j < 12) << "row " << j;
        EXPECT_FALSE(closedBetween(g, 10, j, 1, 0)) << "open floor, row " << j;
    }
    // the faces along the wall (between rows) stay open on both sides
    for (int j = 0; j + 1 < g.ny; ++j) EXPECT_FALSE(closedBetween(g, 19, j, 0, 1) || closedBetween(g, 20, j, 0, 1));
    // the grid's edges are closed
    EXPECT_TRUE(g.closed_faces(0, 5) & kClosedW);
    EXPECT_TRUE(g.closed_faces(g.nx - 1, 5) & kClosedE);
}

TEST(ClosedFaces, ThinWallInsideACellCutsTheLinkThroughIt) {
    // 4 cm wall inside column 20 ([5, 5.25]), west of its centre 5.125: the face x = 5 is
    // wholly open, but the link between the centres 4.875 and 5.125 crosses the wall
    const SceneGrid g = rasterizeScene(hall({rect(5.05f, 0.f, 5.09f, 3.f)}));
    for (int j = 0; j < g.ny; ++j) {
        ASSERT_FALSE(g.blocked(19, j) || g.blocked(20, j)) << "row " << j;
        EXPECT_FLOAT_EQ(g.aperture_x(20, j), 1.f) << "row " << j;
        EXPECT_EQ(closedBetween(g, 19, j, 1, 0), j < 12) << "row " << j;
        EXPECT_FALSE(closedBetween(g, 20, j, 1, 0)) << "east of the wall, row " << j;
    }
}

TEST(ClosedFaces, GapNarrowerThanABodyCloses) {
    // a 0.2 m wall along x = 5 with a 0.3 m slot (y in [1, 1.3]) and a 0.6 m door (y in [2.5, 3.1]);
    // bodies of radius 0.2 m pass 0.4 m and more
    const SceneGrid g = rasterizeScene(
        hall({rect(4.9f, 0.f, 5.1f, 1.f), rect(4.9f, 1.3f, 5.1f, 2.5f), rect(4.9f, 3.1f, 5.1f, 4.f)}));
    // rows 4-5 cross the slot, rows 10-11 the door (row 12's link crosses the wall above it)
    bool slotOpen = false, doorOpen = true;
    for (int j = 4; j <= 5; ++j) slotOpen = slotOpen || !closedBetween(g, 19, j, 1, 0);
    for (int j = 10; j <= 11; ++j) doorOpen = doorOpen && !closedBetween(g, 19, j, 1, 0);
    EXPECT_FALSE(slotOpen) << "a 0.3 m slot passes nobody";
    EXPECT_TRUE(doorOpen) << "a 0.6 m door passes bodies of 0.4 m";
    // the same slot for bodies of radius 0.1 m stays open
    Scene thin = hall({rect(4.9f, 0.f, 5.1f, 1.f), rect(4.9f, 1.3f, 5.1f, 2.5f), rect(4.9f, 3.1f, 5.1f, 4.f)});
    thin.groups[0].radius = 0.1f;
    const SceneGrid t = rasterizeScene(thin);
    bool thinSlot = false;
    for (int j = 4; j <= 5; ++j) thinSlot = thinSlot || !(t.closed_faces(19, j) & kClosedE);
    EXPECT_TRUE(thinSlot) << "0.3 m passes bodies of 0.2 m";
}

TEST(ClosedFaces, PotentialGoesRoundAThinWallInFimAndFmm) {
    SceneGrid g = rasterizeScene(hall({rect(4.98f, 0.f, 5.02f, 3.f)}));
    const Field<FaceCost> cost = freeFlowCost(g);
    // the closed faces cost +inf, the open ones the free-flow cost c0
    EXPECT_EQ(cost(19, 0).e, INFINITY);
    EXPECT_EQ(cost(20, 0).w, INFINITY);
    const float c0 = cost(10, 0).e;
    ASSERT_TRUE(c0 > 0.f && c0 < INFINITY);
    EikonalProblem p;
    p.h = g.h;
    p.blocked = &g.blocked;
    p.cost = &cost;
    for (int c : g.goal_cells[0]) p.sources.push_back({c % g.nx, c / g.nx, 0.f});
    Field<float> fim, fmm;
    // both stencils: the diagonals' triangles never cut round the wall's end
    for (const int stencil : {8, 4}) {
        EikonalOptions opt;
        opt.stencil = stencil;
        FimSolver(Exec{Backend::Cpu, 2}).solve(p, fim, opt);
        solveFmm(p, fmm, opt);
        float worst = 0.f;
        for (std::size_t k = 0; k < fim.size(); ++k) worst = std::max(worst, std::fabs(fim.host()[k] - fmm.host()[k]));
        EXPECT_LT(worst, 1e-3f * fmm(0, 0)) << "FIM and FMM share the closed faces, stencil " << stencil;
        // west of the wall's foot the way leads up round the wall's end (5, 3): 2.88 m there and
        // 4.45 m on to the exit, against 3.88 m from east of the foot; a leak would give 0.25 m
        EXPECT_GT(fmm(19, 0) - fmm(20, 0), c0 * 3.f) << "the potential leaks through the thin wall, stencil " << stencil;
    }
    // the desired velocity there points away from the wall (north, to the gap), not east into it
    Field<sim::Face4> speed(g.nx, g.ny, sim::Face4{1.34f, 1.34f, 1.34f, 1.34f});
    Field<sim::Vel2> v(g.nx, g.ny);
    const Exec ex{Backend::Cpu, 0};
    sim::WalkingSpeed walk{};
    walk.g = g.info();
    walk.faces = speed.view(ex);
    walk.blocked = g.blocked.view(ex);
    walk.closed = g.closed_faces.view(ex);
    sim::desiredVelocity(ex, g.info(), CellRange{0, 0, g.nx, g.ny}, fmm.view(ex), walk, v.view(ex));
    EXPECT_LE(v(19, 2).x, 0.f);
    EXPECT_GT(v(19, 2).y, 0.f);
}

TEST(ClosedFaces, CrowdBehindAThinWallWalksRoundIt) {
    Simulation sim(hall({rect(4.98f, 0.f, 5.02f, 3.f)}, 30), Exec{Backend::Cpu, 0});
    while (!sim.finished()) sim.step();
    EXPECT_EQ(sim.exitedTotal(), 30) << "everyone leaves through the gap";
    EXPECT_LT(sim.time(), 60.0);
}

}  // namespace
}  // namespace ccrowd::test
