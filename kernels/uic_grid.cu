/// @file uic_grid.cu
/// Launchers of the UIC grid's functors (uic_grid.hpp): one thread per UIC
/// cell (walls, restriction) or fine cell (prolongation). Compiled by nvcc
/// in CUDA builds and by the C++ compiler (OpenMP) otherwise.

#include <string>

#include "ccrowd/error.hpp"
#include "uic_grid.hpp"

namespace ccrowd::sim {

namespace {

/// UIC cells along a fine grid side of @p n cells: enough for shift 0, or
/// for any shift when @p movable.
int uicCells(int n, int c, bool movable) { return (n + (movable ? c - 1 : 0) + c - 1) / c; }

/// True when @p coarse holds every fine cell of @p fine at @p layout's shift.
template <class C, class F>
bool covers(const C& coarse, const F& fine, const UicLayout& l) {
    return static_cast<long long>(coarse.nx) * l.c >= static_cast<long long>(fine.nx) + l.oi &&
           static_cast<long long>(coarse.ny) * l.c >= static_cast<long long>(fine.ny) + l.oj;
}

/// Throws unless @p layout's factor and shift are in range.
void checkLayout(const UicLayout& l, const char* who) {
    if (l.c < 1 || l.oi < 0 || l.oj < 0 || l.oi >= l.c || l.oj >= l.c)
        throw InputError(std::string(who) + ": UIC layout factor " + std::to_string(l.c) + ", shift (" +
                         std::to_string(l.oi) + ", " + std::to_string(l.oj) +
                         ") out of range (factor >= 1, shift 0..factor-1)");
}

}  // namespace

GridInfo uicGrid(const GridInfo& fine, int factor, bool movable) {
    if (factor < 1) throw InputError(fieldMessage("UIC grid factor", std::to_string(factor), "out of range", ">= 1"));
    GridInfo g = fine;
    g.nx = uicCells(fine.nx, factor, movable);
    g.ny = uicCells(fine.ny, factor, movable);
    g.h = fine.h * static_cast<float>(factor);
    return g;
}

GridInfo uicGridAt(const GridInfo& fine, const UicLayout& layout) {
    checkLayout(layout, "uicGridAt");
    GridInfo g = uicGrid(fine, layout.c, true);
    g.ox = fine.ox - static_cast<float>(layout.oi) * fine.h;
    g.oy = fine.oy - static_cast<float>(layout.oj) * fine.h;
    return g;
}

UicLayout uicShift(int factor, long long step) {
    if (factor < 1) throw InputError(fieldMessage("UIC grid factor", std::to_string(factor), "out of range", ">= 1"));
    const long long c = factor, m = (step % (c * c) + c * c) % (c * c);
    // column shifts in turn; the row shift runs one ahead per round of c
    return UicLayout{factor, static_cast<int>(m % c), static_cast<int>((m % c + m / c) % c)};
}

CellRange uicBox(const CellRange& fineBox, const UicLayout& layout) {
    if (fineBox.empty()) return CellRange{};
    const int c = layout.c;
    return CellRange{(fineBox.i0 + layout.oi) / c, (fineBox.j0 + layout.oj) / c,
                     (fineBox.i1 - 1 + layout.oi) / c + 1, (fineBox.j1 - 1 + layout.oj) / c + 1};
}

void uicWalls(const Exec& ex, const UicLayout& layout, const CellRange& box, View2<const float> fineOpen,
              View2<const float> apertureX, View2<const float> apertureY, View2<std::uint8_t> blockedOut,
              View2<Face4> apertureOut) {
    checkLayout(layout, "uicWalls");
    if (!covers(blockedOut, fineOpen, layout) || apertureOut.nx != blockedOut.nx ||
        apertureOut.ny != blockedOut.ny || apertureX.nx != fineOpen.nx + 1 || apertureX.ny != fineOpen.ny ||
        apertureY.nx != fineOpen.nx || apertureY.ny != fineOpen.ny + 1)
        throw InputError("uicWalls: the outputs must be a UIC grid of the fine fields, the apertures one face line "
                         "longer than the cells (factor " + std::to_string(layout.c) + ")");
    // one thread per UIC cell: blocked mask and face apertures
    forEachCell(ex, box.clampedTo(blockedOut.nx, blockedOut.ny),
                UicWallsKernel{layout, fineOpen, apertureX, apertureY, blockedOut, apertureOut});
}

void uicRestrict(const Exec& ex, const UicLayout& layout, const CellRange& fineBox, const CellRange& box,
                 View2<const float> rho, View2<const Vel2> velocity, View2<const float> fineOpen, View2<float> rhoOut,
                 View2<Vel2> velocityOut) {
    checkLayout(layout, "uicRestrict");
    if (rho.nx != fineOpen.nx || rho.ny != fineOpen.ny || velocity.nx != rho.nx || velocity.ny != rho.ny ||
        !covers(rhoOut, rho, layout) || velocityOut.nx != rhoOut.nx || velocityOut.ny != rhoOut.ny)
        throw InputError("uicRestrict: the outputs must be a UIC grid of the fine fields (factor " +
                         std::to_string(layout.c) + ")");
    // persons / open area and momentum / mass of each UIC cell of the box
    forEachCell(ex, box, UicRestrictKernel{layout, fineBox, rho, velocity, fineOpen, rhoOut, velocityOut});
}

void uicProlong(const Exec& ex, const UicLayout& layout, View2<const float> coarse, View2<float> fine) {
    checkLayout(layout, "uicProlong");
    if (!covers(coarse, fine, layout))
        throw InputError("uicProlong: the coarse field must be a UIC grid of the fine one (factor " +
                         std::to_string(layout.c) + ")");
    // every fine cell takes its UIC cell's value
    forEachCell(ex, CellRange{0, 0, fine.nx, fine.ny}, UicProlongKernel{layout, coarse, fine});
}

}  // namespace ccrowd::sim
