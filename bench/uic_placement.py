#!/usr/bin/env python3
"""How much a room's evacuation depends on where it lies on the grid, with
the UIC grid fixed and moving (model.pressure_grid_shift): validate's
turned room (10 m x 10 m, 0.3 m walls, a 1 m door, 200 persons) turned by
--angles and moved by --moves [m] along x, on cells of --cell [m], each with
--seeds; and, with --halve SCENE_0.25 SCENE_0.125, two scene files (the same
room on two cell sizes) run with every seed. Prints per place the mean
evacuation time and the door flow (persons 20 to 180 over their exit
times), and the spread of the means. Runs `ccrowd run` (no Python module).

    python3 bench/uic_placement.py --ccrowd build/release/ccrowd --moves 0,0.25,0.5,0.75 --angles 0,15,30,45
    python3 bench/uic_placement.py --ccrowd build/release/ccrowd --cell 0.125 --moves 0,0.125,0.25,0.375
    python3 bench/uic_placement.py --ccrowd build/release/ccrowd --angles '' --moves '' \\
        --halve report/scenes/four_door_room_h0.250.json report/scenes/four_door_room_h0.125.json --seeds 1,2,3
"""
import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor


def box(turn, x0, y0, x1, y1):
    """A rectangle's corners through turn()."""
    return [turn(x0, y0), turn(x1, y0), turn(x1, y1), turn(x0, y1)]


def room(degrees: float, dx: float, cell: float, seed: int) -> dict:
    """validate's turned room (src/validate/grid_invariance.cpp) moved by dx along x."""
    a = math.radians(degrees)
    c, s = math.cos(a), math.sin(a)

    def turn(x, y):
        return [10 + dx + (x - 10) * c - (y - 10) * s, 10 + (x - 10) * s + (y - 10) * c]

    return {"format": "ccrowd-scene", "version": 1, "name": "turned_room",
            "domain": {"width": 20, "height": 20, "cell": cell},
            "obstacles": [box(turn, 4.7, 4.7, 15.3, 5), box(turn, 4.7, 15, 15.3, 15.3), box(turn, 4.7, 5, 5, 15),
                          box(turn, 15, 5, 15.3, 9.5), box(turn, 15, 10.5, 15.3, 15)],
            "goals": [{"name": "out", "areas": [box(turn, 17.5, 8, 19, 12)]}],
            "groups": [{"name": "occupants", "spawn": [box(turn, 5.5, 5.5, 14.5, 14.5)], "count": 200, "route": ["out"]}],
            "model": {"seed": seed, "duration": 400}}


def run(exe: str, scene: dict, work: str) -> tuple:
    """(evacuation time [s], door flow [persons/s]) of one run."""
    d = tempfile.mkdtemp(dir=work)
    path = os.path.join(d, "scene.json")
    with open(path, "w") as f:
        json.dump(scene, f)
    subprocess.run([exe, "run", path, "--threads", "1", "--quiet", "--out", os.path.join(d, "out")], check=True,
                   stdout=subprocess.DEVNULL)
    with open(os.path.join(d, "out", "exits.csv")) as f:
        times = sorted(float(line.split(",")[2]) for line in f.read().splitlines()[1:] if line)
    with open(os.path.join(d, "out", "summary.json")) as f:
        total = json.load(f)["evacuation_time_s"]
    flow = 160.0 / (times[179] - times[19]) if len(times) >= 180 else float("nan")
    return total, flow


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ccrowd", default="build/release/ccrowd", help="the ccrowd executable")
    p.add_argument("--angles", default="0", help="comma-separated turns [degrees] of the room ('' for none)")
    p.add_argument("--moves", default="0,0.25,0.5,0.75", help="comma-separated shifts [m] of the unturned room ('' for none)")
    p.add_argument("--cell", type=float, default=0.25, help="cell size [m]")
    p.add_argument("--seeds", default="1,2,3,4,5,6,7,8", help="comma-separated seeds")
    p.add_argument("--halve", nargs=2, metavar=("SCENE_COARSE", "SCENE_FINE"), help="two scene files to compare")
    p.add_argument("--grid", default="fixed,moving", help="fixed, moving or both")
    p.add_argument("--jobs", type=int, default=2, help="runs at once")
    a = p.parse_args()
    numbers = lambda s: [float(x) for x in s.split(",") if x != ""]
    seeds = [int(x) for x in a.seeds.split(",")]
    if not os.access(a.ccrowd, os.X_OK):
        print(f"--ccrowd {a.ccrowd}: not an executable", file=sys.stderr)
        return 2
    angles = numbers(a.angles)
    places = [(deg, 0.0) for deg in angles] + [(0.0, dx) for dx in numbers(a.moves) if dx != 0.0 or 0.0 not in angles]
    with tempfile.TemporaryDirectory() as work, ThreadPoolExecutor(a.jobs) as pool:
        for grid in a.grid.split(","):
            shift = {"fixed": False, "moving": True}[grid]
            means = []
            for deg, dx in places:
                scenes = []
                for seed in seeds:
                    s = room(deg, dx, a.cell, seed)
                    s["model"]["pressure_grid_shift"] = shift
                    scenes.append(s)
                r = list(pool.map(lambda s: run(a.ccrowd, s, work), scenes))
                t = statistics.mean(x[0] for x in r)
                means.append(t)
                print(f"{grid:6s} turned {deg:4.0f} deg, moved {dx:5.3f} m, cells {a.cell:g} m: evacuation {t:7.2f} s "
                      f"(sd {statistics.stdev(x[0] for x in r) if len(r) > 1 else 0:.2f}), "
                      f"door flow {statistics.mean(x[1] for x in r):.3f} persons/s", flush=True)
            if len(means) > 1:
                print(f"{grid:6s} spread of the means: {100 * (max(means) / min(means) - 1):.1f}%", flush=True)
            if a.halve:
                pair = []
                for path in a.halve:
                    with open(path) as f:
                        base = json.load(f)
                    scenes = []
                    for seed in seeds:
                        s = json.loads(json.dumps(base))
                        s.setdefault("model", {}).update({"seed": seed, "pressure_grid_shift": shift})
                        scenes.append(s)
                    pair.append([x[0] for x in pool.map(lambda s: run(a.ccrowd, s, work), scenes)])
                change = [100 * (f / c - 1) for c, f in zip(*pair)]
                print(f"{grid:6s} {os.path.basename(a.halve[0])} {statistics.mean(pair[0]):.2f} s, "
                      f"{os.path.basename(a.halve[1])} {statistics.mean(pair[1]):.2f} s: "
                      f"{100 * (statistics.mean(pair[1]) / statistics.mean(pair[0]) - 1):+.1f}% "
                      f"(per seed {', '.join(f'{c:+.1f}' for c in change)}%)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
