"""The real CuPy path. Runs where CuPy sees a device; skips cleanly elsewhere."""

from __future__ import annotations

import numpy
import pytest

cupy = pytest.importorskip("cupy")
pytestmark = pytest.mark.gpu

if not cupy.is_available():
    pytest.skip("CuPy sees no CUDA device", allow_module_level=True)

import dask_gpunumeric as dnp  # noqa: E402
from examples.stencil import stencil  # noqa: E402


def test_chunks_are_cupy_arrays() -> None:
    assert type(dnp.ones((300, 300)).to_dask()._meta) is cupy.ndarray


def test_stencil_on_the_gpu_matches_numpy() -> None:
    grid = stencil(dnp, 200, 50)
    assert numpy.max(numpy.abs(grid.compute() - stencil(numpy, 200, 50))) < 1e-12
