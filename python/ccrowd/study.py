"""Parameter studies of ccrowd scenes as Dask tasks: one simulation per task.

    from ccrowd import study
    df = study.run({"scene": "scenes/room_exit.json",
                    "vary": {"model.seed": [1, 2, 3], "groups.occupants.count": [100, 200]},
                    "duration": 60, "out": "study1"}, workers=2)

The spec (a dict, or a JSON file's path):

- ``scene``: the scene file (relative to the spec file's folder when the
  spec is a file); ``base`` (optional): {dotted key: value} set in every run.
- ``vary``: {dotted key: [values]} (see :meth:`ccrowd.Scene.set`); a key
  ``"a.b, c.d"`` sets several keys together from each value (a list).
- ``sample`` (optional): draw that many runs at random from the grid (with
  ``sample_seed``, default 0) instead of running every combination.
- ``duration`` [s] or ``steps``: each run's length (default: the scene's).
- ``backend`` (``"auto"``), ``threads`` (per run, default 1).
- ``out``: the study's folder (default ``"study"``): ``runs/<run>/`` holds
  each run's outputs as ``ccrowd run --out`` writes them and its
  ``row.json``; ``results.parquet`` the table.
- ``outputs`` (optional): {option: value} of :class:`ccrowd.Simulation`'s
  output options (``snapshot_every``, ``trajectory_every``, ...).

Runs go to a ``LocalCluster`` (``workers`` processes of one thread) unless
``scheduler`` gives a Dask scheduler's address or a ``distributed.Client``,
so clusters from dask-jobqueue (Slurm, PBS) or dask-kubernetes work
unchanged. On a worker with GPUs each task takes the GPU of its worker's
index (``CUDA_VISIBLE_DEVICES``). A failed run is a row with its error; the
study goes on. A study run again with the same ``out`` skips the runs
that finished (their ``row.json`` names the same parameters).

Shell: ``python -m ccrowd.study SPEC.json [--scheduler ADDRESS] [--workers N]``.
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import random
import sys
import time
import traceback
from typing import Any, Mapping, Optional, Union

__all__ = ["run", "expand", "main"]


def _load_spec(spec: Union[str, os.PathLike, Mapping[str, Any]]) -> dict:
    if isinstance(spec, Mapping):
        spec = dict(spec)
        spec.setdefault("_dir", os.getcwd())
        return spec
    path = os.fspath(spec)
    try:
        with open(path, "rb") as f:
            data = json.loads(f.read())
    except OSError as e:
        raise ValueError(f"{path}: cannot read the study spec: {e.strerror} (allowed: a readable JSON file)") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: not JSON: {e} (allowed: a JSON object, see ccrowd.study)") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path}: /: a {type(data).__name__} (allowed: a JSON object, see ccrowd.study)")
    data["_dir"] = os.path.dirname(os.path.abspath(path))
    return data


_KEYS = {"scene", "base", "vary", "sample", "sample_seed", "duration", "steps", "backend", "threads", "out", "outputs", "_dir"}


def _check(spec: dict) -> None:
    unknown = sorted(set(spec) - _KEYS)
    if unknown:
        raise ValueError(f"study spec: unknown key(s) {unknown} (allowed: {sorted(_KEYS - {'_dir'})})")
    if not isinstance(spec.get("scene"), str):
        raise ValueError("study spec: 'scene' is missing or not a string (allowed: a scene file's path)")
    vary = spec.get("vary", {})
    if not isinstance(vary, dict) or any(not isinstance(v, list) or not v for v in vary.values()):
        raise ValueError("study spec: 'vary' must map dotted scene keys to non-empty lists of values")
    if "sample" in spec and not (isinstance(spec["sample"], int) and spec["sample"] > 0):
        raise ValueError(f"study spec: 'sample' is {spec['sample']!r} (allowed: an integer > 0)")
    if "duration" in spec and not (isinstance(spec["duration"], (int, float)) and spec["duration"] > 0):
        raise ValueError(f"study spec: 'duration' is {spec['duration']!r} (allowed: seconds > 0)")
    if "threads" in spec and not (isinstance(spec["threads"], int) and 0 <= spec["threads"] <= 1024):
        raise ValueError(f"study spec: 'threads' is {spec['threads']!r} (allowed: 0 (all cores) .. 1024)")


def expand(spec: Union[str, os.PathLike, Mapping[str, Any]]) -> list:
    """The study's runs, in order: a list of {"run": name, "params": {key: value}}."""
    spec = _load_spec(spec)
    _check(spec)
    vary = spec.get("vary", {})
    keys = list(vary)
    combos = [dict(zip(keys, values)) for values in itertools.product(*(vary[k] for k in keys))]
    if "sample" in spec:
        rng = random.Random(spec.get("sample_seed", 0))
        combos = [dict((k, rng.choice(vary[k])) for k in keys) for _ in range(spec["sample"])]
    runs = []
    for k, params in enumerate(combos):
        digest = hashlib.sha1(json.dumps(params, sort_keys=True).encode()).hexdigest()[:8]
        runs.append({"run": f"run-{k:04d}-{digest}", "params": params})
    return runs


def _gpu_count() -> int:
    try:
        import subprocess
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=10)
        return sum(1 for line in out.stdout.splitlines() if line.startswith("GPU "))
    except (OSError, subprocess.SubprocessError):
        return 0


def _pin_gpu() -> None:
    """On a worker with GPUs, the GPU of the worker's index (before ccrowd's first CUDA call in this process)."""
    if "CUDA_VISIBLE_DEVICES" in os.environ:
        return
    n = _gpu_count()
    if n == 0:
        return
    try:
        from distributed import get_worker
        name = get_worker().name
        index = name if isinstance(name, int) else int(hashlib.sha1(str(name).encode()).hexdigest(), 16)
    except (ImportError, ValueError):
        index = os.getpid()
    os.environ["CUDA_VISIBLE_DEVICES"] = str(index % n)


def _flatten(summary: dict) -> dict:
    """One run's numbers from its summary.json, as table columns."""
    row = {
        "time_s": summary.get("time_s"),
        "steps": summary.get("steps"),
        "wall_s": summary.get("wall_s"),
        "backend": summary.get("backend"),
        "evacuation_time_s": summary.get("evacuation_time_s"),
        "spawned": summary.get("agents", {}).get("spawned"),
        "exited": summary.get("agents", {}).get("exited"),
        "remaining": summary.get("agents", {}).get("remaining"),
        "max_density": (summary.get("max_density") or {}).get("value_per_m2"),
    }
    for g in summary.get("groups", []):
        row[f"evacuation_time_s.{g['name']}"] = g.get("evacuation_time_s")
    for line in summary.get("lines", []):
        row[f"peak_flow_per_s.{line['name']}"] = line.get("peak_flow_per_s")
        row[f"peak_specific_flow_per_m_s.{line['name']}"] = line.get("peak_specific_flow_per_m_s")
        row[f"crossings.{line['name']}"] = line.get("forward", 0) + line.get("backward", 0)
    for area in summary.get("areas", []):
        row[f"max_density_per_m2.{area['name']}"] = area.get("max_density_per_m2")
    return row


def run_one(scene_path: str, params: dict, base: dict, run_dir: str, duration: Optional[float], steps: Optional[int],
            backend: str, threads: int, outputs: dict) -> dict:
    """One run of the study, in a worker: its outputs in ``run_dir``, its row
    in ``run_dir/row.json`` (written last, whole: the mark of a finished run).
    Never raises: a failure is a row with status "error"."""
    _pin_gpu()
    import ccrowd
    t0 = time.perf_counter()
    row: dict = {"status": "ok", "error": None}
    try:
        scene = ccrowd.load_scene(scene_path, {**base, **params})
        os.makedirs(run_dir, exist_ok=True)
        with ccrowd.Simulation(scene, backend, threads, out=run_dir, force=True, duration=duration, steps=steps,
                               **outputs) as sim:
            summary = sim.run()
        row.update(_flatten(summary))
    except Exception as e:  # noqa: BLE001 (the row reports it)
        row.update(status="error", error=f"{type(e).__name__}: {e}")
        if not isinstance(e, (ValueError, RuntimeError)):
            row["error"] += "\n" + traceback.format_exc(limit=5)
    row["task_s"] = time.perf_counter() - t0
    if row["status"] == "ok":
        _write_json(os.path.join(run_dir, "row.json"), {"params": params, "row": row})
    return row


def _write_json(path: str, data: Any) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    os.replace(tmp, path)


def _finished(run_dir: str, params: dict) -> Optional[dict]:
    try:
        with open(os.path.join(run_dir, "row.json")) as f:
            done = json.load(f)
    except (OSError, ValueError):
        return None
    return done["row"] if done.get("params") == params and done.get("row", {}).get("status") == "ok" else None


def run(spec: Union[str, os.PathLike, Mapping[str, Any]], scheduler: Any = None, workers: Optional[int] = None,
        progress: bool = False):
    """Runs a study (see the module's documentation) and returns a pandas
    DataFrame, one row per run: ``run``, the varied keys, ``status``,
    ``error``, ``skipped`` (finished by an earlier call), evacuation times
    (all and per group), agents, peak density and flows, simulated and wall
    time. Also written to ``<out>/results.parquet``."""
    import pandas as pd
    from distributed import Client, LocalCluster, as_completed

    spec = _load_spec(spec)
    _check(spec)
    base_dir = spec["_dir"]
    scene_path = spec["scene"] if os.path.isabs(spec["scene"]) else os.path.join(base_dir, spec["scene"])
    import ccrowd
    ccrowd.load_scene(scene_path, spec.get("base") or None)  # a bad scene stops the study before it starts
    out = spec.get("out", "study")
    out = out if os.path.isabs(out) else os.path.join(base_dir, out)
    os.makedirs(os.path.join(out, "runs"), exist_ok=True)
    runs = expand(spec)

    # finished runs are read back, not run again
    rows: dict = {}
    pending = []
    for r in runs:
        done = _finished(os.path.join(out, "runs", r["run"]), r["params"])
        if done is not None:
            rows[r["run"]] = {**done, "skipped": True}
        else:
            pending.append(r)

    if pending:
        own_cluster = None
        if scheduler is None:
            n = workers or min(len(pending), os.cpu_count() or 1)
            own_cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None)
            client = Client(own_cluster)
        elif isinstance(scheduler, Client):
            client = scheduler
        else:
            client = Client(scheduler)
        try:
            futures = {}
            for r in pending:
                f = client.submit(run_one, scene_path, r["params"], spec.get("base") or {}, os.path.join(out, "runs", r["run"]),
                                  spec.get("duration"), spec.get("steps"), spec.get("backend", "auto"), spec.get("threads", 1),
                                  spec.get("outputs") or {}, key=f"ccrowd-{r['run']}-{os.getpid()}-{time.time_ns()}", pure=False)
                futures[f] = r["run"]
            for k, f in enumerate(as_completed(futures), 1):
                rows[futures[f]] = {**f.result(), "skipped": False}
                if progress:
                    print(f"study: {k}/{len(pending)} runs done ({futures[f]}: {rows[futures[f]]['status']})", file=sys.stderr)
        finally:
            if own_cluster is not None:
                client.close()
                own_cluster.close()

    # the table, in the runs' order
    table = []
    for r in runs:
        table.append({"run": r["run"], **{k: _cell(v) for k, v in r["params"].items()}, **rows[r["run"]]})
    df = pd.DataFrame(table)
    df.to_parquet(os.path.join(out, "results.parquet"), index=False)
    return df


def _cell(v: Any) -> Any:
    """A parameter value as a table cell (lists as JSON text)."""
    return json.dumps(v) if isinstance(v, (list, dict)) else v


def main(argv: Optional[list] = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ccrowd.study", description="Run a ccrowd parameter study on Dask.")
    p.add_argument("spec", help="study spec (JSON), see the ccrowd.study documentation")
    p.add_argument("--scheduler", help="a Dask scheduler's address (default: a LocalCluster)")
    p.add_argument("--workers", type=int, help="LocalCluster workers (default: the CPU cores)")
    a = p.parse_args(argv)
    try:
        df = run(a.spec, scheduler=a.scheduler, workers=a.workers, progress=True)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    import pandas as pd
    with pd.option_context("display.max_columns", None, "display.width", 200):
        print(df.drop(columns=[c for c in ("error",) if c in df and df[c].isna().all()]).to_string(index=False))
    failed = int((df["status"] != "ok").sum())
    if failed:
        print(f"{failed} of {len(df)} runs failed", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
