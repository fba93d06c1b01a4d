#!/usr/bin/env python3
"""Times scikit-fmm's first-order travel time for `ccrowd bench eikonal`.

Called by bench/cmd/skfmm_bridge.cpp as

    python3 skfmm_time.py DIR SRC_I SRC_J H WARMUP REPEATS

Reads   DIR/speed.npy    float32/float64, shape (ny, nx), speed [m/s], > 0 on open cells
        DIR/blocked.npy  uint8, shape (ny, nx), 1 = blocked (masked out)
Writes  DIR/times_ms.npy float64, shape (REPEATS,): wall time of each timed
                         skfmm.travel_time call [ms] (warm-up calls excluded)
        DIR/phi.npy      float64, shape (ny, nx): travel time [s]; blocked and
                         unreachable cells are +inf

The source is cell (SRC_I, SRC_J) (column, row): phi0 = -1 there and +1
elsewhere, so the zero contour lies half a cell around the source centre and
skfmm's times are about H / (2 speed) smaller than a solver that puts 0 at
the source centre (at the source cell itself skfmm reports about 0.35 H / speed).

Exit codes: 0 success, 1 unexpected failure, 2 bad arguments or input files,
3 numpy or scikit-fmm cannot be imported.
"""
import os
import sys
import time

USAGE = "usage: skfmm_time.py DIR SRC_I SRC_J H WARMUP REPEATS"


def fail(msg, code=2):
    print("skfmm_time.py: " + msg, file=sys.stderr)
    return code


def main(argv):
    if len(argv) != 7:
        return fail(USAGE)
    try:
        import numpy as np
        import skfmm
    except ImportError as e:
        return fail("cannot import ({}); install with: pip install scikit-fmm".format(e), 3)

    d = argv[1]
    try:
        i, j = int(argv[2]), int(argv[3])
        h = float(argv[4])
        warmup, repeats = int(argv[5]), int(argv[6])
    except ValueError as e:
        return fail("bad argument ({}); {}".format(e, USAGE))
    if not (h > 0 and np.isfinite(h)) or warmup < 0 or repeats < 1:
        return fail("need H > 0, WARMUP >= 0, REPEATS >= 1 (got {}, {}, {})".format(h, warmup, repeats))

    speed = np.load(os.path.join(d, "speed.npy")).astype(np.float64)
    blocked = np.load(os.path.join(d, "blocked.npy")).astype(bool)
    if speed.ndim != 2 or speed.shape != blocked.shape:
        return fail("speed.npy {} and blocked.npy {} must be 2-D of the same shape".format(speed.shape, blocked.shape))
    ny, nx = speed.shape
    if not (0 <= i < nx and 0 <= j < ny) or blocked[j, i]:
        return fail("source cell ({}, {}) is outside the {}x{} grid or blocked".format(i, j, nx, ny))
    open_speed = speed[~blocked]
    if open_speed.size and not (np.all(np.isfinite(open_speed)) and np.all(open_speed > 0)):
        return fail("speed must be finite and > 0 on open cells")

    phi0 = np.ones((ny, nx))
    phi0[j, i] = -1.0
    phi0 = np.ma.MaskedArray(phi0, mask=blocked)
    speed = np.where(blocked, 1.0, speed)  # masked cells are ignored; keep the array positive

    times = []
    t = None
    for r in range(warmup + repeats):
        t0 = time.perf_counter()
        t = skfmm.travel_time(phi0, speed, dx=h, order=1)
        t1 = time.perf_counter()
        if r >= warmup:
            times.append((t1 - t0) * 1e3)

    phi = np.ma.filled(np.ma.masked_invalid(np.ma.asarray(t, dtype=np.float64)), np.inf)
    np.save(os.path.join(d, "times_ms.npy"), np.asarray(times, dtype=np.float64))
    np.save(os.path.join(d, "phi.npy"), np.ascontiguousarray(phi, dtype=np.float64))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
