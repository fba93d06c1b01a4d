#!/usr/bin/env python3
"""How well a parameter study fills its workers: N runs of a scene (seeds
1..N) on a LocalCluster of W one-thread workers, timed from the call of
ccrowd.study.run to its return (the cluster's start and stop, the Parquet
table and every run's outputs included), against the ideal: the sum of the
runs' own times (measured inside the tasks) divided by W.

    PYTHONPATH=build/rel/python python3 bench/study_scaling.py [--runs 40] [--workers 2] [--scene scenes/room_exit.json]
"""
import argparse
import os
import sys
import tempfile
import time

from ccrowd import study

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=40)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--scene", default=os.path.join(ROOT, "scenes", "room_exit.json"))
    p.add_argument("--duration", type=float, default=None, help="each run's simulated seconds (default: the scene's)")
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as out:
        spec = {"scene": os.path.abspath(a.scene), "vary": {"model.seed": list(range(1, a.runs + 1))}, "threads": 1, "out": out}
        if a.duration:
            spec["duration"] = a.duration
        t0 = time.perf_counter()
        df = study.run(spec, workers=a.workers)
        elapsed = time.perf_counter() - t0
    ok = int((df["status"] == "ok").sum())
    ideal = df["task_s"].sum() / a.workers
    print(f"{a.runs} runs of {os.path.basename(a.scene)} on {a.workers} workers: {ok} ok")
    print(f"runs' own times: sum {df['task_s'].sum():.2f} s, median {df['task_s'].median():.3f} s "
          f"(stepping alone: sum {df['wall_s'].sum():.2f} s)")
    print(f"study elapsed {elapsed:.2f} s; ideal (sum / workers) {ideal:.2f} s; ratio {elapsed / ideal:.3f}")
    return 0 if ok == a.runs else 1


if __name__ == "__main__":
    sys.exit(main())
