#!/usr/bin/env python3
"""Writes scenes/city_district.json and scenes/city_active_region.json: a synthetic city district for seed 002's
emergency (issue 13, Deliver 4). Irregular blocks between streets of 5-9 m
and two 14 m boulevards, each block split into lots with narrow gaps
(several hundred building footprints), 48 building entrances in four
quarters, 20,000 pedestrians walking normally to entrances of the four
quarters (more come out of the other entrances), and at 30 s an explosion
near the centre: within 60 m a quarter of the walkers hide in entrances
and the others escape to the district's border, 30 responders approach it
from the west; and the same district seen through seed 002's active grid
(build_active). Deterministic (random.Random(2026)); no dependencies.

    python3 scenes/make_city_district.py            # writes both scenes
    python3 scenes/make_city_district.py --check    # exits 1 when a file differs from what it would write
"""
import argparse
import json
import os
import random
import sys

from scene_files import write_or_check

WIDTH, HEIGHT, CELL = 300.0, 240.0, 0.5
BORDER = 6.0  # open strip inside the domain's edges (the escape goal is its outer cell)


def cuts(rng: random.Random, length: float, boulevard: float) -> list:
    """(start, end) of the blocks along one axis: blocks of 22-38 m between
    streets of 5-9 m, a 14 m boulevard at about @p boulevard."""
    blocks, x = [], BORDER
    while True:
        w = rng.uniform(22, 38)
        if x + w > length - BORDER:
            break
        blocks.append((round(x, 2), round(x + w, 2)))
        street = 14.0 if abs(x + w - boulevard) < 20 and not any(abs(b[1] - boulevard) < 20 for b in blocks[:-1]) else rng.uniform(5, 9)
        x += w + street
    return blocks


def lots(rng: random.Random, x0: float, y0: float, x1: float, y1: float) -> list:
    """The block's buildings: a grid of 2-4 x 2-3 lots, gaps of 0-1.5 m (some lots empty: courtyards)."""
    nx, ny = rng.randint(3, 6), rng.randint(2, 4)
    xs = sorted(rng.uniform(x0 + 4, x1 - 4) for _ in range(nx - 1))
    ys = sorted(rng.uniform(y0 + 4, y1 - 4) for _ in range(ny - 1))
    xs, ys = [x0] + xs + [x1], [y0] + ys + [y1]
    out = []
    for i in range(nx):
        for j in range(ny):
            if nx * ny > 4 and rng.random() < 0.08:
                continue  # a courtyard
            gx, gy = rng.choice([0, 0, 1.0, 1.5]), rng.choice([0, 0, 1.0, 1.5])
            a = (xs[i] + (gx / 2 if i > 0 else 0), ys[j] + (gy / 2 if j > 0 else 0))
            b = (xs[i + 1] - (gx / 2 if i + 1 < nx else 0), ys[j + 1] - (gy / 2 if j + 1 < ny else 0))
            if b[0] - a[0] > 3 and b[1] - a[1] > 3:
                out.append((round(a[0], 2), round(a[1], 2), round(b[0], 2), round(b[1], 2)))
    return out


def rect(x0: float, y0: float, x1: float, y1: float) -> dict:
    return {"rect": {"min": [round(x0, 2), round(y0, 2)], "max": [round(x1, 2), round(y1, 2)]}}


def build() -> dict:
    rng = random.Random(2026)
    bx, by = cuts(rng, WIDTH, WIDTH / 2), cuts(rng, HEIGHT, HEIGHT / 2)
    buildings = [b for (x0, x1) in bx for (y0, y1) in by for b in lots(rng, x0, y0, x1, y1)]
    # entrances: 12 per quarter, on the outer face of an outer building of a block (1 m deep on the street side)
    quarters = {"nw": [], "ne": [], "sw": [], "se": []}
    blockOf = {b: next((x0, y0, x1, y1) for (x0, x1) in bx for (y0, y1) in by if x0 <= b[0] and b[2] <= x1 and y0 <= b[1] and b[3] <= y1)
               for b in buildings}
    order = list(buildings)
    rng.shuffle(order)
    for b in order:
        x0, y0, x1, y1 = blockOf[b]
        q = ("s" if (b[1] + b[3]) / 2 < HEIGHT / 2 else "n") + ("w" if (b[0] + b[2]) / 2 < WIDTH / 2 else "e")
        if len(quarters[q]) >= 12:
            continue
        mx, my = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        if b[1] == y0:
            quarters[q].append(rect(mx - 1, y0 - 1, mx + 1, y0))
        elif b[3] == y1:
            quarters[q].append(rect(mx - 1, y1, mx + 1, y1 + 1))
        elif b[0] == x0:
            quarters[q].append(rect(x0 - 1, my - 1, x0, my + 1))
        elif b[2] == x1:
            quarters[q].append(rect(x1, my - 1, x1 + 1, my + 1))
    goals = [{"name": f"entrances_{q}", "areas": a} for q, a in quarters.items()]
    goals.append({"name": "entrances", "areas": [a for q in quarters.values() for a in q]})
    # the streets (where people are at the start): the border strip and the gaps between blocks
    streets = [rect(1, 1, WIDTH - 1, BORDER), rect(1, HEIGHT - BORDER, WIDTH - 1, HEIGHT - 1),
               rect(1, BORDER, BORDER, HEIGHT - BORDER), rect(WIDTH - BORDER, BORDER, WIDTH - 1, HEIGHT - BORDER)]
    for k in range(len(bx) - 1):
        streets.append(rect(bx[k][1] + 0.5, BORDER, bx[k + 1][0] - 0.5, HEIGHT - BORDER))
    for k in range(len(by) - 1):
        streets.append(rect(BORDER, by[k][1] + 0.5, WIDTH - BORDER, by[k + 1][0] - 0.5))
    speed = {"mean": 1.34, "sd": 0.26, "min": 0.5, "max": 2}
    groups, sources = [], []
    for q in quarters:
        groups.append({"name": f"walkers_{q}", "spawn": streets, "count": 5000, "speed": speed, "radius": 0.2,
                       "route": [f"entrances_{q}"]})
        # people come out of the other quarters' entrances
        for other, areas in quarters.items():
            if other != q:
                for a in areas[:4]:
                    sources.append({"group": f"walkers_{q}", "region": a, "rate": 0.25})
    groups += [
        {"name": "escapers", "behaviour": "escape", "count": 0, "speed": {"mean": 1.8, "sd": 0.3, "min": 0.8, "max": 2.5},
         "radius": 0.2},
        {"name": "hiders", "behaviour": "hide", "count": 0, "speed": {"mean": 1.6, "sd": 0.3, "min": 0.8, "max": 2.5},
         "radius": 0.2, "route": ["entrances"]},
        {"name": "responders", "behaviour": "approach", "spawn": [rect(1, HEIGHT / 2 - 10, 5, HEIGHT / 2 + 10)], "count": 30,
         "speed": {"mean": 2.0, "sd": 0.2, "min": 1.5, "max": 2.5}, "radius": 0.25, "route": ["incident_zone"]},
    ]
    # the incident at the street crossing nearest the centre
    xs = [(bx[k][1] + bx[k + 1][0]) / 2 for k in range(len(bx) - 1)]
    ys = [(by[k][1] + by[k + 1][0]) / 2 for k in range(len(by) - 1)]
    cx = min(xs, key=lambda x: abs(x - WIDTH / 2))
    cy = min(ys, key=lambda y: abs(y - HEIGHT / 2))
    goals.append({"name": "incident_zone", "areas": [rect(cx - 2, cy - 2, cx + 2, cy + 2)], "exit": False})
    switch = []
    for q in quarters:
        switch.append({"from": f"walkers_{q}", "to": "hiders", "fraction": 0.25, "within": 60})
        switch.append({"from": f"walkers_{q}", "to": "escapers", "fraction": 1, "within": 60})
    return {
        "$schema": "./scene.schema.json",
        "format": "ccrowd-scene",
        "version": 1,
        "name": "city_district",
        "description": f"Written by scenes/make_city_district.py. A {WIDTH:.0f} m x {HEIGHT:.0f} m city district: "
                       f"{len(buildings)} building footprints in {len(bx) * len(by)} irregular blocks between streets of 5-9 m and two "
                       "14 m boulevards, 48 building entrances in four quarters. 20,000 pedestrians walk normally to the entrances of "
                       "the four quarters while more come out of the other entrances. At 30 s an explosion at the street crossing "
                       "nearest the centre (harm radius 6 m): within 60 m a quarter of the walkers hide in the entrances and the others "
                       "escape to the district's border; 30 responders approach it from the west (seed 002 \u00a74.3).",
        "domain": {"origin": [0, 0], "width": WIDTH, "height": HEIGHT, "cell": CELL},
        "obstacles": [rect(*b) for b in buildings],
        "goals": goals,
        "groups": groups,
        "sources": sources,
        "incidents": [{"name": "explosion", "position": [round(cx, 2), round(cy, 2)], "radius": 6, "start": 30, "weight": 4,
                       "switch": switch}],
        "model": {"seed": 11, "duration": 120},
    }


def clip(r: dict, x0: float, y0: float, x1: float, y1: float):
    """Rectangle @p r cut to [x0, x1] x [y0, y1] (None when less than 1 m remains across)."""
    (a, b), (c, d) = r["rect"]["min"], r["rect"]["max"]
    a, b, c, d = max(a, x0), max(b, y0), min(c, x1), min(d, y1)
    return rect(a, b, c, d) if c - a >= 1 and d - b >= 1 else None


def build_active(city: dict) -> dict:
    """The same district seen through seed 002's active grid (\u00a74.2.3-4.2.4): a 120 m x 90 m
    region whose focus flies in from the west along the incident's street and stops over it at 25 s;
    only its inside is simulated. Four walking groups cross it (entering at one side's navigable
    border cells, leaving at the opposite side) at 0.06 persons/m^2 each; at 30 s the explosion
    sends those within 60 m to hide or to the region's border; responders enter from its west side."""
    (cx, cy) = city["incidents"][0]["position"]
    W, H = 120.0, 90.0
    x0, y0 = cx - 30 - W / 2, cy - H / 2
    streets = [c for c in (clip(r, x0, y0, x0 + W, y0 + H) for r in city["groups"][0]["spawn"]) if c]
    speed = {"mean": 1.34, "sd": 0.26, "min": 0.5, "max": 2}
    heading = {"east": "west", "west": "east", "north": "south", "south": "north"}
    groups = [{"name": f"walkers_{to}", "spawn": streets, "density": 0.06, "speed": speed, "radius": 0.2,
               "route": [f"region_{to}"]} for to in heading]
    groups += [dict(g) for g in city["groups"][4:]]
    responders = groups[-1]
    responders.pop("spawn")
    responders["count"] = 0
    switch = []
    for to in heading:
        switch.append({"from": f"walkers_{to}", "to": "hiders", "fraction": 0.25, "within": 60})
        switch.append({"from": f"walkers_{to}", "to": "escapers", "fraction": 1, "within": 60})
    incident = dict(city["incidents"][0], switch=switch)
    spawn = [{"group": f"walkers_{to}", "density": 0.06, "sides": [side], "end": 30} for to, side in heading.items()]
    spawn.append({"group": "responders", "density": 0.005, "sides": ["west"], "rate": 2, "start": 35})
    return {
        "$schema": "./scene.schema.json",
        "format": "ccrowd-scene",
        "version": 1,
        "name": "city_active_region",
        "description": "Written by scenes/make_city_district.py. The city_district scene's streets and buildings seen through "
                       "seed 002's active grid: a 120 m x 90 m region whose focus walks in from the west along the incident's "
                       "street (30 m in 25 s) and stops over it; only its inside is simulated. Four walking groups cross it, entering "
                       "at one side's navigable border cells and leaving at the opposite side, 0.06 persons/m^2 each. At 30 s the "
                       "explosion (harm radius 6 m) sends those within 60 m to hide in entrances (a quarter) or to the region's "
                       "border; from 35 s responders enter at its west side and approach it.",
        "domain": city["domain"],
        "obstacles": city["obstacles"],
        "goals": [g for g in city["goals"] if g["name"] in ("entrances", "incident_zone")],
        "groups": groups,
        "incidents": [incident],
        "active_region": {"size": [W, H], "focus": [[0, round(cx - 30, 2), round(cy, 2)], [25, round(cx, 2), round(cy, 2)]],
                          "spawn": spawn},
        "model": {"seed": 11, "duration": 90},
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="exit 1 when a scene differs from what this writes")
    a = p.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    city = build()
    files = [("city_district.json", city), ("city_active_region.json", build_active(city))]
    return write_or_check(here, files, "make_city_district.py", a.check)

if __name__ == "__main__":
    sys.exit(main())
