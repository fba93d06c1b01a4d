#!/usr/bin/env python3
"""Writes scenes/old_town.json, scenes/old_town_small.json and scenes/old_town_streets.csv: a synthetic old
town for seed 004's route choice by affordance (Nicosia et al.: the main shopping streets of an old town are its
widest and longest-visible streets). Junctions on a jittered lattice (pitch 30 m, +-6 m) joined by bending
ordinary streets of 3-5 m, about 8% of the ordinary links missing (dead ends, merged blocks) with the network kept
connected, a 5 m ring road along the domain's border, and wide straight shopping streets of 9.5-11.5 m whose
junctions lie exactly on one line: four in old_town (19 x 19 junctions, two horizontal and two vertical, 10,000
walkers) and two in old_town_small (8 x 8 junctions, one each way, 1,000 walkers). The buildings (the obstacles)
are each lattice cell's quadrilateral inset by half the widths of its four streets; a missing link is filled by
the quadrilateral between the two blocks' facing corners (the junctions at its ends stay open). The scenes list
the network (junction centres, kept roads) and give the walkers "route_choice": {"mode": "affordance"};
old_town_streets.csv lists per scene the road indices of each shopping street (west to east, south to north)
with their widths, for tests. Deterministic (random.Random(2026) per scene); no dependencies; the script
checks its own output (junction centres and road corridors open, polygons simple, the open space one 4-connected
region on the grid) and fails when a check fails.

    python3 scenes/make_old_town.py            # writes the three files
    python3 scenes/make_old_town.py --check    # exits 1 when a file differs from what it would write
"""
import argparse
import json
import os
import random
import sys
from collections import deque

from scene_files import write_or_check

CELL = 0.5
PITCH = 30.0
JITTER = 6.0  # +- m of the ordinary junctions, both axes
OFF = 4.5  # nominal distance of the outer lattice line (the ring road) from the domain's edge
RING_WIDTH = 5.0
RING_OFFSET = (3.0, 6.0)  # the ring road's junctions lie this far from the domain's edge (its corridor stays inside)
STREET_WIDTH = (3.0, 5.0)
SHOP_WIDTH = (9.5, 11.5)
REMOVE_FRACTION = 0.08  # of the ordinary interior links
FRUSTUM = 60
DT, STEPS = 0.05, 5000
# Goals: the walkers name none (they roam the network), and a scene whose groups all have route_choice may give an
# empty goal list. True writes instead one small non-exit goal 'unused' at the central junction that no group names,
# for a loader that still requires at least one goal.
PLACEHOLDER_GOAL = False


def r3(v: float) -> float:
    return round(v + 0.0, 3)


def intersect(p, d, q, e):
    """Intersection of the lines p + s d and q + t e."""
    den = d[0] * e[1] - d[1] * e[0]
    if abs(den) < 1e-9:
        raise ValueError("parallel street lines")
    s = ((q[0] - p[0]) * e[1] - (q[1] - p[1]) * e[0]) / den
    return (p[0] + s * d[0], p[1] + s * d[1])


def inset(corners, widths):
    """The quadrilateral @p corners (counter-clockwise) with edge k (corner k to k+1) moved inward by widths[k] / 2."""
    lines = []
    for k in range(4):
        a, b = corners[k], corners[(k + 1) % 4]
        d = (b[0] - a[0], b[1] - a[1])
        n = (d[0] ** 2 + d[1] ** 2) ** 0.5
        inward = (-d[1] / n, d[0] / n)
        h = widths[k] / 2
        lines.append(((a[0] + inward[0] * h, a[1] + inward[1] * h), d))
    return [intersect(*lines[(k - 1) % 4], *lines[k]) for k in range(4)]


def connected(n_junctions: int, links) -> bool:
    adj = [[] for _ in range(n_junctions)]
    for a, b in links:
        adj[a].append(b)
        adj[b].append(a)
    seen, todo = {0}, [0]
    while todo:
        for b in adj[todo.pop()]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    return len(seen) == n_junctions


def corridor(a, b, w: float) -> list:
    """The rectangle of width @p w around the segment ab (counter-clockwise)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ln = (dx * dx + dy * dy) ** 0.5
    nx, ny = -dy / ln * w / 2, dx / ln * w / 2
    return [(a[0] - nx, a[1] - ny), (b[0] - nx, b[1] - ny), (b[0] + nx, b[1] + ny), (a[0] + nx, a[1] + ny)]


def overlap(p, q, eps: float = 1e-3) -> bool:
    """Whether the convex polygons @p p and @p q overlap by more than @p eps (separating axis test; touching is not overlap)."""
    for poly in (p, q):
        for k in range(len(poly)):
            a, b = poly[k], poly[(k + 1) % len(poly)]
            ax, ay = -(b[1] - a[1]), b[0] - a[0]
            ln = (ax * ax + ay * ay) ** 0.5
            sp = [(v[0] * ax + v[1] * ay) / ln for v in p]
            sq = [(v[0] * ax + v[1] * ay) / ln for v in q]
            if min(max(sp), max(sq)) - max(min(sp), min(sq)) <= eps:
                return False
    return True


def along(a, b, t: float):
    """The point @p t metres from a toward b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ln = (dx * dx + dy * dy) ** 0.5
    return (r3(a[0] + dx * t / ln), r3(a[1] + dy * t / ln))


def build(name: str, n: int, shop_rows: list, shop_cols: list, walkers: int, dead_ends: int) -> tuple:
    """One old town of n x n junctions; returns (scene, streets) where streets is the sidecar's entry."""
    rng = random.Random(2026)
    size = 2 * OFF + (n - 1) * PITCH
    widths = {}  # link -> width: ("h", i, j) joins J(i, j) and J(i+1, j); ("v", i, j) joins J(i, j) and J(i, j+1)
    shop_w = {("row", j): round(rng.uniform(*SHOP_WIDTH), 1) for j in shop_rows}
    shop_w.update({("col", i): round(rng.uniform(*SHOP_WIDTH), 1) for i in shop_cols})
    # junctions: jittered, the ring's perpendicular to the border by RING_OFFSET, the shopping streets' exactly on their line
    xs = [OFF + i * PITCH for i in range(n)]
    ys = [OFF + j * PITCH for j in range(n)]
    J = {}
    for j in range(n):
        for i in range(n):
            x = xs[i] + rng.uniform(-JITTER, JITTER)
            y = ys[j] + rng.uniform(-JITTER, JITTER)
            if i == 0:
                x = rng.uniform(*RING_OFFSET)
            if i == n - 1:
                x = size - rng.uniform(*RING_OFFSET)
            if j == 0:
                y = rng.uniform(*RING_OFFSET)
            if j == n - 1:
                y = size - rng.uniform(*RING_OFFSET)
            if i in shop_cols:
                x = xs[i]
            if j in shop_rows:
                y = ys[j]
            J[i, j] = (round(x, 2), round(y, 2))
    links = [("h", i, j) for j in range(n) for i in range(n - 1)] + [("v", i, j) for i in range(n) for j in range(n - 1)]
    kind = {}
    for l in links:
        t, i, j = l
        if (t == "h" and j in shop_rows) or (t == "v" and i in shop_cols):
            kind[l] = "shop"
            widths[l] = shop_w[("row", j) if t == "h" else ("col", i)]
        elif (t == "h" and j in (0, n - 1)) or (t == "v" and i in (0, n - 1)):
            kind[l] = "ring"
            widths[l] = RING_WIDTH
        else:
            kind[l] = "street"
            widths[l] = round(rng.uniform(*STREET_WIDTH), 1)
    jid = lambda i, j: j * n + i
    ends = lambda l: (jid(l[1], l[2]), jid(l[1] + 1, l[2])) if l[0] == "h" else (jid(l[1], l[2]), jid(l[1], l[2] + 1))
    # missing links: first a few dead ends (three of a junction's four links), then random ones, the network connected
    ordinary = [l for l in links if kind[l] == "street"]
    budget = round(REMOVE_FRACTION * len(ordinary))
    removed = set()

    def arms(i, j):
        return [("h", i - 1, j), ("h", i, j), ("v", i, j - 1), ("v", i, j)]

    candidates = [(i, j) for j in range(2, n - 2) for i in range(2, n - 2)
                  if i not in shop_cols and j not in shop_rows and all(kind.get(l) == "street" for l in arms(i, j))]
    rng.shuffle(candidates)
    made = []
    for (i, j) in candidates:
        if len(made) >= dead_ends:
            break
        if any(abs(i - a) + abs(j - b) < 3 for a, b in made):
            continue
        keep = rng.choice(arms(i, j))
        cut = [l for l in arms(i, j) if l != keep and l not in removed]
        kept = [ends(l) for l in links if l not in removed and l not in cut]
        if connected(n * n, kept):
            removed.update(cut)
            made.append((i, j))
    pool = [l for l in ordinary if l not in removed]
    rng.shuffle(pool)
    for l in pool:
        if len(removed) >= budget:
            break
        kept = [ends(m) for m in links if m not in removed and m != l]
        if connected(n * n, kept):
            removed.add(l)
    roads = [l for l in links if l not in removed]
    road_index = {l: k for k, l in enumerate(roads)}
    # buildings: every lattice cell's block, then a fill over each missing link between the two blocks' facing corners
    blocks = {}
    for j in range(n - 1):
        for i in range(n - 1):
            corners = [J[i, j], J[i + 1, j], J[i + 1, j + 1], J[i, j + 1]]
            w = [widths["h", i, j], widths["v", i + 1, j], widths["h", i, j + 1], widths["v", i, j]]
            blocks[i, j] = [(r3(x), r3(y)) for x, y in inset(corners, w)]
    obstacles = [blocks[i, j] for j in range(n - 1) for i in range(n - 1)]
    rects = {l: corridor(J[l[1], l[2]], J[(l[1] + 1, l[2]) if l[0] == "h" else (l[1], l[2] + 1)], widths[l]) for l in roads}

    def kept_arms(i, j):
        return [l for l in arms(i, j) if l in rects]

    for (i, j), b in blocks.items():  # a block's corner may reach into a street of a junction it touches
        for (ci, cj) in ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)):
            for l in kept_arms(ci, cj):
                assert not overlap(b, rects[l]), f"{name}: block {(i, j)} reaches into road {l}"
    for l in links:
        if l in removed:
            # the fill between the facing sides of the two blocks, its ends drawn back from the junctions until they
            # clear the kept streets there (the junction stays open, with a small notch)
            t, i, j = l
            if t == "h":
                lo, hi = blocks[i, j - 1], blocks[i, j]
                sides = ((lo[3], lo[2]), (hi[0], hi[1]))  # from junction (i, j) toward (i + 1, j)
                ja, jb = (i, j), (i + 1, j)
            else:
                le, ri = blocks[i - 1, j], blocks[i, j]
                sides = ((ri[0], ri[3]), (le[1], le[2]))  # from junction (i, j) toward (i, j + 1)
                ja, jb = (i, j), (i, j + 1)
            (s0, e0), (s1, e1) = sides
            ta = tb = 0.0
            quad = lambda: [along(s0, e0, ta), along(e0, s0, tb), along(e1, s1, tb), along(s1, e1, ta)]
            while any(overlap(quad(), rects[m]) for m in kept_arms(*ja)):
                ta += 0.25
            while any(overlap(quad(), rects[m]) for m in kept_arms(*jb)):
                tb += 0.25
            obstacles.append(quad())
    junctions = [J[i, j] for j in range(n) for i in range(n)]
    shopping = [[road_index["h", i, j] for i in range(n - 1)] for j in shop_rows]
    shopping += [[road_index["v", i, j] for j in range(n - 1)] for i in shop_cols]
    c = J[n // 2, n // 2]
    goals = [{"name": "unused", "areas": [{"rect": {"min": [r3(c[0] - 1), r3(c[1] - 1)], "max": [r3(c[0] + 1), r3(c[1] + 1)]}}],
              "exit": False}] if PLACEHOLDER_GOAL else []
    n_shop = len(shop_rows) + len(shop_cols)
    scene = {
        "$schema": "./scene.schema.json",
        "format": "ccrowd-scene",
        "version": 1,
        "name": name,
        "description": f"Written by scenes/make_old_town.py. Seed 004's old town (Nicosia et al.): a {size:.0f} m x {size:.0f} m "
                       f"street network of {n} x {n} junctions on a lattice of pitch {PITCH:.0f} m jittered by +-{JITTER:.0f} m, "
                       f"bending ordinary streets of {STREET_WIDTH[0]:.0f}-{STREET_WIDTH[1]:.0f} m, {len(removed)} ordinary links "
                       f"missing ({len(made)} dead ends), a {RING_WIDTH:.0f} m ring road along the border and {n_shop} straight "
                       f"shopping streets of {SHOP_WIDTH[0]}-{SHOP_WIDTH[1]} m (the widest and longest-visible); "
                       f"{len(obstacles)} building polygons. {walkers:,} walkers spawned over the streets choose their way at "
                       f"every junction by affordance (view frustum {FRUSTUM} degrees). {STEPS:,} steps of {DT} s. "
                       "The goal 'unused' only satisfies the loader's rule of at least one goal: no group names it.",
        "domain": {"origin": [0, 0], "width": size, "height": size, "cell": CELL},
        "obstacles": [[[x, y] for x, y in p] for p in obstacles],
        "network": {"junctions": [[x, y] for x, y in junctions], "roads": [list(ends(l)) for l in roads], "frustum": FRUSTUM},
        "goals": goals,
        "groups": [{"name": "walkers", "spawn": [{"rect": {"min": [0, 0], "max": [size, size]}}], "count": walkers,
                    "radius": 0.2, "route_choice": {"mode": "affordance"}}],
        "model": {"dt": DT, "duration": round(DT * STEPS, 6), "max_steps": STEPS, "seed": 4},
    }
    streets = {"shopping_roads": shopping, "road_widths": [widths[l] for l in roads]}
    verify(scene, roads, widths, J, ends)
    print(f"{name}: {size:.0f} m x {size:.0f} m, {int(size / CELL)} x {int(size / CELL)} cells; {len(junctions)} junctions, "
          f"{len(roads)} roads ({len(removed)} of {len(ordinary)} ordinary links missing, {len(made)} dead ends), "
          f"{len(obstacles)} obstacles; shopping street widths {sorted(shop_w.values())} m")
    for k, s in enumerate(shopping):
        print(f"  shopping street {k + 1}: roads {s}")
    return scene, streets


# ---------------------------------------------------------------- checks


def inside(pt, poly) -> bool:
    """Crossing-number test (the loader's rule: lower and left edges inside)."""
    x, y = pt
    c = False
    for k in range(len(poly)):
        (x0, y0), (x1, y1) = poly[k], poly[k - 1]
        if (y0 <= y) != (y1 <= y):
            if x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                c = not c
    return c


def cross(o, a, b) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segments_meet(p, q, r, s) -> bool:
    d1, d2, d3, d4 = cross(r, s, p), cross(r, s, q), cross(p, q, r), cross(p, q, s)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)) and d1 and d2 and d3 and d4:
        return True

    def on(a, b, c):  # c on segment ab, given collinear
        return min(a[0], b[0]) <= c[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= c[1] <= max(a[1], b[1])
    return (d1 == 0 and on(r, s, p)) or (d2 == 0 and on(r, s, q)) or (d3 == 0 and on(p, q, r)) or (d4 == 0 and on(p, q, s))


def simple(poly) -> bool:
    m = len(poly)
    if len(set(map(tuple, poly))) != m:
        return False
    area = sum(poly[k][0] * poly[(k + 1) % m][1] - poly[(k + 1) % m][0] * poly[k][1] for k in range(m)) / 2
    if abs(area) <= 1e-6:
        return False
    for a in range(m):
        for b in range(a + 1, m):
            if b == a + 1 or (a == 0 and b == m - 1):
                # neighbours share a vertex: they must not fold back onto each other
                p, q, r = (poly[a], poly[b], poly[(b + 1) % m]) if b == a + 1 else (poly[b], poly[a], poly[a + 1])
                if cross(p, q, r) == 0 and (r[0] - q[0]) * (p[0] - q[0]) + (r[1] - q[1]) * (p[1] - q[1]) > 0:
                    return False
            elif segments_meet(poly[a], poly[(a + 1) % m], poly[b], poly[(b + 1) % m]):
                return False
    return True


def verify(scene: dict, roads, widths, J, ends) -> None:
    """Fails (AssertionError) unless the junctions and road corridors are open, the polygons simple, the open
    cells one 4-connected region holding every junction's cell, and the walkers fit (README's capacity rule)."""
    size, cell = scene["domain"]["width"], scene["domain"]["cell"]
    polys = scene["obstacles"]
    json.loads(json.dumps(scene))
    for k, p in enumerate(polys):
        assert 3 <= len(p) <= 4096 and simple(p), f"{scene['name']}: obstacle {k} not simple: {p}"
        assert all(0 <= v <= size for pt in p for v in pt), f"{scene['name']}: obstacle {k} leaves the domain"
    bucket = 16.0
    grid = {}
    for k, p in enumerate(polys):
        x0, x1 = min(v[0] for v in p), max(v[0] for v in p)
        y0, y1 = min(v[1] for v in p), max(v[1] for v in p)
        for bx in range(int(x0 // bucket), int(x1 // bucket) + 1):
            for by in range(int(y0 // bucket), int(y1 // bucket) + 1):
                grid.setdefault((bx, by), []).append(k)

    def blocked(pt):
        return any(inside(pt, polys[k]) for k in grid.get((int(pt[0] // bucket), int(pt[1] // bucket)), ()))

    net = scene["network"]
    for k, pt in enumerate(net["junctions"]):
        assert 0 < pt[0] < size and 0 < pt[1] < size, f"{scene['name']}: junction {k} outside the domain"
        assert not blocked(pt), f"{scene['name']}: junction {k} at {pt} inside an obstacle"
    # every kept road's corridor (its width around the segment, 1 cm inside its sides) is free and inside the domain
    for k, l in enumerate(roads):
        a, b = ends(l)
        assert [a, b] == net["roads"][k]
        (ax, ay), (bx, by) = net["junctions"][a], net["junctions"][b]
        dx, dy = bx - ax, by - ay
        ln = (dx * dx + dy * dy) ** 0.5
        nx, ny = -dy / ln, dx / ln
        h = widths[l] / 2 - 0.01
        steps_along, steps_across = int(ln / 0.25) + 1, int(2 * h / 0.25) + 1
        for s in range(steps_along + 1):
            t = s / steps_along
            for q in range(steps_across + 1):
                o = -h + 2 * h * q / steps_across
                pt = (ax + t * dx + o * nx, ay + t * dy + o * ny)
                assert 0 <= pt[0] <= size and 0 <= pt[1] <= size, f"{scene['name']}: road {k}'s corridor leaves the domain"
                assert not blocked(pt), f"{scene['name']}: road {k} ({a}-{b}, {widths[l]} m) blocked at {pt}"
    # the grid as the loader sees it: cells whose centre is inside a polygon are blocked
    nc = int(round(size / cell))
    assert nc <= 4096
    open_ = bytearray([1]) * (nc * nc)
    for p in polys:
        y0, y1 = min(v[1] for v in p), max(v[1] for v in p)
        for row in range(max(0, int(y0 / cell - 0.5)), min(nc, int(y1 / cell + 0.5) + 1)):
            yc = (row + 0.5) * cell
            xs = []
            for k in range(len(p)):
                (xa, ya), (xb, yb) = p[k], p[k - 1]
                if (ya <= yc) != (yb <= yc):
                    xs.append(xa + (yc - ya) * (xb - xa) / (yb - ya))
            xs.sort()
            for e in range(0, len(xs) - 1, 2):
                c0 = max(0, int(-(-(xs[e] / cell - 0.5) // 1)))  # first centre >= xs[e]
                c1 = min(nc, int(-(-(xs[e + 1] / cell - 0.5) // 1)))  # centres < xs[e+1]
                for col in range(c0, c1):
                    open_[row * nc + col] = 0
    n_open = sum(open_)
    start = next(k for k in range(nc * nc) if open_[k])
    seen = bytearray(nc * nc)
    seen[start] = 1
    todo = deque([start])
    reached = 1
    while todo:
        k = todo.popleft()
        r, c = divmod(k, nc)
        for m in ((k - 1) if c > 0 else -1, (k + 1) if c < nc - 1 else -1, k - nc, k + nc):
            if 0 <= m < nc * nc and open_[m] and not seen[m]:
                seen[m] = 1
                reached += 1
                todo.append(m)
    assert reached == n_open, f"{scene['name']}: open space not connected ({n_open - reached} of {n_open} cells cut off)"
    for k, (x, y) in enumerate(net["junctions"]):
        assert seen[int(y / cell) * nc + int(x / cell)], f"{scene['name']}: junction {k}'s cell not open"
    d = 2 * scene["groups"][0]["radius"]
    d = max(d, (2 / (3 ** 0.5 * 5.4)) ** 0.5)
    cap = int(n_open * cell * cell * min(5.4, 0.8 * 2 / (3 ** 0.5 * d * d)))
    count = scene["groups"][0]["count"]
    assert count <= cap, f"{scene['name']}: {count} walkers do not fit ({cap})"
    print(f"{scene['name']}: checks passed: {n_open:,} open cells ({n_open * cell * cell:,.0f} m^2, one region), "
          f"{count / (n_open * cell * cell):.3f} walkers/m^2")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--check", action="store_true", help="exit 1 when a file differs from what this writes")
    a = p.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    town, town_streets = build("old_town", 19, [6, 12], [6, 12], 10000, dead_ends=6)
    small, small_streets = build("old_town_small", 8, [3], [4], 1000, dead_ends=1)
    # the shopping streets' roads: scene, street (horizontal ones first), road index into network.roads, width [m]
    sidecar = "scene,street,road,width [m]\n"
    for scene, streets in (("old_town", town_streets), ("old_town_small", small_streets)):
        for k, street in enumerate(streets["shopping_roads"]):
            for road in street:
                sidecar += f"{scene},{k},{road},{streets['road_widths'][road]}\n"
    files = [("old_town.json", town), ("old_town_small.json", small), ("old_town_streets.csv", sidecar)]
    return write_or_check(here, files, "make_old_town.py", a.check)

if __name__ == "__main__":
    sys.exit(main())
