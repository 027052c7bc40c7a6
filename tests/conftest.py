"""Every test runs once per chunk backend named by ``--backends`` (default
``numpy,simulated-device``, the CPU ones): a host/device mixing bug only shows on a device.
Outside ``tests/cluster/`` computations run on dask's threaded scheduler
(``gpunumeric.scheduler: threads``), so the suite starts no cluster and stays fast;
``tests/cluster/`` starts real ones.

``--backends cupy`` (or ``numpy,simulated-device,cupy``) runs the suite on real CuPy chunks
(``gpunumeric.backend: cupy``). Where CuPy is missing or sees no device, every cupy test is
skipped with one reason, "CuPy sees no CUDA device: ...", so the option collects the whole
suite on any machine. What a cupy test may need beyond the device, the skip says:

- ``@pytest.mark.not_on_cupy(reason=...)``: the test cannot run on CuPy chunks, and why
  (its other backends still run it). A ``not_on_cupy`` without a reason is an error.
- ``tests/cluster/`` on cupy also needs ``dask_cuda``: the embedded cluster is a
  ``LocalCUDACluster`` wherever NVML sees a GPU (``_runtime/cluster.py``), so without
  dask_cuda those tests would fail on a missing install, not on our code. The clusters
  the tests build themselves stay ``distributed.LocalCluster``s of 2 or 4 CPU worker
  processes: ``LocalCUDACluster`` runs one worker per GPU and the GPU machines have one,
  while worker processes sharing that GPU (a CUDA context each) still move CuPy chunks
  between workers as separate GPUs would, through host memory. Device-memory spilling on
  ``LocalCUDACluster`` is ``tests/gpu/test_device_spilling.py``'s.

With dask's array query planning on (``DASK_ARRAY__QUERY_PLANNING=True``: dask's arrays
are expressions), a test that cannot apply says why:
``@pytest.mark.not_with_query_planning(reason=...)`` skips it then, with the reason (what
dask's expression arrays lack); without a reason it is an error.

Every cupy test carries the ``gpu`` marker (``-m gpu`` selects all that need a device).
Tests marked ``gpu`` themselves (``tests/gpu/``) are about CuPy: they run on cupy alone,
once, whatever ``--backends`` says.
"""

from __future__ import annotations

import functools
import os
import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

import dask_gpunumeric
from dask_gpunumeric._backends import backend_names, cupy_backend
from dask_gpunumeric._runtime import dask_arrays

CPU_BACKENDS = "numpy,simulated-device"
CUPY = "cupy"
CLUSTER_TESTS = pathlib.Path(__file__).resolve().parent / "cluster"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backends",
        default=CPU_BACKENDS,
        help=f"comma-separated chunk backends to run every test on (default {CPU_BACKENDS}; "
        f"add {CUPY} for CuPy chunks on a GPU: skipped where CuPy sees no device)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "not_on_cupy(reason): the test cannot run on CuPy chunks (its cupy run is skipped "
        "with the reason; other backends run it)",
    )
    config.addinivalue_line(
        "markers",
        "not_with_query_planning(reason): the test cannot apply with dask's array query "
        "planning on (skipped then, with the reason)",
    )
    unknown = set(chosen_backends(config)) - set(backend_names())
    if unknown:
        raise pytest.UsageError(
            f"--backends: unknown {', '.join(sorted(unknown))}; "
            f"choose from {', '.join(backend_names())}"
        )


def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker("not_with_query_planning")
    if marker is None:
        return
    if not marker.kwargs.get("reason"):
        pytest.fail(f"{item.nodeid}: not_with_query_planning needs reason='why'", pytrace=False)
    if dask_arrays.query_planning():
        pytest.skip(f"dask's array query planning is on: {marker.kwargs['reason']}")


def chosen_backends(config: pytest.Config) -> list[str]:
    return [name.strip() for name in config.getoption("backends").split(",") if name.strip()]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" not in metafunc.fixturenames:
        return
    definition = metafunc.definition
    marker = definition.get_closest_marker("not_on_cupy")
    if marker is not None and not marker.kwargs.get("reason"):
        pytest.fail(f"{definition.nodeid}: not_on_cupy needs reason='why'", pytrace=False)
    names = [CUPY] if definition.get_closest_marker("gpu") else chosen_backends(metafunc.config)
    params = [
        pytest.param(name, marks=cupy_marks(definition) if name == CUPY else ()) for name in names
    ]
    metafunc.parametrize("backend", params, indirect=True)


def cupy_marks(definition: pytest.Item) -> list[pytest.MarkDecorator]:
    """``gpu``, and a skip with its reason where the cupy run of ``definition`` cannot run."""
    reason = cupy_skip_reason(definition)
    return [pytest.mark.gpu] + ([pytest.mark.skip(reason=reason)] if reason else [])


def cupy_skip_reason(definition: pytest.Item) -> str | None:
    """Why the cupy run of ``definition`` is skipped here, or None: it runs."""
    if (missing := no_device_reason()) is not None:
        return missing
    if (marker := definition.get_closest_marker("not_on_cupy")) is not None:
        return f"not on cupy: {marker.kwargs['reason']}"
    if CLUSTER_TESTS in definition.path.parents:
        return no_dask_cuda_reason()
    return None


@functools.cache
def no_device_reason() -> str | None:
    """None where CuPy sees a device, else the one reason every cupy test is skipped for."""
    if cupy_backend.device_available():
        return None
    try:
        import cupy
    except ImportError as error:
        return f"CuPy sees no CUDA device: CuPy is not installed ({error})"
    try:
        count = int(cupy.cuda.runtime.getDeviceCount())
    except Exception as error:  # noqa: BLE001 - CuPy raises its runtime's errors
        return f"CuPy sees no CUDA device: {type(error).__name__}: {error}"
    return f"CuPy sees no CUDA device: cupy.is_available() is False ({count} device(s))"


@functools.cache
def no_dask_cuda_reason() -> str | None:
    try:
        import dask_cuda  # noqa: F401
    except ImportError as error:
        return (
            "tests/cluster on cupy needs dask_cuda (the embedded cluster is a "
            f"LocalCUDACluster where a GPU is seen): {error}"
        )
    return None


# Test arrays are small: below the library's default (65,536) they would all be one chunk
# (and evaluated in-process), so tests lower the threshold to exercise multi-block paths.
TEST_MIN_CHUNK_ELEMENTS = 4096
# The small-work policy would compute most test arrays eagerly in this process with NumPy
# itself, and the suite would no longer test lowering: it is off unless this environment
# variable sets it (CI runs tests/parity and tests/property once more with "64 MiB").
TEST_CLIENT_WORK_BYTES = os.environ.get("DGN_TESTS_CLIENT_WORK_BYTES", "0")


@pytest.fixture(scope="session")
def kernel_cache(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The suite's disk cache of compiled kernels: its own, not the user's."""
    return str(tmp_path_factory.mktemp("kernel-cache"))


@pytest.fixture(autouse=True)
def backend(request: pytest.FixtureRequest, kernel_cache: str):
    name = getattr(request, "param", "numpy")
    with dask_gpunumeric.config.set(
        backend=name,
        scheduler="threads",
        min_chunk_elements=TEST_MIN_CHUNK_ELEMENTS,
        kernel_cache=kernel_cache,
        client_work_bytes=TEST_CLIENT_WORK_BYTES,
    ):
        yield name


@pytest.fixture(autouse=True)
def own_checkpoints() -> None:
    """Each test counts its automatic persists towards a lineage checkpoint
    (``checkpoint-every``) from zero: the count is per process, so without this a
    checkpoint (two copies of every chunk, moved between workers) falls wherever the tests
    run before it in that worker of pytest-xdist put it, inside a measured loop too."""
    from dask_gpunumeric._array import materialize

    materialize._Checkpoints.runs = 0


@pytest.fixture
def four_workers() -> Iterator[None]:
    """Default chunks as on a cluster of four CPU workers, whatever this machine is: a
    test that asserts a result stays split over several blocks needs several workers'
    partitioning. One GPU is one worker (``_runtime/partitioning.py``), so on the GPU
    machine a test array of a few thousand elements is one block; a CPU with one core too."""
    with dask_gpunumeric.config.set(**{"cluster.workers": 4, "cluster.gpus": 0}):
        yield


@pytest.fixture
def scheduler_runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the scheduler calls made (computations, persists), in order; no work
    is kept in the client by the small-work policy."""
    from dask_gpunumeric import config
    from dask_gpunumeric._runtime import execution

    made: list[str] = []
    for name in ("compute", "compute_finishing_here", "persist"):
        real = getattr(execution, name)

        def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            made.append(_name)
            return _real(*args)

        monkeypatch.setattr(execution, name, counted)
    with config.set(client_work_bytes=0):
        yield made
