"""Sorting, partitioning and counting against NumPy, over several chunkings."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like


def _data(dtype: str, shape: tuple[int, ...] = (6, 7)) -> numpy.ndarray:
    values = numpy.random.default_rng(7).integers(-5, 5, size=shape)
    data = values.astype(dtype)
    if data.dtype.kind in "fc":
        data.flat[[3, 10, 11]] = numpy.nan  # NaN sorts last, as in NumPy
    return data


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("axis", [0, -1, None])
def test_sort_and_stable_argsort(dtype: str, axis: int | None) -> None:
    data = _data(dtype)
    x = np.asarray(data, chunks=(2, 3))
    assert_eq(np.sort(x, axis=axis), numpy.sort(data, axis=axis))
    assert_eq(
        np.argsort(x, axis=axis, kind="stable"), numpy.argsort(data, axis=axis, kind="stable")
    )
    assert_eq(np.argsort(x, axis=axis, stable=True), numpy.argsort(data, axis=axis, stable=True))


def descending_argsort(data: numpy.ndarray, axis: int | None) -> numpy.ndarray:
    """The array API's stable descending argsort in NumPy (2.4 has no ``descending=``):
    positions from the end of the ascending stable argsort of the reversed lanes."""
    if axis is None:
        data, axis = data.ravel(), -1
    backwards = numpy.argsort(numpy.flip(data, axis), axis=axis, stable=True)
    return data.shape[axis] - 1 - numpy.flip(backwards, axis)


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("axis", [0, -1, None])
def test_descending_sort_and_stable_argsort(dtype: str, axis: int | None) -> None:
    data = _data(dtype)
    x = np.asarray(data, chunks=(2, 3))
    flat_axis = -1 if axis is None else axis
    assert_eq(
        np.sort(x, axis=axis, descending=True),
        numpy.flip(numpy.sort(data, axis=axis), flat_axis),
    )
    ours = np.argsort(x, axis=axis, stable=True, descending=True)
    assert_eq(ours, descending_argsort(data, axis))
    # Independently of the formula: values descend (NaNs first), equal ones in index order.
    order = numpy.moveaxis(
        numpy.asarray(ours).reshape(data.shape if axis is not None else -1), flat_axis, -1
    )
    values = numpy.moveaxis(data if axis is not None else data.ravel(), flat_axis, -1)
    picked = numpy.take_along_axis(values, order, axis=-1)
    later, earlier = picked[..., 1:], picked[..., :-1]
    ties = (later == earlier) | (numpy.isnan(later) & numpy.isnan(earlier))
    assert not ((later > earlier) & ~ties).any()
    assert (order[..., 1:] > order[..., :-1])[ties].all()


@pytest.mark.parametrize("chunks", [(6, 7), (1, 7), (4, 2)])
@pytest.mark.parametrize("kind", ["quicksort", "mergesort", "heapsort"])
def test_argsort_kinds_and_chunkings(chunks: tuple[int, int], kind: str) -> None:
    data = _data("float64")
    x = np.asarray(data, chunks=chunks)
    assert_eq(np.argsort(x, axis=0, kind=kind), numpy.argsort(data, axis=0, kind=kind))
    assert_eq(x.argsort(kind=kind), data.argsort(kind=kind))


def test_sort_method_sorts_in_place_through_a_view() -> None:
    data = _data("int32")
    x = np.asarray(data, chunks=(3, 3))
    view = x[1:5]
    view.sort(axis=0)
    expected = data.copy()
    expected[1:5].sort(axis=0)
    assert_eq(x, expected)


@pytest.mark.parametrize("kth", [0, 3, -1, [1, 4]])
@pytest.mark.parametrize("axis", [0, 1, None])
def test_partition_and_argpartition(kth: object, axis: int | None) -> None:
    data = _data("float64")
    x = np.asarray(data, chunks=(4, 3))
    assert_eq(np.partition(x, kth, axis=axis), numpy.partition(data, kth, axis=axis))
    assert_eq(np.argpartition(x, kth, axis=axis), numpy.argpartition(data, kth, axis=axis))


def test_partition_methods() -> None:
    data = _data("int64")
    x = np.asarray(data, chunks=(4, 3))
    x.partition(2)
    data.partition(2)
    assert_eq(x, data)
    assert_eq(x.argpartition(1, axis=0), data.argpartition(1, axis=0))


@pytest.mark.parametrize("axis", [-1, 0])
def test_lexsort(axis: int) -> None:
    first, second = _data("int16", (5, 8)), _data("float32", (5, 8)) % 3
    keys = (np.asarray(first, chunks=(2, 3)), np.asarray(second, chunks=(5, 4)))
    assert_eq(np.lexsort(keys, axis=axis), numpy.lexsort((first, second), axis=axis))
    stacked = numpy.stack([first, first % 2])
    assert_eq(np.lexsort(np.asarray(stacked, chunks=(1, 2, 3))), numpy.lexsort(stacked))


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_count_nonzero(dtype: str, axis: object) -> None:
    data = _data(dtype)
    x = np.asarray(data, chunks=(4, 3))
    assert_eq(np.count_nonzero(x, axis=axis), numpy.asarray(numpy.count_nonzero(data, axis=axis)))
    assert_eq(
        np.count_nonzero(x, axis=axis, keepdims=True),
        numpy.count_nonzero(data, axis=axis, keepdims=True),
    )


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: xp.sort(a, axis=2),
        lambda xp, a: xp.sort(a, kind="fastest"),
        lambda xp, a: xp.argsort(a, axis=-3),
        lambda xp, a: xp.partition(a, 7),
        lambda xp, a: xp.partition(a, 1.5),
        lambda xp, a: xp.argpartition(a, -8, axis=1),
        lambda xp, a: xp.lexsort((a, a[:, :3])),
        lambda xp, a: xp.count_nonzero(a, axis=2),
        lambda xp, a: xp.sort(a, kind="stable", stable=True),
    ],
)
def test_bad_input_raises_like_numpy(call: object) -> None:
    data = _data("float64")
    assert_raises_like(lambda: call(numpy, data), lambda: call(np, np.asarray(data)))  # type: ignore[operator]


def test_sort_keeps_other_axes_chunking() -> None:
    x = np.asarray(_data("float64", (8, 6)), chunks=(2, 3))
    assert np.sort(x, axis=1).to_dask().chunks == ((2, 2, 2, 2), (6,))


def test_empty_and_zero_d() -> None:
    empty = numpy.zeros((0, 3))
    assert_eq(np.sort(np.asarray(empty), axis=0), numpy.sort(empty, axis=0))
    assert_eq(np.sort(np.asarray(5.0), axis=None), numpy.sort(numpy.asarray(5.0), axis=None))
