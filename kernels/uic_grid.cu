/// @file uic_grid.cu
/// Launchers of the UIC grid's functors (uic_grid.hpp): one thread per UIC
/// cell (walls, restriction) or fine cell (prolongation). Compiled by nvcc
/// in CUDA builds and by the C++ compiler (OpenMP) otherwise.

#include <string>

#include "ccrowd/error.hpp"
#include "uic_grid.hpp"

namespace ccrowd::sim {

GridInfo uicGrid(const GridInfo& fine, int factor) {
    if (factor < 1) throw InputError(fieldMessage("UIC grid factor", std::to_string(factor), "out of range", ">= 1"));
    GridInfo g = fine;
    g.nx = (fine.nx + factor - 1) / factor;
    g.ny = (fine.ny + factor - 1) / factor;
    g.h = fine.h * static_cast<float>(factor);
    return g;
}

CellRange uicBox(const CellRange& fineBox, int factor) {
    if (fineBox.empty()) return CellRange{};
    return CellRange{fineBox.i0 / factor, fineBox.j0 / factor, (fineBox.i1 + factor - 1) / factor,
                     (fineBox.j1 + factor - 1) / factor};
}

void uicWalls(const Exec& ex, int factor, View2<const float> fineOpen, View2<const float> apertureX,
              View2<const float> apertureY, View2<std::uint8_t> blockedOut, View2<Face4> apertureOut) {
    if (factor < 1 || blockedOut.nx != (fineOpen.nx + factor - 1) / factor ||
        blockedOut.ny != (fineOpen.ny + factor - 1) / factor || apertureOut.nx != blockedOut.nx ||
        apertureOut.ny != blockedOut.ny || apertureX.nx != fineOpen.nx + 1 || apertureX.ny != fineOpen.ny ||
        apertureY.nx != fineOpen.nx || apertureY.ny != fineOpen.ny + 1)
        throw InputError("uicWalls: the outputs must be the UIC grid of the fine fields, the apertures one face line "
                         "longer than the cells (factor " + std::to_string(factor) + ")");
    // one thread per UIC cell: blocked mask and face apertures
    forEachCell(ex, CellRange{0, 0, blockedOut.nx, blockedOut.ny},
                UicWallsKernel{factor, fineOpen, apertureX, apertureY, blockedOut, apertureOut});
}

void uicRestrict(const Exec& ex, int factor, const CellRange& fineBox, const CellRange& box, View2<const float> rho,
                 View2<const Vel2> velocity, View2<const float> fineOpen, View2<float> rhoOut,
                 View2<Vel2> velocityOut) {
    if (factor < 1 || rho.nx != fineOpen.nx || rho.ny != fineOpen.ny || velocity.nx != rho.nx ||
        velocity.ny != rho.ny || rhoOut.nx != (rho.nx + factor - 1) / factor ||
        rhoOut.ny != (rho.ny + factor - 1) / factor || velocityOut.nx != rhoOut.nx || velocityOut.ny != rhoOut.ny)
        throw InputError("uicRestrict: the outputs must be the UIC grid of the fine fields (factor " +
                         std::to_string(factor) + ")");
    // persons / open area and momentum / mass of each UIC cell of the box
    forEachCell(ex, box, UicRestrictKernel{factor, fineBox, rho, velocity, fineOpen, rhoOut, velocityOut});
}

void uicProlong(const Exec& ex, int factor, View2<const float> coarse, View2<float> fine) {
    if (factor < 1 || coarse.nx != (fine.nx + factor - 1) / factor || coarse.ny != (fine.ny + factor - 1) / factor)
        throw InputError("uicProlong: the coarse field must be the UIC grid of the fine one (factor " +
                         std::to_string(factor) + ")");
    // every fine cell takes its UIC cell's value
    forEachCell(ex, CellRange{0, 0, fine.nx, fine.ny}, UicProlongKernel{factor, coarse, fine});
}

}  // namespace ccrowd::sim
