"""The Python API against the CLI, zero-copy views, and errors."""
import csv
import json
import os
import subprocess

import numpy as np
import pytest

import ccrowd

# keys that differ between two runs of the same scene: clocks and where the files went
_CLOCK_KEYS = {"wall_s", "steps_per_s", "stage_ms_mean", "outputs", "scene"}


def _summary(path):
    with open(path) as f:
        return {k: v for k, v in json.load(f).items() if k not in _CLOCK_KEYS}


def test_api_run_writes_what_the_cli_writes(tmp_path, cli, room_exit):
    # the CLI, then the API, on the same scene with the same options
    a, b = tmp_path / "cli", tmp_path / "api"
    subprocess.run([cli, "run", room_exit, "--backend", "cpu", "--threads", "1", "--duration", "40", "--quiet", "--out", str(a),
                    "--trajectory-every", "20", "--trajectory-format", "txt"], check=True, capture_output=True)
    with ccrowd.Simulation(room_exit, "cpu", 1, out=b, duration=40, trajectory_every=20, trajectory_format="txt") as sim:
        summary = sim.run()
    assert sim.finished and sim.time == pytest.approx(40.0, abs=0.06)
    # the same numbers in summary.json, and the dict the API returns is the file
    assert _summary(a / "summary.json") == _summary(b / "summary.json")
    assert {k: v for k, v in summary.items() if k not in _CLOCK_KEYS} == _summary(b / "summary.json")
    assert summary["agents"]["exited"] > 0
    # the same exits, measurements and trajectories, byte for byte
    for name in ("exits.csv", "lines.csv", "areas.csv", "trajectories.txt"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert sorted(os.listdir(a)) == sorted(os.listdir(b))


def test_fields_are_views_that_see_the_next_step(room_exit):
    sim = ccrowd.Simulation(room_exit, "cpu", 1)
    g = sim.grid
    density, velocity, potential = sim.density, sim.mean_velocity, sim.potential(0)
    assert density.shape == (g.ny, g.nx) and velocity.shape == (g.ny, g.nx, 2) and potential.shape == (g.ny, g.nx)
    assert not density.flags.writeable and not density.flags.owndata
    # the agents are on the density grid: its integral is the head count
    assert density.sum() * g.h * g.h == pytest.approx(sim.agent_count, rel=1e-4)
    before = [density.copy(), velocity.copy(), potential.copy()]
    sim.step(20)
    # the same arrays, new values, equal to a fresh read
    for old, view, fresh in zip(before, (density, velocity, potential), (sim.density, sim.mean_velocity, sim.potential(0))):
        assert not np.array_equal(old, view)
        assert np.array_equal(view, fresh)
        assert view.ctypes.data == fresh.ctypes.data
    # a view keeps its simulation alive
    del sim
    assert np.isfinite(density).all()


def test_a_potential_view_shows_whole_fields_after_steps():
    # a 40 m x 20 m hall, exit on the west wall, a small crowd beside it: a
    # step solves the potential only where the crowd reads it (C++:
    # FimEarlyStop); a view handed out before shows the whole field after
    # steps, without a fresh read
    hall = {
        "format": "ccrowd-scene", "version": 1, "name": "hall",
        "domain": {"origin": [0, 0], "width": 40, "height": 20, "cell": 0.25},
        "goals": [{"name": "exit", "areas": [{"rect": {"min": [0, 9], "max": [0.5, 11]}}], "exit": True}],
        "groups": [{"name": "a", "spawn": [{"rect": {"min": [2, 8], "max": [5, 12]}}], "count": 30,
                    "route": ["exit"]}],
    }
    sim = ccrowd.Simulation(ccrowd.load_scene(hall), "cpu", 1)
    potential = sim.potential(0)
    sim.step(3)
    stepped = potential.copy()
    assert np.isfinite(stepped).all()
    assert np.array_equal(stepped, sim.potential(0))


def test_agents_are_the_table(room_exit):
    sim = ccrowd.Simulation(ccrowd.load_scene(room_exit, {"groups.occupants.count": 50}), "cpu", 1)
    a = sim.agents()
    assert set(a) >= {"x", "y", "vx", "vy", "id", "group", "field", "vmax"}
    assert len(a["x"]) == sim.agent_count == 50
    assert sorted(a["id"].tolist()) == list(range(50))
    assert (a["group"] == 0).all()
    # the group column as the C++ side derives it (what CUDA hands out, as a copy)
    assert np.array_equal(sim._sim.agent_groups(), a["group"])
    # everyone starts in the spawn rectangle (0.5 .. 9.5 m)
    assert (a["x"] >= 0.5).all() and (a["x"] <= 9.5).all()
    sim.step(40)
    b = sim.agents()
    assert np.hypot(b["vx"], b["vy"]).max() > 0.1


def test_step_and_run_until(room_exit):
    sim = ccrowd.Simulation(room_exit, "cpu", 1)
    assert sim.step(3) == 3 and sim.steps == 3
    seen = []
    sim.run(until=2.0, progress=lambda t, steps, agents, exited: seen.append(t))
    assert sim.time == pytest.approx(2.0, abs=1e-4) and not sim.finished
    assert seen == sorted(seen) and len(seen) == sim.steps - 3
    summary = sim.summary()
    assert summary["steps"] == sim.steps and summary["interrupted"] is True


def test_scene_edits(room_exit):
    scene = ccrowd.load_scene(room_exit)
    assert scene.get("groups.occupants.count") == 200 and scene.get("groups.0.count") == 200
    scene.set("model.seed", 7).set("domain.cell, groups.0.count", [0.5, 20])
    assert scene.get("model.seed") == 7 and scene.get("domain.cell") == 0.5
    sim = ccrowd.Simulation(scene, "cpu", 1)
    assert sim.agent_count == 20 and sim.grid.h == 0.5
    # a dict works like a file
    with open(room_exit) as f:
        data = json.load(f)
    assert ccrowd.Simulation(data, "cpu", 1).agent_count == 200


def test_bad_input_raises_the_clis_message(tmp_path, cli, room_exit):
    # a scene file with a bad value: the same message as `ccrowd run`
    bad = tmp_path / "bad.json"
    data = json.load(open(room_exit))
    data["groups"][0]["count"] = -3
    bad.write_text(json.dumps(data))
    r = subprocess.run([cli, "run", str(bad), "--quiet"], capture_output=True, text=True)
    assert r.returncode != 0
    with pytest.raises(ccrowd.InputError) as e:
        ccrowd.load_scene(str(bad))
    assert str(e.value) in r.stderr and "/groups/0/count" in str(e.value)
    assert isinstance(e.value, ValueError)
    # the same error through an override
    with pytest.raises(ccrowd.InputError, match="/groups/0/count = -3"):
        ccrowd.load_scene(room_exit, {"groups.occupants.count": -3})
    # missing file, unknown key, bad parameters and options
    with pytest.raises(ccrowd.InputError, match="no such file"):
        ccrowd.load_scene(str(tmp_path / "missing.json"))
    with pytest.raises(ccrowd.InputError, match="no element named 'nobody'"):
        ccrowd.load_scene(room_exit, {"groups.nobody.count": 1})
    with pytest.raises(ccrowd.InputError, match="model"):
        ccrowd.load_scene(room_exit, {"model.no_such_parameter": 1})
    with pytest.raises(ccrowd.InputError, match="NaN"):
        ccrowd.load_scene(room_exit, {"model.dt": float("nan")})
    with pytest.raises(ccrowd.InputError, match="allowed: auto, cpu, cuda"):
        ccrowd.Simulation(room_exit, backend="gpu")
    with pytest.raises(ccrowd.InputError, match="threads"):
        ccrowd.Simulation(room_exit, threads=-1)
    with pytest.raises(ccrowd.InputError, match="out=DIR"):
        ccrowd.Simulation(room_exit, snapshot_every=1.0)
    with pytest.raises(ccrowd.InputError, match="snapshot"):
        ccrowd.Simulation(room_exit, out=tmp_path / "o", snapshot_every=1.0, snapshot_format="gif")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("x")
    with pytest.raises(ccrowd.InputError, match="force=True"):
        ccrowd.Simulation(room_exit, out=tmp_path / "full")
    sim = ccrowd.Simulation(room_exit, "cpu", 1)
    with pytest.raises(ccrowd.InputError, match="no such field"):
        sim.potential(5)
    with pytest.raises(ccrowd.InputError):
        sim.step(-1)
    # run(until): NaN (which compares false with every time) and negative times are no simulated times
    for until in (float("nan"), -5.0):
        with pytest.raises(ccrowd.InputError, match=r"run\(until\)"):
            sim.run(until=until)
    assert sim.steps == 0


def test_exits_csv_matches_the_summary(tmp_path, room_exit):
    with ccrowd.Simulation(ccrowd.load_scene(room_exit, {"groups.occupants.count": 30}), "cpu", 1, out=tmp_path) as sim:
        summary = sim.run()
    rows = list(csv.DictReader(open(tmp_path / "exits.csv")))
    assert len(rows) == summary["agents"]["exited"] == 30
    assert summary["evacuation_time_s"] == pytest.approx(max(float(r["exit_time_s"]) for r in rows), abs=1e-6)


def test_type_stubs_name_everything_the_extension_has():
    # python/ccrowd/_ccrowd.pyi (python -m nanobind.stubgen -m ccrowd._ccrowd) kept in step with the extension
    from ccrowd import _ccrowd
    stub = open(os.path.join(os.path.dirname(ccrowd.__file__), "_ccrowd.pyi")).read()
    names = [n for n in dir(_ccrowd) if not n.startswith("_")]
    names += [n for n in dir(_ccrowd.Simulation) if not n.startswith("_")]
    missing = [n for n in names if f"def {n}(" not in stub and f"class {n}(" not in stub and f"class {n}:" not in stub]
    assert not missing, f"regenerate python/ccrowd/_ccrowd.pyi: it lacks {missing}"


def test_events_added_while_running(room_exit):
    # room_exit's door as a barrier; closed from Python at 5 s, nobody leaves after it
    scene = ccrowd.load_scene(room_exit)
    scene.set("barriers", [{"name": "door", "area": {"rect": {"min": [10, 4.5], "max": [10.5, 5.5]}}}]).check()
    sim = ccrowd.Simulation(scene, "cpu", 1)
    assert sim.stage_names[0] == "events"
    sim.add_event(5.0, "close", "door")
    sim.run(until=6.0)
    exited = sim.exited_total
    assert exited > 3
    sim.run(until=30.0)
    # those already past the door at 5 s walk on to the exit (3 m at most), nobody else
    assert sim.exited_total - exited <= 5 and sim.agent_count > 150
    # the closed door slides 3 m north from 31 s (a keyword argument per key): people leave again
    sim.add_event(31.0, "move", "door", path=[[10.25, 8.0]], speed=1.0)
    stuck = sim.exited_total
    sim.run(until=46.0)
    assert sim.exited_total - stuck > 8  # none while closed
    with pytest.raises(ccrowd.InputError, match="speed"):
        sim.add_event(50.0, "move", "door", path=[[10.25, 2.0]])
    with pytest.raises(ccrowd.InputError, match="before the simulation's time"):
        sim.add_event(1.0, "open", "door")
    with pytest.raises(ccrowd.InputError, match="door"):
        sim.add_event(40.0, "open", "front_door")
    with pytest.raises(ccrowd.InputError, match="value"):
        sim.add_event(40.0, "open", "door", value=3)
    plain = ccrowd.Simulation(room_exit, "cpu", 1)
    with pytest.raises(ccrowd.InputError, match="barrier"):
        plain.add_event(1.0, "close", "door")


def test_incidents_added_while_running(room_exit):
    # an escape group beside the room's occupants; an incident added from Python at 2 s turns them all
    scene = ccrowd.load_scene(room_exit)
    scene.set("groups", scene.get("groups") + [{"name": "escapers", "behaviour": "escape", "count": 0}]).check()
    sim = ccrowd.Simulation(scene, "cpu", 1)
    assert sim.stage_names[0] == "incidents" and "incident_cost" in sim.stage_names
    sim.add_incident("fire", [5.0, 5.0], radius=1.0, start=2.0, switch=[{"from": "occupants", "to": "escapers"}])
    sim.run(until=1.0)
    assert sim.summary()["incidents"][0]["started_s"] is None
    sim.run(until=3.0)
    summary = sim.summary()
    assert summary["incidents"][0]["started_s"] == pytest.approx(2.0, abs=0.051)
    groups = {g["name"]: g for g in summary["groups"]}
    assert groups["escapers"]["switched_in"] == groups["occupants"]["switched_out"] > 150
    assert groups["occupants"]["remaining"] == 0
    with pytest.raises(ccrowd.InputError, match="before the simulation's time"):
        sim.add_incident("late", [5.0, 5.0], start=1.0)
    with pytest.raises(ccrowd.InputError, match="taken"):
        sim.add_incident("fire", [5.0, 5.0])
    with pytest.raises(ccrowd.InputError, match="unknown group"):
        sim.add_incident("other", [5.0, 5.0], switch=[{"from": "nobody", "to": "escapers"}])
    with pytest.raises(ccrowd.InputError, match="inside the domain"):
        sim.add_incident("far", [500.0, 5.0])
    plain = ccrowd.Simulation(room_exit, "cpu", 1)
    with pytest.raises(ccrowd.InputError, match="behaviour groups"):
        plain.add_incident("fire", [5.0, 5.0])


def test_active_region_follows_its_focus(room_exit):
    # room_exit (14 m x 10 m) seen through a 4 m x 4 m window moving from (3, 5) to (7, 5) over 4 s
    scene = ccrowd.load_scene(room_exit)
    scene.set("active_region", {"size": [4, 4], "focus": [[0, 3, 5], [4, 7, 5]]}).check()
    sim = ccrowd.Simulation(scene, "cpu", 1)
    assert sim.stage_names[0] == "active_region"
    assert sim.active_region == pytest.approx((1.0, 3.0, 5.0, 7.0))
    sim.run(until=2.0)
    x0, y0, x1, y1 = sim.active_region
    assert (x0 + x1) / 2 == pytest.approx(5.0, abs=0.25) and x1 - x0 == pytest.approx(4.0)
    # only agents inside it are simulated; the others left, counted per group
    a = sim.agents()
    assert ((a["x"] >= x0) & (a["x"] < x1) & (a["y"] >= y0) & (a["y"] < y1)).all()
    assert sim.summary()["groups"][0]["left_region"] > 100
    with pytest.raises(ccrowd.InputError, match="active_region"):
        scene.set("active_region", {"size": [4, 4]}).check()


def test_traffic_of_a_roaming_group(root, tmp_path):
    # the small old town, 200 walkers choosing streets by affordance for 800 steps (40 s: a road or two each)
    scene = ccrowd.load_scene(str(root / "scenes" / "old_town_small.json"), {"groups.0.count": 200})
    with ccrowd.Simulation(scene, "cpu", 1, out=tmp_path / "town", steps=800) as sim:
        assert "route_choice" in sim.stage_names
        sim.run()
        t = sim.traffic()
        cols = sim.agents()
    assert len(t["junction_x"]) == 64 and len(t["road_a"]) == len(t["road_count"]) == len(t["road_x"])
    assert t["road_count"].sum() > 0 and t["junction_count"].sum() >= t["road_count"].sum()
    assert (t["viewshed_area"] > 0).all()
    # every walker walks to a junction of the network
    assert ((cols["junction"] >= 0) & (cols["junction"] < 64)).all()
    # the files: the road table's arrivals add up to the counts
    with open(tmp_path / "town" / "traffic_roads.csv") as f:
        rows = list(csv.DictReader(f))
    assert sum(int(r["arrivals [persons]"]) for r in rows) == t["road_count"].sum()
    assert (tmp_path / "town" / "traffic_map.png").exists()
