#!/usr/bin/env python3
"""Door width against evacuation time on the room-exit scene (200 persons,
a 10 m x 10 m room): widths 0.8 to 2.4 m, 5 seeds each, as one Dask study.
Prints the table (median, min and max over the seeds) and plots the
evacuation time against the width with its spread.

    PYTHONPATH=build/rel/python python3 python/examples/door_width_study.py [--out door_study] [--workers 2]

The door is the gap between the scene's two wall rectangles at x = 10 m,
centred at y = 5 m; the measurement line 'door' spans it. Each width sets
the four coordinates together (a key "a, b, c, d" of the study's vary).
"""
import argparse
import json
import os
import sys

from ccrowd import study

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def door(width: float) -> list:
    """The keys' values for a door of this width [m], centred at y = 5 m."""
    lo, hi = round(5 - width / 2, 4), round(5 + width / 2, 4)
    return [[10.5, lo], [10, hi], [10.5, lo], [10.5, hi]]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default="door_study")
    p.add_argument("--workers", type=int, default=None)
    p.add_argument("--seeds", type=int, default=5)
    a = p.parse_args()
    widths = [round(0.8 + 0.2 * k, 1) for k in range(9)]
    spec = {
        "scene": os.path.join(ROOT, "scenes", "room_exit.json"),
        "vary": {
            "obstacles.0.rect.max, obstacles.1.rect.min, measurement.lines.door.from, measurement.lines.door.to":
                [door(w) for w in widths],
            "model.seed": list(range(1, a.seeds + 1)),
        },
        "threads": 1,
        "out": os.path.abspath(a.out),
    }
    df = study.run(spec, workers=a.workers, progress=True)
    failed = df[df["status"] != "ok"]
    if len(failed):
        print(failed[["run", "error"]].to_string(index=False), file=sys.stderr)
    # the width back from the door's lower edge (the first key's y)
    door_key = next(iter(spec["vary"]))
    df["door_width_m"] = [round(2 * (5 - json.loads(cell)[0][1]), 2) for cell in df[door_key]]
    ok = df[df["status"] == "ok"]
    table = ok.groupby("door_width_m")["evacuation_time_s"].agg(["median", "min", "max", "count"])
    table["flow_per_s"] = 200 / table["median"]
    print(table.to_string(float_format=lambda x: f"{x:.2f}"))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot (pip install matplotlib)", file=sys.stderr)
        return 0
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.fill_between(table.index, table["min"], table["max"], alpha=0.3, label=f"min - max of {a.seeds} seeds")
    ax.plot(table.index, table["median"], "o-", label="median")
    ax.set_xlabel("door width [m]")
    ax.set_ylabel("evacuation time [s]")
    ax.set_title("room_exit: 200 persons through one door")
    ax.grid(alpha=0.3)
    ax.legend()
    path = os.path.join(spec["out"], "evacuation_vs_width.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
