/// @file social_force.cu
/// Social force stage launcher (Helbing, Farkas & Vicsek 2000; maths in
/// social_force.hpp): outer and inner step counts from the stiffness of
/// the slow and fast forces, the shared neighbour grid and the Verlet lists
/// rebuilt within their skin, the agents' columns gathered into the grid's
/// slot order at each build, per outer step a kick of the slow forces and
/// Jacobi sub-steps of the contact forces ping-ponging between two
/// slot-order states, the result scattered back. Compiled by nvcc in
/// CUDA builds and by the C++ compiler (OpenMP) otherwise.

#include <algorithm>
#include <cmath>
#include <string>

#include "ccrowd/error.hpp"
#include "launch.hpp"
#include "reduce.hpp"
#include "social_force.hpp"

namespace ccrowd::sim {

namespace {

/// Skin of the Verlet lists: how far an agent may move between two builds
/// (the lists' cutoff is the reach plus two skins). [Units: m]
constexpr float kSkin = 0.1f;

void check(bool ok, const char* field, float v, const char* allowed) {
    if (!ok) throw InputError(fieldMessage(std::string("social_force ") + field, std::to_string(v), "out of range", allowed));
}

}  // namespace

float socialForceMaxSubstep(const SocialForceParams& p) {
    // 0.1 sqrt(m/k): the faster-is-slower room's times agree with 0.05 and
    // 0.025 sqrt(m/k) within the seeds' spread at 2-5 m/s; at 0.2 doors
    // jammed for good at 4-5 m/s
    // (bench/results/social_force_substep_2026-12-02_cpu2.md); without a
    // spring, a tenth of the driving relaxation time
    return p.step_scale * (p.k > 0.f ? 0.1f * std::sqrt(p.mass / p.k) : 0.1f * p.tau);
}

float socialForceMaxOuterStep(const SocialForceParams& p) {
    // 0.4 sqrt(m B/(2.5 A)) (the slow part's stiffest spring, SocialForcePart::Slow; 0.2, 0.4 and 0.6 and 0.05 give
    // the same faster-is-slower times, bench/results/social_force_outer_step_2026-12-03_cpu2.md) and a tenth of tau
    const float s = p.A > 0.f ? 0.4f * std::sqrt(p.mass * p.B / (2.5f * p.A)) : INFINITY;
    return p.step_scale * std::min(s, 0.1f * p.tau);
}

float socialForceWallReach(float maxRadius, const SocialForceParams& p, float h) { return maxRadius + p.range + h; }

void socialForce(const Exec& ex, const AgentViews& a, const GridInfo& g, const WallView& walls,
                 const SocialForceParams& p, View1<const float> radiusOf, View1<const float> panicOf, bool anyPanic,
                 float maxRadius, float dt, AgentSortBuffers& sort, SocialForceWorkspace& ws) {
    check(p.A >= 0.f && std::isfinite(p.A), "A", p.A, ">= 0 N, finite");
    check(p.B > 0.f && std::isfinite(p.B), "B", p.B, "> 0 m, finite");
    check(p.k >= 0.f && std::isfinite(p.k), "k", p.k, ">= 0 kg/s^2, finite");
    check(p.kappa >= 0.f && std::isfinite(p.kappa), "kappa", p.kappa, ">= 0 kg/(m s), finite");
    check(p.tau > 0.f && std::isfinite(p.tau), "tau", p.tau, "> 0 s, finite");
    check(p.mass > 0.f && std::isfinite(p.mass), "mass", p.mass, "> 0 kg, finite");
    check(p.range > 0.f && std::isfinite(p.range), "range", p.range, "> 0 m, finite");
    check(p.panic_radius > 0.f && std::isfinite(p.panic_radius), "panic_radius", p.panic_radius, "> 0 m, finite");
    check(p.max_speed > 0.f && std::isfinite(p.max_speed), "max_speed", p.max_speed, "> 0 m/s, finite");
    check(p.injury_threshold >= 0.f && std::isfinite(p.injury_threshold), "injury_threshold", p.injury_threshold,
          ">= 0 N/m, finite (0 = off)");
    check(p.step_scale >= 0.01f && p.step_scale <= 1.f, "step_scale", p.step_scale, "0.01..1");
    check(maxRadius >= 0.f && std::isfinite(maxRadius), "body radius", maxRadius, ">= 0 m, finite");
    check(dt > 0.f && std::isfinite(dt), "dt", dt, "> 0 s, finite");
    check(walls.reach >= socialForceWallReach(maxRadius, p, g.h) - 1e-5f, "wall index reach", walls.reach,
          ">= body radius + range + a cell (socialForceWallReach)");
    const int n = a.n;
    ws.outer = ws.substeps = ws.rebuilds = 0;
    if (n == 0) return;
    // equal outer steps H, each of equal inner sub-steps h (r-RESPA: Tuckerman, Berne & Martyna 1992)
    const int outer = std::max(1, static_cast<int>(std::ceil(dt / socialForceMaxOuterStep(p) - 1e-4f)));
    const float H = dt / outer;
    const int inner = std::max(1, static_cast<int>(std::ceil(H / socialForceMaxSubstep(p) - 1e-4f)));
    const float h = H / inner;
    // Verlet lists cover the force reach (and the panic radius if anyone panics) plus twice the skin each agent
    // may move between builds (its partner moves too); builds at outer steps
    const float stride = p.max_speed * H;  // the farthest anyone moves in an outer step (the sub-steps cap speeds)
    const float nearMargin = 2.f * stride;  // how much closer a pair can come in an outer step
    const float forceReach = 2.f * maxRadius + std::max(p.range, p.B + nearMargin);
    const float reach = anyPanic ? std::max(forceReach, p.panic_radius) : forceReach;
    const float skin = std::max(kSkin, 2.f * stride);
    const float cutoff = reach + 2.f * skin;
    const NeighbourGrid s = makeNeighbourGrid(g, cutoff, 2);
    for (int b = 0; b < 2; ++b) { ws.x[b].resize(n); ws.y[b].resize(n); ws.vx[b].resize(n); ws.vy[b].resize(n); }
    ws.px.resize(n); ws.py.resize(n); ws.vmax.resize(n); ws.field.resize(n); ws.agent.resize(n);
    ws.xb.resize(n); ws.yb.resize(n); ws.moved2.resize(n); ws.nearCount.resize(n);
    auto slots = [&](int b) {
        return SocialForceSlots{ws.x[b].view(ex), ws.y[b].view(ex), ws.vx[b].view(ex), ws.vy[b].view(ex),
                                ws.px.view(ex), ws.py.view(ex), ws.vmax.view(ex), ws.field.view(ex), ws.agent.view(ex)};
    };
    NeighbourView nb;
    NeighbourListView list;
    int cur = 0;  // the slot state the next kernel reads
    for (int step = 0; step < outer; ++step) {
        // rebuild when someone may move past the skin in this outer step (Verlet 1967's test, on the largest move)
        bool build = step == 0;
        if (!build) {
            const SocialForceSlots c = slots(cur);
            forEachIndex(ex, n, SocialForceMovedKernel{c.x, c.y, ws.xb.view(ex), ws.yb.view(ex), ws.moved2.view(ex)});
            build = std::sqrt(maxOf(ex, ws.moved2.view(ex).data, n, "social_force")) + stride > skin;
        }
        // the shared neighbour grid on the agents' positions; the agents' columns then go into its slot order
        // (contiguous partners, no permutation in the pair loop)
        if (build) {
            if (step > 0) forEachIndex(ex, n, SocialForceScatterKernel{slots(cur), a});
            nb = buildNeighbourGrid(ex, a.x, a.y, n, s, sort, ws.grid, "social_force");
            cur = 0;
            forEachIndex(ex, n, SocialForceGatherKernel{nb.order, a, slots(cur), ws.xb.view(ex), ws.yb.view(ex)});
            const SocialForceSlots c = slots(cur);
            list = buildNeighbourList(ex, c.x, c.y, n, nb, cutoff, ws.list, "social_force");
            ++ws.rebuilds;
        }
        // the outer kick of the slow forces, in place; it partitions the Verlet lists into the sub-steps' near lists
        const SocialForceSlots k = slots(cur);
        const View1<int> nearCount = ws.nearCount.view(ex), partner = ws.list.partner.view(ex);
        forEachIndex(ex, n, SocialForceKickKernel{k.x, k.y, k.vx, k.vy, k.px, k.py, k.field, k.vmax, radiusOf, panicOf,
                                                  list.start, partner, walls, p, forceReach, anyPanic, H, nearMargin,
                                                  nearCount});
        ++ws.outer;
        // the inner sub-steps of the contact forces, Jacobi: read one slot state, write the other
        for (int j = 0; j < inner; ++j) {
            const SocialForceSlots r = slots(cur), w = slots(1 - cur);
            forEachIndex(ex, n, SocialForceStepKernel{r.x, r.y, r.vx, r.vy, r.field, r.agent, radiusOf, list.start,
                                                      nearCount, partner, g, walls, p, 2.f * maxRadius + p.B, h,
                                                      w.x, w.y, w.vx, w.vy, r.vmax});
            cur = 1 - cur;
            ++ws.substeps;
        }
    }
    // the result back to the agents
    forEachIndex(ex, n, SocialForceScatterKernel{slots(cur), a});
}

}  // namespace ccrowd::sim
