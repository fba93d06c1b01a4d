#!/usr/bin/env python3
"""What an event that changes the environment costs: a scene's steps timed
one by one from Python, the steps where its events apply against the median
step (target: at most one extra step's time, i.e. an event step at most
2x the median). --close-gate adds a barrier over a rectangle and an event
closing it at a time, to measure scenes that have no events of their own.
Motions (move, move_discomfort, grow_discomfort) change the environment in
every step while they go on: those steps are reported together, their
median against the median of the steps where nothing moves.

    PYTHONPATH=build/rel/python python3 bench/event_cost.py scenes/fire_door_close.json --duration 60 --threads 2
    PYTHONPATH=build/rel/python python3 bench/event_cost.py scenes/default.json --duration 3 \\
        --close-gate 96,3,104,4,1.0 --threads 2
    PYTHONPATH=build/rel/python python3 bench/event_cost.py scenes/vehicle_crossing.json --duration 40 --threads 2
"""
import argparse
import statistics
import sys
import time

import ccrowd


def centre(area: dict) -> tuple:
    """Centre of a polygon's or rectangle's bounding box."""
    pts = [area["rect"]["min"], area["rect"]["max"]] if "rect" in area else area["polygon"] if "polygon" in area else area
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def motion_windows(data: dict) -> list:
    """(start, end) [s] of each motion event, from the targets' places in the file."""
    places = {b["name"]: b["area"] for b in data.get("barriers", [])}
    places.update({d["name"]: d["area"] for d in data.get("discomfort", []) if "name" in d})
    out = []
    for e in data.get("events", []):
        if e["action"] == "grow_discomfort":
            out.append((e["time"], e["time"] + e.get("distance", float("inf")) / e["speed"]))
        elif e["action"] in ("move", "move_discomfort"):
            p, length = centre(places[e["target"]]), 0.0
            for q in e["path"]:
                length += ((q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2) ** 0.5
                p = q
            out.append((e["time"], e["time"] + length / e["speed"]))
    return out


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
    windows = motion_windows(scene.data)
    sim = ccrowd.Simulation(scene, "cpu", a.threads, duration=a.duration)
    walls, at = [], []
    while not sim.finished:
        t = sim.time
        t0 = time.perf_counter()
        sim.step()
        walls.append(time.perf_counter() - t0)
        # the step that starts at or after an event's time applies it
        at.append(any(t - sim.dt + 1e-9 < e <= t + 1e-9 for e in times))
    moving = [any(t0 < k * sim.dt <= t1 for t0, t1 in windows) for k in range(len(walls))]
    still = [w for w, m, e in zip(walls, moving, at) if not m and not e]
    median = statistics.median(still or walls)
    print(f"{a.scene}: {len(walls)} steps, grid {sim.grid.nx} x {sim.grid.ny}, median step {1e3 * median:.2f} ms "
          f"(of the {len(still)} steps without events or motions)")
    during = [w for w, m in zip(walls, moving) if m]
    if during:
        print(f"  {len(during)} steps while something moves: median {1e3 * statistics.median(during):.2f} ms = "
              f"{statistics.median(during) / median:.2f} x, max {max(during) / median:.2f} x the median")
    for k, (w, e) in enumerate(zip(walls, at)):
        if e:
            print(f"  event step {k} (t = {k * sim.dt:.2f} s): {1e3 * w:.2f} ms = {w / median:.2f} x the median "
                  f"(extra {w / median - 1:.2f} steps)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
