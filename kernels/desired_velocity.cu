/// @file desired_velocity.cu
/// Desired-velocity stage launchers (f): DesiredVelocityKernel over the
/// active box, PreferredVelocityKernel over the agents, one pass per field
/// (kernels/desired_velocity.hpp). Compiled by nvcc in CUDA builds and by the
/// C++ compiler (OpenMP) otherwise.

#include <algorithm>
#include <string>

#include "ccrowd/error.hpp"
#include "desired_velocity.hpp"
#include "launch.hpp"

namespace ccrowd::sim {

void fieldsRead(const Exec& ex, const GridInfo& g, const CellRange& box, View1<const float> x, View1<const float> y,
                View1<const int> field, View2<std::uint32_t> out) {
    // clear the box, then every agent marks its stencil
    forEachCell(ex, box.clampedTo(g.nx, g.ny), ClearFieldsReadKernel{out});
    forEachIndex(ex, field.n, FieldsReadKernel{g, x, y, field, out});
}

void desiredVelocity(const Exec& ex, const GridInfo& g, const CellRange& box, View2<const float> phi,
                     const WalkingSpeed& walk, View2<Vel2> out, View2<const std::uint32_t> read, int field) {
    const std::uint32_t bit = read.data ? fieldReadBit(field) : 0u;
    forEachCell(ex, box.clampedTo(g.nx, g.ny), DesiredVelocityKernel{g, phi, walk, out, read, bit});
}

void preferredVelocity(const Exec& ex, const AgentViews& a, const GridInfo& g, const View2<const Vel2>* fields,
                       int fieldCount, float v0, View2<const std::uint8_t> blocked,
                       View2<const std::uint8_t> closed) {
    if (!(v0 > 0.f))
        throw InputError(fieldMessage("preferredVelocity.v0", std::to_string(v0), "free speed of the fields", "> 0 [m/s]"));
    if (a.n <= 0) return;
    if (fieldCount <= 0 || !fields)
        throw InputError(fieldMessage("preferredVelocity.fieldCount", std::to_string(fieldCount),
                                      "no desired-velocity field", ">= 1"));
    // one pass per kFields fields: the views go to the kernel by value (no host array on the device)
    constexpr int K = PreferredVelocityKernel::kFields;
    for (int base = 0; base < fieldCount; base += K) {
        PreferredVelocityKernel kernel{a, g, blocked, {}, base, std::min(K, fieldCount - base), fieldCount, v0, closed};
        for (int q = 0; q < kernel.passFields; ++q) kernel.fields[q] = fields[base + q];
        forEachIndex(ex, a.n, kernel);
    }
}

}  // namespace ccrowd::sim
