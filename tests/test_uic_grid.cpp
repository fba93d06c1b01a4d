/// @file test_uic_grid.cpp
/// The UIC's grid (kernels/uic_grid.hpp), per backend: size and factor,
/// its shift from step to step, walls and face apertures from the fine
/// sub-cell layers (a door in a wall keeps its exact width; slivers of
/// floor are walls), restriction of the fine splat (persons / open area,
/// momentum / mass, nothing outside the box), and prolongation, unshifted
/// and shifted.

#include <cstdint>

#include <gtest/gtest.h>

#include "backends.hpp"
#include "kernels/uic_grid.hpp"

namespace ccrowd::test {
namespace {

using sim::Face4;
using sim::UicLayout;
using sim::Vel2;

class UicGridStage : public ::testing::TestWithParam<Exec> {};

TEST(UicGrid, FactorIsThePerceptionRadiusInCellsAndTheGridCoversTheFineOne) {
    EXPECT_EQ(sim::uicFactor(1.f, 0.25f), 4);
    EXPECT_EQ(sim::uicFactor(1.f, 0.1f), 10);
    EXPECT_EQ(sim::uicFactor(0.6f, 0.25f), 2);
    EXPECT_EQ(sim::uicFactor(0.f, 0.25f), 1);
    GridInfo fine;
    fine.nx = 10; fine.ny = 7; fine.h = 0.25f; fine.ox = -2.f; fine.oy = 3.f;
    const GridInfo g = sim::uicGrid(fine, 4);
    EXPECT_EQ(g.nx, 3);
    EXPECT_EQ(g.ny, 2);
    EXPECT_FLOAT_EQ(g.h, 1.f);
    EXPECT_FLOAT_EQ(g.ox, -2.f);
    EXPECT_FLOAT_EQ(g.oy, 3.f);
    EXPECT_THROW(sim::uicGrid(fine, 0), InputError);
    // factor 1: the fine grid itself
    EXPECT_EQ(sim::uicGrid(fine, 1, true).nx, 10);
    EXPECT_EQ(sim::uicGrid(fine, 1, true).ny, 7);
    // movable: a cell more where a shift needs it (10 + 3 -> 4, 7 + 3 -> 3), the same size at every shift
    const GridInfo m = sim::uicGrid(fine, 4, true);
    EXPECT_EQ(m.nx, 4);
    EXPECT_EQ(m.ny, 3);
    for (int oi = 0; oi < 4; ++oi)
        for (int oj = 0; oj < 4; ++oj) {
            const GridInfo s = sim::uicGridAt(fine, UicLayout{4, oi, oj});
            EXPECT_EQ(s.nx, m.nx);
            EXPECT_EQ(s.ny, m.ny);
            // the last fine cell lies inside the grid
            EXPECT_LT((fine.nx - 1 + oi) / 4, s.nx);
            EXPECT_LT((fine.ny - 1 + oj) / 4, s.ny);
        }
    const GridInfo s = sim::uicGridAt(fine, UicLayout{4, 3, 1});
    EXPECT_FLOAT_EQ(s.ox, -2.75f);
    EXPECT_FLOAT_EQ(s.oy, 2.75f);
    EXPECT_THROW(sim::uicGridAt(fine, UicLayout{4, 4, 0}), InputError);
    EXPECT_THROW(sim::uicGridAt(fine, UicLayout{4, 0, -1}), InputError);
    const CellRange b = sim::uicBox(CellRange{3, 1, 9, 5}, UicLayout{4, 0, 0});
    EXPECT_EQ(b.i0, 0); EXPECT_EQ(b.j0, 0); EXPECT_EQ(b.i1, 3); EXPECT_EQ(b.j1, 2);
    // shifted by (1, 3): fine columns 3..8 lie in UIC columns (3+1)/4 = 1 .. (8+1)/4 = 2, rows 1..4 in 1..1
    const CellRange c = sim::uicBox(CellRange{3, 1, 9, 5}, UicLayout{4, 1, 3});
    EXPECT_EQ(c.i0, 1); EXPECT_EQ(c.j0, 1); EXPECT_EQ(c.i1, 3); EXPECT_EQ(c.j1, 2);
    EXPECT_TRUE(sim::uicBox(CellRange{}, UicLayout{4, 1, 3}).empty());
}

TEST(UicGrid, ShiftTakesEveryPlaceInTurnAndEveryColumnAndRowShiftWithinFactorSteps) {
    for (int c : {1, 2, 4, 5}) {
        std::vector<int> seen(static_cast<std::size_t>(c * c), 0);
        for (long long step = 0; step < c * c; ++step) {
            const UicLayout l = sim::uicShift(c, step);
            ASSERT_EQ(l.c, c);
            ASSERT_TRUE(l.oi >= 0 && l.oi < c && l.oj >= 0 && l.oj < c) << step;
            ++seen[static_cast<std::size_t>(l.oi + c * l.oj)];
            // periodic in c^2 steps
            const UicLayout later = sim::uicShift(c, step + 3LL * c * c);
            EXPECT_EQ(later.oi, l.oi);
            EXPECT_EQ(later.oj, l.oj);
        }
        // every place once per c^2 steps
        for (int n : seen) EXPECT_EQ(n, 1) << "factor " << c;
        // every run of c steps from a multiple of c takes each column and row shift once
        for (long long s0 = 0; s0 < c * c; s0 += c) {
            std::vector<int> cols(static_cast<std::size_t>(c), 0), rows(static_cast<std::size_t>(c), 0);
            for (long long step = s0; step < s0 + c; ++step) {
                ++cols[static_cast<std::size_t>(sim::uicShift(c, step).oi)];
                ++rows[static_cast<std::size_t>(sim::uicShift(c, step).oj)];
            }
            for (int n : cols) EXPECT_EQ(n, 1);
            for (int n : rows) EXPECT_EQ(n, 1);
        }
    }
    // the first step is the fixed grid's place
    EXPECT_EQ(sim::uicShift(4, 0).oi, 0);
    EXPECT_EQ(sim::uicShift(4, 0).oj, 0);
    EXPECT_THROW(sim::uicShift(0, 0), InputError);
}

/// Sub-cell layers of a fine blocked mask whose cells are whole: open
/// fraction 0 or 1, a face open when both its cells are.
struct FineLayers {
    Field<float> open, apx, apy;
    explicit FineLayers(const Field<std::uint8_t>& b)
        : open(b.nx(), b.ny(), 0.f), apx(b.nx() + 1, b.ny(), 0.f), apy(b.nx(), b.ny() + 1, 0.f) {
        for (int j = 0; j < b.ny(); ++j)
            for (int i = 0; i < b.nx(); ++i) {
                open(i, j) = b(i, j) ? 0.f : 1.f;
                if (i > 0) apx(i, j) = !b(i - 1, j) && !b(i, j) ? 1.f : 0.f;
                if (j > 0) apy(i, j) = !b(i, j - 1) && !b(i, j) ? 1.f : 0.f;
            }
    }
    void walls(const Exec& ex, const UicLayout& l, Field<std::uint8_t>& blocked, Field<Face4>& ap) {
        open.toDevice(ex); apx.toDevice(ex); apy.toDevice(ex); blocked.toDevice(ex); ap.toDevice(ex);
        sim::uicWalls(ex, l, CellRange{0, 0, blocked.nx(), blocked.ny()}, open.view(ex), apx.view(ex), apy.view(ex),
                      blocked.view(ex), ap.view(ex));
        blocked.toHost(ex); ap.toHost(ex);
    }
};

TEST_P(UicGridStage, WallsAndApertures) {
    const Exec ex = GetParam();
    // fine 8 x 8, UIC cells of 4 x 4: a wall in fine column 3 with a door in
    // rows 1-2, and the whole block (1, 1) blocked
    Field<std::uint8_t> fine(8, 8, 0);
    for (int j = 0; j < 8; ++j)
        if (j != 1 && j != 2) fine(3, j) = 1;
    for (int j = 4; j < 8; ++j)
        for (int i = 4; i < 8; ++i) fine(i, j) = 1;
    Field<std::uint8_t> blocked(2, 2, 7);
    Field<Face4> ap(2, 2, Face4{-1.f, -1.f, -1.f, -1.f});
    FineLayers(fine).walls(ex, UicLayout{4, 0, 0}, blocked, ap);
    EXPECT_EQ(blocked(0, 0), 0);
    EXPECT_EQ(blocked(1, 0), 0);
    EXPECT_EQ(blocked(0, 1), 0);
    EXPECT_EQ(blocked(1, 1), 1);
    // the door: 2 of the 4 fine faces between fine columns 3 and 4 in rows 0-3
    EXPECT_FLOAT_EQ(ap(0, 0).e, 0.5f);
    EXPECT_FLOAT_EQ(ap(1, 0).w, 0.5f);
    // rows 4-7: the wall, closed
    EXPECT_FLOAT_EQ(ap(0, 1).e, 0.f);
    // N face of (0, 0): fine rows 3 and 4 in columns 0-3; column 3 is wall in both
    EXPECT_FLOAT_EQ(ap(0, 0).n, 0.75f);
    EXPECT_FLOAT_EQ(ap(0, 1).s, 0.75f);
    // N face of (1, 0) leads into the blocked block
    EXPECT_FLOAT_EQ(ap(1, 0).n, 0.f);
    // the grid's edge
    EXPECT_FLOAT_EQ(ap(0, 0).w, 0.f);
    EXPECT_FLOAT_EQ(ap(0, 0).s, 0.f);
    EXPECT_FLOAT_EQ(ap(1, 0).e, 0.f);
    // a movable grid's extra column and row, past the fine grid: wall
    Field<std::uint8_t> blocked3(3, 3, 7);
    Field<Face4> ap3(3, 3, Face4{-1.f, -1.f, -1.f, -1.f});
    FineLayers(fine).walls(ex, UicLayout{4, 0, 0}, blocked3, ap3);
    EXPECT_EQ(blocked3(2, 0), 1);
    EXPECT_EQ(blocked3(0, 2), 1);
    EXPECT_FLOAT_EQ(ap3(0, 0).e, ap(0, 0).e);
    // a grid that does not cover the fine one at the shift
    Field<std::uint8_t> small(2, 2, 0);
    Field<Face4> apSmall(2, 2, Face4{});
    EXPECT_THROW(FineLayers(fine).walls(ex, UicLayout{4, 1, 0}, small, apSmall), InputError);
}

TEST_P(UicGridStage, ShiftedWallsPutTheDoorInsideACellAndCountWhatLiesPastTheGridAsWall) {
    const Exec ex = GetParam();
    // the wall of WallsAndApertures (fine column 3, door in rows 1-2), the UIC grid shifted
    // by (2, 1): UIC column 1 holds fine columns 2..5, so the wall and its door lie inside it
    Field<std::uint8_t> fine(8, 8, 0);
    for (int j = 0; j < 8; ++j)
        if (j != 1 && j != 2) fine(3, j) = 1;
    Field<std::uint8_t> blocked(3, 3, 7);
    Field<Face4> ap(3, 3, Face4{-1.f, -1.f, -1.f, -1.f});
    FineLayers(fine).walls(ex, UicLayout{4, 2, 1}, blocked, ap);
    // UIC column 0 holds fine columns -2..1: half of it lies past the grid, the rest is floor
    EXPECT_EQ(blocked(0, 0), 0);
    EXPECT_FLOAT_EQ(ap(0, 0).w, 0.f);
    // UIC row 0 holds fine rows -1..2: its S face lies past the grid
    EXPECT_FLOAT_EQ(ap(1, 0).s, 0.f);
    // the face between UIC columns 0 and 1 is fine face line 2, open in fine rows 0..2 (row -1 is past the grid)
    EXPECT_FLOAT_EQ(ap(0, 0).e, 3.f / 4.f);
    EXPECT_FLOAT_EQ(ap(1, 0).w, 3.f / 4.f);
    // the wall is inside UIC column 1: the face line 6 beyond it is open all along
    EXPECT_FLOAT_EQ(ap(1, 1).e, 1.f);
    // N face of (1, 0): fine face line 3 (between rows 2 and 3) in columns 2..5; in column 3 row 2 is
    // the door and row 3 wall, so that face is closed and the other three are open
    EXPECT_FLOAT_EQ(ap(1, 0).n, 3.f / 4.f);
    // the last UIC column holds fine columns 6..9: 6 and 7 are floor
    EXPECT_EQ(blocked(2, 2), 0);
    EXPECT_FLOAT_EQ(ap(2, 2).e, 0.f);
}

TEST_P(UicGridStage, PartlyOpenFacesGiveTheDoorsExactWidthAndSliversAreWalls) {
    const Exec ex = GetParam();
    // the same door, 0.3 + 1 + 1 + 0.2 fine faces wide (a door that does
    // not fall on cell faces), and block (1, 1) open over only 0.4 fine cells
    Field<std::uint8_t> fine(8, 8, 0);
    FineLayers l(fine);
    for (int j = 0; j < 8; ++j) l.apx(4, j) = 0.f;
    l.apx(4, 0) = 0.3f; l.apx(4, 1) = 1.f; l.apx(4, 2) = 1.f; l.apx(4, 3) = 0.2f;
    for (int j = 4; j < 8; ++j)
        for (int i = 4; i < 8; ++i) l.open(i, j) = i == 4 && j == 4 ? 0.4f : 0.f;
    Field<std::uint8_t> blocked(2, 2, 7);
    Field<Face4> ap(2, 2, Face4{-1.f, -1.f, -1.f, -1.f});
    l.walls(ex, UicLayout{4, 0, 0}, blocked, ap);
    EXPECT_FLOAT_EQ(ap(0, 0).e, 2.5f / 4.f);
    EXPECT_FLOAT_EQ(ap(1, 0).w, 2.5f / 4.f);
    EXPECT_EQ(blocked(1, 1), 1) << "0.4 fine cells of floor: below kUicMinOpenCells";
    EXPECT_EQ(blocked(1, 0), 0);
}

TEST_P(UicGridStage, RestrictionIsPersonsPerOpenAreaAndMassWeightedVelocity) {
    const Exec ex = GetParam();
    // fine 4 x 2 at h = 0.5, UIC cells of 2 x 2 (1 m): cell (0, 0) holds
    // fine cells (0..1, 0..1), one of them blocked but holding splat mass
    Field<float> rho(4, 2, 0.f);
    Field<Vel2> vel(4, 2, Vel2{});
    Field<float> fineOpen(4, 2, 1.f);
    fineOpen(1, 1) = 0.f;
    rho(0, 0) = 4.f; vel(0, 0) = Vel2{1.f, 0.f};
    rho(1, 0) = 2.f; vel(1, 0) = Vel2{0.f, 1.f};
    rho(1, 1) = 3.f; vel(1, 1) = Vel2{-1.f, 0.f};
    // UIC cell (1, 0): fine column 3 lies outside the box and holds stale values
    rho(2, 0) = 1.f; vel(2, 0) = Vel2{0.5f, 0.5f};
    rho(3, 0) = 100.f; vel(3, 0) = Vel2{9.f, 9.f};
    Field<float> rhoOut(2, 1, -1.f);
    Field<Vel2> velOut(2, 1, Vel2{-9.f, -9.f});
    for (auto* f : {&rho}) f->toDevice(ex);
    vel.toDevice(ex); fineOpen.toDevice(ex); rhoOut.toDevice(ex); velOut.toDevice(ex);
    sim::uicRestrict(ex, UicLayout{2, 0, 0}, CellRange{0, 0, 3, 2}, CellRange{0, 0, 2, 1}, rho.view(ex), vel.view(ex),
                     fineOpen.view(ex), rhoOut.view(ex), velOut.view(ex));
    rhoOut.toHost(ex); velOut.toHost(ex);
    // (4 + 2 + 3) / 3 open fine cells; momentum (4 - 3, 2) / 9
    EXPECT_FLOAT_EQ(rhoOut(0, 0), 3.f);
    EXPECT_FLOAT_EQ(velOut(0, 0).x, 1.f / 9.f);
    EXPECT_FLOAT_EQ(velOut(0, 0).y, 2.f / 9.f);
    // (1 + nothing from outside the box) / 4 open fine cells
    EXPECT_FLOAT_EQ(rhoOut(1, 0), 0.25f);
    EXPECT_FLOAT_EQ(velOut(1, 0).x, 0.5f);
    EXPECT_FLOAT_EQ(velOut(1, 0).y, 0.5f);
    // a fine cell half open adds half a cell of area: 9 persons over 3.5 cells
    fineOpen(1, 1) = 0.5f;
    fineOpen.toDevice(ex);
    sim::uicRestrict(ex, UicLayout{2, 0, 0}, CellRange{0, 0, 3, 2}, CellRange{0, 0, 2, 1}, rho.view(ex), vel.view(ex),
                     fineOpen.view(ex), rhoOut.view(ex), velOut.view(ex));
    rhoOut.toHost(ex);
    EXPECT_FLOAT_EQ(rhoOut(0, 0), 9.f / 3.5f);
}

TEST_P(UicGridStage, ProlongationCopiesEachUicCellToItsFineCells) {
    const Exec ex = GetParam();
    Field<float> coarse(3, 3, 0.f), fine(5, 5, -1.f);
    for (int J = 0; J < 3; ++J)
        for (int I = 0; I < 3; ++I) coarse(I, J) = static_cast<float>(1 + I + 3 * J);
    coarse.toDevice(ex); fine.toDevice(ex);
    sim::uicProlong(ex, UicLayout{3, 0, 0}, coarse.view(ex), fine.view(ex));
    fine.toHost(ex);
    for (int j = 0; j < 5; ++j)
        for (int i = 0; i < 5; ++i) EXPECT_FLOAT_EQ(fine(i, j), coarse(i / 3, j / 3)) << i << "," << j;
    // shifted by (2, 1): fine cell i lies in UIC column (i + 2) / 3
    sim::uicProlong(ex, UicLayout{3, 2, 1}, coarse.view(ex), fine.view(ex));
    fine.toHost(ex);
    EXPECT_FLOAT_EQ(fine(0, 0), coarse(0, 0));
    EXPECT_FLOAT_EQ(fine(1, 0), coarse(1, 0));
    EXPECT_FLOAT_EQ(fine(4, 1), coarse(2, 0));
    EXPECT_FLOAT_EQ(fine(4, 2), coarse(2, 1));
    EXPECT_FLOAT_EQ(fine(3, 4), coarse(1, 1));
    // 2 x 2 UIC cells of 3 cover 5 x 5 fine cells unshifted, not shifted by 2
    Field<float> two(2, 2, 0.f), wrong(1, 2, 0.f);
    two.toDevice(ex); wrong.toDevice(ex);
    EXPECT_NO_THROW(sim::uicProlong(ex, UicLayout{3, 0, 0}, two.view(ex), fine.view(ex)));
    EXPECT_THROW(sim::uicProlong(ex, UicLayout{3, 2, 0}, two.view(ex), fine.view(ex)), InputError);
    EXPECT_THROW(sim::uicProlong(ex, UicLayout{3, 0, 0}, wrong.view(ex), fine.view(ex)), InputError);
    EXPECT_THROW(sim::uicProlong(ex, UicLayout{3, 3, 0}, coarse.view(ex), fine.view(ex)), InputError);
}

INSTANTIATE_TEST_SUITE_P(PerBackend, UicGridStage, ::testing::ValuesIn(testExecs()), ExecParamName());

}  // namespace
}  // namespace ccrowd::test
