#pragma once
/// @file room_exit_flow.hpp
/// The specific flow through room_exit's 1 m door under one operational
/// model, held to the 1.0-2.0 persons/(m s) people reach: the door-flow case
/// of `ccrowd validate` (validate::roomExitFlow) run from a test.

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "src/validate/cases.hpp"

namespace ccrowd::test {

/// Runs validate::roomExitFlow (200 persons, a 1 m door, flow between 10%
/// and 70% out, four seeds) with model.local @p local on 2 CPU threads;
/// expects 70% out within 300 s in every run and the mean specific flow
/// within 1.0-2.0 persons/(m s), and prints it.
inline void expectPedestrianDoorFlow(const std::string& local) {
    const validate::DoorFlowResult r = validate::roomExitFlow(Exec{Backend::Cpu, 2}, local);
    ASSERT_GE(r.exited, 140) << local << ": 70% not out by t = " << r.end_time << " s";
    std::printf("[ measured ] %s, 1 m door: %.2f persons/(m s)\n", local.c_str(), r.specific);
    EXPECT_GE(r.specific, 1.0) << local;
    EXPECT_LE(r.specific, 2.0) << local;
}

}  // namespace ccrowd::test
