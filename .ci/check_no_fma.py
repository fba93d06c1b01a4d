#!/usr/bin/env python3
"""One arithmetic on both backends: the kernels' device code must hold no
fused multiply-add, else a CUDA run rounds differently from the CPU's and
the backends' trajectories drift apart (CMakeLists.txt compiles kernels/*.cu
with --fmad=false; kernels/portable_math.hpp holds their transcendentals).

Recompiles every kernels/*.cu of a CUDA build to PTX with the build's own
command (compile_commands.json; its first GPU architecture, no host code)
and fails when the PTX holds an fma instruction. With --fmad=false nvcc
writes mul.rn / add.rn, which ptxas never fuses, so the PTX decides.
Exit status: 0 none found, 1 found (naming the files), 2 nothing to check.

Usage: .ci/check_no_fma.py BUILD_DIR [--jobs N]
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile


def ptx_command(entry, out):
    """The entry's nvcc command, writing PTX for its first architecture to out."""
    args = shlex.split(entry["command"])
    arch = None
    cmd = []
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        m = re.match(r"--generate-code=arch=(compute_\d+)", a)
        if m:
            arch = arch or m.group(1)
            continue
        if a == "-o":
            skip = True
            continue
        cmd.append("-ptx" if a == "-c" else a)
    if arch is None:
        return None
    return cmd[:1] + ["-arch=" + arch] + cmd[1:] + ["-o", out]


def check(entry, tmp):
    out = os.path.join(tmp, os.path.basename(entry["file"]) + ".ptx")
    cmd = ptx_command(entry, out)
    if cmd is None:
        return entry["file"], None, "no --generate-code in its command"
    r = subprocess.run(cmd, cwd=entry["directory"], capture_output=True, text=True)
    if r.returncode != 0:
        return entry["file"], None, r.stderr.strip()[-2000:]
    text = open(out).read()
    fma = len(re.findall(r"^\s*fma\.", text, re.M))
    instructions = len(re.findall(r"^\s*[a-z][a-z0-9_.]*\s", text, re.M))
    return entry["file"], (fma, instructions), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()
    path = os.path.join(a.build, "compile_commands.json")
    try:
        entries = json.load(open(path))
    except (OSError, ValueError) as e:
        print(f"check_no_fma: cannot read {path}: {e}", file=sys.stderr)
        return 2
    kernels = [e for e in entries if re.search(r"/kernels/[^/]+\.cu$", e["file"]) and "nvcc" in e["command"]]
    if not kernels:
        print(f"check_no_fma: {path} compiles no kernels/*.cu with nvcc (not a CUDA build?)", file=sys.stderr)
        return 2
    bad, total = [], 0
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for f, counts, err in pool.map(lambda e: check(e, tmp), kernels):
            name = "kernels/" + os.path.basename(f)
            if err:
                print(f"check_no_fma: {name}: PTX compile failed: {err}", file=sys.stderr)
                return 2
            fma, n = counts
            total += n
            if fma:
                bad.append(f"{name}: {fma} fma instructions")
    if bad:
        print("check_no_fma: fused multiply-adds in the kernels' device code:\n  " + "\n  ".join(bad))
        return 1
    print(f"check_no_fma: {len(kernels)} kernel files, {total} PTX instructions, no fused multiply-add")
    return 0


if __name__ == "__main__":
    sys.exit(main())
