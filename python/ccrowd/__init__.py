"""ccrowd from Python: continuum crowds (Treuille et al. 2006) with the
unilateral incompressibility constraint (Narain et al. 2009).

    import ccrowd
    scene = ccrowd.load_scene("scenes/room_exit.json", {"model.seed": 2})
    with ccrowd.Simulation(scene, threads=1, out="run1") as sim:
        density = sim.density          # NumPy view, no copy: it changes with each step
        while not sim.finished:
            sim.step()
        print(sim.summary()["evacuation_time_s"])

The same scene checks and messages as ``ccrowd run`` (errors are
:class:`InputError`, a ValueError, carrying the CLI's message), the same
outputs (summary.json, exits.csv, lines.csv, areas.csv, snapshots,
trajectories) written by the same code. Fields are arrays over the
simulation's own memory: NumPy arrays on the CPU backend, DLPack arrays
(``cupy.from_dlpack``, ``torch.from_dlpack``) on CUDA. Parameter studies on
Dask: :mod:`ccrowd.study`.
"""
from __future__ import annotations

import copy
import json
import os
from typing import Any, Callable, Mapping, NamedTuple, Optional, Sequence, Union

import numpy as np

from . import _ccrowd
from ._ccrowd import BackendError, Error, InputError

__all__ = ["Scene", "Simulation", "Grid", "load_scene", "default_scene_path", "InputError", "BackendError", "Error"]
__version__ = "0.1.0"

_MISSING = object()


def default_scene_path() -> str:
    """Path of the bundled default scene (as ``ccrowd run`` without a scene)."""
    return _ccrowd.default_scene_path()


def _split(key: str) -> list:
    if not isinstance(key, str) or not key or any(not part for part in key.split(".")):
        raise InputError(f"scene key {key!r}: not a dotted key (allowed: e.g. 'model.seed', 'groups.0.count', 'groups.occupants.count')")
    return key.split(".")


def _list_index(node: list, part: str, key: str) -> int:
    """The index of list item ``part``: a number, or the name of the one item whose "name" it is."""
    if part.lstrip("-").isdigit():
        k = int(part)
        if not -len(node) <= k < len(node):
            raise InputError(f"scene key {key!r}: index {k} out of range (allowed: 0 .. {len(node) - 1})")
        return k
    named = [k for k, e in enumerate(node) if isinstance(e, dict) and e.get("name") == part]
    if len(named) != 1:
        names = [e.get("name") for e in node if isinstance(e, dict) and "name" in e]
        raise InputError(f"scene key {key!r}: no element named '{part}' (allowed: an index 0 .. {len(node) - 1} or one of {names})")
    return named[0]


def _child(node: Any, part: str, key: str, create: bool) -> Any:
    """The member ``part`` of ``node``: a dict key, a list index, or the list element whose "name" is ``part``."""
    if isinstance(node, dict):
        if part not in node:
            if not create:
                raise InputError(f"scene key {key!r}: no '{part}' here (allowed: {', '.join(sorted(node)) or 'nothing'})")
            node[part] = {}
        return node[part]
    if isinstance(node, list):
        return node[_list_index(node, part, key)]
    raise InputError(f"scene key {key!r}: '{part}' is inside a {type(node).__name__}, not an object or a list")


class Scene:
    """A scene file's content (the JSON of scenes/README.md) with the path it
    came from; edit it with :meth:`set` (dotted keys) or through ``data``,
    then hand it to :class:`Simulation`, which checks it again."""

    def __init__(self, data: dict, path: str):
        self.data = data
        self.path = path

    def get(self, key: str, default: Any = _MISSING) -> Any:
        """The value at a dotted key: ``"model.seed"``, ``"groups.0.count"``
        or ``"groups.occupants.count"`` (list elements by index or name)."""
        node = self.data
        try:
            for part in _split(key):
                node = _child(node, part, key, create=False)
        except InputError:
            if default is _MISSING:
                raise
            return default
        return node

    def set(self, key: str, value: Any) -> "Scene":
        """Sets the value at a dotted key (objects on the way are created;
        list elements by index or name) and returns the scene. Several keys
        at once: ``"a.b, c.d"`` with a list or tuple of as many values.
        Nothing is checked here: :meth:`check` and :class:`Simulation` do."""
        keys = [k.strip() for k in key.split(",")] if "," in key else [key]
        if len(keys) > 1:
            if not isinstance(value, (list, tuple)) or len(value) != len(keys):
                raise InputError(f"scene key {key!r}: {len(keys)} keys need a list of {len(keys)} values, got {value!r}")
            for k, v in zip(keys, value):
                self.set(k, v)
            return self
        parts = _split(key)
        node = self.data
        for part in parts[:-1]:
            node = _child(node, part, key, create=True)
        last = parts[-1]
        if isinstance(node, list):
            node[_list_index(node, last, key)] = copy.deepcopy(value)
        elif isinstance(node, dict):
            node[last] = copy.deepcopy(value)
        else:
            raise InputError(f"scene key {key!r}: '{last}' is inside a {type(node).__name__}, not an object or a list")
        return self

    def update(self, overrides: Mapping[str, Any]) -> "Scene":
        """:meth:`set` for each item of ``overrides`` ({dotted key: value})."""
        for k, v in overrides.items():
            self.set(k, v)
        return self

    def copy(self) -> "Scene":
        return Scene(copy.deepcopy(self.data), self.path)

    def to_json(self) -> str:
        try:
            return json.dumps(self.data, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise InputError(f"{self.path}: /: not representable as JSON ({e}) (allowed: numbers, strings, lists and objects, no NaN or infinity)") from None

    def check(self) -> "Scene":
        """Checks the scene as ``ccrowd run`` does when it loads a file
        (raises InputError with the CLI's message); returns the scene."""
        _ccrowd.check_scene_text(self.to_json(), self.path)
        return self

    def __repr__(self) -> str:
        return f"Scene({self.data.get('name', os.path.basename(self.path))!r}, path={self.path!r})"


def load_scene(path_or_dict: Union[str, os.PathLike, Mapping[str, Any], Scene], overrides: Optional[Mapping[str, Any]] = None,
               base_dir: Optional[str] = None) -> Scene:
    """A scene from a file (checked with ``ccrowd run``'s messages) or a dict,
    with optional ``overrides`` ({dotted key: value}, see :meth:`Scene.set`),
    checked again after them. A dict's relative file names (floor plans)
    are read from ``base_dir`` (default: the working directory)."""
    if isinstance(path_or_dict, Scene):
        scene = path_or_dict.copy()
    elif isinstance(path_or_dict, Mapping):
        label = os.path.join(base_dir, "scene.json") if base_dir else "scene.json"
        scene = Scene(copy.deepcopy(dict(path_or_dict)), label)
    else:
        path = os.fspath(path_or_dict)
        _ccrowd.check_scene_file(path)
        with open(path, "rb") as f:
            scene = Scene(json.loads(f.read()), path)
        if not overrides:
            return scene
    if overrides:
        scene.update(overrides)
    return scene.check()


class Grid(NamedTuple):
    nx: int      #: cells along x
    ny: int      #: cells along y
    h: float     #: cell size [m]
    x0: float    #: x of the grid's corner [m]
    y0: float    #: y of the grid's corner [m]


class Simulation:
    """A running simulation.

    ``scene``: a :class:`Scene`, a path or a dict. ``backend``: ``"auto"``
    (CUDA when a GPU works, else the CPU), ``"cpu"`` or ``"cuda"``.
    ``threads``: CPU threads (0: all cores). ``out``: an output directory
    (new or empty unless ``force``), written as ``ccrowd run --out`` writes it,
    with ``snapshot_every`` [s], ``snapshot_format``, ``fields``,
    ``trajectory_every`` [steps], ``trajectory_format`` and ``measure_every``
    [s] as the CLI's options of those names. ``duration`` [s] or ``steps``
    override the scene's run length.

    Fields (``density``, ``pressure``, ``mean_velocity``, ``potential(k)``)
    are read-only views of the simulation's memory: they see each step's
    values without a new call. ``agents()`` views the agent table, which the
    next step re-sorts and resizes: call it again after stepping.
    """

    def __init__(self, scene: Union[Scene, str, os.PathLike, Mapping[str, Any]], backend: str = "auto", threads: int = 0, *,
                 out: Optional[Union[str, os.PathLike]] = None, force: bool = False, snapshot_every: float = 0.0,
                 snapshot_format: str = "vti", fields: str = "density,velocity,pressure,potential",
                 trajectory_every: int = 0, trajectory_format: str = "sqlite", measure_every: float = 1.0,
                 duration: Optional[float] = None, steps: Optional[int] = None):
        if not isinstance(scene, Scene):
            scene = load_scene(scene)
        if duration is not None and not (isinstance(duration, (int, float)) and duration > 0 and duration < float("inf")):
            raise InputError(f"duration: {duration!r} is not allowed (allowed: a finite number of seconds > 0)")
        if steps is not None and not (isinstance(steps, int) and steps >= 0):
            raise InputError(f"steps: {steps!r} is not allowed (allowed: an integer >= 0)")
        self.scene = scene
        self._sim = _ccrowd.Simulation(
            scene.to_json(), scene.path, backend, threads, os.fspath(out) if out is not None else "", force,
            snapshot_every, snapshot_format, fields, trajectory_every, trajectory_format, measure_every,
            float(duration) if duration is not None else -1.0, steps if steps is not None else -1)
        self._summary: Optional[dict] = None

    # -- stepping ---------------------------------------------------------
    def step(self, n: int = 1) -> int:
        """Advances ``n`` steps (fewer when the run finishes); returns how many ran."""
        if not isinstance(n, int) or n < 0:
            raise InputError(f"step(n): {n!r} is not allowed (allowed: an integer >= 0)")
        return self._sim.step(n)

    def run(self, until: Optional[float] = None, progress: Optional[Callable[[float, int, int, int], Any]] = None) -> dict:
        """Steps until the run is finished (its duration or step limit, or
        nobody left) or, with ``until`` [s], until that simulated time;
        ``progress(time, steps, agents, exited)`` is called after each step.
        A finished run's outputs are closed and its summary written; returns
        :meth:`summary`. Ctrl-C closes the outputs as an interrupted run and
        raises KeyboardInterrupt."""
        self._sim.run(float("inf") if until is None else float(until), progress)
        if self._sim.finished:
            return self.finish()
        return self.summary()

    def add_event(self, time: float, action: str, target: str, value: Optional[float] = None, **keys: Any) -> None:
        """Adds an event to the scene's timeline while it runs (as an item of
        the scene file's ``events``): ``action`` ``"open"``, ``"close"`` or
        ``"move"`` a barrier; ``"set_discomfort"`` (to ``value``),
        ``"move_discomfort"`` or ``"grow_discomfort"`` a named discomfort
        region; ``"enable_goal"`` or ``"disable_goal"`` a goal;
        ``"set_route"`` or ``"set_panic"`` (to ``value``) of a group;
        ``"start_incident"``. The action's other
        keys (``path``, ``speed``, ``distance``, ``area``, ``route``) are
        keyword arguments, as in the scene file. It applies at the first step
        starting at or after ``time`` [s] (not before :attr:`time`). The scene
        needs a timeline (events, barriers or named discomfort regions);
        errors are InputError with the scene file's messages."""
        event: dict = {"time": time, "action": action, "target": target}
        if value is not None:
            event["value"] = value
        event.update(keys)
        try:
            text = json.dumps(event, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise InputError(f"event: {event!r} is not allowed ({e}) (allowed: finite numbers and strings)") from None
        self._sim.add_event(text)

    def add_incident(self, name: str, position: Sequence[float], radius: float = 2.0, start: Optional[float] = None,
                     offset: float = 0.0, weight: float = 2.0, switch: Sequence[Mapping[str, Any]] = ()) -> None:
        """Adds an incident while the simulation runs (as an item of the scene
        file's ``incidents``): a disc of harm of ``radius`` [m] at
        ``position`` [x, y] that starts at the first step at or after
        ``start`` [s] (default: now), with eq. 4.8's ``offset`` [s], eq. 4.9's
        ``weight`` and ``switch`` rules (dicts with ``from``, ``to`` and
        optional ``fraction``, ``within``) applied when it starts. The scene
        needs incidents or behaviour groups (escape, hide, approach); errors
        are InputError with the scene file's messages."""
        incident = {"name": name, "position": list(position), "radius": radius,
                    "start": self.time if start is None else start, "offset": offset, "weight": weight,
                    "switch": [dict(r) for r in switch]}
        try:
            text = json.dumps(incident, allow_nan=False)
        except (TypeError, ValueError) as e:
            raise InputError(f"incident: {incident!r} is not allowed ({e}) (allowed: finite numbers and strings)") from None
        self._sim.add_incident(text)

    def finish(self, interrupted: Optional[bool] = None) -> dict:
        """Closes the outputs and writes summary.json and exits.csv (with
        ``out``); returns the summary. Later calls return the same."""
        if self._summary is None:
            self._summary = json.loads(self._sim.finish(not self._sim.finished if interrupted is None else interrupted))
        return self._summary

    def summary(self) -> dict:
        """The dict summary.json holds (as of now; the final one after :meth:`finish`)."""
        if self._summary is not None:
            return self._summary
        return json.loads(self._sim.summary(not self._sim.finished))

    def __enter__(self) -> "Simulation":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.finish(interrupted=True if exc_type is not None else None)

    # -- state ------------------------------------------------------------
    time = property(lambda self: self._sim.time, doc="Simulated time [s].")
    steps = property(lambda self: self._sim.steps, doc="Steps taken.")
    finished = property(lambda self: self._sim.finished, doc="Duration or step limit reached, or nobody left and no source to come.")
    agent_count = property(lambda self: self._sim.agent_count, doc="Agents in the domain.")
    active_region = property(lambda self: self._sim.active_region,
                             doc="(x0, y0, x1, y1) [m] of the active region now (the scene's active_region; the whole domain without one).")
    spawned_total = property(lambda self: self._sim.spawned_total)
    exited_total = property(lambda self: self._sim.exited_total)
    backend = property(lambda self: self._sim.backend, doc="'cpu' or 'cuda'.")
    note = property(lambda self: self._sim.note, doc="Why 'auto' chose the CPU, when it did ('' otherwise).")
    dt = property(lambda self: self._sim.dt, doc="Time step [s].")
    wall_s = property(lambda self: self._sim.wall_s, doc="Wall time spent stepping and writing [s].")
    stage_names = property(lambda self: list(self._sim.stage_names), doc="The step's stages, in order.")
    group_names = property(lambda self: list(self._sim.group_names))
    field_groups = property(lambda self: list(self._sim.field_groups), doc="Group of each potential field.")
    field_steps = property(lambda self: list(self._sim.field_steps), doc="Route step of each potential field.")

    @property
    def grid(self) -> Grid:
        return Grid(*self._sim.grid)

    @property
    def density(self):
        """Density of the last splat, shape (ny, nx), [1/m^2]; no copy."""
        return self._sim.density()

    @property
    def pressure(self):
        """UIC pressure of the last step, shape (ny, nx), [m^2/s]; no copy."""
        return self._sim.pressure()

    @property
    def mean_velocity(self):
        """Mean velocity of the last splat, shape (ny, nx, 2), [m/s]; no copy."""
        return self._sim.mean_velocity()

    def potential(self, k: int = 0):
        """Potential of field ``k`` (see ``field_groups``), shape (ny, nx), [s]; +inf where unreachable; no copy."""
        return self._sim.potential(k)

    def desired_velocity(self, k: int = 0) -> np.ndarray:
        """Desired velocity of field ``k``, shape (ny, nx, 2), [m/s] (a copy)."""
        return self._sim.desired_velocity(k)

    @property
    def face_speed(self) -> np.ndarray:
        """Face speeds (E, N, W, S) of the last step, shape (ny, nx, 4), [m/s] (a copy)."""
        return self._sim.face_speed()

    def agents(self) -> dict:
        """The agent table without copying: ``x``, ``y`` [m], ``vx``, ``vy``
        [m/s], ``px``, ``py`` (preferred velocity) [m/s], ``vmax`` [m/s],
        ``id``, ``field`` (potential followed), ``junction`` and ``came``
        (route choice: the junction walked to and the one passed last, -1:
        none; int16), and ``group`` (computed from
        the field: a small NumPy array; on CUDA a host copy, the only
        column that crosses). Valid until the next step."""
        cols = dict(self._sim.agent_columns())
        if isinstance(cols["field"], np.ndarray):
            cols["group"] = np.asarray(self.field_groups, dtype=np.int32)[cols["field"]] if len(cols["field"]) else np.zeros(0, np.int32)
        else:
            cols["group"] = self._sim.agent_groups()
        return cols

    def traffic(self) -> dict:
        """Route choice's street network and its traffic so far (seed 004;
        scenes with ``route_choice`` groups, empty arrays otherwise), host
        copies: per junction ``junction_x``, ``junction_y``,
        ``junction_radius`` [m], ``viewshed_area`` [m^2], ``junction_count``
        (arrivals); per road ``road_a``, ``road_b`` (its junctions),
        ``road_length``, ``road_width`` [m], ``road_count`` (arrivals along
        it), ``weight_ab``, ``weight_ba`` (visible area toward it from either
        end [m^2]), ``road_x``, ``road_y`` (lists of polylines [m])."""
        return dict(self._sim.traffic())

    def __repr__(self) -> str:
        g = self.grid
        return (f"Simulation({self.scene!r}, backend={self.backend!r}, t={self.time:g} s, steps={self.steps}, "
                f"agents={self.agent_count}, grid={g.nx}x{g.ny} of {g.h:g} m)")
