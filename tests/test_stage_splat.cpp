/// @file test_stage_splat.cpp
/// Stages (a) active box and (b) splat, per backend: hand-computed weights,
/// boxes with margins and clamping, mass conservation, mean velocities and
/// bitwise determinism across thread counts.

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "all_loops_parallel.hpp"
#include "backends.hpp"
#include "test_crowd.hpp"
#include "ccrowd/field.hpp"
#include "kernels/active_box.hpp"
#include "kernels/splat.hpp"
#include "kernels/stages.hpp"

namespace ccrowd::test {
namespace {

using Crowd = TestCrowd;

/// Output fields of the splat, read back to the host by fetch().
struct SplatOut {
    Field<float> rho;
    Field<sim::Vel2> v, p;
    SplatOut(int nx, int ny, float fill = 0.f) : rho(nx, ny, fill), v(nx, ny), p(nx, ny) {}
    void run(const Exec& ex, Crowd& c, const GridInfo& g, const CellRange& box, sim::SplatWorkspace& ws) {
        if (ex.backend == Backend::Cuda) { rho.upload(); v.upload(); p.upload(); }
        const sim::AgentViews a = c.sortByCell(ex, g, box, ws);
        sim::splat(ex, a, a.vx, a.vy, g, box, ws, rho.view(ex), v.view(ex));
        sim::splat(ex, a, a.px, a.py, g, box, ws, {}, p.view(ex));
        c.fetch(ex);
        if (ex.backend == Backend::Cuda) { rho.download(); v.download(); p.download(); }
    }
    double mass(float h) const {
        double s = 0.0;
        for (std::size_t k = 0; k < rho.size(); ++k) s += rho.host()[k];
        return s * h * h;
    }
};

GridInfo makeGrid(int nx, int ny, float h, float ox = 0.f, float oy = 0.f) {
    GridInfo g;
    g.nx = nx; g.ny = ny; g.h = h; g.ox = ox; g.oy = oy;
    return g;
}

CellRange whole(const GridInfo& g) { return CellRange{0, 0, g.nx, g.ny}; }

class SplatStage : public ::testing::TestWithParam<Exec> {};
class ActiveBoxStage : public ::testing::TestWithParam<Exec> {};

// ---- splat -----------------------------------------------------------------

TEST_P(SplatStage, OneAgentAtCellCentreGoesToThatCell) {
    const GridInfo g = makeGrid(4, 4, 0.5f, 1.f, -2.f);
    Crowd c;
    c.add(1.f + 1.5f * 0.5f, -2.f + 2.5f * 0.5f, 0.3f, -0.4f, 1.f, 0.5f);  // centre of cell (1, 2)
    SplatOut out(4, 4);
    sim::SplatWorkspace ws;
    out.run(GetParam(), c, g, whole(g), ws);
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i) {
            const bool here = i == 1 && j == 2;
            EXPECT_EQ(out.rho(i, j), here ? 4.f : 0.f) << i << "," << j;  // 1 person / 0.25 m^2
            EXPECT_EQ(out.v(i, j).x, here ? 0.3f : 0.f);
            EXPECT_EQ(out.v(i, j).y, here ? -0.4f : 0.f);
            EXPECT_EQ(out.p(i, j).x, here ? 1.f : 0.f);
            EXPECT_EQ(out.p(i, j).y, here ? 0.5f : 0.f);
        }
}

TEST_P(SplatStage, AgentBetweenCentresSplitsBilinearly) {
    // gx = 1.25, gy = 2.5: origin (1, 2), tx = 0.25, ty = 0.5
    const GridInfo g = makeGrid(5, 5, 0.5f);
    Crowd c;
    c.add(1.75f * 0.5f, 3.f * 0.5f, 1.f, 2.f);
    SplatOut out(5, 5);
    sim::SplatWorkspace ws;
    out.run(GetParam(), c, g, whole(g), ws);
    // weights 0.375, 0.125, 0.375, 0.125, divided by h^2 = 0.25
    EXPECT_FLOAT_EQ(out.rho(1, 2), 1.5f);
    EXPECT_FLOAT_EQ(out.rho(2, 2), 0.5f);
    EXPECT_FLOAT_EQ(out.rho(1, 3), 1.5f);
    EXPECT_FLOAT_EQ(out.rho(2, 3), 0.5f);
    EXPECT_FLOAT_EQ(out.mass(g.h), 1.0);
    // one agent: its velocity in all four cells
    for (const auto& [i, j] : std::initializer_list<std::pair<int, int>>{{1, 2}, {2, 2}, {1, 3}, {2, 3}}) {
        EXPECT_FLOAT_EQ(out.v(i, j).x, 1.f);
        EXPECT_FLOAT_EQ(out.v(i, j).y, 2.f);
    }
    EXPECT_EQ(out.rho(3, 3), 0.f);
    EXPECT_EQ(out.rho(0, 2), 0.f);
}

TEST_P(SplatStage, BorderAgentsKeepTheirMass) {
    // positions in the outer half cells are clamped to the band of centres
    const GridInfo g = makeGrid(4, 3, 1.f);
    Crowd c;
    c.add(0.1f, 0.2f);   // corner half cell -> all on (0, 0)
    c.add(3.9f, 1.5f);   // east half cell, centre row -> all on (3, 1)
    c.add(3.75f, 2.8f);  // north-east corner -> all on (3, 2)
    SplatOut out(4, 3);
    sim::SplatWorkspace ws;
    out.run(GetParam(), c, g, whole(g), ws);
    EXPECT_FLOAT_EQ(out.rho(0, 0), 1.f);
    EXPECT_FLOAT_EQ(out.rho(3, 1), 1.f);
    EXPECT_FLOAT_EQ(out.rho(3, 2), 1.f);
    EXPECT_FLOAT_EQ(out.mass(g.h), 3.0);
}

TEST_P(SplatStage, AgentsOutsideTheGridAreSkipped) {
    const GridInfo g = makeGrid(3, 3, 1.f);
    Crowd c;
    c.add(1.5f, 1.5f);
    c.add(-0.1f, 1.5f);
    c.add(1.5f, 3.f);  // on the upper edge: outside [0, 3)
    SplatOut out(3, 3);
    sim::SplatWorkspace ws;
    out.run(GetParam(), c, g, whole(g), ws);
    EXPECT_FLOAT_EQ(out.rho(1, 1), 1.f);
    EXPECT_FLOAT_EQ(out.mass(g.h), 1.0);
}

TEST_P(SplatStage, MeanVelocityIsWeightedMean) {
    // A at the centre of (1, 1), weight 1 there; B at gx = 1.5, weight 0.5 on
    // (1, 1) and (2, 1): mean on (1, 1) = (1 * vA + 0.5 * vB) / 1.5
    const GridInfo g = makeGrid(4, 3, 1.f);
    Crowd c;
    c.add(1.5f, 1.5f, 1.f, 0.f, 0.5f, 0.f);
    c.add(2.f, 1.5f, 3.f, -1.f, 0.f, 1.f);
    SplatOut out(4, 3);
    sim::SplatWorkspace ws;
    out.run(GetParam(), c, g, whole(g), ws);
    EXPECT_FLOAT_EQ(out.rho(1, 1), 1.5f);
    EXPECT_FLOAT_EQ(out.v(1, 1).x, 2.5f / 1.5f);
    EXPECT_FLOAT_EQ(out.v(1, 1).y, -0.5f / 1.5f);
    EXPECT_FLOAT_EQ(out.p(1, 1).x, 0.5f / 1.5f);
    EXPECT_FLOAT_EQ(out.p(1, 1).y, 0.5f / 1.5f);
    EXPECT_FLOAT_EQ(out.v(2, 1).x, 3.f);
    EXPECT_FLOAT_EQ(out.v(2, 1).y, -1.f);
    EXPECT_EQ(out.v(0, 1).x, 0.f);  // no weight: 0
}

/// Random crowd in a grid with an offset origin; some agents in the border
/// half cells, some outside the grid.
Crowd randomCrowd(const GridInfo& g, int n, unsigned seed, int* inside) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> ux(g.ox - 0.5f, g.ox + g.nx * g.h + 0.5f);
    std::uniform_real_distribution<float> uy(g.oy - 0.5f, g.oy + g.ny * g.h + 0.5f);
    std::uniform_real_distribution<float> uv(-1.5f, 1.5f);
    Crowd c;
    *inside = 0;
    for (int k = 0; k < n; ++k) {
        const float x = ux(rng), y = uy(rng);
        c.add(x, y, uv(rng), uv(rng), uv(rng), uv(rng));
        *inside += sim::insideGrid(g, x, y) ? 1 : 0;
    }
    return c;
}

TEST_P(SplatStage, MassIsConservedForRandomAgents) {
    const GridInfo g = makeGrid(37, 23, 0.4f, -3.2f, 1.1f);
    int inside = 0;
    Crowd c = randomCrowd(g, 3000, 7u, &inside);
    ASSERT_GT(inside, 2000);
    ASSERT_LT(inside, 3000);
    for (float margin : {0.f, 1.f}) {
        const CellRange box = sim::activeBox(GetParam(), c.views(GetParam()), g, margin);
        SplatOut out(g.nx, g.ny, 9.f);
        sim::SplatWorkspace ws;
        out.run(GetParam(), c, g, box, ws);
        EXPECT_NEAR(out.mass(g.h), inside, 1e-5 * inside) << "margin " << margin;
        for (std::size_t k = 0; k < out.rho.size(); ++k) ASSERT_GE(out.rho.host()[k], 0.f);
    }
}

TEST_P(SplatStage, SortAgentsStoresAgentsByStencilCellAndMovesEveryArray) {
    const GridInfo g = makeGrid(19, 13, 0.5f, -1.f, 2.f);
    int inside = 0;
    const Crowd before = randomCrowd(g, 2000, 5u, &inside);
    Crowd c = before;
    for (int k = 0; k < c.size(); ++k) {
        c.vmax[k] = 0.5f + 0.001f * k;
        c.px[k] = -0.002f * k;
        c.field[k] = k % 7;
        c.junction[k] = static_cast<std::int16_t>(k % 301);
        c.came[k] = static_cast<std::int16_t>(-(k % 5));
    }
    const Crowd tagged = c;
    const Exec ex = GetParam();
    sim::SplatWorkspace ws;
    const CellRange box = sim::activeBox(ex, c.views(ex), g, 1.f);
    c.sortByCell(ex, g, box, ws);
    c.fetch(ex);
    // a permutation: every id once, each agent's arrays moved together
    std::vector<int> seen(static_cast<std::size_t>(c.size()), 0);
    int previousKey = -1;
    for (int s = 0; s < c.size(); ++s) {
        const int k = c.id[s];
        ASSERT_GE(k, 0);
        ASSERT_LT(k, c.size());
        ++seen[static_cast<std::size_t>(k)];
        EXPECT_EQ(c.x[s], tagged.x[k]);
        EXPECT_EQ(c.y[s], tagged.y[k]);
        EXPECT_EQ(c.vx[s], tagged.vx[k]);
        EXPECT_EQ(c.vy[s], tagged.vy[k]);
        EXPECT_EQ(c.px[s], tagged.px[k]);
        EXPECT_EQ(c.py[s], tagged.py[k]);
        EXPECT_EQ(c.vmax[s], tagged.vmax[k]);
        EXPECT_EQ(c.field[s], tagged.field[k]);
        EXPECT_EQ(c.junction[s], tagged.junction[k]);
        EXPECT_EQ(c.came[s], tagged.came[k]);
        // keys ascending (outside the grid last), ties in agent order
        const int key = sim::insideGrid(g, c.x[s], c.y[s])
                            ? g.index(sim::clampedBilinear(g, c.x[s], c.y[s]).i0, sim::clampedBilinear(g, c.x[s], c.y[s]).j0)
                            : g.nx * g.ny;
        ASSERT_GE(key, previousKey) << "slot " << s;
        if (key == previousKey) {
            EXPECT_GT(k, c.id[s - 1]) << "slot " << s;
        }
        previousKey = key;
    }
    for (int v : seen) EXPECT_EQ(v, 1);
    EXPECT_GT(inside, 0);
    // sorted agents sort to themselves, through the storage the first sort left in the workspace
    const Crowd once = c;
    c.sortByCell(ex, g, box, ws);
    c.fetch(ex);
    for (int s = 0; s < c.size(); ++s) {
        ASSERT_EQ(c.id[s], once.id[s]) << "slot " << s;
        EXPECT_EQ(c.x[s], once.x[s]);
        EXPECT_EQ(c.vmax[s], once.vmax[s]);
        EXPECT_EQ(c.field[s], once.field[s]);
        EXPECT_EQ(c.came[s], once.came[s]);
    }
}

TEST_P(SplatStage, SplatWithoutSortAgentsIsAnError) {
    const GridInfo g = makeGrid(6, 6, 1.f);
    Crowd c;
    c.add(2.5f, 2.5f);
    Field<float> rho(6, 6);
    Field<sim::Vel2> v(6, 6);
    const Exec ex = GetParam();
    if (ex.backend == Backend::Cuda) { rho.upload(); v.upload(); }
    sim::SplatWorkspace ws;
    const sim::AgentViews a = c.views(ex);
    EXPECT_THROW(sim::splat(ex, a, a.vx, a.vy, g, whole(g), ws, rho.view(ex), v.view(ex)), Error);
}

TEST_P(SplatStage, CellsOutsideTheBoxAreZero) {
    const GridInfo g = makeGrid(8, 6, 0.5f);
    Crowd c;
    c.add(1.25f, 1.25f, 1.f, 1.f);  // cell (2, 2), centre
    SplatOut out(8, 6, 5.f);         // stale values everywhere
    for (std::size_t k = 0; k < out.v.size(); ++k) out.v.host()[k] = sim::Vel2{7.f, 7.f};
    sim::SplatWorkspace ws;
    out.run(GetParam(), c, g, CellRange{1, 1, 4, 4}, ws);
    for (int j = 0; j < 6; ++j)
        for (int i = 0; i < 8; ++i) {
            EXPECT_EQ(out.rho(i, j), i == 2 && j == 2 ? 4.f : 0.f) << i << "," << j;
            EXPECT_EQ(out.v(i, j).x, i == 2 && j == 2 ? 1.f : 0.f) << i << "," << j;
        }
}

TEST_P(SplatStage, EmptyCrowdGivesZeroAndWorkspaceIsReusable) {
    const GridInfo g = makeGrid(5, 4, 1.f);
    sim::SplatWorkspace ws;
    Crowd c;
    c.add(2.5f, 2.5f);
    SplatOut first(5, 4);
    first.run(GetParam(), c, g, whole(g), ws);
    EXPECT_FLOAT_EQ(first.mass(g.h), 1.0);
    // the same workspace, no agents, a box that still covers the old agent
    Crowd none;
    SplatOut out(5, 4, 3.f);
    out.run(GetParam(), none, g, whole(g), ws);
    for (std::size_t k = 0; k < out.rho.size(); ++k) EXPECT_EQ(out.rho.host()[k], 0.f);
}

TEST_P(SplatStage, OneCellWideGridKeepsMass) {
    const GridInfo g = makeGrid(1, 5, 1.f);
    Crowd c;
    c.add(0.9f, 0.1f);
    c.add(0.2f, 2.2f);
    c.add(0.5f, 4.9f);
    SplatOut out(1, 5);
    sim::SplatWorkspace ws;
    out.run(GetParam(), c, g, whole(g), ws);
    EXPECT_FLOAT_EQ(out.mass(g.h), 3.0);
    EXPECT_FLOAT_EQ(out.rho(0, 0), 1.f);
    EXPECT_FLOAT_EQ(out.rho(0, 1), 0.3f);
    EXPECT_FLOAT_EQ(out.rho(0, 2), 0.7f);
    EXPECT_FLOAT_EQ(out.rho(0, 4), 1.f);
}

TEST(SplatStage, BitwiseIdenticalForOneAndTwoThreads) {
    const AllLoopsParallel parallel;  // small inputs: every loop split, else both runs would be serial
    const GridInfo g = makeGrid(64, 48, 0.25f, 0.3f, -0.7f);
    int inside = 0;
    Crowd c1 = randomCrowd(g, 20000, 11u, &inside), c2 = c1;
    SplatOut one(g.nx, g.ny), two(g.nx, g.ny);
    sim::SplatWorkspace ws1, ws2;
    const Exec e1{Backend::Cpu, 1}, e2{Backend::Cpu, 2};
    one.run(e1, c1, g, sim::activeBox(e1, c1.views(e1), g, 0.5f), ws1);
    two.run(e2, c2, g, sim::activeBox(e2, c2.views(e2), g, 0.5f), ws2);
    // the agents are sorted the same way too
    EXPECT_EQ(c1.id.vector(), c2.id.vector());
    EXPECT_EQ(std::memcmp(c1.x.host(), c2.x.host(), sizeof(float) * c1.size()), 0);
    EXPECT_EQ(std::memcmp(one.rho.host(), two.rho.host(), one.rho.size() * sizeof(float)), 0);
    EXPECT_EQ(std::memcmp(one.v.host(), two.v.host(), one.v.size() * sizeof(sim::Vel2)), 0);
    EXPECT_EQ(std::memcmp(one.p.host(), two.p.host(), one.p.size() * sizeof(sim::Vel2)), 0);
    EXPECT_NEAR(one.mass(g.h), inside, 1e-5 * inside);
}

TEST(SplatStage, RowGatherIsBitwiseTheCellGather) {
    // a crowd over a 600-cell-wide box (three row chunks, one partial), crowded enough for shared origins
    const GridInfo g = makeGrid(620, 9, 0.5f, -3.f, 2.f);
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> ux(-3.f, 310.f), uy(1.5f, 7.f), uv(-1.5f, 1.5f);
    Crowd c;
    for (int k = 0; k < 4000; ++k) c.add(ux(rng), uy(rng), uv(rng), uv(rng));
    const Exec ex{Backend::Cpu, 1};
    const CellRange box{7, 1, 607, 8};
    sim::SplatWorkspace ws;
    const sim::AgentViews a = c.sortByCell(ex, g, box, ws);
    // the same kernel, cell by cell (CUDA's way) and row by row (the CPU's)
    Field<float> rhoCell(g.nx, g.ny, -1.f), rhoRow(g.nx, g.ny, -2.f);
    Field<sim::Vel2> vCell(g.nx, g.ny, sim::Vel2{-1.f, -1.f}), vRow(g.nx, g.ny, sim::Vel2{-2.f, -2.f});
    const sim::SplatGatherKernel cell{g, box, ws.begin.view(ex), ws.end.view(ex), a.x, a.y, a.vx, a.vy,
                                      rhoCell.view(ex), vCell.view(ex)};
    sim::SplatGatherKernel row = cell;
    row.rho = rhoRow.view(ex);
    row.mean = vRow.view(ex);
    for (int j = 0; j < g.ny; ++j) {
        for (int i = 0; i < g.nx; ++i) cell(i, j);
        row.row(0, 300, j);  // two calls per row, as forEachCell may split it
        row.row(300, g.nx, j);
    }
    double mass = 0.0;
    for (int j = 0; j < g.ny; ++j)
        for (int i = 0; i < g.nx; ++i) {
            ASSERT_EQ(std::memcmp(&rhoCell(i, j), &rhoRow(i, j), sizeof(float)), 0) << i << "," << j;
            ASSERT_EQ(std::memcmp(&vCell(i, j), &vRow(i, j), sizeof(sim::Vel2)), 0) << i << "," << j;
            mass += rhoRow(i, j) * g.h * g.h;
        }
    // about 61% of the crowd stands inside the box (300 of 313 m, 3.5 of 5.5 m)
    EXPECT_NEAR(mass, 0.61 * 4000, 150.0);
}

// ---- active box ------------------------------------------------------------

TEST_P(ActiveBoxStage, EmptyCrowdGivesEmptyBox) {
    Crowd c;
    const CellRange r = sim::activeBox(GetParam(), c.views(GetParam()), makeGrid(10, 10, 1.f), 2.f);
    EXPECT_TRUE(r.empty());
}

TEST_P(ActiveBoxStage, AgentAtCentreWithoutMarginIsItsCell) {
    const GridInfo g = makeGrid(10, 8, 0.5f, 2.f, 3.f);
    Crowd c;
    c.add(2.f + 4.5f * 0.5f, 3.f + 6.5f * 0.5f);  // centre of (4, 6)
    const CellRange r = sim::activeBox(GetParam(), c.views(GetParam()), g, 0.f);
    EXPECT_EQ(r.i0, 4); EXPECT_EQ(r.i1, 5);
    EXPECT_EQ(r.j0, 6); EXPECT_EQ(r.j1, 7);
}

TEST_P(ActiveBoxStage, CoversTheSplatStencil) {
    // gx = 3.25, gy = 1.75: stencil cells 3..4 x 1..2
    const GridInfo g = makeGrid(10, 8, 1.f);
    Crowd c;
    c.add(3.75f, 2.25f);
    const CellRange r = sim::activeBox(GetParam(), c.views(GetParam()), g, 0.f);
    EXPECT_EQ(r.i0, 3); EXPECT_EQ(r.i1, 5);
    EXPECT_EQ(r.j0, 1); EXPECT_EQ(r.j1, 3);
}

TEST_P(ActiveBoxStage, GrowsByMargin) {
    // AABB centres of (5, 5)..(7, 6); margin 1 m = 2 cells
    const GridInfo g = makeGrid(20, 20, 0.5f);
    Crowd c;
    c.add(2.75f, 2.75f);
    c.add(3.75f, 3.25f);
    c.add(3.25f, 2.75f);
    const CellRange r = sim::activeBox(GetParam(), c.views(GetParam()), g, 1.f);
    EXPECT_EQ(r.i0, 3); EXPECT_EQ(r.i1, 10);
    EXPECT_EQ(r.j0, 3); EXPECT_EQ(r.j1, 9);
}

TEST_P(ActiveBoxStage, ClampedToTheGrid) {
    const GridInfo g = makeGrid(12, 9, 1.f, -1.f, -1.f);
    Crowd c;
    c.add(-0.9f, 0.f);
    c.add(10.9f, 7.9f);
    const CellRange r = sim::activeBox(GetParam(), c.views(GetParam()), g, 3.f);
    EXPECT_EQ(r.i0, 0); EXPECT_EQ(r.i1, 12);
    EXPECT_EQ(r.j0, 0); EXPECT_EQ(r.j1, 9);
    // one agent near the east edge, small margin: clamped on one side only
    Crowd e;
    e.add(10.5f, 3.5f);  // centre of (11, 4)
    const CellRange s = sim::activeBox(GetParam(), e.views(GetParam()), g, 1.f);
    EXPECT_EQ(s.i0, 10); EXPECT_EQ(s.i1, 12);
    EXPECT_EQ(s.j0, 3); EXPECT_EQ(s.j1, 6);
}

TEST_P(ActiveBoxStage, CrowdOutsideTheGridGivesEmptyBox) {
    const GridInfo g = makeGrid(6, 6, 1.f);
    Crowd c;
    c.add(-5.f, 2.f);
    c.add(-4.f, 3.f);
    EXPECT_TRUE(sim::activeBox(GetParam(), c.views(GetParam()), g, 1.f).empty());
}

INSTANTIATE_TEST_SUITE_P(PerBackend, SplatStage, ::testing::ValuesIn(testExecs()), ExecParamName());
INSTANTIATE_TEST_SUITE_P(PerBackend, ActiveBoxStage, ::testing::ValuesIn(testExecs()), ExecParamName());

}  // namespace
}  // namespace ccrowd::test
