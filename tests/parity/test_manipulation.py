"""Array manipulation against NumPy: the functions NumPy answers with views (flip,
moveaxis, squeeze, expand_dims, rot90, atleast_*, split pieces, broadcast_to), their
errors, and writes through them reaching the base exactly as in NumPy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import (
    PARITY_DTYPES,
    assert_eq,
    assert_raises_like,
    check_case,
    numbered_values,
)

Case = Callable[[Any, Any], Any]  # (module, array) -> result


VIEW_CASES: dict[str, Case] = {
    "moveaxis": lambda m, a: m.moveaxis(a, 0, -1),
    "moveaxis-many": lambda m, a: m.moveaxis(a, (0, 2), (2, 0)),
    "squeeze": lambda m, a: m.squeeze(a[:, :1]),
    "squeeze-axis": lambda m, a: m.squeeze(a[None, :, :1], axis=0),
    "expand_dims": lambda m, a: m.expand_dims(a, (0, -1)),
    "flip": lambda m, a: m.flip(a),
    "flip-axis": lambda m, a: m.flip(a, 1),
    "flip-axes": lambda m, a: m.flip(a, (0, 2)),
    "fliplr": lambda m, a: m.fliplr(a),
    "flipud": lambda m, a: m.flipud(a),
    "rot90": lambda m, a: m.rot90(a),
    "rot90-2": lambda m, a: m.rot90(a, 2, axes=(1, 2)),
    "rot90-3": lambda m, a: m.rot90(a, -1, axes=(2, 0)),
    "rot90-0": lambda m, a: m.rot90(a, 4),
    "atleast_1d": lambda m, a: m.atleast_1d(a[0, 0, 0], a),
    "atleast_2d": lambda m, a: m.atleast_2d(a[0, 0], a[0, 0, 0]),
    "atleast_3d": lambda m, a: m.atleast_3d(a[0, 0], a[0], a[0, 0, 0]),
    "split": lambda m, a: m.split(a, 2, axis=0),
    "split-indices": lambda m, a: m.split(a, [1, 3, -1], axis=2),
    "array_split": lambda m, a: m.array_split(a, 4, axis=2),
    "hsplit": lambda m, a: m.hsplit(a, 3),
    "vsplit": lambda m, a: m.vsplit(a, [1]),
    "dsplit": lambda m, a: m.dsplit(a, [2, 3]),
    "broadcast_to": lambda m, a: m.broadcast_to(a[:, :1], (2, 4, 3, 5)),
    "broadcast_arrays": lambda m, a: m.broadcast_arrays(a[:, :1, :], a[0, 0], a),
    "transpose": lambda m, a: m.transpose(a, (1, 2, 0)),
    "swapaxes": lambda m, a: m.swapaxes(a, 0, 2),
}


@pytest.mark.parametrize("name", VIEW_CASES)
@pytest.mark.parametrize("chunks", [None, (1, 2, 3)])
def test_view_functions_match_numpy(name: str, chunks: Any) -> None:
    check_case(VIEW_CASES[name], numbered_values((4, 3, 5)), chunks)


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
def test_view_functions_keep_every_dtype(dtype: str) -> None:
    for name in ("flip-axes", "rot90-3", "broadcast_to", "split-indices"):
        check_case(VIEW_CASES[name], numbered_values((4, 3, 5), dtype), (3, 2, 2))


ERROR_CASES: dict[str, Case] = {
    "moveaxis-range": lambda m, a: m.moveaxis(a, 3, 0),
    "moveaxis-counts": lambda m, a: m.moveaxis(a, (0, 1), (0,)),
    "moveaxis-repeated": lambda m, a: m.moveaxis(a, (0, 0), (1, 2)),
    "squeeze-size": lambda m, a: m.squeeze(a, axis=1),
    "squeeze-range": lambda m, a: m.squeeze(a, axis=5),
    "expand_dims-range": lambda m, a: m.expand_dims(a, 5),
    "expand_dims-repeated": lambda m, a: m.expand_dims(a, (1, 1)),
    "flip-range": lambda m, a: m.flip(a, 3),
    "fliplr-1d": lambda m, a: m.fliplr(a[0, 0]),
    "flipud-0d": lambda m, a: m.flipud(a[0, 0, 0, ...]),
    "rot90-same": lambda m, a: m.rot90(a, axes=(1, 1)),
    "rot90-len": lambda m, a: m.rot90(a, axes=(0, 1, 2)),
    "rot90-range": lambda m, a: m.rot90(a, axes=(0, 3)),
    "split-unequal": lambda m, a: m.split(a, 3, axis=2),
    "split-axis": lambda m, a: m.split(a, 2, axis=3),
    "array_split-zero": lambda m, a: m.array_split(a, 0),
    "hsplit-0d": lambda m, a: m.hsplit(a[0, 0, 0, ...], 1),
    "vsplit-1d": lambda m, a: m.vsplit(a[0, 0], 1),
    "dsplit-2d": lambda m, a: m.dsplit(a[0], 1),
    "broadcast_to-shape": lambda m, a: m.broadcast_to(a, (4, 3, 4)),
    "broadcast_to-negative": lambda m, a: m.broadcast_to(a, (-1, 3, 5)),
    "broadcast_arrays": lambda m, a: m.broadcast_arrays(a, a[:, :2]),
}


@pytest.mark.parametrize("name", ERROR_CASES)
def test_errors_match_numpy(name: str) -> None:
    expected = numbered_values((4, 3, 5))
    ours = dnp.array(expected, chunks=(2, 2, 2))
    assert_raises_like(
        lambda: ERROR_CASES[name](numpy, expected), lambda: ERROR_CASES[name](dnp, ours)
    )


# -- live views --------------------------------------------------------------------------
WRITABLE_VIEWS: dict[str, Case] = {
    "flip": lambda m, a: m.flip(a, (0, 2)),
    "fliplr": lambda m, a: m.fliplr(a),
    "flipud": lambda m, a: m.flipud(a),
    "moveaxis": lambda m, a: m.moveaxis(a, 0, -1),
    "squeeze": lambda m, a: m.squeeze(a[:, :1]),
    "expand_dims": lambda m, a: m.expand_dims(a, 1),
    "rot90": lambda m, a: m.rot90(a, 1, axes=(2, 0)),
    "split-piece": lambda m, a: m.split(a, [1, 3], axis=1)[1],
    "atleast_3d": lambda m, a: m.atleast_3d(a[0, :, 0]),
}


@pytest.mark.parametrize("name", WRITABLE_VIEWS)
def test_writes_through_views_reach_the_base(name: str) -> None:
    expected = numbered_values((4, 3, 5))
    ours = dnp.array(expected, chunks=(3, 2, 2))
    expected_view = WRITABLE_VIEWS[name](numpy, expected)
    ours_view = WRITABLE_VIEWS[name](dnp, ours)
    assert numpy.shares_memory(expected_view, expected)  # the case is a NumPy view
    for target in (expected_view, ours_view):
        target[(0,) * (target.ndim - 1)] = -7.0
        target[..., -1:] += 100.0
    assert_eq(ours_view, expected_view)
    assert_eq(ours, expected)
    # ... and writes to the base are seen through the view taken before them.
    expected[1:3] *= -1
    ours[1:3] *= -1
    assert_eq(ours_view, expected_view)


@pytest.mark.parametrize(
    "make",
    [
        lambda m, a: m.broadcast_to(a[:, :1], (2, 4, 3, 5)),
        lambda m, a: m.diagonal(a, 1, 0, 2),
        lambda m, a: m.diag(a[0], -1),
    ],
    ids=["broadcast_to", "diagonal", "diag"],
)
def test_read_only_views_see_writes_and_refuse_them(make: Case) -> None:
    expected = numbered_values((4, 3, 5))
    ours = dnp.array(expected, chunks=(3, 2, 2))
    expected_view, ours_view = make(numpy, expected), make(dnp, ours)
    expected[0] = -1.0
    ours[0] = -1.0
    assert_eq(ours_view, expected_view)
    assert_eq(ours_view[..., 1:][::-1], expected_view[..., 1:][::-1])  # views of views too

    def write(view: Any) -> None:
        view[...] = 3.0

    assert_raises_like(lambda: write(expected_view), lambda: write(ours_view))
    assert_eq(ours, expected)


def test_broadcast_arrays_results_are_read_only_views() -> None:
    # Differences from NumPy: NumPy warns (FutureWarning) and writes; ours refuse.
    base = dnp.arange(3.0)
    broadcast, whole = dnp.broadcast_arrays(base, dnp.zeros((2, 3)))
    base[0] = 5.0
    assert_eq(broadcast, numpy.array([[5.0, 1.0, 2.0], [5.0, 1.0, 2.0]]))
    with pytest.raises(ValueError, match="read-only"):
        broadcast[0] = 1.0
    whole[0] = 1.0  # an argument already of the common shape is returned as it is


def test_copy_of_a_read_only_view_is_writable() -> None:
    ours = dnp.arange(6.0).reshape(2, 3)
    copy = dnp.broadcast_to(ours[0], (2, 3)).copy()
    copy[1] = 9.0
    assert_eq(copy, numpy.array([[0.0, 1.0, 2.0], [9.0, 9.0, 9.0]]))
    assert_eq(ours, numpy.arange(6.0).reshape(2, 3))


def test_split_pieces_are_views_of_one_store() -> None:
    expected = numbered_values((6, 4))
    ours = dnp.array(expected, chunks=(4, 3))
    pieces = (numpy.array_split(expected, 4), dnp.array_split(ours, 4))
    for both in zip(*pieces, strict=True):
        for piece in both:
            piece += 1
    assert_eq(ours, expected)


def test_non_arrays_are_accepted() -> None:
    values = [[1, 2, 3], [4, 5, 6]]
    assert_eq(dnp.flip(values), numpy.flip(values))
    assert_eq(dnp.moveaxis(values, 0, 1), numpy.moveaxis(values, 0, 1))
    assert_eq(dnp.expand_dims(values, 0), numpy.expand_dims(values, 0))
    assert_eq(dnp.atleast_1d(5), numpy.atleast_1d(5))
