#!/usr/bin/env python3
"""What an event that changes the environment costs: a scene's steps timed
one by one from Python, the steps where its events apply against the median
step (target: at most one extra step's time, i.e. an event step at most
2x the median). --close-gate adds a barrier over a rectangle and an event
closing it at a time, to measure scenes that have no events of their own.

    PYTHONPATH=build/rel/python python3 bench/event_cost.py scenes/fire_door_close.json --duration 60 --threads 2
    PYTHONPATH=build/rel/python python3 bench/event_cost.py scenes/default.json --duration 3 \\
        --close-gate 96,3,104,4,1.0 --threads 2
"""
import argparse
import statistics
import sys
import time

import ccrowd


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scene")
    p.add_argument("--duration", type=float, default=60)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--close-gate", help="x0,y0,x1,y1,t: a barrier over that rectangle [m], closed at t [s]")
    a = p.parse_args()
    scene = ccrowd.load_scene(a.scene)
    if a.close_gate:
        x0, y0, x1, y1, t = (float(v) for v in a.close_gate.split(","))
        scene.data.setdefault("barriers", []).append({"name": "bench_gate", "area": {"rect": {"min": [x0, y0], "max": [x1, y1]}}})
        scene.data.setdefault("events", []).append({"time": t, "action": "close", "target": "bench_gate"})
        scene.check()
    times = sorted({e["time"] for e in scene.data.get("events", [])})
    sim = ccrowd.Simulation(scene, "cpu", a.threads, duration=a.duration)
    walls, at = [], []
    while not sim.finished:
        t = sim.time
        t0 = time.perf_counter()
        sim.step()
        walls.append(time.perf_counter() - t0)
        # the step that starts at or after an event's time applies it
        at.append(any(t - sim.dt + 1e-9 < e <= t + 1e-9 for e in times))
    median = statistics.median(walls)
    print(f"{a.scene}: {len(walls)} steps, grid {sim.grid.nx} x {sim.grid.ny}, median step {1e3 * median:.2f} ms")
    for k, (w, e) in enumerate(zip(walls, at)):
        if e:
            print(f"  event step {k} (t = {k * sim.dt:.2f} s): {1e3 * w:.2f} ms = {w / median:.2f} x the median "
                  f"(extra {w / median - 1:.2f} steps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
