"""Parameter studies on a Dask LocalCluster: rows, a failed run, a restart."""
import json
import os

import pytest

pytest.importorskip("distributed", reason="dask.distributed is not installed (pip install 'dask[distributed]' pandas pyarrow)")
import pandas as pd  # noqa: E402

from ccrowd import study  # noqa: E402


def _spec(room_exit, out):
    # 4 seeds x 3 head counts = 12 runs; -1 persons is out of range: that run fails
    return {"scene": room_exit, "vary": {"model.seed": [1, 2, 3, 4], "groups.occupants.count": [20, 40, -1]},
            "duration": 8, "out": str(out)}


def test_study_runs_every_combination_and_reports_the_failed_ones(tmp_path, room_exit):
    spec = _spec(room_exit, tmp_path / "s")
    df = study.run(spec, workers=2)
    assert len(df) == 12 and list(df["run"]) == sorted(df["run"])
    failed = df[df["status"] != "ok"]
    assert len(failed) == 4 and (failed["groups.occupants.count"] == -1).all()
    assert failed["error"].str.contains("/groups/0/count = -1").all()
    ok = df[df["status"] == "ok"]
    assert (ok["spawned"] == ok["groups.occupants.count"]).all()
    assert (ok["time_s"] > 7.9).all() and (ok["exited"] > 0).all()
    assert ok["peak_flow_per_s.door"].notna().all() and ok["max_density"].notna().all()
    # the seed matters, and each run wrote its own outputs
    assert ok.groupby("groups.occupants.count")["exited"].nunique().max() > 1 or ok["max_density"].nunique() > 1
    for run in ok["run"]:
        summary = json.load(open(tmp_path / "s" / "runs" / run / "summary.json"))
        assert summary["steps"] == int(df.set_index("run").loc[run, "steps"])
    # the table on disk is the table returned
    on_disk = pd.read_parquet(tmp_path / "s" / "results.parquet")
    assert list(on_disk["run"]) == list(df["run"]) and list(on_disk["status"]) == list(df["status"])
    assert not df["skipped"].any()

    # again: the finished runs are read back, the failed ones run again
    again = study.run(spec, workers=2)
    assert list(again["skipped"]) == [s == "ok" for s in df["status"]]
    assert list(again["exited"].fillna(-1)) == list(df["exited"].fillna(-1))
    # a run whose row.json is gone runs again
    os.remove(tmp_path / "s" / "runs" / ok["run"].iloc[0] / "row.json")
    third = study.run(spec, workers=2)
    assert int((~third["skipped"]).sum()) == 5


def test_study_spec_errors(tmp_path, room_exit):
    with pytest.raises(ValueError, match="unknown key"):
        study.expand({"scene": room_exit, "vary": {}, "colour": 1})
    with pytest.raises(ValueError, match="non-empty lists"):
        study.expand({"scene": room_exit, "vary": {"model.seed": 3}})
    with pytest.raises(ValueError, match="no such file"):
        study.run({"scene": str(tmp_path / "none.json"), "out": str(tmp_path / "o")})
    # a random sample of the grid, reproducible
    spec = {"scene": room_exit, "vary": {"model.seed": list(range(100))}, "sample": 5, "sample_seed": 3}
    assert study.expand(spec) == study.expand(spec) and len(study.expand(spec)) == 5
    # several keys together
    runs = study.expand({"scene": room_exit, "vary": {"model.seed, groups.0.count": [[1, 10], [2, 20]]}})
    assert [r["params"] for r in runs] == [{"model.seed, groups.0.count": [1, 10]}, {"model.seed, groups.0.count": [2, 20]}]
