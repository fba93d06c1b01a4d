/// @file test_fim_schedule.cpp
/// The one FIM scheduler (kernels/fim_schedule.hpp), per backend: which tiles
/// run and how often, when the solve ends, the work it does (updates per
/// cell bounded from above on the benchmark's cases), multi-field solves
/// equal to separate ones, and the claim that lets the CPU predict the GPU:
/// a tile swept row by row (a CPU thread) and front by front (a warp)
/// ends bitwise identical, with the same counts.

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cmd/eikonal_cases.hpp"
#include "eikonal_test_util.hpp"
#include "kernels/fim_schedule.hpp"
#include "kernels/fim_stage.hpp"

namespace ccrowd::test {
namespace {

// ---- one tile, two visiting orders ------------------------------------------

/// A tile with its halo in the layout of FimTileMem, randomly filled.
struct TileBuffers {
    int w, h, pitch;
    std::vector<float> phi;
    std::vector<FimState> state;
    std::vector<FaceCost> cost;

    TileBuffers(int w_, int h_, std::mt19937& rng) : w(w_), h(h_), pitch(w_ + 2) {
        phi.assign(static_cast<std::size_t>(pitch) * (h + 2), kInf);
        state.assign(phi.size(), kFimFixed);
        cost.resize(static_cast<std::size_t>(w) * h);
        std::uniform_real_distribution<float> val(0.f, 40.f), c(0.3f, 3.f), u(0.f, 1.f);
        for (int j = -1; j <= h; ++j)
            for (int i = -1; i <= w; ++i) {
                const std::size_t k = static_cast<std::size_t>(i + 1) + static_cast<std::size_t>(j + 1) * pitch;
                const bool halo = i < 0 || j < 0 || i >= w || j >= h;
                const float r = u(rng);
                phi[k] = r < 0.3f ? kInf : val(rng);
                // halo: open (clean) or fixed; tile: dirty, clean or blocked; some closed N / E faces
                state[k] = halo ? (r < 0.8f ? kFimClean : kFimFixed) : (r < 0.5f ? kFimDirty : r < 0.9f ? kFimClean : kFimFixed);
                if (!halo && state[k] == kFimFixed) phi[k] = kInf;
                const float shut = u(rng);
                if (shut < 0.1f) state[k] |= kFimShutN;
                else if (shut < 0.2f) state[k] |= kFimShutE;
            }
        for (FaceCost& f : cost) f = FaceCost{c(rng), c(rng), c(rng), c(rng)};
    }
    FimTileMem mem(float cell, bool diagonals) {
        return FimTileMem{phi.data() + 1 + pitch, state.data() + 1 + pitch, pitch, cost.data(), w, w, h, cell, 1e-6f, 0.3f * cell,
                          diagonals};
    }
};

TEST(FimTile, RowAndDiagonalOrdersGiveTheSameTile) {
    std::mt19937 rng(20261125u);
    const int sizes[][2] = {{32, 32}, {5, 17}, {1, 32}, {32, 1}, {17, 9}, {1, 1}};
    int tiles = 0, changed = 0;
    for (const int mode : {kFimLowering, kFimRaising})
    for (const bool diagonals : {false, true})
    for (const auto& sz : sizes)
        for (int trial = 0; trial < 40; ++trial) {
            SCOPED_TRACE(std::string(diagonals ? "8 neighbours" : "4 neighbours") + (mode == kFimRaising ? ", raising" : ""));
            TileBuffers a(sz[0], sz[1], rng);
            // the raise pass's marks where the lowering pass has its own
            if (mode == kFimRaising)
                for (FimState& st : a.state)
                    if (st & kFimDirty) st = static_cast<FimState>((st & ~kFimDirty) | kFimRaise);
            TileBuffers b = a;
            const std::uint32_t from = static_cast<std::uint32_t>(trial % 16);
            const int sweeps = 1 + trial % 4;
            const FimTileReport ra = fimProcessTile(FimRowTeam{}, a.mem(0.5f, diagonals), from, sweeps, mode);
            const FimTileReport rb = fimProcessTile(FimFrontTeam{}, b.mem(0.5f, diagonals), from, sweeps, mode);
            ++tiles;
            ASSERT_EQ(0, std::memcmp(a.phi.data(), b.phi.data(), a.phi.size() * sizeof(float)))
                << sz[0] << "x" << sz[1] << " trial " << trial;
            ASSERT_EQ(a.state, b.state) << sz[0] << "x" << sz[1] << " trial " << trial;
            ASSERT_EQ(ra.updates, rb.updates);
            ASSERT_EQ(ra.sweeps, rb.sweeps);
            ASSERT_EQ(ra.fronts, rb.fronts) << "the fronts a warp walks, counted from the row order's visits";
            for (int k = 0; k < kFimSlots; ++k) ASSERT_EQ(0, std::memcmp(&ra.key[k], &rb.key[k], sizeof(float))) << "key " << k;
            changed += ra.updates > 0 ? 1 : 0;
        }
    // the random tiles did work: the comparison was not of untouched tiles
    EXPECT_GT(changed, tiles / 2);
}

/// A front budget (fimProcessTile's frontBudget) stops a tile after the
/// sweep during which its walks reach the budget, never before: the tile
/// and its report are those of the same tile given that many sweeps and no
/// front budget, the sweeps before the last walked fewer fronts than the
/// budget, and a tile that stopped with cells left over walked at least
/// the budget (or spent its sweeps). Both visiting orders agree.
TEST(FimTile, AFrontBudgetStopsATileAfterTheSweepThatReachesIt) {
    std::mt19937 rng(20261202u);
    int stopped = 0, tiles = 0;
    for (const bool diagonals : {false, true})
    for (const int budget : {1, 30, 63, 100, 150})
        for (int trial = 0; trial < 30; ++trial) {
            SCOPED_TRACE(std::string(diagonals ? "8" : "4") + " neighbours, budget " + std::to_string(budget) + ", trial " +
                         std::to_string(trial));
            const TileBuffers start(kFimTile, kFimTile, rng);
            const std::uint32_t from = static_cast<std::uint32_t>(trial % 16);
            const int sweeps = 8;
            TileBuffers a = start, b = start, c = start;
            const FimTileReport ra = fimProcessTile(FimRowTeam{}, a.mem(0.5f, diagonals), from, sweeps, kFimLowering, budget);
            const FimTileReport rb = fimProcessTile(FimFrontTeam{}, b.mem(0.5f, diagonals), from, sweeps, kFimLowering, budget);
            const FimTileReport unbudgeted = fimProcessTile(FimRowTeam{}, c.mem(0.5f, diagonals), from, sweeps);
            ++tiles;
            ASSERT_EQ(a.phi, b.phi);
            ASSERT_EQ(a.state, b.state);
            ASSERT_EQ(ra.sweeps, rb.sweeps);
            ASSERT_EQ(ra.fronts, rb.fronts);
            // the same as that many sweeps without a front budget
            TileBuffers d = start;
            const FimTileReport rd = fimProcessTile(FimRowTeam{}, d.mem(0.5f, diagonals), from, ra.sweeps);
            ASSERT_EQ(0, std::memcmp(a.phi.data(), d.phi.data(), a.phi.size() * sizeof(float)));
            ASSERT_EQ(a.state, d.state);
            ASSERT_EQ(ra.updates, rd.updates);
            ASSERT_EQ(ra.fronts, rd.fronts);
            for (int k = 0; k < kFimSlots; ++k) ASSERT_EQ(0, std::memcmp(&ra.key[k], &rd.key[k], sizeof(float))) << "key " << k;
            // not before the budget: one sweep fewer walked less than it
            if (ra.sweeps > 1) {
                TileBuffers e = start;
                EXPECT_LT(fimProcessTile(FimRowTeam{}, e.mem(0.5f, diagonals), from, ra.sweeps - 1).fronts, budget);
            }
            // stopped with cells left: the budget was reached or the sweeps spent
            if (ra.key[kFimToSelf] < kInf) {
                EXPECT_TRUE(ra.fronts >= budget || ra.sweeps == sweeps);
            }
            EXPECT_LE(ra.sweeps, unbudgeted.sweeps);
            stopped += ra.sweeps < unbudgeted.sweeps ? 1 : 0;
        }
    // the budget stopped tiles that would have gone on
    EXPECT_GT(stopped, tiles / 4);
}

/// A sweep walks only the fronts from the first to the last holding a cell
/// to update (fimWalkFronts): a tile whose one marked cell cannot drop
/// walks that cell's front alone; a marked cell beside a source floods the
/// quadrant ahead of it, and the first sweep walks from its front to the
/// far corner's, none before; the following sweeps, over the cells the
/// first left behind, walk fewer than a whole tile's fronts. The row order
/// counts the same walks from its visits.
TEST(FimTile, ASweepWalksOnlyTheFrontsHoldingCellsToUpdate) {
    std::mt19937 rng(20261130u);
    for (const bool diagonals : {false, true}) {
        SCOPED_TRACE(diagonals ? "8 neighbours" : "4 neighbours");
        const int K = diagonals ? 2 : 1, all = fimFronts<1>(kFimTile, kFimTile) + (K - 1) * (kFimTile - 1);
        auto tile = [&](float value) {
            TileBuffers t(kFimTile, kFimTile, rng);
            std::fill(t.phi.begin(), t.phi.end(), value);
            std::fill(t.state.begin(), t.state.end(), value < kInf ? kFimClean : kFimFixed);  // +inf: the halo a border
            for (int j = 0; j < kFimTile; ++j)
                for (int i = 0; i < kFimTile; ++i) t.state[static_cast<std::size_t>(i + 1 + (j + 1) * t.pitch)] = kFimClean;
            return t;
        };
        auto at = [](TileBuffers& t, int i, int j) -> std::size_t { return static_cast<std::size_t>(i + 1 + (j + 1) * t.pitch); };
        // no drop: one front, one update, one sweep (from no edge: the first sweep runs +x, +y)
        TileBuffers still = tile(0.f);
        still.state[at(still, 7, 4)] = kFimDirty;
        TileBuffers still2 = still;
        const FimTileReport a = fimProcessTile(FimRowTeam{}, still.mem(0.5f, diagonals), 0u, 4);
        const FimTileReport b = fimProcessTile(FimFrontTeam{}, still2.mem(0.5f, diagonals), 0u, 4);
        EXPECT_EQ(a.updates, 1u);
        EXPECT_EQ(a.sweeps, 1);
        EXPECT_EQ(a.fronts, 1);
        EXPECT_EQ(b.fronts, 1);
        // a source at (6, 4) and its marked neighbour (7, 4): the first sweep
        // walks fronts 7 + 4 K .. 31 + 31 K
        TileBuffers flood = tile(kInf);
        flood.phi[at(flood, 6, 4)] = 0.f;
        flood.state[at(flood, 6, 4)] = kFimFixed;
        flood.state[at(flood, 7, 4)] = kFimDirty;
        for (const int sweeps : {1, 8}) {
            TileBuffers x = flood, y = flood;
            const FimTileReport rx = fimProcessTile(FimRowTeam{}, x.mem(0.5f, diagonals), 0u, sweeps);
            const FimTileReport ry = fimProcessTile(FimFrontTeam{}, y.mem(0.5f, diagonals), 0u, sweeps);
            ASSERT_EQ(x.phi, y.phi);
            EXPECT_EQ(rx.fronts, ry.fronts);
            EXPECT_EQ(rx.sweeps, ry.sweeps);
            if (sweeps == 1) {
                EXPECT_EQ(rx.fronts, (31 + 31 * K) - (7 + 4 * K) + 1);
            } else {
                EXPECT_GT(rx.sweeps, 2) << "the cells behind the source take more sweeps";
                EXPECT_LT(rx.fronts, rx.sweeps * all);
                for (std::size_t k = 0; k < x.phi.size(); ++k)
                    EXPECT_TRUE(x.state[k] != kFimClean || x.phi[k] < kInf) << "an open cell not reached, index " << k;
            }
        }
    }
}

/// A GPU warp's copy of a tile (fim_stage.hpp), run here lane after lane:
/// the copy holds exactly the tile, its halo and (with diagonals) the
/// halo's corners, and the tile's costs; written back, the tile's cells
/// take the copy's values and states, a halo cell takes its state only
/// where the pass marked it, and nothing else in the arrays changes. On
/// full, narrow and short tiles (the grid's edges).
TEST(FimStage, WarpCopyHoldsTheTileAndItsHaloAndGoesBackWithTheMarks) {
    std::mt19937 rng(20261130u);
    const FimGrid g = makeFimGrid(70, 45, 0.5f, 1e-6f);  // 3 x 2 tiles: the last column 6 wide, the top row 13 tall
    std::uniform_real_distribution<float> val(0.f, 50.f);
    std::uniform_int_distribution<int> byte(0, 255);
    std::vector<float> phi(static_cast<std::size_t>(g.paddedSize()));
    std::vector<FimState> state(phi.size());
    std::vector<FaceCost> cost(static_cast<std::size_t>(g.nx) * g.ny);
    for (float& x : phi) x = val(rng);
    for (FimState& x : state) x = static_cast<FimState>(byte(rng));
    for (FaceCost& c : cost) c = FaceCost{val(rng), val(rng), val(rng), val(rng)};
    const float kNot = -1.f;
    const FimState kNotState = 0xEE;
    int staged = 0, marked = 0;
    for (const bool diagonals : {false, true})
        for (int ty = 0; ty < g.tilesY; ++ty)
            for (int tx = 0; tx < g.tilesX; ++tx) {
                const FimTileBox b = fimTileBox(g, tx, ty);
                SCOPED_TRACE("tile " + std::to_string(tx) + "," + std::to_string(ty) + (diagonals ? " with diagonals" : ""));
                std::vector<float> sPhi(kFimHaloCells, kNot);
                std::vector<FimState> sState(kFimHaloCells, kNotState);
                std::vector<FaceCost> sCost(kFimTile * kFimTile, FaceCost{kNot, kNot, kNot, kNot});
                for (int lane = 0; lane < 32; ++lane)
                    fimStageTile<32>(lane, g, b, diagonals, phi.data(), state.data(), cost.data(), sPhi.data(), sState.data(),
                                     sCost.data());
                // the copy: cell (c, r) at (c + 1) + (r + 1) * pitch
                for (int r = -1; r <= kFimTile; ++r)
                    for (int c = -1; c <= kFimTile; ++c) {
                        const int e = (c + 1) + (r + 1) * kFimHaloPitch;
                        const bool corner = (c < 0 || c >= b.w) && (r < 0 || r >= b.h);
                        const bool want = c <= b.w && r <= b.h && (diagonals || !corner);
                        if (want) {
                            const int q = g.padded(b.i0 + c, b.j0 + r);
                            ASSERT_EQ(sPhi[e], phi[q]) << c << "," << r;
                            ASSERT_EQ(sState[e], state[q]) << c << "," << r;
                            ++staged;
                        } else {
                            ASSERT_EQ(sPhi[e], kNot) << c << "," << r;
                            ASSERT_EQ(sState[e], kNotState) << c << "," << r;
                        }
                    }
                for (int r = 0; r < kFimTile; ++r)
                    for (int c = 0; c < kFimTile; ++c) {
                        const FaceCost& got = sCost[c + r * kFimTile];
                        const FaceCost want = c < b.w && r < b.h ? cost[g.cell(b.i0 + c, b.j0 + r)] : FaceCost{kNot, kNot, kNot, kNot};
                        ASSERT_TRUE(got.e == want.e && got.n == want.n && got.w == want.w && got.s == want.s) << c << "," << r;
                    }
                // a pass changes the copy; each mode writes back its own marks
                for (const int mode : {kFimLowering, kFimRaising}) {
                    std::vector<float> sPhi2 = sPhi;
                    std::vector<FimState> sState2 = sState;
                    for (float& x : sPhi2) if (x != kNot) x = val(rng);
                    for (FimState& x : sState2) if (x != kNotState) x = static_cast<FimState>(byte(rng));
                    std::vector<float> phiWant = phi, phiGot = phi;
                    std::vector<FimState> stateWant = state, stateGot = state;
                    const FimState bit = fimModeBit(mode);
                    for (int r = -1; r <= b.h; ++r)
                        for (int c = -1; c <= b.w; ++c) {
                            const int e = (c + 1) + (r + 1) * kFimHaloPitch;
                            if (sState[e] == kNotState && sPhi[e] == kNot) continue;  // not staged
                            const int q = g.padded(b.i0 + c, b.j0 + r);
                            if (c >= 0 && r >= 0 && c < b.w && r < b.h) {
                                phiWant[q] = sPhi2[e];
                                stateWant[q] = sState2[e];
                            } else if (sState2[e] & bit) {
                                stateWant[q] = sState2[e];
                                ++marked;
                            }
                        }
                    for (int lane = 0; lane < 32; ++lane)
                        fimUnstageTile<32>(lane, g, b, diagonals, bit, sPhi2.data(), sState2.data(), phiGot.data(), stateGot.data());
                    ASSERT_EQ(0, std::memcmp(phiGot.data(), phiWant.data(), phi.size() * sizeof(float))) << "mode " << mode;
                    ASSERT_EQ(stateGot, stateWant) << "mode " << mode;
                }
            }
    // every tile was copied, halo marks went back
    EXPECT_GT(staged, 2 * 6 * 13 * 13);
    EXPECT_GT(marked, 0);
}

/// The CPU initialises the padded arrays a row at a time (launch.hpp's row
/// hook), CUDA a cell at a time: both give the same potentials and states,
/// on a grid whose border, blocked and open cells and closed faces all
/// occur, with 2 fields of different costs.
TEST(FimInit, RowAndCellCallsGiveTheSameArrays) {
    const FimGrid g = makeFimGrid(37, 23, 0.5f, 1e-6f);
    std::mt19937 rng(20261128u);
    std::vector<std::uint8_t> blocked(static_cast<std::size_t>(g.nx) * g.ny);
    for (std::uint8_t& b : blocked) b = rng() % 4 == 0 ? 1 : 0;
    const int fields = 2, rows = fields * (g.ny + 2);
    // per field: costs with some closed N and E faces
    std::vector<std::vector<FaceCost>> costs(fields, std::vector<FaceCost>(blocked.size(), FaceCost{1.f, 1.f, 1.f, 1.f}));
    for (auto& field : costs)
        for (FaceCost& c : field) {
            if (rng() % 5 == 0) c.n = kInf;
            if (rng() % 5 == 0) c.e = kInf;
        }
    const FaceCost* costOf[2] = {costs[0].data(), costs[1].data()};
    const std::size_t n = static_cast<std::size_t>(g.paddedSize()) * fields;
    std::vector<float> phiRow(n, 7.f), phiCell(n, 7.f);
    std::vector<FimState> stRow(n, 99), stCell(n, 99);
    FimSchedView v;
    v.g = g;
    v.fields = fields;
    v.cost = costOf;
    for (const bool diagonals : {false, true}) {
    SCOPED_TRACE(diagonals ? "8 neighbours" : "4 neighbours");
    v.diagonals = diagonals;
    for (bool keep : {false, true}) {
        v.phi = phiRow.data();
        v.state = stRow.data();
        const FimInitCells byRow{v, blocked.data(), keep};
        for (int j = 0; j < rows; ++j) byRow.row(0, g.pitch, j);
        v.phi = phiCell.data();
        v.state = stCell.data();
        const FimInitCells byCell{v, blocked.data(), keep};
        for (int j = 0; j < rows; ++j)
            for (int i = 0; i < g.pitch; ++i) byCell(i, j);
        EXPECT_EQ(0, std::memcmp(phiRow.data(), phiCell.data(), n * sizeof(float))) << "keepPhi " << keep;
        EXPECT_EQ(stRow, stCell) << "keepPhi " << keep;
    }
    // what they agree on is right: border fixed, blocked fixed, open clean,
    // and (with diagonals) every grid cell's closed N and E faces, per field
    int fixed = 0, clean = 0, shut = 0;
    for (int f = 0; f < fields; ++f)
        for (int j = -1; j <= g.ny; ++j)
            for (int i = -1; i <= g.nx; ++i) {
                const FimState s = stRow[static_cast<std::size_t>(f * g.paddedSize() + g.padded(i, j))];
                const bool border = i < 0 || j < 0 || i >= g.nx || j >= g.ny;
                const bool open = !border && !blocked[static_cast<std::size_t>(g.cell(i, j))];
                FimState faces = 0;
                if (!border && diagonals) {
                    const FaceCost& c = costs[static_cast<std::size_t>(f)][static_cast<std::size_t>(g.cell(i, j))];
                    faces = static_cast<FimState>((std::isinf(c.n) ? kFimShutN : 0) | (std::isinf(c.e) ? kFimShutE : 0));
                }
                EXPECT_EQ((open ? kFimClean : kFimFixed) | faces, s) << f << " " << i << " " << j;
                (open ? clean : fixed) += 1;
                shut += faces != 0 ? 1 : 0;
            }
    EXPECT_EQ(shut > g.nx * g.ny / 4, diagonals);
    EXPECT_GT(fixed, 2 * (g.nx + g.ny));
    EXPECT_GT(clean, g.nx * g.ny / 2);
    EXPECT_TRUE(std::isinf(phiRow[static_cast<std::size_t>(g.padded(3, 4))])) << "cold: +inf";
    }
}

// ---- the scheduler, per backend ------------------------------------------------

class FimSchedule : public ::testing::TestWithParam<Exec> {};

/// Solves @p s and returns the per-tile run counts too.
struct Traced {
    Solution sol;
    std::vector<std::uint32_t> runs;
};
Traced solveTraced(const Exec& ex, const Scene& s, const EikonalOptions& opt = {}) {
    FimSolver solver(ex);
    Traced t;
    t.sol.stats = solver.solve(s.problem(), t.sol.phi, opt);
    t.runs = solver.lastTileRuns(0);
    return t;
}

/// Two tiles side by side, the source in the left one: the left tile runs
/// once and converges; the right one runs once, from the left's edge; the
/// right tile's values never lower the left's (the domain is convex), so the
/// left is not revisited.
TEST_P(FimSchedule, ConvergedTileIsNotRevisitedWithoutABoundaryChange) {
    Scene s(2 * kFimTile, kFimTile, 0.5f);
    s.addSource(kFimTile - 3, kFimTile / 2);
    const Traced t = solveTraced(GetParam(), s);
    ASSERT_TRUE(t.sol.stats.converged);
    ASSERT_EQ(t.runs.size(), 2u);
    EXPECT_EQ(t.runs[0], 1u);
    EXPECT_EQ(t.runs[1], 1u);
    EXPECT_EQ(t.sol.stats.tile_activations, 2);
    EXPECT_TRUE(fieldsClose(t.sol.phi, runFmm(s).phi, s.h, 1e-5));
}

/// The left tile is cut by a wall into an upper part with the source and a
/// lower part reachable only through the right tile: the right tile's edge
/// drops reach the left tile, which runs exactly once more.
TEST_P(FimSchedule, TileIsRevisitedWhenANeighbourChangesItsBoundary) {
    Scene s(2 * kFimTile, kFimTile, 0.5f);
    for (int i = 0; i < kFimTile; ++i) s.blocked(i, kFimTile / 2) = 1;  // wall across the left tile only
    s.addSource(3, kFimTile - 3);
    const Traced t = solveTraced(GetParam(), s);
    ASSERT_TRUE(t.sol.stats.converged);
    EXPECT_EQ(t.runs[0], 2u);
    EXPECT_GE(t.runs[1], 1u);
    EXPECT_LT(t.sol.phi(3, 3), kInf);  // the lower part was reached, around the wall
    EXPECT_TRUE(fieldsClose(t.sol.phi, runFmm(s).phi, s.h, 1e-5));
}

/// A wholly blocked tile and a walled-off unreachable region are never
/// activated; every other tile is.
TEST_P(FimSchedule, BlockedAndUnreachableTilesAreNeverActivated) {
    Scene s(4 * kFimTile, 3 * kFimTile, 0.25f);
    // tile (1, 1) blocked entirely
    for (int j = kFimTile; j < 2 * kFimTile; ++j)
        for (int i = kFimTile; i < 2 * kFimTile; ++i) s.blocked(i, j) = 1;
    // column of tiles tx = 3 walled off by a blocked column at its left edge
    for (int j = 0; j < s.ny(); ++j) s.blocked(3 * kFimTile, j) = 1;
    s.addSource(2, 2);
    const Traced t = solveTraced(GetParam(), s);
    ASSERT_TRUE(t.sol.stats.converged);
    const int tilesX = 4;
    for (int ty = 0; ty < 3; ++ty)
        for (int tx = 0; tx < tilesX; ++tx) {
            const std::uint32_t runs = t.runs[static_cast<std::size_t>(tx + ty * tilesX)];
            if (tx == 3 || (tx == 1 && ty == 1)) EXPECT_EQ(runs, 0u) << "tile " << tx << "," << ty;
            else EXPECT_GE(runs, 1u) << "tile " << tx << "," << ty;
        }
    EXPECT_EQ(t.sol.phi(3 * kFimTile + 5, 5), kInf);
}

/// The largest drop any open, non-source cell could still take from its
/// neighbours' final values, relative to the solver's tolerance at that
/// value: <= 1 means no cell would change by more than the tolerance.
double worstPendingDrop(const Scene& s, const Field<float>& phi, float tol, int stencil) {
    double worst = 0.0;
    std::vector<std::uint8_t> source(s.cost.size(), 0);
    for (const EikonalSource& src : s.sources) source[src.i + src.j * s.nx()] = 1;
    auto inside = [&](int i, int j) { return i >= 0 && j >= 0 && i < s.nx() && j < s.ny(); };
    auto at = [&](int i, int j) { return inside(i, j) ? phi(i, j) : kInf; };
    // an axis neighbour (i, j) open, and its face @p face (FaceCost member) open
    auto open = [&](int i, int j) { return inside(i, j) && s.open(i, j); };
    auto face = [&](int i, int j, float FaceCost::*f) { return open(i, j) && std::isfinite(s.cost(i, j).*f); };
    for (int j = 0; j < s.ny(); ++j)
        for (int i = 0; i < s.nx(); ++i) {
            if (!s.open(i, j) || source[i + j * s.nx()]) continue;
            EikonalStencil n{at(i + 1, j), at(i - 1, j), at(i, j + 1), at(i, j - 1),
                             at(i + 1, j + 1), at(i - 1, j + 1), at(i - 1, j - 1), at(i + 1, j - 1), 0u};
            n.tri = eikonalTriangles(open(i + 1, j), open(i - 1, j), open(i, j + 1), open(i, j - 1),
                                     face(i + 1, j, &FaceCost::n), face(i + 1, j, &FaceCost::s), face(i - 1, j, &FaceCost::n),
                                     face(i - 1, j, &FaceCost::s), face(i, j + 1, &FaceCost::e), face(i, j + 1, &FaceCost::w),
                                     face(i, j - 1, &FaceCost::e), face(i, j - 1, &FaceCost::w));
            const float nw = eikonalUpdateStencil(n, s.cost(i, j), s.h, stencil == 8);
            if (!(nw < phi(i, j))) continue;
            worst = std::max(worst, (phi(i, j) - nw) / static_cast<double>(eikonalTolerance(nw, tol, s.h)));
        }
    return worst;
}

/// The active list empties exactly when no value would change by more than
/// the tolerance: at convergence every cell is a fixed point within the
/// tolerance; a solve stopped earlier by the phase cap says it did not
/// converge whenever some cell could still drop by more.
TEST_P(FimSchedule, SolveEndsExactlyWhenNothingCanDropBeyondTheTolerance) {
    for (const int stencil : {4, 8})
    for (const float tol : {1e-9f, 1e-4f}) {
        SCOPED_TRACE("stencil " + std::to_string(stencil));
        const Scene s = obstacles(150, 110, 0.25f, 4242, 14, 2);
        EikonalOptions opt;
        opt.tolerance = tol;
        opt.stencil = stencil;
        const Solution full = runFim(GetParam(), s, opt);
        ASSERT_TRUE(full.stats.converged);
        // insignificant drops are not passed on; a cell may then lag by up to
        // about one tolerance of each neighbour
        EXPECT_LE(worstPendingDrop(s, full.phi, tol, stencil), 2.0) << "tol " << tol;
        int stoppedWithWorkLeft = 0;
        for (int cap = 1; cap < full.stats.iterations; cap += std::max(1, full.stats.iterations / 7)) {
            EikonalOptions capped = opt;
            capped.max_iterations = cap;
            const Solution part = runFim(GetParam(), s, capped);
            EXPECT_FALSE(part.stats.converged) << "cap " << cap << " of " << full.stats.iterations;
            EXPECT_EQ(part.stats.iterations, cap);
            if (worstPendingDrop(s, part.phi, tol, stencil) > 2.0) ++stoppedWithWorkLeft;
        }
        EXPECT_GT(stoppedWithWorkLeft, 0) << "the capped solves should leave cells that can still drop";
    }
}

/// The bound: at most 4 updates per cell on every benchmark case at
/// 512^2 (the algorithm's promise, not a tuning of this machine), with
/// FMM's accuracy.
TEST_P(FimSchedule, BenchmarkCasesAt512TakeAtMostFourUpdatesPerCell) {
    for (const int stencil : {4, 8})
        for (const bench::EikonalCase c : bench::allCases()) {
            SCOPED_TRACE(std::string(bench::caseName(c)) + ", stencil " + std::to_string(stencil));
            const bench::EikonalGrid grid = bench::makeEikonalGrid(c, 512);
            const EikonalProblem p = grid.problem();
            EikonalOptions opt;
            opt.stencil = stencil;
            const Solution fim = runFim(GetParam(), p, opt);
            ASSERT_TRUE(fim.stats.converged);
            EXPECT_LE(fim.stats.updates_per_cell, 4.0);
            EXPECT_GE(fim.stats.updates_per_cell, 1.0);  // every reachable cell at least once
            EXPECT_TRUE(fieldsClose(fim.phi, runFmm(p, opt).phi, grid.h, 1e-5));
        }
}

/// Several fields in one solve give exactly what separate solves give, with
/// the same work per field, and the phases of the slowest field.
TEST_P(FimSchedule, MultiFieldSolveEqualsSeparateSolves) {
    Scene base = obstacles(140, 100, 0.25f, 77, 10, 0);
    std::vector<Scene> scenes(3, base);
    scenes[0].addSource(5, 5);
    scenes[1].addSource(130, 90);
    scenes[2].addSource(70, 2);
    scenes[2].addSource(3, 95, 4.f);
    // one blocked field and one grid for all: point every problem at scene 0's
    std::vector<EikonalProblem> probs;
    for (const Scene& s : scenes) {
        EikonalProblem p = s.problem();
        p.blocked = &scenes[0].blocked;
        probs.push_back(p);
    }
    // scene 1 gets its own costs (different field, same grid)
    for (std::size_t k = 0; k < scenes[1].cost.size(); ++k) scenes[1].cost.host()[k].e *= 1.5f;
    FimSolver many(GetParam());
    std::vector<Field<float>> out(3);
    const std::vector<EikonalStats> st =
        many.solveMany({&probs[0], &probs[1], &probs[2]}, {&out[0], &out[1], &out[2]});
    ASSERT_EQ(st.size(), 3u);
    int slowest = 0;
    for (int k = 0; k < 3; ++k) {
        const Solution one = runFim(GetParam(), probs[static_cast<std::size_t>(k)]);
        EXPECT_TRUE(fieldsIdentical(out[static_cast<std::size_t>(k)], one.phi)) << "field " << k;
        EXPECT_EQ(st[static_cast<std::size_t>(k)].updates, one.stats.updates) << "field " << k;
        EXPECT_EQ(st[static_cast<std::size_t>(k)].tile_activations, one.stats.tile_activations) << "field " << k;
        EXPECT_TRUE(st[static_cast<std::size_t>(k)].converged);
        slowest = std::max(slowest, st[static_cast<std::size_t>(k)].iterations);
    }
    EXPECT_GT(slowest, 0);
    // mismatched grids are refused, naming the problem
    Scene other(20, 20);
    other.addSource(1, 1);
    const EikonalProblem bad = other.problem();
    Field<float> o1, o2;
    try {
        many.solveMany({&probs[0], &bad}, {&o1, &o2});
        ADD_FAILURE() << "a problem on another grid was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("problem 1"), std::string::npos) << e.what();
    }
}

/// critical_sweeps adds each phase's longest tile (in sweeps), whatever
/// the field: a tile solved by its first sweep counts one; a problem solved
/// twice in one solve counts what it counts alone (the max, not the sum,
/// over the tiles of a phase); two problems count between the larger of
/// their counts and their sum.
TEST_P(FimSchedule, CriticalSweepsAddEachPhasesLongestTile) {
    Scene corner(kFimTile, kFimTile, 0.5f);
    corner.addSource(0, 0);  // the first sweep starts at the source: every cell is final in it
    const Solution one = runFim(GetParam(), corner.problem());
    EXPECT_EQ(one.stats.iterations, 1);
    EXPECT_EQ(one.stats.critical_sweeps, 1);
    // its walk: from the source's neighbours (front 1) to the far corner (front 62)
    EXPECT_EQ(one.stats.critical_fronts, 2 * kFimTile - 2);

    Scene s = obstacles(140, 100, 0.25f, 77, 10, 0);
    s.addSource(5, 5);
    Scene t = s;
    t.sources.clear();
    t.addSource(130, 90);
    const EikonalProblem a = s.problem();
    EikonalProblem b = t.problem();
    b.blocked = &s.blocked;  // one blocked field for a solve
    const Solution alone[2] = {runFim(GetParam(), a), runFim(GetParam(), b)};
    const long long budget = GetParam().backend == Backend::Cuda ? kFimSweepsGpu : kFimSweepsCpu;  // the default
    for (const Solution& x : alone) {
        EXPECT_GT(x.stats.critical_sweeps, x.stats.iterations) << "some tile took more than one sweep";
        EXPECT_LE(x.stats.critical_sweeps, budget * x.stats.iterations);
    }
    FimSolver many(GetParam());
    std::vector<Field<float>> out(2);
    const std::vector<EikonalStats> twice = many.solveMany({&a, &a}, {&out[0], &out[1]});
    EXPECT_EQ(twice[0].critical_sweeps, alone[0].stats.critical_sweeps);
    EXPECT_EQ(twice[1].critical_sweeps, alone[0].stats.critical_sweeps);
    const std::vector<EikonalStats> both = many.solveMany({&a, &b}, {&out[0], &out[1]});
    const long long ca = alone[0].stats.critical_sweeps, cb = alone[1].stats.critical_sweeps;
    EXPECT_EQ(both[0].critical_sweeps, both[1].critical_sweeps) << "one number per solve";
    EXPECT_GE(both[0].critical_sweeps, std::max(ca, cb));
    EXPECT_LE(both[0].critical_sweeps, ca + cb);
}

/// Without a band, a sweep or a front budget in the options each backend
/// takes its own defaults (kFimBandTilesCpu / kFimBandTilesGpu,
/// kFimSweepsCpu / kFimSweepsGpu, kFimFrontBudgetCpu / fimFrontBudgetGpu):
/// the same solve as with that value given, and on the obstacles case not
/// the critical path of the other backend's value.
TEST_P(FimSchedule, DefaultBandAndSweepsAreTheBackends) {
    const bench::EikonalGrid grid = bench::makeEikonalGrid(bench::EikonalCase::Obstacles, 512);
    const EikonalProblem p = grid.problem();
    const bool gpu = GetParam().backend == Backend::Cuda;
    EikonalOptions band[2], sweeps[2], fronts[2];  // [0] this backend's default given, [1] the other backend's
    band[0].band_tiles = gpu ? kFimBandTilesGpu : kFimBandTilesCpu;
    band[1].band_tiles = gpu ? kFimBandTilesCpu : kFimBandTilesGpu;
    sweeps[0].inner_iterations = gpu ? kFimSweepsGpu : kFimSweepsCpu;
    sweeps[1].inner_iterations = gpu ? kFimSweepsCpu : kFimSweepsGpu;
    fronts[0].front_budget = gpu ? fimFrontBudgetGpu(4) : kFimFrontBudgetCpu;
    fronts[1].front_budget = gpu ? kFimFrontBudgetCpu : fimFrontBudgetGpu(4);
    const Solution byDefault = runFim(GetParam(), p);
    for (const EikonalOptions* o : {band, sweeps, fronts}) {
        const Solution own = runFim(GetParam(), p, o[0]), other = runFim(GetParam(), p, o[1]);
        EXPECT_TRUE(fieldsIdentical(byDefault.phi, own.phi));
        EXPECT_EQ(byDefault.stats.updates, own.stats.updates);
        EXPECT_EQ(byDefault.stats.critical_sweeps, own.stats.critical_sweeps);
        EXPECT_EQ(byDefault.stats.critical_fronts, own.stats.critical_fronts);
        EXPECT_NE(byDefault.stats.critical_fronts, other.stats.critical_fronts);
    }
    // with 8 neighbours the GPU's default is its own
    EikonalOptions eight, eightOwn;
    eight.stencil = eightOwn.stencil = 8;
    eightOwn.front_budget = gpu ? fimFrontBudgetGpu(8) : kFimFrontBudgetCpu;
    EXPECT_EQ(runFim(GetParam(), p, eight).stats.critical_fronts, runFim(GetParam(), p, eightOwn).stats.critical_fronts);
}

/// A front budget (EikonalOptions::front_budget) bounds each phase's longest
/// tile by the budget plus one sweep's fronts, shortens the critical path of
/// fronts with the GPU's band and sweep budget (the GPU's defaults: 150 with
/// 4 neighbours, 300 with 8), and keeps the answer: the unbudgeted solve's
/// and fast marching's potentials within the solver's tolerance.
TEST_P(FimSchedule, AFrontBudgetCapsEachPhasesLongestTileAndKeepsTheAnswer) {
    for (const bench::EikonalCase c : {bench::EikonalCase::Obstacles, bench::EikonalCase::Crowd})
    for (const int stencil : {4, 8}) {
        SCOPED_TRACE(std::string(bench::caseName(c)) + ", stencil " + std::to_string(stencil));
        const bench::EikonalGrid grid = bench::makeEikonalGrid(c, 512);
        const EikonalProblem p = grid.problem();
        EikonalOptions none;
        none.band_tiles = kFimBandTilesGpu;
        none.inner_iterations = kFimSweepsGpu;
        none.front_budget = 0;
        none.stencil = stencil;
        EikonalOptions capped = none;
        const int budget = fimFrontBudgetGpu(stencil);
        capped.front_budget = budget;
        const Solution a = runFim(GetParam(), p, none), b = runFim(GetParam(), p, capped);
        ASSERT_TRUE(b.stats.converged);
        EXPECT_LT(b.stats.critical_fronts, a.stats.critical_fronts);
        const long long sweepFronts = stencil == 8 ? fimFronts<2>(kFimTile, kFimTile) : fimFronts<1>(kFimTile, kFimTile);
        EXPECT_LE(b.stats.critical_fronts, b.stats.iterations * (budget - 1 + sweepFronts));
        EXPECT_GT(a.stats.critical_fronts, a.stats.iterations * (budget - 1 + sweepFronts) / 2) << "the case needs a budget";
        EXPECT_TRUE(fieldsClose(b.phi, a.phi, grid.h, 1e-5));
        EXPECT_TRUE(fieldsClose(b.phi, runFmm(p, capped).phi, grid.h, 1e-5));
    }
}

/// Warm start: after the costs change inside a box, a warm solve (raise what
/// is no longer supported, then lower) equals a cold solve of the new costs
/// to the FIM-vs-FMM tolerance, round after round, whether the costs rose
/// (the raise invalidates what lies behind) or fell; it does less work when
/// the change is local; and it goes cold when it cannot start warm.
TEST_P(FimSchedule, WarmStartEqualsAColdSolveAfterCostsChange) {
    for (const int stencil : {4, 8}) {
    SCOPED_TRACE("stencil " + std::to_string(stencil));
    Scene s = obstacles(200, 150, 0.25f, 515, 16, 0);
    s.addSource(3, 3);
    s.addSource(190, 140, 2.f);
    const EikonalProblem p = s.problem();
    FimSolver warm(GetParam());
    EikonalOptions opt;
    opt.warm_start = true;
    opt.stencil = stencil;
    EikonalOptions coldOpt;
    coldOpt.stencil = stencil;
    Field<float> phi;
    const EikonalStats first = warm.solve(p, phi, opt);
    EXPECT_FALSE(first.warm) << "nothing to start from";
    ASSERT_TRUE(first.converged);
    std::mt19937 rng(99);
    std::uniform_int_distribution<int> x(0, 170), y(0, 120);
    std::uniform_real_distribution<float> factor(0.4f, 3.f);
    double warmUpdates = 0, coldUpdates = 0;
    for (int round = 0; round < 8; ++round) {
        // new costs in a box: up in even rounds, down in odd ones, random in the last ones
        const int i0 = x(rng), j0 = y(rng), i1 = i0 + 25, j1 = j0 + 25;
        for (int j = j0; j < j1; ++j)
            for (int i = i0; i < i1; ++i) {
                FaceCost& c = s.cost(i, j);
                const float f = round >= 6 ? factor(rng) : round % 2 == 0 ? 2.5f : 0.5f;
                c = FaceCost{c.e * f, c.n * f, c.w * f, c.s * f};
            }
        EikonalOptions boxed = opt;
        boxed.changed_i0 = i0; boxed.changed_j0 = j0; boxed.changed_i1 = i1; boxed.changed_j1 = j1;
        const EikonalStats st = warm.solve(p, phi, boxed);
        ASSERT_TRUE(st.warm) << "round " << round;
        ASSERT_TRUE(st.converged) << "round " << round;
        const Solution cold = runFim(GetParam(), p, coldOpt);
        EXPECT_TRUE(fieldsClose(phi, cold.phi, s.h, 1e-5)) << "round " << round;
        EXPECT_TRUE(fieldsClose(phi, runFmm(p, coldOpt).phi, s.h, 1e-5)) << "round " << round;
        warmUpdates += st.updates_per_cell;
        coldUpdates += cold.stats.updates_per_cell;
    }
    EXPECT_LT(warmUpdates, coldUpdates) << "a 25x25 change in a 200x150 grid should cost less than a cold solve";
    // the whole grid as the box (the default) is exact too
    for (FaceCost& c : std::vector<FaceCost>(s.cost.host(), s.cost.host() + 10)) c.e *= 2.f;
    for (int i = 0; i < 200; ++i) s.cost(i, 75).n *= 3.f;
    const EikonalStats whole = warm.solve(p, phi, opt);
    EXPECT_TRUE(whole.warm);
    EXPECT_TRUE(fieldsClose(phi, runFim(GetParam(), p, coldOpt).phi, s.h, 1e-5));
    // another problem object: cold
    const EikonalProblem q = s.problem();
    EXPECT_FALSE(warm.solve(q, phi, opt).warm);
    EXPECT_TRUE(warm.solve(q, phi, opt).warm);
    // another stencil: cold (the last potentials solve another equation)
    EikonalOptions other = opt;
    other.stencil = 12 - stencil;
    EXPECT_FALSE(warm.solve(q, phi, other).warm);
    // without the option: cold
    EXPECT_FALSE(warm.solve(q, phi, coldOpt).warm);
    }
}

/// A negative corner of the changed box is bad input, named.
TEST_P(FimSchedule, NegativeChangedBoxIsRefused) {
    Scene s(40, 40);
    s.addSource(1, 1);
    EikonalOptions opt;
    opt.warm_start = true;
    opt.changed_i0 = -3;
    FimSolver solver(GetParam());
    Field<float> phi;
    try {
        solver.solve(s.problem(), phi, opt);
        ADD_FAILURE() << "accepted a negative changed_i0";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("changed_box"), std::string::npos) << e.what();
    }
}

INSTANTIATE_TEST_SUITE_P(PerBackend, FimSchedule, ::testing::ValuesIn(testExecs()), ExecParamName());

// ---- the GPU takes the CPU's decisions -------------------------------------------

/// On a machine with a GPU: the CUDA solve makes the same decisions as the
/// CPU one given the same band, sweep and front budgets (same IEEE arithmetic, no
/// fused multiply-adds in the FIM), so its potentials, updates, tile
/// activations, phases, critical sweeps and critical fronts (a warp's walks
/// against the row sweep's count of them) equal the CPU's, with 4 and 8
/// neighbours: with each backend's defaults, the CPU given the GPU's
/// predicts the GPU's counts.
TEST(FimCudaVsCpu, SameDecisionsSameCounts) {
    std::string why;
    if (!cudaUsable(&why)) GTEST_SKIP() << "no usable CUDA GPU: " << why;
    const std::pair<float, int> defaults[] = {{kFimBandTilesCpu, kFimSweepsCpu}, {kFimBandTilesGpu, kFimSweepsGpu}};
    for (const auto& [band, sweeps] : defaults)
    for (const int stencil : {4, 8})
    for (const int fronts : {kFimFrontBudgetCpu, fimFrontBudgetGpu(stencil)})
    for (const bench::EikonalCase c : bench::allCases())
        for (const int n : {100, 512}) {
            const bench::EikonalGrid grid = bench::makeEikonalGrid(c, n);
            const EikonalProblem p = grid.problem();
            EikonalOptions opt;
            opt.band_tiles = band;
            opt.inner_iterations = sweeps;
            opt.stencil = stencil;
            opt.front_budget = fronts;
            const Solution cpu = runFim(Exec{Backend::Cpu, 2}, p, opt), gpu = runFim(Exec{Backend::Cuda, 0}, p, opt);
            const std::string name = std::string(bench::caseName(c)) + " " + std::to_string(n) + " band " +
                                     std::to_string(band) + " sweeps " + std::to_string(sweeps) + " stencil " +
                                     std::to_string(stencil) + " fronts " + std::to_string(fronts);
            EXPECT_TRUE(fieldsIdentical(gpu.phi, cpu.phi)) << name;
            EXPECT_EQ(gpu.stats.updates, cpu.stats.updates) << name;
            EXPECT_EQ(gpu.stats.tile_activations, cpu.stats.tile_activations) << name;
            EXPECT_EQ(gpu.stats.iterations, cpu.stats.iterations) << name;
            EXPECT_EQ(gpu.stats.critical_sweeps, cpu.stats.critical_sweeps) << name;
            EXPECT_EQ(gpu.stats.critical_fronts, cpu.stats.critical_fronts) << name;
            EXPECT_TRUE(gpu.stats.converged) << name;
        }
}

/// EikonalOptions::profile on the CPU backend: ignored (the same solve, an
/// empty profile).
/// The profile tests' case and options.
struct ProfiledCase {
    bench::EikonalGrid grid = bench::makeEikonalGrid(bench::EikonalCase::Obstacles, 300);
    EikonalProblem p = grid.problem();
    EikonalOptions on = [] { EikonalOptions o; o.profile = true; return o; }();
};

TEST(FimProfile, CpuIgnoresIt) {
    const ProfiledCase pc;
    const EikonalProblem& p = pc.p;
    const EikonalOptions& on = pc.on;
    const Solution cpu = runFim(Exec{Backend::Cpu, 2}, p), cpuOn = runFim(Exec{Backend::Cpu, 2}, p, on);
    EXPECT_TRUE(fieldsIdentical(cpuOn.phi, cpu.phi));
    EXPECT_EQ(cpuOn.stats.updates, cpu.stats.updates);
    EXPECT_EQ(cpuOn.stats.gpu_profile.kernel_us, 0.0);
    EXPECT_EQ(cpuOn.stats.gpu_profile.front_ns, 0.0);
    EXPECT_EQ(cpuOn.stats.gpu_profile.tiles, 0);
}

/// EikonalOptions::profile on a GPU: the profiled solve is the same solve,
/// and its parts add up: every processed tile counted, the phases' passes
/// within the kernel's time, the phases' slowest tiles within their
/// process passes.
TEST(FimProfile, TimesTheCudaKernelsPartsAndChangesNothing) {
    std::string why;
    if (!cudaUsable(&why)) GTEST_SKIP() << "no usable CUDA GPU: " << why;
    const ProfiledCase pc;
    const EikonalProblem& p = pc.p;
    const EikonalOptions& on = pc.on;
    const Solution gpu = runFim(Exec{Backend::Cuda, 0}, p), gpuOn = runFim(Exec{Backend::Cuda, 0}, p, on);
    EXPECT_TRUE(fieldsIdentical(gpuOn.phi, gpu.phi));
    EXPECT_EQ(gpuOn.stats.updates, gpu.stats.updates);
    EXPECT_EQ(gpuOn.stats.iterations, gpu.stats.iterations);
    EXPECT_EQ(gpu.stats.gpu_profile.tiles, 0);  // not asked
    const EikonalGpuProfile& pr = gpuOn.stats.gpu_profile;
    EXPECT_EQ(pr.tiles, gpuOn.stats.tile_activations);
    EXPECT_GT(pr.kernel_us, 0.0);
    EXPECT_GT(pr.select_us, 0.0);
    EXPECT_GT(pr.process_us, 0.0);
    EXPECT_LE(pr.select_us + pr.process_us, pr.kernel_us * 1.001 + 1.0);
    EXPECT_GT(pr.slowest_tiles_us, 0.0);
    EXPECT_LE(pr.slowest_tiles_us, pr.process_us * 1.05 + 1.0);  // cycles converted at the first thread's clock
    EXPECT_GT(pr.stage_us, 0.0);
    EXPECT_GT(pr.sweep_us, 0.0);
    // a front is part of a sweep: a sweep walks 1 to 63 of them
    EXPECT_EQ(gpuOn.stats.critical_fronts, gpu.stats.critical_fronts);
    EXPECT_GT(pr.front_ns, 0.0);
    EXPECT_GE(pr.front_ns * 1e-3 * 63.0, pr.sweep_us * 0.999);
    EXPECT_GT(pr.tail_us, 0.0);
    EXPECT_GT(pr.clock_ghz, 0.3);
    EXPECT_LT(pr.clock_ghz, 5.0);
}

}  // namespace
}  // namespace ccrowd::test
