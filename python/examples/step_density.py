#!/usr/bin/env python3
"""Steps a simulation from Python and reads its density field once per
simulated second, without copying it: the array returned once is a view of
the simulation's memory and shows each step's values.

    PYTHONPATH=build/rel/python python3 python/examples/step_density.py [scenes/room_exit.json] [--seconds 30]
"""
import argparse
import os
import sys

import numpy as np

import ccrowd

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scene", nargs="?", default=os.path.join(ROOT, "scenes", "room_exit.json"))
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--backend", default="cpu")
    a = p.parse_args()
    sim = ccrowd.Simulation(a.scene, a.backend, duration=a.seconds)
    grid = sim.grid
    density = sim.density  # (ny, nx) view [1/m^2]; on CUDA a DLPack array (cupy.from_dlpack)
    print(f"{sim}\n{'t [s]':>6} {'agents':>7} {'exited':>7} {'max density [1/m^2]':>20} {'cells above 4/m^2':>18}")
    next_report = 0.0
    while not sim.finished:
        if sim.time >= next_report - 1e-6:
            d = np.asarray(density)
            print(f"{sim.time:6.1f} {sim.agent_count:7d} {sim.exited_total:7d} {d.max():20.2f} {int((d > 4).sum()):18d}")
            next_report += 1.0
        sim.step()
    # the density of the last splat (before the last step's exits) integrates to its head count
    print(f"at t = {sim.time:.1f} s: {sim.agent_count} agents, density integral {density.sum() * grid.h ** 2:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
