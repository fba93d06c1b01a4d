#!/usr/bin/env python3
"""What stepping from Python costs over the CLI: the same scene and run
length through `ccrowd run` and through ccrowd.Simulation.step() in a
Python loop (one step per call, the slowest way), interleaved, medians of
repeated runs. Wall times are the runs' own stepping clocks (summary.json's
wall_s), so process start and scene loading count on neither side.

On a shared machine those medians move by several percent from run to run
either way, so the script also measures what a Python call adds to a step
directly: on a tiny scene (where a step is short), N steps called one by
one from Python against one call of step(N), which loops in C++ as the CLI
does; the difference per step, divided by the scene's step time, is the
overhead.

    PYTHONPATH=build/rel/python python3 bench/python_overhead.py --cli build/rel/ccrowd \\
        [--scene scenes/default.json] [--duration 20] [--threads 2] [--repeat 5]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import ccrowd


def cli_wall(cli, scene, duration, threads):
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([cli, "run", scene, "--duration", str(duration), "--threads", str(threads), "--backend", "cpu",
                        "--quiet", "--out", d, "--force"], check=True, capture_output=True)
        with open(os.path.join(d, "summary.json")) as f:
            s = json.load(f)
    return s["wall_s"], s["steps"]


def python_wall(scene, duration, threads):
    with tempfile.TemporaryDirectory() as d:
        sim = ccrowd.Simulation(scene, "cpu", threads, out=d, force=True, duration=duration)
        while not sim.finished:
            sim.step()
        s = sim.finish()
    return s["wall_s"], s["steps"]


def call_overhead(steps=2000, repeat=5):
    """Seconds a Python step() call adds to a step: single calls against one C++ loop, interleaved, medians."""
    scene = ccrowd.load_scene({"format": "ccrowd-scene", "version": 1,
                               "domain": {"origin": [0, 0], "width": 8, "height": 8, "cell": 0.5},
                               "goals": [{"name": "out", "exit": False, "areas": [{"rect": {"min": [7, 0], "max": [8, 8]}}]}],
                               "groups": [{"name": "g", "spawn": [{"rect": {"min": [1, 1], "max": [3, 3]}}], "count": 4,
                                           "route": ["out"]}],
                               "model": {"duration": 1e6}})
    single, batch = [], []
    for _ in range(repeat):
        sim = ccrowd.Simulation(scene, "cpu", 1)
        t0 = time.perf_counter()
        for _ in range(steps):
            sim.step()
        single.append(time.perf_counter() - t0)
        sim = ccrowd.Simulation(scene, "cpu", 1)
        t0 = time.perf_counter()
        sim.step(steps)
        batch.append(time.perf_counter() - t0)
    return (statistics.median(single) - statistics.median(batch)) / steps, statistics.median(batch) / steps


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cli", required=True)
    p.add_argument("--scene", default=ccrowd.default_scene_path())
    p.add_argument("--duration", type=float, default=20.0)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--repeat", type=int, default=5)
    a = p.parse_args()
    cli, py = [], []
    for k in range(a.repeat):
        # interleaved: the machine's load falls on both alike
        for side in ((0, 1) if k % 2 == 0 else (1, 0)):
            if side == 0:
                wall, steps = cli_wall(a.cli, a.scene, a.duration, a.threads)
                cli.append(wall)
            else:
                wall, steps = python_wall(a.scene, a.duration, a.threads)
                py.append(wall)
    mc, mp = statistics.median(cli), statistics.median(py)
    print(f"scene {a.scene}, {steps} steps, threads {a.threads or os.cpu_count()}, {a.repeat} runs each")
    print(f"cli    median {mc:.3f} s  runs {' '.join(f'{x:.3f}' for x in cli)}")
    print(f"python median {mp:.3f} s  runs {' '.join(f'{x:.3f}' for x in py)}")
    print(f"python / cli = {mp / mc:.4f} ({100 * (mp / mc - 1):+.2f}%)")
    per_call, tiny_step = call_overhead()
    print(f"a Python step() call adds {1e6 * per_call:.2f} us to a step (tiny scene: {1e6 * tiny_step:.1f} us per step in C++); "
          f"on this scene's {1e3 * mc / steps:.2f} ms steps that is {100 * per_call / (mc / steps):.4f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
