/// @file pressure.cu
/// Pressure stage launcher (g): red-black projected SOR for the
/// UIC linear complementarity problem (Narain et al. 2009 §4, DESIGN.md §5),
/// then the corrected grid velocity. Compiled by nvcc in CUDA builds and by
/// the C++ compiler (OpenMP) otherwise.

#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "pressure.hpp"
#include "reduce.hpp"

namespace ccrowd::sim {
namespace {

/// Throws InputError naming the first parameter out of range.
void validate(const PressureParams& p) {
    if (!(p.rho_limit > 0.f) || !std::isfinite(p.rho_limit))
        throw InputError(fieldMessage("pressure.rho_limit", std::to_string(p.rho_limit), "out of range", "> 0, finite"));
    if (!(p.dt > 0.f) || !std::isfinite(p.dt))
        throw InputError(fieldMessage("pressure.dt", std::to_string(p.dt), "out of range", "> 0, finite"));
    if (p.iterations < 1)
        throw InputError(fieldMessage("pressure.iterations", std::to_string(p.iterations), "out of range", ">= 1"));
    if (!(p.omega > 0.f && p.omega < 2.f))
        throw InputError(fieldMessage("pressure.omega", std::to_string(p.omega), "out of range", "> 0 and < 2"));
    if (p.check_every < 1)
        throw InputError(fieldMessage("pressure.check_every", std::to_string(p.check_every), "out of range", ">= 1"));
    if (!(p.tolerance >= 0.f))
        throw InputError(fieldMessage("pressure.tolerance", std::to_string(p.tolerance), "out of range", ">= 0"));
}

}  // namespace

PressureStats pressure(const Exec& ex, const GridInfo& g, const CellRange& boxIn, const PressureParams& p,
                       View2<const float> rho, View2<const Vel2> meanPreferred, View2<const std::uint8_t> blocked,
                       View2<const Face4> aperture, PressureWorkspace& ws, View2<float> pressureOut,
                       View2<Vel2> corrected) {
    validate(p);
    if (pressureOut.nx != g.nx || pressureOut.ny != g.ny || corrected.nx != g.nx || corrected.ny != g.ny ||
        rho.nx != g.nx || rho.ny != g.ny || meanPreferred.nx != g.nx || blocked.nx != g.nx || blocked.ny != g.ny ||
        (aperture.data && (aperture.nx != g.nx || aperture.ny != g.ny)))
        throw InputError("pressure: every field must be " + std::to_string(g.nx) + "x" + std::to_string(g.ny) +
                         " cells (the grid)");
    // the box, clamped to the grid
    CellRange box = boxIn.clampedTo(g.nx, g.ny);
    if (box.empty()) box = CellRange{};

    // keep p = 0 and corrected = 0 outside the box: clear what the last box
    // covered (the whole grid on a first call or new buffers)
    const bool sameBuffers = ws.lastPressure == pressureOut.data && ws.lastCorrected == corrected.data &&
                             ws.lastNx == g.nx && ws.lastNy == g.ny;
    const CellRange stale = sameBuffers ? ws.lastBox : CellRange{0, 0, g.nx, g.ny};
    forEachCell(ex, stale, ClearOutsideKernel{box, pressureOut, corrected});
    ws.lastPressure = pressureOut.data;
    ws.lastCorrected = corrected.data;
    ws.lastNx = g.nx;
    ws.lastNy = g.ny;
    ws.lastBox = box;

    PressureStats st;
    if (box.empty()) { st.converged = true; return st; }

    const PressureProblem prob{g, p.dt, p.rho_limit, rho, meanPreferred, blocked, aperture};
    const int cells = box.width() * box.height();
    ws.cells.resize(cells);
    ws.hot.resize(cells);
    ws.residual.resize(cells);
    const View1<PressureCell> coef = ws.cells.view(ex);
    const View1<std::uint8_t> hot = ws.hot.view(ex);
    const View1<float> res = ws.residual.view(ex);
    // the predicted densities' fixed parts, once per solve
    forEachCell(ex, box, PressureCellKernel{prob, box, box.width(), p.rho_limit, coef, hot});
    const float k = p.dt / (g.h * g.h);
    // each colour runs over half the columns of the box
    const CellRange half{0, box.j0, (box.width() + 1) / 2, box.j1};
    for (int it = 1; it <= p.iterations; ++it) {
        // red, then black: each reads only the other colour (race-free, deterministic)
        for (int colour = 0; colour < 2; ++colour)
            forEachCell(ex, half, PressureSweepKernel{box, box.width(), coef, hot, k, p.rho_limit, colour, p.omega, pressureOut});
        st.iterations = it;
        // LCP residual over the box (a max: the same for any thread count), every few sweeps
        if (it != 1 && it % p.check_every != 0 && it != p.iterations) continue;
        forEachCell(ex, box, PressureResidualKernel{box, box.width(), coef, hot, k, p.rho_limit, pressureOut, res});
        st.residual = maxOf(ex, res.data, cells, "pressure");
        ++st.checks;
        if (st.residual <= p.tolerance) { st.converged = true; break; }
    }
    // corrected grid velocity v = ubar - grad p (Narain 2009 §4)
    forEachCell(ex, box, CorrectedVelocityKernel{prob, pressureOut, corrected});
    return st;
}

}  // namespace ccrowd::sim
