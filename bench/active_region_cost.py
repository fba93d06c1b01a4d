#!/usr/bin/env python3
"""What the active region (seed 002's active grid) costs and saves: a
scene's steps timed one by one from Python, the steps in which the region
moved (its cells closed and opened, its goals moved, that step's fields
computed afresh on its cells) against the steps in which it stayed, and the
whole run's steps per second.

    PYTHONPATH=build/rel/python python3 bench/active_region_cost.py scenes/city_active_region.json --threads 2
"""
import argparse
import statistics
import time

import ccrowd


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scene")
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--duration", type=float, default=None, help="simulated seconds (default: the scene's)")
    a = p.parse_args()
    sim = ccrowd.Simulation(a.scene, "cpu", a.threads, **({"duration": a.duration} if a.duration else {}))
    steps, start = [], time.perf_counter()  # (time, ms, moved)
    while not sim.finished:
        before = sim.active_region
        t0 = time.perf_counter()
        sim.step(1)
        steps.append((sim.time, 1e3 * (time.perf_counter() - t0), sim.active_region != before))
    wall = time.perf_counter() - start
    print(f"scene {a.scene}: {len(steps)} steps of {sim.dt:g} s in {wall:.1f} s wall: {len(steps) / wall:.1f} steps/s, threads {a.threads}")
    moved = [ms for _, ms, m in steps if m]
    if not moved:
        print("the region never moved")
        return 0
    # against the steps where it stayed while it was on the move (the same crowd and fields)
    last = max(t for t, _, m in steps if m)
    still = [ms for t, ms, m in steps if not m and t <= last]
    ratio = statistics.median(moved) / statistics.median(still) if still else float("nan")
    print(f"until its last move at {last:.2f} s: {len(still)} steps where it stayed, median {statistics.median(still):.2f} ms; "
          f"{len(moved)} where it moved, median {statistics.median(moved):.2f} ms ({ratio:.2f}x), max {max(moved):.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
