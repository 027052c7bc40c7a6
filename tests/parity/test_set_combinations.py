"""The 1-d set operations and the array-API unique_* functions against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq

FIRST = numpy.array([[5, 1, 3], [3, 9, 1]])
SECOND = numpy.array([3, 4, 5, 5, 7])


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("chunks", [1, 2, 6])
@pytest.mark.parametrize("name", ["union1d", "setdiff1d", "setxor1d", "intersect1d"])
def test_set_operations(dtype: str, chunks: int, name: str) -> None:
    a, b = FIRST.astype(dtype), SECOND.astype(dtype)
    ours = getattr(np, name)(np.asarray(a, chunks=chunks), np.asarray(b, chunks=chunks))
    assert_eq(ours, getattr(numpy, name)(a, b))


@pytest.mark.parametrize("name", ["setdiff1d", "setxor1d", "intersect1d"])
def test_assume_unique(name: str) -> None:
    a, b = numpy.array([5, 1, 3]), numpy.array([3, 4, 5])
    assert_eq(
        getattr(np, name)(np.asarray(a, chunks=2), np.asarray(b), True),
        getattr(numpy, name)(a, b, True),
    )
    empty = numpy.array([], dtype=int)
    assert_eq(
        getattr(np, name)(np.asarray(empty), np.asarray(empty)), getattr(numpy, name)(empty, empty)
    )


@pytest.mark.parametrize("assume_unique", [False, True])
def test_intersect1d_indices(assume_unique: bool) -> None:
    a, b = (
        (FIRST.ravel(), SECOND)
        if not assume_unique
        else (numpy.array([5, 1, 3]), numpy.array([3, 4, 5]))
    )
    ours = np.intersect1d(np.asarray(a, chunks=2), np.asarray(b, chunks=3), assume_unique, True)
    expected = numpy.intersect1d(a, b, assume_unique, True)
    for actual, wanted in zip(ours, expected, strict=True):
        assert_eq(actual, wanted)


@pytest.mark.parametrize("chunks", [1, (2, 3)])
@pytest.mark.parametrize("name", ["unique_all", "unique_counts", "unique_inverse"])
def test_unique_results(chunks: object, name: str) -> None:
    data = numpy.array([[1.0, numpy.nan, 2.0], [numpy.nan, 1.0, 3.0]])
    for sample in (data, FIRST):
        ours = getattr(np, name)(np.asarray(sample, chunks=chunks))
        expected = getattr(numpy, name)(sample)
        assert type(ours) is type(expected)
        for actual, wanted in zip(ours, expected, strict=True):
            assert_eq(actual, wanted)
    assert_eq(np.unique_values(np.asarray(data, chunks=chunks)), numpy.unique_values(data))
