#pragma once
/// @file test_crowd.hpp
/// Agents for stage tests: the arrays of sim::AgentViews as owning host
/// arrays, handed to a stage on the Exec's side by views() and brought back
/// by fetch().

#include "ccrowd/backend.hpp"
#include "ccrowd/field.hpp"
#include "kernels/stages.hpp"

namespace ccrowd::test {

struct TestCrowd {
    Array<float> x, y, vx, vy, px, py, vmax;
    Array<int> field, id;

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
        return size() - 1;
    }
    int size() const { return x.size(); }
    /// Views on @p ex's side (uploads every array for CUDA).
    sim::AgentViews views(const Exec& ex) {
        if (ex.backend == Backend::Cuda) {
            for (Array<float>* a : {&x, &y, &vx, &vy, &px, &py, &vmax}) a->upload();
            for (Array<int>* a : {&field, &id}) a->upload();
        }
        sim::AgentViews v;
        v.n = size();
        v.x = x.view(ex); v.y = y.view(ex); v.vx = vx.view(ex); v.vy = vy.view(ex);
        v.px = px.view(ex); v.py = py.view(ex); v.vmax = vmax.view(ex);
        v.field = field.view(ex); v.id = id.view(ex);
        return v;
    }
    /// Brings every array back to the host (CUDA; nothing on the CPU).
    void fetch(const Exec& ex) {
        if (ex.backend != Backend::Cuda || size() == 0) return;
        for (Array<float>* a : {&x, &y, &vx, &vy, &px, &py, &vmax}) a->download();
        for (Array<int>* a : {&field, &id}) a->download();
    }
};

}  // namespace ccrowd::test
