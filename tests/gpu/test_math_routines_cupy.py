"""The math routines' worker kernels on real CuPy chunks, where CuPy's functions differ
from NumPy's (sort kinds, lexsort's axis, no nanquantile, isin's keywords). Runs where
CuPy sees a device; skips cleanly elsewhere."""

from __future__ import annotations

import numpy
import pytest

cupy = pytest.importorskip("cupy")
pytestmark = pytest.mark.gpu

if not cupy.is_available():
    pytest.skip("CuPy sees no CUDA device", allow_module_level=True)

import dask_gpunumeric as dnp  # noqa: E402
from dask_gpunumeric.testing import assert_eq  # noqa: E402

RNG = numpy.random.default_rng(0)
DATA = RNG.integers(-5, 5, (8, 9)).astype(float)
DATA[1, 2] = DATA[5, 0] = numpy.nan


def test_sorts_with_any_kind_and_lexsort_along_an_axis() -> None:
    x = dnp.asarray(DATA, chunks=(3, 4))
    assert_eq(dnp.sort(x, axis=0, kind="quicksort"), numpy.sort(DATA, axis=0))
    assert_eq(dnp.argsort(x, axis=1, kind="stable"), numpy.argsort(DATA, axis=1, kind="stable"))
    keys = (numpy.nan_to_num(DATA) % 3, numpy.nan_to_num(DATA) % 2)
    ours = dnp.lexsort(tuple(dnp.asarray(k, chunks=(3, 4)) for k in keys), axis=0)
    assert_eq(ours, numpy.lexsort(keys, axis=0))


def test_order_statistics_including_nan_quantiles() -> None:
    x = dnp.asarray(DATA, chunks=(3, 4))
    assert_eq(dnp.median(x, axis=1), numpy.median(DATA, axis=1))
    assert_eq(dnp.nanquantile(x, [0.2, 0.9], axis=0), numpy.nanquantile(DATA, [0.2, 0.9], axis=0))


def test_sets_and_histograms() -> None:
    x = dnp.asarray(DATA, chunks=(3, 4))
    assert_eq(dnp.isin(x, [1.0, 3.0]), numpy.isin(DATA, [1.0, 3.0]))
    assert_eq(dnp.unique(x), numpy.unique(DATA))
    finite = numpy.nan_to_num(DATA)
    assert_eq(dnp.histogram(dnp.asarray(finite), bins=5)[0], numpy.histogram(finite, bins=5)[0])
