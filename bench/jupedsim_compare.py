#!/usr/bin/env python3
"""ccrowd against JuPedSim on the same scenes (issue 14, Deliver 3).

Runs each scene in JuPedSim's collision-free speed model (Tordeux et al.
2016; PyPI `jupedsim`) and in ccrowd under every operational model
(`model.local`), and prints side by side: persons out, evacuation time, the
door flow (exits per second between 10% and 70% out, or over the run when
fewer left) and the wall time per simulated second. Two kinds of scene:

* `square:N`: a square room at 2 persons/m^2 (N persons, side sqrt(N/2) m)
  emptying through a 4 m exit in its east wall into a 3 m strip, the
  scaling case of the issue (1k, 10k, 50k persons);
* a bundled scene (`room_exit`, `bottleneck`, `corridor`, ... in scenes/):
  its walkable area, obstacles, first goal and groups are translated into
  JuPedSim's geometry, exit stage and agents (shapely for the polygons).

Both start from the same density, not the same positions (each places its
own agents: ccrowd its spawn rules, JuPedSim `distribute_by_number` with
0.4 m between agents and 0.2 m from walls). Each runs at its own default
step (JuPedSim 0.01 s, ccrowd the scene's dt, 0.05 s), so the wall time per
simulated second is what a user waits. ccrowd's wall time is its own
`summary.json` `wall_s` (the stepping loop, without loading the scene);
JuPedSim's is the `iterate()` loop alone.

Usage (the product needs no Python; this is an optional benchmark):

    pip install jupedsim shapely
    OMP_WAIT_POLICY=passive python3 bench/jupedsim_compare.py \\
        --ccrowd build/release/ccrowd --threads 2 \\
        --scenes square:1000,square:10000,square:50000,room_exit,bottleneck,corridor \\
        --seconds 10 --csv bench/results/jupedsim_compare.csv

`--seconds` caps the simulated time of every run (0: until everyone is
out or the scene's duration). JuPedSim runs on one core (it has no
threading); ccrowd on `--threads`.
"""

import argparse
import csv
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

try:
    import jupedsim as jps
    import shapely
    from shapely.geometry import Polygon, box
    from shapely.ops import unary_union
except ImportError as e:  # pragma: no cover - a clear message instead of a trace
    sys.exit(f"jupedsim_compare.py needs the Python packages jupedsim and shapely ({e}); pip install jupedsim shapely")

DENSITY = 2.0       # persons/m^2 in the square room
EXIT_WIDTH = 4.0    # m
WALL = 0.3          # m
STRIP = 3.0         # m of corridor behind the exit
MODELS = ["uic", "social_force", "orca", "zones"]


# ---- scenes ----------------------------------------------------------------

def square_scene(n):
    """ccrowd scene (dict) of the square room for n persons."""
    side = math.sqrt(n / DENSITY)
    lo, hi = side / 2 - EXIT_WIDTH / 2, side / 2 + EXIT_WIDTH / 2
    width = side + WALL + STRIP
    return {
        "format": "ccrowd-scene", "version": 1, "name": f"square_{n}",
        "domain": {"width": width, "height": side, "cell": 0.25},
        "obstacles": [{"rect": {"min": [side, 0], "max": [side + WALL, lo]}},
                      {"rect": {"min": [side, hi], "max": [side + WALL, side]}}],
        "goals": [{"name": "out", "areas": [{"rect": {"min": [width - 1, 0], "max": [width, side]}}]}],
        "groups": [{"name": "occupants", "spawn": [{"rect": {"min": [0.3, 0.3], "max": [side - 0.3, side - 0.3]}}],
                    "count": n, "radius": 0.2, "route": ["out"]}],
        "model": {"seed": 1, "duration": 100000},
    }


def polygon_of(shape):
    """shapely Polygon of a scene shape: {"rect": ...} or [[x, y], ...]."""
    if isinstance(shape, dict):
        r = shape["rect"]
        return box(r["min"][0], r["min"][1], r["max"][0], r["max"][1])
    return Polygon(shape)


def jupedsim_setup(scene):
    """(walkable area, exit polygon, [(x, y, desired speed)]) of a ccrowd scene (dict)."""
    d = scene["domain"]
    ox, oy = d.get("origin", [0, 0])
    domain = box(ox, oy, ox + d["width"], oy + d["height"])
    area = unary_union([polygon_of(s) for s in scene["walkable"]]) if scene.get("walkable") else domain
    area = area.intersection(domain)
    if scene.get("obstacles"):
        area = area.difference(unary_union([polygon_of(s) for s in scene["obstacles"]]))
    if area.geom_type == "MultiPolygon":  # keep the largest piece: JuPedSim wants one connected area
        area = max(area.geoms, key=lambda p: p.area)
    # the last goal of the first group's route: its areas, within the walkable area
    goal_name = scene["groups"][0]["route"][-1]
    goal = next(g for g in scene["goals"] if g["name"] == goal_name)
    exit_poly = unary_union([polygon_of(s) for s in goal["areas"]]).intersection(area)
    rng = random.Random(scene.get("model", {}).get("seed", 1))
    agents = []
    for k, g in enumerate(scene["groups"]):
        spawn = unary_union([polygon_of(s) for s in g["spawn"]]).intersection(area)
        if spawn.geom_type == "MultiPolygon":
            spawn = max(spawn.geoms, key=lambda p: p.area)
        count = g.get("count")
        if count is None:
            count = int(round(g["density"] * spawn.area))
        speed = g.get("speed", {"mean": 1.34, "sd": 0.26, "min": 0.5, "max": 2.0})
        positions = jps.distribute_by_number(polygon=spawn, number_of_agents=count, distance_to_agents=0.4,
                                             distance_to_polygon=0.2, seed=k + 1)
        for p in positions:
            v = speed if isinstance(speed, (int, float)) else min(max(rng.gauss(speed["mean"], speed["sd"]),
                                                                    speed["min"]), speed["max"])
            agents.append((p[0], p[1], v))
    return area, exit_poly, agents


# ---- runs ------------------------------------------------------------------

def flow_of(exit_times, n):
    """Exits per second between the 10% and 70% exits, or between the first and last exit when fewer left."""
    t = sorted(exit_times)
    first, last = max(1, round(0.1 * n)), round(0.7 * n)
    if len(t) >= last and last > first:
        return (last - first) / max(t[last - 1] - t[first - 1], 1e-9)
    if len(t) >= 2:
        return (len(t) - 1) / max(t[-1] - t[0], 1e-9)
    return 0.0


def run_jupedsim(scene, seconds):
    area, exit_poly, agents = jupedsim_setup(scene)
    sim = jps.Simulation(model=jps.CollisionFreeSpeedModel(), geometry=area)
    exit_id = sim.add_exit_stage(exit_poly)
    journey = sim.add_journey(jps.JourneyDescription([exit_id]))
    for x, y, v in agents:
        sim.add_agent(jps.CollisionFreeSpeedModelAgentParameters(position=(x, y), desired_speed=v, radius=0.2,
                                                                 journey_id=journey, stage_id=exit_id))
    n = len(agents)
    limit = seconds if seconds > 0 else scene.get("model", {}).get("duration", 300.0)
    exits, inside = [], n
    wall = 0.0
    while inside > 0 and sim.elapsed_time() < limit - 1e-9:
        start = time.perf_counter()
        sim.iterate()
        wall += time.perf_counter() - start
        now = sim.agent_count()
        exits += [sim.elapsed_time()] * (inside - now)
        inside = now
    sim_time = sim.elapsed_time()
    return {"persons": n, "out": n - inside, "evacuation_s": sim_time if inside == 0 else None,
            "flow": flow_of(exits, n), "sim_s": sim_time, "wall_s": wall}


def run_ccrowd(ccrowd, scene, model, seconds, threads):
    s = json.loads(json.dumps(scene))
    s.setdefault("model", {})["local"] = model
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scene.json")
        with open(path, "w") as f:
            json.dump(s, f)
        out = os.path.join(tmp, "out")
        cmd = [ccrowd, "run", path, "--backend", "cpu", "--threads", str(threads), "--quiet", "--out", out]
        if seconds > 0:
            cmd += ["--duration", str(seconds)]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        with open(os.path.join(out, "exits.csv")) as f:
            exits = [float(r["exit_time_s"]) for r in csv.DictReader(f)]
    n = summary["agents"]["spawned"]
    out_count = summary["agents"]["exited"]
    return {"persons": n, "out": out_count,
            "evacuation_s": summary["time_s"] if summary["agents"]["remaining"] == 0 else None,
            "flow": flow_of(exits, n), "sim_s": summary["time_s"], "wall_s": summary["wall_s"]}


def load_scene(name, scene_dir):
    if name.startswith("square:"):
        return square_scene(int(name.split(":", 1)[1]))
    with open(os.path.join(scene_dir, name + ".json")) as f:
        return json.load(f)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ccrowd", default=os.path.join(here, "..", "build", "release", "ccrowd"), help="the ccrowd binary")
    ap.add_argument("--scenes", default="square:1000,square:10000,room_exit,bottleneck,corridor",
                    help="comma-separated: square:N or a bundled scene's name")
    ap.add_argument("--models", default=",".join(MODELS), help="ccrowd operational models, comma-separated")
    ap.add_argument("--seconds", type=float, default=10.0, help="simulated seconds per run at most (0: to the end)")
    ap.add_argument("--threads", type=int, default=2, help="ccrowd's CPU threads")
    ap.add_argument("--no-jupedsim", action="store_true", help="ccrowd only")
    ap.add_argument("--csv", help="also write the rows to this CSV file")
    a = ap.parse_args()
    if not os.path.isfile(a.ccrowd):
        sys.exit(f"--ccrowd {a.ccrowd}: no such file (build ccrowd first, or name the binary)")
    if a.seconds < 0 or not math.isfinite(a.seconds):
        sys.exit(f"--seconds {a.seconds}: allowed a finite number >= 0")
    models = [m for m in a.models.split(",") if m]
    for m in models:
        if m not in MODELS:
            sys.exit(f"--models: unknown model '{m}' (allowed: {', '.join(MODELS)})")
    scene_dir = os.path.join(here, "..", "scenes")
    rows = []
    print(f"{'scene':>14} {'simulator':>22} {'persons':>8} {'out':>7} {'evac s':>8} {'flow /s':>8} "
          f"{'sim s':>7} {'wall s':>8} {'wall/sim s':>10} {'vs jupedsim':>11}", flush=True)
    for name in [s for s in a.scenes.split(",") if s]:
        scene = load_scene(name, scene_dir)
        results = []
        if not a.no_jupedsim:
            results.append(("jupedsim CSM (1 core)", run_jupedsim(scene, a.seconds)))
        for m in models:
            results.append((f"ccrowd {m} ({a.threads} thr)", run_ccrowd(a.ccrowd, scene, m, a.seconds, a.threads)))
        ref = results[0][1]["wall_s"] / max(results[0][1]["sim_s"], 1e-9) if not a.no_jupedsim else None
        for who, r in results:
            per = r["wall_s"] / max(r["sim_s"], 1e-9)
            ratio = ref / per if ref and per > 0 else None
            evac = f"{r['evacuation_s']:.1f}" if r["evacuation_s"] is not None else "-"
            print(f"{name:>14} {who:>22} {r['persons']:>8} {r['out']:>7} {evac:>8} {r['flow']:>8.2f} {r['sim_s']:>7.1f} "
                  f"{r['wall_s']:>8.2f} {per:>10.3f} {(f'{ratio:.1f}x' if ratio else '-'):>11}", flush=True)
            rows.append({"scene": name, "simulator": who, "persons": r["persons"], "out": r["out"],
                         "evacuation_s": r["evacuation_s"], "flow_per_s": round(r["flow"], 4),
                         "sim_s": round(r["sim_s"], 3), "wall_s": round(r["wall_s"], 4),
                         "wall_per_sim_s": round(per, 5), "speedup_vs_jupedsim": round(ratio, 2) if ratio else None})
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
