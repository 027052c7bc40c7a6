"""dask-cuda's device-memory spilling, configured by the launcher: on a LocalCUDACluster
whose ``device_memory_limit`` is far below the array, a reduction of an array larger than
the device limit completes and matches NumPy. Runs where CuPy sees a device."""

from __future__ import annotations

import numpy
import pytest

cupy = pytest.importorskip("cupy")
pytestmark = pytest.mark.gpu

if not cupy.is_available():
    pytest.skip("CuPy sees no CUDA device", allow_module_level=True)
pytest.importorskip("dask_cuda", reason="LocalCUDACluster is dask-cuda's (the gpu extra)")

import dask_gpunumeric as dnp  # noqa: E402
from dask_gpunumeric._runtime import cluster  # noqa: E402
from dask_gpunumeric.testing import assert_eq  # noqa: E402


def test_a_reduction_beyond_the_device_memory_limit_spills() -> None:
    settings = {"cluster.gpus": 1, "cluster.device-memory-limit": "256MiB"}
    with dnp.config.set(scheduler="distributed", **settings):
        try:
            x = dnp.arange(100_000_000, dtype="float64")  # 800 MB on a 256 MiB limit
            assert_eq((x - x.mean()).std(), numpy.arange(100_000_000.0).std())
            assert type(cluster.embedded_cluster()).__name__ == "LocalCUDACluster"
        finally:
            cluster.close_embedded()
