"""Every test runs once per CPU chunk backend (``--backends``, default both): a host/device
mixing bug only shows on the simulated device. Outside ``tests/cluster/`` computations run
on dask's threaded scheduler (``gpunumeric.scheduler: threads``), so the suite starts no
cluster and stays fast; ``tests/cluster/`` starts real ones."""

from __future__ import annotations

import pytest

import dask_gpunumeric

CPU_BACKENDS = "numpy,simulated-device"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backends",
        default=CPU_BACKENDS,
        help=f"comma-separated chunk backends to run every test on (default {CPU_BACKENDS})",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        names = metafunc.config.getoption("backends").split(",")
        metafunc.parametrize("backend", names, indirect=True)


# Test arrays are small: below the library's default (65,536) they would all be one chunk
# (and evaluated in-process), so tests lower the threshold to exercise multi-block paths.
TEST_MIN_CHUNK_ELEMENTS = 4096


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
    ):
        yield name
