/// @file validate.cpp
/// Input checks of an eikonal problem: every error names the field, the cell
/// and the allowed values.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <sstream>
#include <string>

#include "ccrowd/eikonal.hpp"
#include "ccrowd/error.hpp"
#include "kernels/eikonal_update.hpp"

namespace ccrowd {

namespace {
std::string str(double v) { std::ostringstream o; o << v; return o.str(); }
std::string cellName(int i, int j) { return "(" + std::to_string(i) + ", " + std::to_string(j) + ")"; }
bool costOk(float c) { return c > 0.f; }  // +inf: a closed face
}  // namespace

void validateEikonalSetup(const EikonalProblem& p, const EikonalOptions& opt) {
    // solver controls
    if (!(opt.tolerance > 0.f && opt.tolerance < 1.f))
        throw InputError(fieldMessage("eikonal.tolerance", str(opt.tolerance), "out of range", "0 < tolerance < 1"));
    if (opt.max_iterations < 0)
        throw InputError(fieldMessage("eikonal.max_iterations", str(opt.max_iterations), "negative", ">= 0 (0 = automatic)"));
    if (opt.inner_iterations && *opt.inner_iterations < 1)
        throw InputError(fieldMessage("eikonal.inner_iterations", str(*opt.inner_iterations), "too small",
                                      ">= 1, or none for the backend's default"));
    if (opt.band_tiles && (!(*opt.band_tiles >= 0.f) || !std::isfinite(*opt.band_tiles)))
        throw InputError(fieldMessage("eikonal.band_tiles", str(*opt.band_tiles), "must be a finite number >= 0",
                                      ">= 0 (0 = plain FIM), or none for the backend's default"));
    if (opt.front_budget && (*opt.front_budget < 0 || *opt.front_budget > 1000000))
        throw InputError(fieldMessage("eikonal.front_budget", std::to_string(*opt.front_budget), "out of range",
                                      "0..1000000 (0 = none), or none for the backend's default"));
    if (opt.stencil != 4 && opt.stencil != 8)
        throw InputError(fieldMessage("eikonal.stencil", std::to_string(opt.stencil), "unknown stencil", "4 or 8"));
    if (opt.changed_i0 < 0 || opt.changed_j0 < 0)
        throw InputError(fieldMessage("eikonal.changed_box", "(" + str(opt.changed_i0) + ", " + str(opt.changed_j0) + ")",
                                      "negative first cell", "changed_i0 >= 0 and changed_j0 >= 0"));
    // grid
    if (!(std::isfinite(p.h) && p.h > 0.f))
        throw InputError(fieldMessage("eikonal.h", str(p.h), "cell size must be positive and finite", "0 < h < inf [m]"));
    if (!p.cost || !p.blocked) throw InputError("eikonal: cost and blocked fields are required");
    if (p.cost->nx() <= 0 || p.cost->ny() <= 0)
        throw InputError(fieldMessage("eikonal.grid", std::to_string(p.cost->nx()) + "x" + std::to_string(p.cost->ny()),
                                      "empty grid", "nx >= 1 and ny >= 1"));
    if (p.blocked->nx() != p.cost->nx() || p.blocked->ny() != p.cost->ny())
        throw InputError(fieldMessage("eikonal.blocked", std::to_string(p.blocked->nx()) + "x" + std::to_string(p.blocked->ny()),
                                      "size differs from the cost field",
                                      std::to_string(p.cost->nx()) + "x" + std::to_string(p.cost->ny())));
    // sources
    if (p.sources.empty()) throw InputError("eikonal.sources: no source cells (allowed: at least one open cell inside the grid)");
    for (std::size_t k = 0; k < p.sources.size(); ++k) {
        const EikonalSource& s = p.sources[k];
        const std::string f = "eikonal.sources[" + std::to_string(k) + "]";
        if (s.i < 0 || s.j < 0 || s.i >= p.nx() || s.j >= p.ny())
            throw InputError(fieldMessage(f, cellName(s.i, s.j), "outside the grid",
                                          "0 <= i < " + std::to_string(p.nx()) + ", 0 <= j < " + std::to_string(p.ny())));
        if ((*p.blocked)(s.i, s.j)) throw InputError(fieldMessage(f, cellName(s.i, s.j), "on a blocked cell", "an open cell"));
        if (!std::isfinite(s.value)) throw InputError(fieldMessage(f + ".value", str(s.value), "not finite", "a finite potential"));
    }
}

void throwBadEikonalCost(const EikonalProblem& p, std::ptrdiff_t k) {
    const int i = static_cast<int>(k % p.nx()), j = static_cast<int>(k / p.nx());
    const FaceCost& f = p.cost->host()[k];
    const char* face = !costOk(f.e) ? "e" : !costOk(f.n) ? "n" : !costOk(f.w) ? "w" : "s";
    const float v = !costOk(f.e) ? f.e : !costOk(f.n) ? f.n : !costOk(f.w) ? f.w : f.s;
    throw InputError(fieldMessage("eikonal.cost" + cellName(i, j) + "." + face, str(v),
                                  "unit cost of an open cell must be positive (+inf closes the face)", "0 < cost <= +inf [s/m]"));
}

void validateEikonalProblem(const EikonalProblem& p, const EikonalOptions& opt) {
    validateEikonalSetup(p, opt);
    // costs of open cells: find the first bad one (in index order, so the
    // message does not depend on the thread count)
    const FaceCost* c = p.cost->host();
    const std::uint8_t* b = p.blocked->host();
    const std::ptrdiff_t n = static_cast<std::ptrdiff_t>(p.cost->size());
    std::ptrdiff_t firstBad = n;
#pragma omp parallel for schedule(static) reduction(min : firstBad)
    for (std::ptrdiff_t k = 0; k < n; ++k) {
        if (b[k] || eikonalCostOk(c[k])) continue;
        firstBad = std::min(firstBad, k);
    }
    if (firstBad < n) throwBadEikonalCost(p, firstBad);
}

}  // namespace ccrowd
