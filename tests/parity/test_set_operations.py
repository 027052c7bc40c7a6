"""unique and isin against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like


def _data(dtype: str) -> numpy.ndarray:
    data = numpy.random.default_rng(5).integers(0, 6, size=(5, 7)).astype(dtype)
    if data.dtype.kind in "fc":
        data[1, 1] = data[3, 4] = data[4, 6] = numpy.nan
    return data


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("chunks", [(2, 3), (5, 7), (1, 7)])
def test_unique_with_everything(dtype: str, chunks: tuple[int, int]) -> None:
    data = _data(dtype)
    x = np.asarray(data, chunks=chunks)
    ours = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    expected = numpy.unique(data, return_index=True, return_inverse=True, return_counts=True)
    for actual, wanted in zip(ours, expected, strict=True):
        assert_eq(actual, wanted)
    assert_eq(np.unique(x), numpy.unique(data))


@pytest.mark.parametrize(
    "flags", [(True, False, False), (False, True, False), (False, False, True), (True, False, True)]
)
def test_unique_flag_combinations(flags: tuple[bool, bool, bool]) -> None:
    data = _data("float32")
    ours = np.unique(np.asarray(data, chunks=(2, 2)), *flags)
    expected = numpy.unique(data, *flags)
    for actual, wanted in zip(ours, expected, strict=True):
        assert_eq(actual, wanted)


def test_unique_of_empty_and_nan_separate() -> None:
    assert_eq(np.unique(np.zeros((0, 3))), numpy.unique(numpy.zeros((0, 3))))
    data = numpy.array([numpy.nan, 1.0, numpy.nan, 2.0])
    assert_eq(
        np.unique(np.asarray(data, chunks=2), equal_nan=False), numpy.unique(data, equal_nan=False)
    )


def test_unique_axis_is_not_implemented() -> None:
    with pytest.raises(NotImplementedError, match="axis=None"):
        np.unique(np.asarray(_data("int64")), axis=0)


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("invert", [False, True])
def test_isin(dtype: str, invert: bool) -> None:
    data = _data(dtype)
    tests = numpy.array([1, 3, 7]).astype(dtype)
    x = np.asarray(data, chunks=(2, 3))
    assert_eq(np.isin(x, tests, invert=invert), numpy.isin(data, tests, invert=invert))
    ours = np.isin(x, np.asarray(tests, chunks=2), invert=invert, assume_unique=True)
    assert_eq(ours, numpy.isin(data, tests, invert=invert, assume_unique=True))


def test_isin_kinds_empty_tables_and_scalars() -> None:
    data = _data("int32")
    x = np.asarray(data, chunks=(3, 3))
    assert_eq(np.isin(x, [2, 5], kind="table"), numpy.isin(data, [2, 5], kind="table"))
    assert_eq(np.isin(x, [], invert=True), numpy.isin(data, [], invert=True))
    assert_eq(np.isin(np.asarray(3), [3]), numpy.isin(3, [3]))


def test_isin_bad_kind_raises_like_numpy() -> None:
    data = _data("float64")
    assert_raises_like(
        lambda: numpy.isin(data, [1.0], kind="table"),
        lambda: np.isin(np.asarray(data), [1.0], kind="table"),
    )
