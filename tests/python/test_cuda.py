"""The Python API on the CUDA backend: fields and agents as DLPack views of
device memory that CuPy and PyTorch take without a copy, the same numbers as
the CPU backend, and a study's runs pinned to the GPU. Skipped, saying why,
where no GPU answers."""
import pytest

import ccrowd


def _cuda_sim(scene, **kw):
    try:
        return ccrowd.Simulation(scene, "cuda", 0, **kw)
    except ccrowd.BackendError as e:
        pytest.skip(f"no CUDA backend here: {e}")


def test_fields_are_device_views_cupy_and_torch_take_without_a_copy(room_exit):
    cp = pytest.importorskip("cupy")
    torch = pytest.importorskip("torch")
    sim = _cuda_sim(room_exit)
    g = sim.grid
    density = sim.density
    # a DLPack object on CUDA device memory (kDLCUDA = 2)
    assert density.__dlpack_device__()[0] == 2
    c = cp.from_dlpack(density)
    t = torch.from_dlpack(sim.density)
    assert c.shape == (g.ny, g.nx) and tuple(t.shape) == (g.ny, g.nx)
    assert c.data.ptr == t.data_ptr()
    # the agents are on the density grid: its integral is the head count
    assert float(c.sum()) * g.h * g.h == pytest.approx(sim.agent_count, rel=1e-4)
    before = c.copy()
    sim.step(20)
    # the same device memory holds the new step's values
    assert not bool(cp.array_equal(before, c))
    assert bool(cp.array_equal(c, cp.from_dlpack(sim.density)))
    assert float(t.sum()) * g.h * g.h == pytest.approx(sim.agent_count, rel=1e-4)
    # the potential too
    phi = cp.from_dlpack(sim.potential(0))
    assert phi.shape == (g.ny, g.nx) and bool(cp.isfinite(phi).any())


def test_agent_columns_on_the_device(room_exit):
    cp = pytest.importorskip("cupy")
    sim = _cuda_sim(ccrowd.load_scene(room_exit, {"groups.occupants.count": 50}))
    a = sim.agents()
    x, ids = cp.from_dlpack(a["x"]), cp.from_dlpack(a["id"])
    assert x.shape == (50,) and sorted(ids.get().tolist()) == list(range(50))
    # everyone starts in the spawn rectangle (0.5 .. 9.5 m)
    assert float(x.min()) >= 0.5 and float(x.max()) <= 9.5
    # the group: a host copy on CUDA
    assert a["group"].shape == (50,) and (a["group"] == 0).all()


def test_cuda_summary_matches_the_cpu(room_exit):
    # the same scene on both backends: the same head counts, evacuation within a step or two
    sims = [ccrowd.Simulation(room_exit, "cpu", 0, duration=40), _cuda_sim(room_exit, duration=40)]
    cpu, gpu = (s.run() for s in sims)
    assert gpu["backend"] == "cuda" and cpu["backend"] == "cpu"
    assert gpu["agents"]["spawned"] == cpu["agents"]["spawned"]
    assert abs(gpu["agents"]["exited"] - cpu["agents"]["exited"]) <= max(2, 0.02 * cpu["agents"]["exited"])


def test_study_runs_are_pinned_to_the_gpu(tmp_path, room_exit):
    pytest.importorskip("distributed", reason="dask.distributed is not installed")
    from ccrowd import study
    _cuda_sim(room_exit)  # skips without a GPU
    df = study.run({"scene": room_exit, "vary": {"model.seed": [1, 2, 3, 4]}, "duration": 5, "out": str(tmp_path / "s"),
                    "backend": "auto"}, workers=2)
    assert (df["status"] == "ok").all(), df["error"].tolist()
    assert (df["backend"] == "cuda").all()
