"""Fixtures of the Python API's tests (run by CTest: tests/CMakeLists.txt
sets PYTHONPATH to the build's python/ folder and CCROWD_CLI to the ccrowd
executable)."""
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture
def root() -> pathlib.Path:
    return ROOT


@pytest.fixture
def room_exit() -> str:
    return str(ROOT / "scenes" / "room_exit.json")


@pytest.fixture
def cli() -> str:
    exe = os.environ.get("CCROWD_CLI")
    if not exe or not os.path.exists(exe):
        pytest.fail("CCROWD_CLI does not name the ccrowd executable (CTest sets it)")
    return exe
