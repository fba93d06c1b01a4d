/// @file test_stage_velocity.cpp
/// Stage (f), per backend: desired velocity of a potential (Treuille et al.
/// 2006 eq. 5, upwind differences) and the agents' preferred velocity
/// (bilinear from the cell-centred field, scaled by vmax / v0, clamped).

#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "backends.hpp"
#include "test_crowd.hpp"
#include "ccrowd/field.hpp"
#include "kernels/desired_velocity.hpp"
#include "kernels/splat.hpp"
#include "kernels/walking_speed.hpp"
#include "kernels/stages.hpp"

namespace ccrowd::test {
namespace {

using sim::Face4;
using sim::Vel2;

constexpr float kTol = 1e-5f;
constexpr float kInf = INFINITY;

GridInfo makeGrid(int nx, int ny, float h = 1.f) {
    GridInfo g;
    g.nx = nx; g.ny = ny; g.h = h;
    return g;
}

/// Uploads @p f for a CUDA Exec and returns its view on the Exec's side.
template <class T>
View2<T> on(const Exec& ex, Field<T>& f) {
    if (ex.backend == Backend::Cuda) f.upload();
    return f.view(ex);
}

/// Inputs and output of desiredVelocity.
struct DesiredCase {
    GridInfo g;
    Field<float> phi;
    Field<Face4> speed;
    Field<std::uint8_t> blocked;
    Field<Vel2> out;
    DesiredCase(int nx, int ny, float h, float f)
        : g(makeGrid(nx, ny, h)), phi(nx, ny, 0.f), speed(nx, ny, Face4{f, f, f, f}), blocked(nx, ny, 0),
          out(nx, ny, Vel2{-9.f, -9.f}) {}
    /// phi = c + ax x + ay y at the cell centres.
    void linear(float c, float ax, float ay) {
        for (int j = 0; j < g.ny; ++j)
            for (int i = 0; i < g.nx; ++i) phi(i, j) = c + ax * g.centreX(i) + ay * g.centreY(j);
    }
    void run(const Exec& ex, CellRange box) {
        sim::WalkingSpeed walk{};
        walk.g = g;
        walk.faces = on(ex, speed);
        walk.blocked = on(ex, blocked);
        sim::desiredVelocity(ex, g, box, on(ex, phi), walk, on(ex, out));
        if (ex.backend == Backend::Cuda) out.download();
    }
    void run(const Exec& ex) { run(ex, CellRange{0, 0, g.nx, g.ny}); }
};

class DesiredVelocityStage : public ::testing::TestWithParam<Exec> {};
class PreferredVelocityStage : public ::testing::TestWithParam<Exec> {};

// ---- desired velocity --------------------------------------------------------

TEST_P(DesiredVelocityStage, LinearPotentialPointsDownhillAtFaceSpeed) {
    // grad phi = (-0.6, -0.8): direction (0.6, 0.8), speed 1.2 on every face
    DesiredCase c(6, 5, 0.5f, 1.2f);
    c.linear(10.f, -0.6f, -0.8f);
    c.run(GetParam());
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 5; ++i) {
            EXPECT_NEAR(c.out(i, j).x, 0.72f, kTol) << i << "," << j;
            EXPECT_NEAR(c.out(i, j).y, 0.96f, kTol) << i << "," << j;
        }
    // east column: no lower x neighbour, so straight north at full speed
    EXPECT_NEAR(c.out(5, 1).x, 0.f, kTol);
    EXPECT_NEAR(c.out(5, 1).y, 1.2f, kTol);
    // north-east corner: the lowest cell, no direction
    EXPECT_EQ(c.out(5, 4).x, 0.f);
    EXPECT_EQ(c.out(5, 4).y, 0.f);
}

TEST_P(DesiredVelocityStage, FaceSpeedsBlendedBySquaredComponents) {
    // moving (0.6, 0.8): s = 0.36 f_E + 0.64 f_N = 0.36 + 0.32 = 0.68
    DesiredCase up(4, 4, 1.f, 9.f);
    up.linear(5.f, -0.6f, -0.8f);
    for (std::size_t k = 0; k < up.speed.size(); ++k) up.speed.host()[k] = Face4{1.f, 0.5f, 9.f, 9.f};
    up.run(GetParam());
    EXPECT_NEAR(up.out(1, 1).x, 0.408f, kTol);
    EXPECT_NEAR(up.out(1, 1).y, 0.544f, kTol);
    // moving (-0.6, -0.8): s = 0.36 f_W + 0.64 f_S = 0.72 + 0.64 = 1.36
    DesiredCase down(4, 4, 1.f, 9.f);
    down.linear(5.f, 0.6f, 0.8f);
    for (std::size_t k = 0; k < down.speed.size(); ++k) down.speed.host()[k] = Face4{9.f, 9.f, 2.f, 1.f};
    down.run(GetParam());
    EXPECT_NEAR(down.out(2, 2).x, -0.816f, kTol);
    EXPECT_NEAR(down.out(2, 2).y, -1.088f, kTol);
}

TEST_P(DesiredVelocityStage, GoalCellsWallsAndUnreachableCellsAreZero) {
    // phi = |i - 2| + |j - 2| (goal at (2, 2)), a wall at (1, 2) holding a
    // meaningless low value, an unreachable cell at (4, 4)
    DesiredCase c(5, 5, 1.f, 1.1f);
    for (int j = 0; j < 5; ++j)
        for (int i = 0; i < 5; ++i) c.phi(i, j) = static_cast<float>(std::abs(i - 2) + std::abs(j - 2));
    c.blocked(1, 2) = 1;
    c.phi(1, 2) = -5.f;
    c.phi(4, 4) = kInf;
    c.run(GetParam());
    EXPECT_EQ(c.out(2, 2).x, 0.f);  // goal
    EXPECT_EQ(c.out(2, 2).y, 0.f);
    EXPECT_EQ(c.out(1, 2).x, 0.f);  // wall
    EXPECT_EQ(c.out(1, 2).y, 0.f);
    EXPECT_EQ(c.out(4, 4).x, 0.f);  // unreachable
    EXPECT_EQ(c.out(4, 4).y, 0.f);
    // towards the goal along x: (-1.1, 0)
    EXPECT_NEAR(c.out(3, 2).x, -1.1f, kTol);
    EXPECT_NEAR(c.out(3, 2).y, 0.f, kTol);
    // diagonal: -1.1 (1, 1) / sqrt(2)
    EXPECT_NEAR(c.out(3, 3).x, -0.777817f, kTol);
    EXPECT_NEAR(c.out(3, 3).y, -0.777817f, kTol);
    // (1, 1): the wall's low value is ignored, so east only
    EXPECT_NEAR(c.out(1, 1).x, 1.1f, kTol);
    EXPECT_NEAR(c.out(1, 1).y, 0.f, kTol);
    // (4, 3): the +inf neighbour is ignored, south is lower
    EXPECT_NEAR(c.out(4, 3).x, -0.777817f, kTol);
    EXPECT_NEAR(c.out(4, 3).y, -0.777817f, kTol);
}

TEST_P(DesiredVelocityStage, OnlyTheBoxIsWritten) {
    DesiredCase c(5, 4, 1.f, 1.f);
    c.linear(10.f, -1.f, 0.f);
    c.run(GetParam(), CellRange{2, 1, 4, 3});
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 5; ++i) {
            const bool in = i >= 2 && i < 4 && j >= 1 && j < 3;
            EXPECT_NEAR(c.out(i, j).x, in ? 1.f : -9.f, kTol) << i << "," << j;
        }
}

// ---- preferred velocity ------------------------------------------------------

/// Agents for preferredVelocity: velocities at -7 (to see them overwritten).
struct Crowd : TestCrowd {
    void add(float ax, float ay, float avmax, int f = 0) { TestCrowd::add(ax, ay, -7.f, -7.f, -7.f, -7.f, avmax, f); }
};

/// Runs preferredVelocity with @p fields (host fields, moved to the Exec's side).
void runPreferred(const Exec& ex, Crowd& c, const GridInfo& g, std::vector<Field<Vel2>>& fields,
                  Field<std::uint8_t>* blocked, float v0 = 1.34f) {
    std::vector<View2<const Vel2>> views;
    for (Field<Vel2>& f : fields) views.push_back(on(ex, f));
    const View2<const std::uint8_t> b = blocked ? View2<const std::uint8_t>(on(ex, *blocked)) : View2<const std::uint8_t>{};
    sim::preferredVelocity(ex, c.views(ex), g, views.data(), static_cast<int>(views.size()), v0, b);
    c.fetch(ex);
}

TEST_P(PreferredVelocityStage, ScaledByVmaxOverV0) {
    const GridInfo g = makeGrid(3, 3);
    std::vector<Field<Vel2>> fields;
    fields.emplace_back(3, 3, Vel2{0.9f, 0.3f});
    Crowd c;
    c.add(1.5f, 1.5f, 1.34f);
    c.add(1.5f, 1.5f, 0.67f);
    runPreferred(GetParam(), c, g, fields, nullptr);
    EXPECT_NEAR(c.px[0], 0.9f, kTol);
    EXPECT_NEAR(c.py[0], 0.3f, kTol);
    EXPECT_NEAR(c.px[1], 0.45f, kTol);
    EXPECT_NEAR(c.py[1], 0.15f, kTol);
}

TEST_P(PreferredVelocityStage, ClampedToVmax) {
    // (1.5, 2) x 1 / 1.34 has length 1.866 > vmax = 1: clamped to (0.6, 0.8)
    const GridInfo g = makeGrid(3, 3);
    std::vector<Field<Vel2>> fields;
    fields.emplace_back(3, 3, Vel2{1.5f, 2.f});
    Crowd c;
    c.add(1.2f, 1.7f, 1.f);
    runPreferred(GetParam(), c, g, fields, nullptr);
    EXPECT_NEAR(c.px[0], 0.6f, kTol);
    EXPECT_NEAR(c.py[0], 0.8f, kTol);
}

TEST_P(PreferredVelocityStage, BilinearBetweenCells) {
    // gx = 1.25, gy = 1: weights 0.75 on (1, 1), 0.25 on (2, 1)
    const GridInfo g = makeGrid(4, 3);
    std::vector<Field<Vel2>> fields;
    fields.emplace_back(4, 3, Vel2{});
    fields[0](1, 1) = Vel2{1.f, 0.f};
    fields[0](2, 1) = Vel2{0.f, 1.f};
    Crowd c;
    c.add(1.75f, 1.5f, 1.34f);
    runPreferred(GetParam(), c, g, fields, nullptr);
    EXPECT_NEAR(c.px[0], 0.75f, kTol);
    EXPECT_NEAR(c.py[0], 0.25f, kTol);
}

TEST_P(PreferredVelocityStage, BlockedCellsDroppedAndRenormalised) {
    // gx = 1.5: half on the open (1, 1), half on the blocked (2, 1)
    const GridInfo g = makeGrid(4, 3);
    std::vector<Field<Vel2>> fields;
    fields.emplace_back(4, 3, Vel2{});
    fields[0](1, 1) = Vel2{1.f, 0.f};
    Field<std::uint8_t> blocked(4, 3, 0);
    blocked(2, 1) = 1;
    Crowd c;
    c.add(2.f, 1.5f, 1.34f);
    runPreferred(GetParam(), c, g, fields, &blocked);
    EXPECT_NEAR(c.px[0], 1.f, kTol);
    EXPECT_NEAR(c.py[0], 0.f, kTol);
    // without the wall mask the zero of the wall cell is averaged in
    Crowd d;
    d.add(2.f, 1.5f, 1.34f);
    runPreferred(GetParam(), d, g, fields, nullptr);
    EXPECT_NEAR(d.px[0], 0.5f, kTol);
}

TEST_P(PreferredVelocityStage, EachAgentFollowsItsField) {
    const GridInfo g = makeGrid(3, 3);
    std::vector<Field<Vel2>> fields;
    fields.emplace_back(3, 3, Vel2{1.f, 0.f});
    fields.emplace_back(3, 3, Vel2{0.f, -1.f});
    Crowd c;
    c.add(0.5f, 0.5f, 1.34f, 0);
    c.add(2.9f, 2.9f, 1.34f, 1);  // corner half cell: clamped stencil
    c.add(1.5f, 1.5f, 1.34f, 2);  // no such field
    c.add(1.5f, 1.5f, 1.34f, -1);
    runPreferred(GetParam(), c, g, fields, nullptr);
    EXPECT_NEAR(c.px[0], 1.f, kTol);
    EXPECT_NEAR(c.py[0], 0.f, kTol);
    EXPECT_NEAR(c.px[1], 0.f, kTol);
    EXPECT_NEAR(c.py[1], -1.f, kTol);
    for (int k : {2, 3}) {
        EXPECT_EQ(c.px[k], 0.f);
        EXPECT_EQ(c.py[k], 0.f);
    }
}

TEST_P(PreferredVelocityStage, MoreFieldsThanOnePassTakes) {
    // 19 fields: passes of 8, 8 and 3; field f is (0.05 f, -0.02 f) everywhere
    const GridInfo g = makeGrid(3, 3);
    const int fieldCount = 19;
    static_assert(19 > 2 * sim::PreferredVelocityKernel::kFields, "three passes");
    std::vector<Field<Vel2>> fields;
    for (int f = 0; f < fieldCount; ++f) fields.emplace_back(3, 3, Vel2{0.05f * f, -0.02f * f});
    Crowd c;
    for (int f = fieldCount; f >= -1; --f) c.add(0.5f + 0.1f * (f % 10), 1.5f, 1.34f, f);  // f = 19: no such field
    runPreferred(GetParam(), c, g, fields, nullptr);
    for (int k = 0; k < c.size(); ++k) {
        const int f = c.field[k];
        const bool follows = f >= 0 && f < fieldCount;
        EXPECT_NEAR(c.px[k], follows ? 0.05f * f : 0.f, kTol) << "field " << f;
        EXPECT_NEAR(c.py[k], follows ? -0.02f * f : 0.f, kTol) << "field " << f;
    }
}

TEST_P(PreferredVelocityStage, NoAgentsIsANoOp) {
    const GridInfo g = makeGrid(2, 2);
    std::vector<Field<Vel2>> fields;
    fields.emplace_back(2, 2, Vel2{1.f, 0.f});
    Crowd c;
    EXPECT_NO_THROW(runPreferred(GetParam(), c, g, fields, nullptr));
}

// ---- only where the agents read ----------------------------------------------

/// A crowd of three fields (0, 1 and 40, which shares bit 31 with every
/// field from 31 on) on a 12 x 9 grid of 0.5 m cells, one of them outside
/// the grid, and its fields-read mask over the whole grid.
struct ReadCase {
    GridInfo g = makeGrid(12, 9, 0.5f);
    Crowd c;
    Field<std::uint32_t> read{12, 9, 0xdeadbeefu};
    ReadCase() {
        c.add(0.9f, 0.8f, 1.34f, 0);
        c.add(1.1f, 0.9f, 1.34f, 0);
        c.add(4.3f, 3.1f, 1.34f, 1);
        c.add(5.9f, 4.4f, 1.34f, 40);  // the grid's NE corner: a clamped stencil
        c.add(0.1f, 4.4f, 1.34f, -1);  // no field: no bit
        c.add(-0.7f, 2.2f, 1.34f, 1);  // outside the grid: the clamped stencil it reads
    }
    void run(const Exec& ex) {
        const sim::AgentViews a = c.views(ex);
        sim::fieldsRead(ex, g, CellRange{0, 0, g.nx, g.ny}, a.x, a.y, a.field, on(ex, read));
        c.fetch(ex);
        if (ex.backend == Backend::Cuda) read.download();
    }
};

TEST_P(DesiredVelocityStage, FieldsReadMarksExactlyTheAgentsStencils) {
    ReadCase rc;
    rc.run(GetParam());
    // expected: each agent's four stencil cells carry its field's bit
    Field<std::uint32_t> want(rc.g.nx, rc.g.ny, 0u);
    for (int k = 0; k < rc.c.size(); ++k) {
        if (rc.c.field[k] < 0) continue;
        const Bilinear b = sim::clampedBilinear(rc.g, rc.c.x[k], rc.c.y[k]);
        for (int q = 0; q < 4; ++q) want(b.i0 + (q & 1), b.j0 + (q >> 1)) |= sim::fieldReadBit(rc.c.field[k]);
    }
    int marked = 0;
    for (int j = 0; j < rc.g.ny; ++j)
        for (int i = 0; i < rc.g.nx; ++i) {
            EXPECT_EQ(rc.read(i, j), want(i, j)) << i << "," << j;
            marked += want(i, j) != 0u;
        }
    // the two field-0 agents share their stencil; field 40 is bit 31; the agent outside reads the W edge
    EXPECT_EQ(marked, 16);
    EXPECT_EQ(want(0, 3), 2u);
    EXPECT_EQ(want(11, 8), 1u << 31);
}

TEST_P(DesiredVelocityStage, WithTheMaskOnlyCellsItsAgentsReadAreWrittenAndTheyReadTheSame) {
    const Exec& ex = GetParam();
    ReadCase rc;
    rc.run(ex);
    // field 0 everywhere (full) and only where its agents read (masked), from one potential
    DesiredCase full(12, 9, 0.5f, 1.2f), masked(12, 9, 0.5f, 1.2f);
    for (DesiredCase* d : {&full, &masked})
        for (int j = 0; j < 9; ++j)
            for (int i = 0; i < 12; ++i) d->phi(i, j) = 10.f - 0.3f * i - 0.1f * j * j;
    full.run(ex);
    sim::WalkingSpeed walk{};
    walk.g = masked.g;
    walk.faces = on(ex, masked.speed);
    walk.blocked = on(ex, masked.blocked);
    sim::desiredVelocity(ex, masked.g, CellRange{0, 0, 12, 9}, on(ex, masked.phi), walk, on(ex, masked.out),
                         on(ex, rc.read), 0);
    if (ex.backend == Backend::Cuda) masked.out.download();
    for (int j = 0; j < 9; ++j)
        for (int i = 0; i < 12; ++i) {
            const bool reads = (rc.read(i, j) & 1u) != 0u;
            EXPECT_EQ(masked.out(i, j).x, reads ? full.out(i, j).x : -9.f) << i << "," << j;
            EXPECT_EQ(masked.out(i, j).y, reads ? full.out(i, j).y : -9.f) << i << "," << j;
        }
    // the agents of field 0 get bit for bit the same preferred velocity from either
    std::vector<Field<Vel2>> a, b;
    a.push_back(full.out);
    b.push_back(masked.out);
    Crowd ca = rc.c, cb = rc.c;
    runPreferred(ex, ca, rc.g, a, nullptr);
    runPreferred(ex, cb, rc.g, b, nullptr);
    int followers = 0;
    for (int k = 0; k < ca.size(); ++k) {
        if (ca.field[k] != 0) continue;
        ++followers;
        EXPECT_GT(std::fabs(ca.px[k]) + std::fabs(ca.py[k]), 0.1f) << k;
        EXPECT_EQ(ca.px[k], cb.px[k]) << k;
        EXPECT_EQ(ca.py[k], cb.py[k]) << k;
    }
    EXPECT_EQ(followers, 2);
}

INSTANTIATE_TEST_SUITE_P(PerBackend, DesiredVelocityStage, ::testing::ValuesIn(testExecs()), ExecParamName());
INSTANTIATE_TEST_SUITE_P(PerBackend, PreferredVelocityStage, ::testing::ValuesIn(testExecs()), ExecParamName());

}  // namespace
}  // namespace ccrowd::test
