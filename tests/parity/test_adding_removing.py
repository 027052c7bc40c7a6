"""append, delete, insert, resize, trim_zeros, the transpose-likes, concat/unstack/block
and ravel_multi_index/unravel_index against NumPy."""

from __future__ import annotations

import numpy
import pytest

import dask_gpunumeric as np
from dask_gpunumeric.testing import PARITY_DTYPES, assert_eq, assert_raises_like

DATA = numpy.arange(24).reshape(4, 6)
CHUNKINGS = [(3, 4), (4, 6), (1, 2)]


@pytest.mark.parametrize("chunks", CHUNKINGS)
def test_append(chunks: tuple[int, int]) -> None:
    x = np.asarray(DATA, chunks=chunks)
    assert_eq(np.append(x, [1, 2]), numpy.append(DATA, [1, 2]))
    assert_eq(np.append(x, DATA[:1], axis=0), numpy.append(DATA, DATA[:1], axis=0))
    assert_raises_like(
        lambda: numpy.append(DATA, [1, 2], axis=0), lambda: np.append(x, [1, 2], axis=0)
    )


@pytest.mark.parametrize("chunks", [(1, 1, 1), (10, 1, 1), (1, 1, 10), (3, 4, 7), (10, 10, 10)])
def test_append_flattens_an_n_d_array_in_one_pass(chunks: tuple[int, ...]) -> None:
    """``append(a, b)`` of a 3-D ``a`` ravels it and joins, in tasks linear in the blocks
    of ``a`` (once reported at minutes per call; not reproduced since: kept as a guard)."""
    host = numpy.arange(1000.0).reshape(10, 10, 10)
    x = np.asarray(host, chunks=chunks)
    result = np.append(x, host[:2])
    assert_eq(result, numpy.append(host, host[:2]))
    assert_eq(np.ravel(x.transpose(2, 0, 1)), numpy.ravel(host.transpose(2, 0, 1)))
    blocks = int(numpy.prod([len(c) for c in x.to_dask().chunks]))
    # dask's reshape rechunks to whole trailing axes first: a few tasks per block, linear.
    assert len(result.to_dask().__dask_graph__()) <= 10 * blocks + 20


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize(
    ("obj", "axis"),
    [(1, None), ([0, 2], 1), (slice(1, None, 2), 0), (-1, 1), ([True, False, True, False], 0)],
)
def test_delete(chunks: tuple[int, int], obj: object, axis: int | None) -> None:
    x = np.asarray(DATA, chunks=chunks)
    assert_eq(np.delete(x, obj, axis), numpy.delete(DATA, obj, axis))


def test_delete_errors() -> None:
    x = np.asarray(DATA)
    assert_raises_like(lambda: numpy.delete(DATA, 9, 0), lambda: np.delete(x, 9, 0))
    assert_raises_like(lambda: numpy.delete(DATA, 0, 2), lambda: np.delete(x, 0, 2))


@pytest.mark.parametrize("chunks", CHUNKINGS)
@pytest.mark.parametrize(
    ("obj", "values", "axis"),
    [
        (1, 99, None),
        ([0, 2], [7, 8], 1),
        (1, [[7], [8], [9], [10]], 1),
        (1, [7, 8, 9, 10], 1),
        (slice(1, 3), 5, 0),
        ([1, 1, 3], [1, 2, 3], None),
        (6, [1, 2, 3, 4], 1),
        (0, 2.7, 0),
    ],
)
def test_insert(chunks: tuple[int, int], obj: object, values: object, axis: int | None) -> None:
    x = np.asarray(DATA, chunks=chunks)
    assert_eq(np.insert(x, obj, values, axis), numpy.insert(DATA, obj, values, axis))


def test_insert_errors() -> None:
    x = np.asarray(DATA)
    assert_raises_like(lambda: numpy.insert(DATA, 9, 1, 0), lambda: np.insert(x, 9, 1, 0))
    assert_raises_like(lambda: numpy.insert(DATA, 2, [7, 8], 1), lambda: np.insert(x, 2, [7, 8], 1))


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
@pytest.mark.parametrize("shape", [5, (3, 7), (0,), (30,)])
def test_resize(dtype: str, shape: object) -> None:
    data = DATA.astype(dtype)
    assert_eq(np.resize(np.asarray(data, chunks=(3, 4)), shape), numpy.resize(data, shape))
    assert_raises_like(
        lambda: numpy.resize(data, (-1, 2)), lambda: np.resize(np.asarray(data), (-1, 2))
    )


@pytest.mark.parametrize("trim", ["fb", "f", "b", "B"])
def test_trim_zeros(trim: str) -> None:
    flat = numpy.array([0, 0, 3, 0, 4, 0, 0])
    assert_eq(np.trim_zeros(np.asarray(flat, chunks=3), trim), numpy.trim_zeros(flat, trim))
    assert_eq(np.trim_zeros(np.zeros(4), trim), numpy.trim_zeros(numpy.zeros(4), trim))
    matrix = numpy.zeros((4, 5))
    matrix[1, 2], matrix[2, 3] = 1, 2
    x = np.asarray(matrix, chunks=2)
    assert_eq(np.trim_zeros(x, trim), numpy.trim_zeros(matrix, trim))
    assert_eq(np.trim_zeros(x, trim, axis=1), numpy.trim_zeros(matrix, trim, axis=1))
    assert_raises_like(
        lambda: numpy.trim_zeros(flat, "x"), lambda: np.trim_zeros(np.asarray(flat), "x")
    )


def test_transpose_likes() -> None:
    data = numpy.arange(24).reshape(2, 3, 4)
    x = np.asarray(data, chunks=2)
    for axis, start in [(2, 0), (0, 3), (1, 1), (-1, -2)]:
        assert_eq(np.rollaxis(x, axis, start), numpy.rollaxis(data, axis, start))
    assert_raises_like(lambda: numpy.rollaxis(data, 0, 5), lambda: np.rollaxis(x, 0, 5))
    assert_raises_like(lambda: numpy.rollaxis(data, 3), lambda: np.rollaxis(x, 3))
    assert_eq(np.permute_dims(x, (2, 0, 1)), numpy.permute_dims(data, (2, 0, 1)))
    assert_eq(np.permute_dims(x), numpy.permute_dims(data))
    assert_eq(np.matrix_transpose(x), numpy.matrix_transpose(data))
    assert_raises_like(
        lambda: numpy.matrix_transpose(data[0, 0]), lambda: np.matrix_transpose(x[0, 0])
    )


def test_concat_unstack() -> None:
    data = numpy.arange(24).reshape(2, 3, 4)
    x = np.asarray(data, chunks=2)
    assert_eq(np.concat([x, x], axis=None), numpy.concat([data, data], axis=None))
    assert_eq(np.concat([x, x], axis=2), numpy.concat([data, data], axis=2))
    for axis in (0, 1, -1):
        ours, theirs = np.unstack(x, axis=axis), numpy.unstack(data, axis=axis)
        assert len(ours) == len(theirs)
        for actual, expected in zip(ours, theirs, strict=True):
            assert_eq(actual, expected)
    assert_raises_like(lambda: numpy.unstack(numpy.float64(1)), lambda: np.unstack(np.asarray(1.0)))


def test_block() -> None:
    a, b = numpy.eye(2) * 2, numpy.eye(3) * 3
    nested = [[np.asarray(a, chunks=1), numpy.zeros((2, 3))], [numpy.ones((3, 2)), np.asarray(b)]]
    expected = numpy.block([[a, numpy.zeros((2, 3))], [numpy.ones((3, 2)), b]])
    assert_eq(np.block(nested), expected)
    assert_eq(np.block([1, 2, np.asarray([3, 4])]), numpy.block([1, 2, numpy.array([3, 4])]))
    assert_eq(np.block([[1], [2]]), numpy.block([[1], [2]]))
    assert_eq(np.block(np.asarray(3.0)), numpy.block(numpy.asarray(3.0)))
    assert_raises_like(lambda: numpy.block([[1], 2]), lambda: np.block([[1], 2]))
    assert_raises_like(lambda: numpy.block([]), lambda: np.block([]))
    assert_raises_like(lambda: numpy.block([[a, b]]), lambda: np.block([[np.asarray(a), b]]))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip", ("clip", "wrap")])
def test_ravel_multi_index(order: str, mode: object) -> None:
    coordinates = numpy.array([[3, 6, 6], [4, 5, 1]])
    ours = np.ravel_multi_index(np.asarray(coordinates, chunks=2), (7, 6), mode, order)
    assert_eq(ours, numpy.ravel_multi_index(coordinates, (7, 6), mode, order))


def test_index_conversion_errors_and_unravel() -> None:
    bad = [[3, 10], [4, 1]]
    assert_eq(
        np.ravel_multi_index([np.asarray([3, 10]), np.asarray([4, 1])], (7, 6), mode="wrap"),
        numpy.ravel_multi_index(bad, (7, 6), mode="wrap"),
    )
    assert_raises_like(
        lambda: numpy.ravel_multi_index(bad, (7, 6)),
        lambda: np.ravel_multi_index(np.asarray(bad), (7, 6)),
    )
    floats = [[3.0, 1.0], [4.0, 1.0]]
    assert_raises_like(
        lambda: numpy.ravel_multi_index(floats, (7, 6)),
        lambda: np.ravel_multi_index(np.asarray(floats), (7, 6)),
    )
    flat = numpy.array([[22, 41], [37, 0]])
    for order in "CF":
        ours = np.unravel_index(np.asarray(flat, chunks=1), (7, 6), order)
        for actual, expected in zip(ours, numpy.unravel_index(flat, (7, 6), order), strict=True):
            assert_eq(actual, expected)
    assert_raises_like(
        lambda: numpy.unravel_index([1, 42], (7, 6)),
        lambda: np.unravel_index(np.asarray([1, 42]), (7, 6)),
    )
    assert_raises_like(
        lambda: numpy.unravel_index([1.0], (7, 6)),
        lambda: np.unravel_index(np.asarray([1.0]), (7, 6)),
    )
