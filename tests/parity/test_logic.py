"""isclose, allclose, array_equal, array_equiv against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like

SPECIAL = numpy.array([1.0, numpy.nan, numpy.inf, -numpy.inf, 1e-9, 3.0, numpy.inf, -0.0])
NEAR = numpy.array([1.0 + 1e-6, numpy.nan, numpy.inf, numpy.inf, 0.0, 3.1, 1.0, 0.0])


@pytest.mark.parametrize("equal_nan", [False, True])
@pytest.mark.parametrize("chunks", [(8,), (3,), (1,)])
def test_isclose_special_values(equal_nan: bool, chunks: tuple[int]) -> None:
    x, y = np.asarray(SPECIAL, chunks=chunks), np.asarray(NEAR, chunks=chunks)
    assert_eq(
        np.isclose(x, y, equal_nan=equal_nan), numpy.isclose(SPECIAL, NEAR, equal_nan=equal_nan)
    )
    assert_eq(
        np.isclose(x, y, rtol=0.1, atol=0.5), numpy.isclose(SPECIAL, NEAR, rtol=0.1, atol=0.5)
    )


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
def test_isclose_dtypes_and_scalars(dtype: str) -> None:
    data = (numpy.arange(12).reshape(3, 4) - 5).astype(dtype)
    other = data[::-1]
    x = np.asarray(data, chunks=(2, 3))
    assert_eq(np.isclose(x, np.asarray(other)), numpy.isclose(data, other))
    assert_eq(np.isclose(x, 1), numpy.isclose(data, 1))
    assert_eq(np.isclose(1.0, x), numpy.isclose(1.0, data))
    assert np.allclose(x, other) == numpy.allclose(data, other)
    assert np.allclose(x, x) is True


def test_isclose_extreme_integers_and_float32() -> None:
    ints = numpy.array([-128, 0, 127], dtype="int8")
    assert_eq(np.isclose(np.asarray(ints), np.asarray(ints[::-1])), numpy.isclose(ints, ints[::-1]))
    single = numpy.float32([1, 2])
    assert_eq(np.isclose(np.asarray(single), 1.00000001), numpy.isclose(single, 1.00000001))


@pytest.mark.parametrize("equal_nan", [False, True])
def test_array_equal(equal_nan: bool) -> None:
    x = np.asarray(SPECIAL, chunks=3)
    for other in (SPECIAL, NEAR, SPECIAL[:4], SPECIAL.astype("float32")):
        expected = numpy.array_equal(SPECIAL, other, equal_nan=equal_nan)
        assert np.array_equal(x, np.asarray(other), equal_nan=equal_nan) is expected
    complex_data = SPECIAL + 1j * NEAR
    assert np.array_equal(np.asarray(complex_data), complex_data, equal_nan=equal_nan) is (
        numpy.array_equal(complex_data, complex_data, equal_nan=equal_nan)
    )
    ints = numpy.arange(5)
    assert np.array_equal(np.asarray(ints, chunks=2), ints, equal_nan=equal_nan) is True


def test_array_equiv() -> None:
    row = numpy.array([1, 2])
    x = np.asarray(row)
    for other in ([[1, 2], [1, 2]], [[1, 2], [1, 3]], [1, 2, 3], [[1], [2]], 1):
        assert np.array_equiv(x, other) is numpy.array_equiv(row, other)


def test_bad_tolerance_raises_like_numpy() -> None:
    data = numpy.arange(3.0)
    assert_raises_like(
        lambda: numpy.isclose(data, data[:2]), lambda: np.isclose(np.asarray(data), data[:2])
    )
