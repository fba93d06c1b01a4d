#pragma once
/// @file test_crowd.hpp
/// Agents for stage tests: the arrays of sim::AgentViews as owning host
/// arrays, handed to a stage on the Exec's side by views() and brought back
/// by fetch().

#include <cstring>

#include <gtest/gtest.h>

#include "ccrowd/backend.hpp"
#include "ccrowd/field.hpp"
#include "kernels/stages.hpp"

namespace ccrowd::test {

struct TestCrowd : AgentColumns<Array> {
    /// @p n agents at the origin (see add()).
    explicit TestCrowd(int n = 0) {
        for (int k = 0; k < n; ++k) add(0.f, 0.f);
    }
    /// Appends an agent at (ax, ay) [m] with velocity (avx, avy) and preferred
    /// velocity (apx, apy) [m/s], free speed @p avmax [m/s], on field @p f;
    /// its id is its index. Returns the index.
    int add(float ax, float ay, float avx = 0.f, float avy = 0.f, float apx = 0.f, float apy = 0.f,
            float avmax = 1.34f, int f = 0) {
        const float values[] = {ax, ay, avx, avy, apx, apy, avmax};
        Array<float>* arrays[] = {&x, &y, &vx, &vy, &px, &py, &vmax};
        for (int k = 0; k < 7; ++k) arrays[k]->vector().push_back(values[k]);
        field.vector().push_back(f);
        id.vector().push_back(size() - 1);
        junction.vector().push_back(-1);
        came.vector().push_back(-1);
        return size() - 1;
    }
    int size() const { return x.size(); }
    /// Views on @p ex's side (uploads every column for CUDA).
    sim::AgentViews views(const Exec& ex) {
        if (ex.backend == Backend::Cuda) forEachColumn(*this, [](auto& column) { column.upload(); });
        return sim::viewsOf(ex, *this);
    }
    /// sim::sortAgents() of this crowd on @p ex's side (uploads it first for
    /// CUDA); returns the views after the sort (it swaps column storage).
    sim::AgentViews sortByCell(const Exec& ex, const GridInfo& g, const CellRange& box, sim::SplatWorkspace& ws) {
        views(ex);
        sim::sortAgents(ex, *this, g, box, ws);
        return sim::viewsOf(ex, *this);
    }
    /// Brings every column back to the host (CUDA; nothing on the CPU).
    void fetch(const Exec& ex) {
        if (ex.backend != Backend::Cuda || size() == 0) return;
        forEachColumn(*this, [](auto& column) { column.download(); });
    }
};

/// Expects @p a and @p b to hold bit-identical positions and velocities
/// (runs with different thread counts must agree exactly).
inline void expectIdenticalStates(const TestCrowd& a, const TestCrowd& b) {
    ASSERT_EQ(a.size(), b.size());
    for (int k = 0; k < a.size(); ++k) {
        EXPECT_EQ(std::memcmp(&a.x[k], &b.x[k], sizeof(float)), 0) << k;
        EXPECT_EQ(std::memcmp(&a.y[k], &b.y[k], sizeof(float)), 0) << k;
        EXPECT_EQ(std::memcmp(&a.vx[k], &b.vx[k], sizeof(float)), 0) << k;
        EXPECT_EQ(std::memcmp(&a.vy[k], &b.vy[k], sizeof(float)), 0) << k;
    }
}

}  // namespace ccrowd::test
