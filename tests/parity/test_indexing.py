"""``__getitem__`` and ``__setitem__`` against NumPy: basic, integer-array and boolean
indices, their errors, and failed assignments leaving the target unchanged."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like

HOST = numpy.arange(60, dtype=numpy.int32).reshape(3, 4, 5)
CHUNKS = (2, 3, 2)


def _ours() -> Any:
    return dnp.array(HOST, chunks=CHUNKS)


BASIC = [
    1,
    -1,
    (2, 3),
    (0, -1, 4),
    slice(None),
    slice(None, None, -1),
    (slice(1, None), 2),
    (Ellipsis, 1),
    (1, Ellipsis),
    (None, 1),
    (slice(None), None, slice(None, None, -2)),
    (Ellipsis, None),
    (slice(5, 1, -1), slice(-2, None)),
    (numpy.int64(1), slice(3, 0, -2)),
    (),
    Ellipsis,
    (slice(10, 20),),
    (0, slice(None), None, slice(1, 4, 2)),
]


def test_basic_getitem() -> None:
    ours = _ours()
    for index in BASIC:
        assert_eq(ours[index], HOST[index])


BAD_BASIC = [
    3,
    -4,
    (0, 4),
    (0, 0, 5),
    (0, 0, 0, 0),
    (Ellipsis, Ellipsis),
    1.0,
    (0, 1.5),
    slice(None, None, 0),
    "a",
]


def test_basic_getitem_errors() -> None:
    ours = _ours()
    for index in BAD_BASIC:
        assert_raises_like(lambda index=index: HOST[index], lambda index=index: ours[index])


MASK_2D = HOST[:, :, 0] % 20 > 5

FANCY = [
    [0, 2],
    [-1, 0, -1],
    numpy.array([[0, 1], [2, 2]]),
    (slice(None), [3, 0, 3]),
    (slice(None), [0, 2], [1, 4]),
    ([0, 2], slice(None), [1, 3]),
    (0, slice(None), [1, 2]),
    ([[0], [1]], [1, 2]),
    ([[0], [1]], slice(1, 3), [4, 0]),
    (Ellipsis, [1, -1]),
    (None, [1], None, 1),
    (numpy.array([True, False, True]), slice(1, 3)),
    (slice(None), numpy.array([False, True, True, False])),
    MASK_2D,
    (MASK_2D, 1),
    HOST % 7 == 0,
    numpy.array([], dtype=numpy.intp),
    (1, [[2, 3]], slice(None, None, -2)),
    (numpy.array(1), slice(None), [0]),
    numpy.array(1),  # a 0-d integer array selects like an integer, but copies
    (numpy.array(2), numpy.array(0), numpy.array(4)),
    [],  # an empty list is an empty integer index
    [True, False, True],  # a list of bools is a mask
    ([[]], slice(None), 2),
]


def test_fancy_getitem() -> None:
    ours = _ours()
    for index in FANCY:
        assert_eq(ours[index], HOST[index])


def test_our_arrays_as_indices() -> None:
    ours = _ours()
    positions = dnp.array([2, 0, 2])
    assert_eq(ours[:, positions], HOST[:, [2, 0, 2]])
    assert_eq(ours[ours % 3 == 0], HOST[HOST % 3 == 0])
    assert_eq(ours[dnp.array(MASK_2D)], HOST[MASK_2D])
    assert_eq(ours[dnp.arange(3)[1]], HOST[numpy.array(1)])
    assert_eq(ours[dnp.array(1), dnp.array([0, 3])], HOST[1, [0, 3]])


def test_fancy_getitem_is_a_copy() -> None:
    ours = _ours()
    expected = HOST.copy()
    picked = ours[[0, 1]]
    picked[...] = 0
    assert_eq(ours, expected)
    ours[0] = 5
    assert_eq(picked, numpy.zeros((2, 4, 5), numpy.int32))


BAD_FANCY = [
    [3],
    [-4],
    (slice(None), [0, 4]),
    ([0, 1], [0, 1, 2]),
    numpy.array([True, False]),
    numpy.array([0.0, 1.0]),
    (MASK_2D, MASK_2D),
    (MASK_2D, [0, 4]),
]


def test_fancy_getitem_errors() -> None:
    ours = _ours()
    for index in BAD_FANCY:
        assert_raises_like(lambda index=index: HOST[index], lambda index=index: ours[index])


def _setter(index: Any, value: Any) -> Any:
    def action(array: Any) -> None:
        array[index] = value

    return action


SETS = [
    ([0, 2], 7),
    ([1, 1, 1], numpy.array([1, 2, 3], numpy.int32)[:, None, None]),  # repeated: last wins
    ((slice(None), [3, 0, 3], 1), numpy.array([10, 20, 30], numpy.int32)),
    (([0, 2], slice(None), [1, 3]), numpy.arange(8).reshape(2, 4)),
    ((Ellipsis, [-1, 0]), numpy.arange(2)),
    (HOST % 7 == 0, -3),
    (HOST % 4 == 0, numpy.arange(15)),
    (MASK_2D, numpy.arange(5)),
    ((MASK_2D, 2), 99),
    ((slice(None), numpy.array([True, False, False, True])), [[[1]], [[2]], [[3]]]),
    ((numpy.array([], dtype=numpy.intp),), 5),
    ([2, 0], 1.9),
    ([], 4),
    (numpy.array(2), numpy.arange(5)),
    ([True, False, True], 8),
]


@pytest.mark.parametrize("index,value", SETS, ids=range(len(SETS)))
def test_fancy_setitem(index: Any, value: Any) -> None:
    expected = HOST.copy()
    ours = _ours()
    _setter(index, value)(expected)
    _setter(index, value)(ours)
    assert_eq(ours, expected)


def test_fancy_setitem_through_views() -> None:
    expected = HOST.copy()
    ours = _ours()
    views = [(expected[1:, ::-1], ours[1:, ::-1]), (expected.T[2], ours.T[2])]
    for (expected_view, our_view), index in zip(
        views, ([[0, 0, 1], [1, 1, 0]], [3, 0]), strict=True
    ):
        expected_view[index] = -1
        our_view[index] = -1
        assert_eq(ours, expected)
        mask = expected_view > 30
        expected_view[mask] = numpy.arange(mask.sum(), dtype=numpy.int32)
        our_view[our_view > 30] = numpy.arange(mask.sum(), dtype=numpy.int32)
        assert_eq(ours, expected)
        assert_eq(our_view, expected_view)


def test_setitem_with_our_arrays() -> None:
    expected = HOST.copy()
    ours = _ours()
    expected[expected > 40] = expected[:1].ravel()[: (expected > 40).sum()]
    ours[ours > 40] = ours[:1].ravel()[: int((ours > 40).sum())]
    assert_eq(ours, expected)
    expected[:, [1, 2]] = expected[:, 2:4] * 2
    ours[:, dnp.array([1, 2])] = ours[:, 2:4] * 2
    assert_eq(ours, expected)


BAD_SETS = [
    (numpy.uint8, 0, 300),
    (numpy.uint8, slice(None), -1),
    (numpy.int32, 0, numpy.nan),
    (numpy.int64, [0, 1], numpy.inf),
    (numpy.int32, [5], 1),
    (numpy.int32, [-6, 0], 1),
    (numpy.int32, [0, 1], [1, 2, 3]),
    (numpy.int32, slice(0, 2), [1, 2, 3]),
    (numpy.int32, slice(None), numpy.ones((2, 5))),
    (numpy.int32, numpy.array([True, False, True, False, True]), [1, 2]),
    (numpy.int32, numpy.array([True, False]), 1),
    (numpy.int32, 9, 1),
    (numpy.int32, (0, 0), 1),
    (numpy.float64, 0, "x"),
    (numpy.float64, 0, [1.0, 2.0]),
    (numpy.float64, 0, [1.0]),  # one element: NumPy assigns a scalar, not a sequence
    (numpy.int32, 0, [1]),
    (numpy.float64, 0, numpy.array([1.0])),
    (numpy.float64, 0, dnp.array([1.0])),
    (numpy.int32, slice(0, 1), [[1]]),  # a list may not be deeper than the target
    (numpy.int32, slice(0, 2), [[[1, 2]]]),
    (numpy.float64, slice(None), [1, [2], 3, 4, 5]),
    (numpy.int32, numpy.array([True, False, True, False, False]), [[1, 2]]),
    (numpy.int8, [[0, 1]], [[1000, 1]]),  # a list is converted to the dtype: out of range
    (numpy.int32, [0, 1], [numpy.nan, 1.0]),
    (numpy.float64, slice(0, 2), numpy.array(["x", "2"])),
    (numpy.int32, slice(0, 2), numpy.array([1, None], dtype=object)),
]


@pytest.mark.parametrize("dtype,index,value", BAD_SETS, ids=range(len(BAD_SETS)))
def test_failed_setitem_raises_and_leaves_target_unchanged(
    dtype: Any, index: Any, value: Any
) -> None:
    expected = numpy.arange(5).astype(dtype)
    ours = dnp.array(expected, chunks=2)
    assert_raises_like(
        lambda: _setter(index, value)(expected.copy()), lambda: _setter(index, value)(ours)
    )
    assert_eq(ours, expected)


def test_setitem_through_view_failure_leaves_base_unchanged() -> None:
    expected = HOST.copy()
    ours = _ours()
    view = ours[1:, ::2]
    assert_raises_like(
        lambda: expected[1:, ::2].__setitem__(0, numpy.ones(4)),
        lambda: view.__setitem__(0, numpy.ones(4)),
    )
    assert_raises_like(
        lambda: expected[1:, ::2].__setitem__([5], 1), lambda: view.__setitem__([5], 1)
    )
    assert_eq(ours, expected)


def test_sequence_values_convert_like_numpy() -> None:
    for dtype, index, value in [
        (numpy.float64, slice(None), [1, "2", 3, 4, 5]),
        (numpy.int32, slice(0, 2), numpy.array([[1.5, 2.5]])),
        (numpy.int32, [0, 1], [[[1.9, -1.9]]]),
        (bool, 0, numpy.array([2.0])),
        (numpy.float64, (0, Ellipsis), numpy.array([4.0])),
        (numpy.float64, 1, numpy.array("2.5")),
        (numpy.int32, 2, dnp.array(7.9)),
        (numpy.int32, numpy.array([True, False] * 2 + [True]), [7]),
        (numpy.float64, slice(0, 2), numpy.array(["1.5", "2"])),
        (numpy.float64, [0, 1], numpy.array([1, None], dtype=object)),
    ]:
        expected = numpy.arange(5).astype(dtype)
        ours = dnp.array(expected, chunks=2)
        _setter(index, value)(expected)
        _setter(index, value)(ours)
        assert_eq(ours, expected)


def test_setitem_casts_like_numpy() -> None:
    for dtype, value in [
        (numpy.int32, 2.7),
        (numpy.int32, -2.7),
        (numpy.uint8, numpy.int64(7)),
        (bool, 2),
        (numpy.float64, True),
        (numpy.complex128, 1.5),
    ]:
        expected = numpy.zeros(4, dtype=dtype)
        ours = dnp.zeros(4, dtype=dtype)
        expected[1:3] = value
        ours[1:3] = value
        assert_eq(ours, expected)
        expected[[0]] = numpy.array([value])
        ours[[0]] = numpy.array([value])
        assert_eq(ours, expected)


def test_advanced_indices_of_a_zero_d_array() -> None:
    expected = numpy.array(5.0)
    ours = dnp.array(expected)
    for index in (True, False, (True, None), numpy.array(True)):
        assert_eq(ours[index], expected[index])
    assert_raises_like(lambda: expected[[True]], lambda: ours[[True]])
    for index, value in ((False, 7.0), (True, 3.0), ((True, None), [[8.0]])):
        expected[index] = value
        ours[index] = value
        assert_eq(ours, expected)


def test_repeated_points_last_write_wins_across_blocks() -> None:
    expected = numpy.zeros((6, 6))
    ours = dnp.zeros((6, 6), chunks=(4, 4))
    rows = numpy.array([5, 0, 5, 3, 0, 5, 4])
    columns = numpy.array([5, 1, 5, 3, 1, 5, 0])
    values = numpy.arange(1.0, 8.0)
    expected[rows, columns] = values
    ours[rows, columns] = values
    assert_eq(ours, expected)
