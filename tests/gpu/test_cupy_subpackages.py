"""fft, linalg and random on real CuPy chunks. Runs where CuPy sees a device; skips
cleanly elsewhere."""

from __future__ import annotations

import numpy
import pytest

cupy = pytest.importorskip("cupy")
pytestmark = pytest.mark.gpu

if not cupy.is_available():
    pytest.skip("CuPy sees no CUDA device", allow_module_level=True)

import dask_gpunumeric as dnp  # noqa: E402


def test_fft2_matches_numpy() -> None:
    host = numpy.random.default_rng(0).standard_normal((64, 48))
    result = dnp.fft.fft2(dnp.array(host, chunks=(16, 16)))
    assert type(result.to_dask()._meta) is cupy.ndarray
    numpy.testing.assert_allclose(result.compute(), numpy.fft.fft2(host), atol=1e-9)


def test_gathered_linalg_matches_numpy() -> None:
    host = numpy.random.default_rng(1).standard_normal((3, 5, 5)) + 10 * numpy.eye(5)
    numpy.testing.assert_allclose(dnp.linalg.inv(dnp.array(host)).compute(), numpy.linalg.inv(host))
    numpy.testing.assert_allclose(dnp.linalg.det(dnp.array(host)).compute(), numpy.linalg.det(host))


def test_random_chunks_are_drawn_on_the_device() -> None:
    values = dnp.random.default_rng(0).standard_normal((1_000, 100), chunks=(250, 100))
    assert type(values.to_dask()._meta) is cupy.ndarray
    host = values.compute()
    assert abs(host.mean()) < 0.02 and abs(host.std() - 1) < 0.02
    angles = dnp.random.default_rng(0).vonmises(0.0, 1.0, size=1_000)  # drawn on the host
    assert angles.compute().shape == (1_000,)
