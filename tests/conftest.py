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


@pytest.fixture(autouse=True)
def backend(request: pytest.FixtureRequest):
    name = getattr(request, "param", "numpy")
    with dask_gpunumeric.config.set(
        backend=name, scheduler="threads", min_chunk_elements=TEST_MIN_CHUNK_ELEMENTS
    ):
        yield name
