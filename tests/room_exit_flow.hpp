#pragma once
/// @file room_exit_flow.hpp
/// The specific flow through room_exit's 1 m door under one operational
/// model, measured as `ccrowd validate` does (between 10% and 70% out).

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "ccrowd/config.hpp"
#include "ccrowd/scene.hpp"
#include "ccrowd/simulation.hpp"

namespace ccrowd::test {

/// Runs scenes/room_exit.json (200 persons, a 1 m door) with model.local
/// @p local on 2 CPU threads until 140 are out or t = 300 s; returns the
/// persons per second (per metre of door) between the 20th and the 140th
/// exit, or -1 when fewer than 140 left. [Units: persons/(m s)]
inline double roomExitDoorFlow(const std::string& local) {
    Scene scene = loadScene(std::string(CCROWD_SOURCE_DIR) + "/scenes/room_exit.json");
    scene.params.local = local;
    Simulation sim(scene, Exec{Backend::Cpu, 2});
    while (sim.exitedTotal() < 140 && sim.time() < 300.0) sim.step();
    if (sim.exitedTotal() < 140) return -1.0;
    std::vector<double> t;
    for (const ExitRecord& e : sim.exits()) t.push_back(e.time);
    std::sort(t.begin(), t.end());
    return 120.0 / (t[139] - t[19]);
}

/// Expects roomExitDoorFlow(@p local) within the 1.0-2.0 persons/(m s)
/// that people reach through a 1 m door, and prints it.
inline void expectPedestrianDoorFlow(const std::string& local) {
    const double flow = roomExitDoorFlow(local);
    ASSERT_GT(flow, 0.0) << local << ": 70% not out by t = 300 s";
    std::printf("[ measured ] %s, 1 m door: %.2f persons/(m s)\n", local.c_str(), flow);
    EXPECT_GE(flow, 1.0) << local;
    EXPECT_LE(flow, 2.0) << local;
}

}  // namespace ccrowd::test
