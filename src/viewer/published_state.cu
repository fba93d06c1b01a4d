/// @file published_state.cu
/// PublishedState (published_state.hpp): the viewer's publish and fill
/// launchers, run by forEachIndex / forEachCell and Thrust on the side the
/// simulation runs on. Compiled by nvcc in CUDA builds and by the C++
/// compiler (OpenMP, Thrust's OMP system) otherwise, like kernels/*.cu.

#include "viewer/published_state.hpp"

#include <algorithm>
#include <string>

#include <thrust/system/omp/execution_policy.h>
#include <thrust/system_error.h>
#include <thrust/transform_reduce.h>

#include "ccrowd/config.hpp"
#include "ccrowd/error.hpp"
#include "../../kernels/omp_threads.hpp"
#include "viewer/overlay_field.hpp"

#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
#include <thrust/system/cuda/execution_policy.h>
#endif

namespace ccrowd::viewer {

namespace {

/// max(0, op(x) over the @p n elements at @p first), on the side of @p ex.
/// Throws BackendError naming @p what when Thrust fails.
template <class T, class Op>
float maxOf(const Exec& ex, const T* first, int n, Op op, const char* what) {
    if (n <= 0) return 0.f;
    try {
        if (ex.backend == Backend::Cuda) {
#if CCROWD_HAVE_CUDA && defined(__CUDACC__)
            return thrust::transform_reduce(thrust::cuda::par, first, first + n, op, 0.f, MaxOf{});
#else
            throw BackendError(std::string(what) + ": CUDA backend requested but this build has no CUDA backend");
#endif
        }
        const OmpThreads threads(ex, n);
        return thrust::transform_reduce(thrust::omp::par, first, first + n, op, 0.f, MaxOf{});
    } catch (const thrust::system_error& e) {
        throw BackendError(std::string("thrust::transform_reduce (") + what + ") failed: " + e.what());
    }
}

/// Group of each potential field of @p sim.
std::vector<int> fieldGroups(const Simulation& sim) {
    std::vector<int> g(static_cast<std::size_t>(sim.fieldCount()));
    for (int k = 0; k < sim.fieldCount(); ++k) g[static_cast<std::size_t>(k)] = sim.fieldGroup(k);
    return g;
}

}  // namespace

PublishedState::PublishedState(const Exec& ex, const Scene& scene, const std::vector<int>& fieldGroup)
    : ex_(ex), now_(ex), byId_(ex), fieldGroup_(ex), groupRadius_(ex), groupColour_(ex), values_(ex) {
    // group tables, once per scene (one default entry for a scene without groups, which has no agents)
    std::vector<float> radius;
    std::vector<Rgba8> colour;
    for (const GroupSpec& g : scene.groups) {
        radius.push_back(g.radius);
        colour.push_back(Rgba8{g.colour[0], g.colour[1], g.colour[2], 255});
    }
    if (radius.empty()) {
        radius.push_back(GroupSpec{}.radius);
        colour.push_back(Rgba8{});
    }
    groups_ = static_cast<int>(radius.size());
    fields_ = static_cast<int>(fieldGroup.size());
    groupRadius_.assign(radius);
    groupColour_.assign(colour);
    fieldGroup_.assign(fieldGroup);
}

PublishedState::PublishedState(const Simulation& sim) : PublishedState(sim.exec(), sim.scene(), fieldGroups(sim)) {}

void PublishedState::publish(const Simulation& sim, const OverlayRequest& overlay, bool stepped) {
    // check the request before changing anything
    if (overlay.overlay == Overlay::Potential && (overlay.field < 0 || overlay.field >= sim.fieldCount()))
        throw InputError(fieldMessage("--field", std::to_string(overlay.field), "no such potential field",
                                      "0.." + std::to_string(sim.fieldCount() - 1) + " (one per group and route step)"));
    const StateView v = sim.stateView();
    publishAgents(v.agents, v.agentCount, v.idEnd, v.grid, v.pressure, stepped);
    publishOverlay(sim, v, overlay);
}

void PublishedState::publishAgents(const AgentColumnsView& a, int n, int idEnd, const GridInfo& g, View2<const float> pressure,
                                   bool stepped) {
    // a step (the first publication always counts as one): file the last
    // publication by id, where this one finds its previous positions
    if (stepped || serial_ == 0) {
        if (lastIdEnd_ > byId_.capacity()) {
            byId_.reserve(lastIdEnd_);
            forEachIndex(ex_, byId_.capacity(), ForgetKernel{byId_.view(byId_.capacity())});
        }
        forEachIndex(ex_, n_, RememberKernel{now_.view(n_), byId_.view(byId_.capacity()), serial_});
        ++serial_;
    }
    // one AgentState per agent, read from the simulation's arrays on its side
    now_.reserve(n);
    forEachIndex(ex_, n,
                 SnapshotKernel{a, g, pressure, fieldGroup_.view(fields_), groupRadius_.view(groups_),
                                byId_.view(byId_.capacity()), serial_ - 1, now_.view(n)});
    n_ = n;
    lastIdEnd_ = idEnd;
    // the pressure colour scale: the largest agent pressure
    pressureMax_ = maxOf(ex_, now_.data(), n_, PressureOf{}, "largest agent pressure");
    ++version_;
}

void PublishedState::publishOverlay(const Simulation& sim, const StateView& v, const OverlayRequest& o) {
    ++overlayVersion_;
    overlay_ = o;
    grid_ = v.grid;
    arrows_.clear();
    if (o.overlay == Overlay::None) return;
    // the overlay's value per cell, on the simulation's side
    const int nx = grid_.nx, ny = grid_.ny;
    values_.reserve(nx * ny);
    OverlayValueKernel k;
    k.out = View2<float>{values_.data(), nx, ny};
    switch (o.overlay) {
    case Overlay::Density: k.scalar = v.density; break;
    case Overlay::Speed: k.velocity = v.meanVelocity; break;
    case Overlay::Pressure: k.scalar = v.pressure; break;
    case Overlay::Potential: k.scalar = v.potential[static_cast<std::size_t>(o.field)]; break;
    case Overlay::Discomfort: k.scalar = v.discomfort; break;
    case Overlay::None: break;
    }
    forEachCell(ex_, CellRange{0, 0, nx, ny}, k);
    // its range: density up to the UIC limit; speed up to the free speed or
    // more; pressure, potential and discomfort up to their largest finite value
    const float top = maxOf(ex_, values_.data(), nx * ny, FiniteOrZero{}, "overlay range");
    const ModelParams& mp = sim.scene().params;
    lo_ = 0.f;
    hi_ = o.overlay == Overlay::Density ? mp.rho_limit : o.overlay == Overlay::Speed ? std::max(mp.v0, top) : top;
    if (!(hi_ > lo_)) hi_ = lo_ + 1.f;
    if (o.overlay == Overlay::Potential) arrows_ = potentialArrows(sim, o.field);
}

void PublishedState::fillInstances(AgentInstance* dst, ColourBy colour) const {
    const float scale = pressureMax_ > 0.f ? 1.f / pressureMax_ : 0.f;
    forEachIndex(ex_, n_,
                 InstanceFillKernel{now_.view(n_), byId_.view(byId_.capacity()), serial_ - 1, colour,
                                    groupColour_.view(groups_), scale, dst});
}

void PublishedState::fillOverlay(float* dst) const {
    const int nx = grid_.nx, ny = grid_.ny;
    forEachCell(ex_, CellRange{0, 0, nx, ny}, OverlayFillKernel{View2<const float>{values_.data(), nx, ny}, hi_, dst});
}

}  // namespace ccrowd::viewer
