#!/usr/bin/env python3
"""The GPU targets of issues 10, 11 and 14 against a GPU session's logs.

Reads what bench/gpu_suite.sh wrote (eikonal.csv, step.csv, models.csv,
tests_cuda.log, any of them) and prints one markdown table per issue: each
target, what the logs measured, and whether it is met. When the `fronts`
section ran (step_fronts.csv, eikonal_fronts.csv), one more table: the
GPU's default front budget against none, per configuration. A target whose rows
are missing says so ("not measured"); nothing is guessed. Standard library
only, so it runs on the GPU machine at the end of the suite.

    python3 bench/gpu_targets.py LOG_DIR

Targets (the issues' words, medians of the benchmarks' repeats):
  issue 10: fim-cuda <= 10 ms at 4096^2 and <= 1 ms at 1024^2 on every case,
            faster than the CPU FIM on all of the machine's cores at every size
            from 256^2 up, its updates per cell within 2x of the CPU's (<= 4);
  issue 11: 1M agents / 1024^2 / 4 groups <= 10 ms per step, 10M / 4096^2 /
            4 groups <= 150 ms, exit_spawn <= 1 ms at 1M agents, at most 64
            bytes per agent and per cell per group;
  issue 14: social_force and orca <= 5 ms per step at 1M agents.
"""

import csv
import os
import re
import sys


def read_rows(path, key_columns):
    """Rows of the CSV blocks in @p path whose header holds @p key_columns.

    The suite's files mix notes and stderr lines with CSV, and some sections
    prefix every line with labels ("rep=1,band=16,"): a header is any line
    holding the key columns; the labels before its first key column become
    columns prefix0, prefix1, ... of the rows that follow with its width.
    """
    rows = []
    if not os.path.exists(path):
        return rows
    header, start = None, 0
    with open(path, newline="") as f:
        for fields in csv.reader(f):
            if all(k in fields for k in key_columns):
                start = fields.index(key_columns[0])
                header = fields
                continue
            if header is None or len(fields) != len(header):
                continue
            row = {header[i]: fields[i] for i in range(start, len(fields))}
            for i in range(start):
                row["prefix%d" % i] = fields[i]
            rows.append(row)
    return rows


def num(row, column):
    """The float in @p column, or None when empty or missing."""
    try:
        return float(row.get(column, ""))
    except ValueError:
        return None


def median(values):
    v = sorted(values)
    n = len(v)
    return None if n == 0 else (v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2]))


def column_median(rows, column):
    """The median of @p column over @p rows, skipping empty cells (None when none)."""
    return median([v for v in (num(r, column) for r in rows) if v is not None])


def verdict(value, limit, smaller=True):
    if value is None:
        return "not measured"
    return "met" if (value <= limit if smaller else value >= limit) else "NOT met"


def summary(checks):
    """One verdict for (name, verdict) pairs: met, or what is not met / not measured."""
    if not checks:
        return "not measured"
    missed = [n for n, v in checks if v == "NOT met"]
    unknown = [n for n, v in checks if v not in ("met", "NOT met")]
    if not missed and not unknown:
        return "met"
    return "; ".join(["NOT met: " + ", ".join(missed)] * bool(missed) + ["not measured: " + ", ".join(unknown)] * bool(unknown))


def fmt(v, digits=2):
    return "-" if v is None else ("%.*f" % (digits, v))


def issue10(rows):
    """fim-cuda against its targets, per case and size (medians over repeated rows)."""
    by = {}
    for r in rows:
        key = (r.get("case"), int(float(r.get("size", "0"))), r.get("method"), int(float(r.get("threads", "1"))))
        by.setdefault(key, []).append(r)
    cells = sorted({(k[0], k[1]) for k in by if k[2] == "fim-cuda"}, key=lambda c: (c[1], c[0]))
    lines = ["## Issue 10: the FIM on the GPU", "",
             "| case | size | fim-cuda ms | target ms | CPU fim, most threads: ms (threads) | GPU/CPU | "
             "updates/cell GPU / CPU | max diff vs fmm | verdict |",
             "|---|---|---|---|---|---|---|---|---|"]
    if not cells:
        return lines + ["", "No fim-cuda rows: not measured."]
    for case, size in cells:
        gpu = [r for k, rs in by.items() if k[:3] == (case, size, "fim-cuda") for r in rs]
        g_ms = column_median(gpu, "ms_median")
        g_upc = column_median(gpu, "updates_per_cell")
        diff = max([num(r, "max_abs_diff_vs_fmm") or 0.0 for r in gpu], default=None)
        cpu_threads = [k[3] for k in by if k[:3] == (case, size, "fim")]
        c_ms = c_upc = None
        t_max = max(cpu_threads) if cpu_threads else None
        if t_max is not None:
            cpu = by[(case, size, "fim", t_max)]
            c_ms = column_median(cpu, "ms_median")
            c_upc = column_median(cpu, "updates_per_cell")
        limit = 10.0 if size >= 4096 else (1.0 if size >= 1024 else None)
        # (what is checked, its verdict)
        checks = []
        if limit is not None:
            checks.append(("<= %g ms" % limit, verdict(g_ms, limit)))
        if size >= 256:
            checks.append(("faster than the CPU", verdict(g_ms, c_ms) if c_ms is not None else "not measured"))
        if g_upc is not None and c_upc is not None:
            checks.append(("updates/cell", "met" if g_upc <= 2 * c_upc and c_upc <= 4 else "NOT met"))
        ok = summary(checks)
        ratio = g_ms / c_ms if g_ms is not None and c_ms else None
        lines.append("| %s | %d^2 | %s | %s | %s (%s) | %s | %s / %s | %s | %s |" % (
            case, size, fmt(g_ms, 3), "-" if limit is None else fmt(limit, 0), fmt(c_ms, 3),
            "-" if t_max is None else t_max, fmt(ratio), fmt(g_upc, 3), fmt(c_upc, 3),
            "-" if diff is None else "%.1e" % diff, ok))
    return lines


def step_rows(rows, backend, agents, cells, local=None):
    return [r for r in rows if r.get("backend") == backend and num(r, "agents") == agents and num(r, "cells") == cells
            and (local is None or r.get("local") == local) and r.get("scene", "synthetic") == "synthetic"]


def issue11(rows):
    lines = ["## Issue 11: whole steps on the GPU (synthetic scenes, 4 groups)", "",
             "| configuration | CUDA ms/step | target | potential ms | exit_spawn ms | host-device bytes/step | "
             "bytes/agent | bytes/cell/group | verdict |",
             "|---|---|---|---|---|---|---|---|---|"]
    for agents, cells, limit in ((1e5, 512, None), (1e6, 1024, 10.0), (4e6, 2048, None), (1e7, 4096, 150.0)):
        rs = step_rows(rows, "cuda", agents, cells)
        ms = column_median(rs, "ms_median")
        pot = column_median(rs, "ms_potential")
        es = column_median(rs, "ms_exit_spawn")
        hd = column_median(rs, "host_device_bytes_per_step")
        bpa = max([num(r, "bytes_per_agent") for r in rs if num(r, "bytes_per_agent") is not None], default=None)
        bpc = max([num(r, "bytes_per_cell_per_group") for r in rs if num(r, "bytes_per_cell_per_group") is not None],
                  default=None)
        checks = []
        if limit is not None:
            checks.append(("<= %g ms" % limit, verdict(ms, limit)))
        if agents == 1e6:
            checks.append(("exit_spawn <= 1 ms", verdict(es, 1.0)))
        checks += [("64 bytes/agent", verdict(bpa, 64)), ("64 bytes/cell/group", verdict(bpc, 64))]
        ok = summary(checks) if rs else "not measured"
        lines.append("| %gM / %d^2 | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            agents / 1e6, cells, fmt(ms), "-" if limit is None else "<= %g" % limit, fmt(pot), fmt(es, 3),
            fmt(hd, 0), fmt(bpa, 0), fmt(bpc, 1), ok))
    return lines


def issue14(rows):
    lines = ["## Issue 14: operational models on the GPU (1M agents, 1024^2, 4 groups)", "",
             "| model | CUDA ms/step | its own stage ms | target (step) | verdict |", "|---|---|---|---|---|"]
    for local in ("uic", "social_force", "orca", "zones"):
        rs = step_rows(rows, "cuda", 1e6, 1024, local)
        ms = column_median(rs, "ms_median")
        stage = "ms_pressure" if local == "uic" else "ms_" + local
        st = column_median(rs, stage)
        limit = 5.0 if local in ("social_force", "orca") else None
        lines.append("| %s | %s | %s | %s | %s |" % (local, fmt(ms), fmt(st, 3), "-" if limit is None else "<= 5",
                                                    verdict(ms, limit) if limit is not None else "-"))
    return lines


def front_budget(step, eik):
    """The suite's `fronts` section: CUDA with the default front budget ("auto") against none ("0"),
    medians over its repeats, per step configuration and per fim-cuda case."""
    lines = ["## The GPU's front budget against none (`fronts` section)", "",
             "| configuration | none: ms (potential ms) | default: ms (potential ms) | solve time, default / none | "
             "phases none / default | critical fronts none / default | the default is |",
             "|---|---|---|---|---|---|---|"]
    # per configuration: its solve-time, phases and critical-fronts columns, and its rows per label
    step_cols, eik_cols = ("ms_potential", "fim_phases", "fim_critical_fronts"), ("ms_median", "phases", "critical_fronts")
    groups = {}
    for r in step:
        if r.get("backend") == "cuda":
            name = (r.get("scene") if r.get("scene", "synthetic") != "synthetic"
                    else "%gM agents / %s^2" % (num(r, "agents") / 1e6, r.get("cells")))
            groups.setdefault(name, (step_cols, {}))[1].setdefault(r.get("prefix1"), []).append(r)
    for r in eik:
        if r.get("method") == "fim-cuda":
            name = "bench eikonal %s %s^2" % (r.get("case"), r.get("size"))
            groups.setdefault(name, (eik_cols, {}))[1].setdefault(r.get("prefix1"), []).append(r)
    if not groups:
        return lines + ["", "No rows of the fronts section: not measured."]
    for name in sorted(groups):
        (solve, phases, fronts), by = groups[name]
        none, default = by.get("fronts=0", []), by.get("fronts=auto", [])
        a, b = column_median(none, solve), column_median(default, solve)
        ratio = b / a if a and b is not None else None
        which = "-" if ratio is None else ("faster" if ratio < 1 else ("slower" if ratio > 1 else "the same"))
        lines.append("| %s | %s (%s) | %s (%s) | %s | %s / %s | %s / %s | %s |" % (
            name, fmt(column_median(none, "ms_median"), 3), fmt(a, 3), fmt(column_median(default, "ms_median"), 3),
            fmt(b, 3), fmt(ratio, 3), fmt(column_median(none, phases), 1), fmt(column_median(default, phases), 1),
            fmt(column_median(none, fronts), 0), fmt(column_median(default, fronts), 0), which))
    return lines


def tests(path):
    if not os.path.exists(path):
        return ["## CUDA tests", "", "tests_cuda.log: not present."]
    text = open(path, errors="replace").read()
    out = ["## CUDA tests", ""]
    for label, pattern in (("ran", r"\[==========\] (\d+) tests? from .* ran"), ("passed", r"\[  PASSED  \] (\d+) tests?"),
                           ("skipped", r"\[  SKIPPED \] (\d+) tests?")):
        m = re.search(pattern, text)
        out.append("- %s: %s" % (label, m.group(1) if m else ("0" if label == "skipped" else "none reported")))
    # the failed tests by name: --gtest_brief prints no "N FAILED TESTS" line
    failed = sorted(set(re.findall(r"\[  FAILED  \] ([^ ,\n]+)", text)))
    out.append("- failed: %d" % len(failed))
    out += ["- failed test: " + t for t in failed]
    return out


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        sys.stderr.write("usage: gpu_targets.py LOG_DIR (the folder bench/gpu_suite.sh wrote: eikonal.csv, step.csv, "
                         "models.csv, tests_cuda.log)\n")
        return 2
    d = argv[1]
    eik = read_rows(os.path.join(d, "eikonal.csv"), ["case", "size", "method", "ms_median"])
    step = read_rows(os.path.join(d, "step.csv"), ["agents", "cells", "backend", "ms_median"])
    models = read_rows(os.path.join(d, "models.csv"), ["agents", "cells", "backend", "ms_median"])
    parts = [issue10(eik), issue11(step), issue14(models), tests(os.path.join(d, "tests_cuda.log"))]
    fronts_step = read_rows(os.path.join(d, "step_fronts.csv"), ["agents", "cells", "backend", "ms_median"])
    fronts_eik = read_rows(os.path.join(d, "eikonal_fronts.csv"), ["case", "size", "method", "ms_median"])
    if fronts_step or fronts_eik:
        parts.append(front_budget(fronts_step, fronts_eik))
    print("\n\n".join("\n".join(p) for p in parts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
