#pragma once
/// @file same_run.hpp
/// The determinism check of many features: two simulations of one scene
/// (e.g. on 1 and on 2 threads) stepped alike hold the same agents, in the
/// same order, at the same positions, bit for bit.

#include <gtest/gtest.h>

#include "ccrowd/simulation.hpp"

namespace ccrowd::test {

/// Steps @p a and @p b @p steps times each and expects the same agent table.
inline void expectSameRun(Simulation& a, Simulation& b, int steps) {
    for (int k = 0; k < steps; ++k) { a.step(); b.step(); }
    const AgentSnapshot x = a.agents(), y = b.agents();
    ASSERT_EQ(x.size(), y.size());
    for (int k = 0; k < x.size(); ++k) {
        ASSERT_EQ(x.id[k], y.id[k]);
        ASSERT_EQ(x.x[k], y.x[k]);
        ASSERT_EQ(x.y[k], y.y[k]);
    }
}

}  // namespace ccrowd::test
