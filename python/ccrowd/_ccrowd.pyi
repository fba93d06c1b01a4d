"""ccrowd's engine (use the ccrowd package, not this module)"""

import numpy
from numpy.typing import NDArray


class Error(RuntimeError):
    pass

class BackendError(RuntimeError):
    pass

class InputError(ValueError):
    pass

def check_scene_file(path: str) -> None:
    """
    Reads and checks the scene file at path (raises InputError as `ccrowd run` reports it).
    """

def check_scene_text(text: str, path: str) -> None:
    """Checks a scene's JSON text read as if it were the file at path."""

def default_scene_path() -> str: ...

class Simulation:
    def __init__(self, text: str, path: str, backend: str, threads: int, out: str, force: bool, snapshot_every: float, snapshot_format: str, fields: str, trajectory_every: int, trajectory_format: str, measure_every: float, duration: float, max_steps: int) -> None: ...

    def step(self, n: int) -> int: ...

    def run(self, until: float, progress: object | None) -> None: ...

    def finish(self, interrupted: bool) -> str: ...

    def summary(self, interrupted: bool) -> str: ...

    @property
    def note(self) -> str: ...

    @property
    def finished(self) -> bool: ...

    @property
    def time(self) -> float: ...

    @property
    def steps(self) -> int: ...

    @property
    def agent_count(self) -> int: ...

    @property
    def spawned_total(self) -> int: ...

    @property
    def exited_total(self) -> int: ...

    @property
    def wall_s(self) -> float: ...

    @property
    def backend(self) -> str: ...

    @property
    def dt(self) -> float: ...

    @property
    def grid(self) -> tuple: ...

    @property
    def stage_names(self) -> list[str]: ...

    @property
    def group_names(self) -> list[str]: ...

    @property
    def field_groups(self) -> list[int]: ...

    @property
    def field_steps(self) -> list[int]: ...

    def density(self) -> object: ...

    def pressure(self) -> object: ...

    def mean_velocity(self) -> object: ...

    def potential(self, k: int) -> object: ...

    def desired_velocity(self, k: int) -> NDArray[numpy.float32]: ...

    def face_speed(self) -> NDArray[numpy.float32]: ...

    def agent_columns(self) -> dict: ...
