"""Indexing routines against NumPy: selection (take, nonzero, compress, choose, select,
searchsorted...), insertion (put, putmask, place, copyto, fill...) writing through views
and leaving the target untouched when they raise, and the cuPyNumeric tutorial's
mask-and-slice indexing."""

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


def host_values(shape: tuple[int, ...], dtype: str = "float64") -> numpy.ndarray:
    return numbered_values(shape, dtype, shuffled=True)


Case = Callable[[Any, Any], Any]  # (module, array) -> result


SELECT_CASES: dict[str, Case] = {
    "take-flat": lambda m, a: m.take(a, [0, 5, -1, 5]),
    "take-axis": lambda m, a: m.take(a, [[2, 0], [1, 1]], axis=1),
    "take-scalar": lambda m, a: m.take(a, 2, axis=0),
    "take-float": lambda m, a: m.take(a, [1.7, 0.2]),
    "take-wrap": lambda m, a: m.take(a, [-9, 13], axis=1, mode="wrap"),
    "take-clip": lambda m, a: m.take(a, [-9, 13], axis=0, mode="clip"),
    "take-empty": lambda m, a: m.take(a, [], axis=1),
    "take_along_axis": lambda m, a: m.take_along_axis(
        a, numpy.array([[3, 1, 0, 2], [0, 1, 2, 3], [2, 2, 1, 0]]), 1
    ),
    "take_along_axis-bcast": lambda m, a: m.take_along_axis(a, numpy.array([[0], [2]]), 0),
    "take_along_axis-none": lambda m, a: m.take_along_axis(a, numpy.array([3, 0]), None),
    "nonzero": lambda m, a: m.nonzero(a > 5),
    "nonzero-values": lambda m, a: m.nonzero(a - 3),
    "nonzero-none": lambda m, a: m.nonzero(a > 100),
    "nonzero-3d": lambda m, a: m.nonzero(a.reshape(2, 2, 3) % 4 == 1),
    "where-one": lambda m, a: m.where(a[0] > 4),
    "argwhere": lambda m, a: m.argwhere(a % 3 == 0),
    "argwhere-0d": lambda m, a: m.argwhere(a[0, 0, ...]),
    "flatnonzero": lambda m, a: m.flatnonzero(a.T > 5),
    "compress": lambda m, a: m.compress([False, True, True], a, axis=0),
    "compress-short": lambda m, a: m.compress([True, False], a, axis=1),
    "compress-flat": lambda m, a: m.compress(numpy.arange(12) % 5 == 0, a),
    "extract": lambda m, a: m.extract(a > 4, a),
    "choose": lambda m, a: m.choose(
        numpy.array([[0, 1, 2, 0], [2, 2, 1, 0], [1, 0, 0, 2]]), [a, -a, 100]
    ),
    "choose-bcast": lambda m, a: m.choose(numpy.array([1, 0, 1, 1]), [a, a[0]]),
    "choose-wrap": lambda m, a: m.choose(numpy.array([[3], [-1], [1]]), [a, 2.5], mode="wrap"),
    "choose-clip": lambda m, a: m.choose(numpy.array([[3], [-1], [1]]), [a, 2], mode="clip"),
    "choose-one": lambda m, a: m.choose(numpy.zeros(4, dtype=int), [a]),
    "select": lambda m, a: m.select([a > 7, a > 3], [a, a * 10], default=-1),
    "select-bcast": lambda m, a: m.select([a[0] > 7, a > 3], [a[0], 1.5]),
    "searchsorted": lambda m, a: m.searchsorted(
        m.sort(a[0]) if m is numpy else a[0][[1, 3, 0, 2]], [0, 5, 5.5, 11]
    ),
    "searchsorted-scalar": lambda m, a: m.searchsorted(a[0], 2.5),
    "searchsorted-right": lambda m, a: m.searchsorted(numpy.array([1, 2, 2, 4]), a, "right"),
    "searchsorted-sorter": lambda m, a: m.searchsorted(
        a[1], [6, 2.5], sorter=numpy.argsort(numpy.asarray(a[1]))
    ),
}


@pytest.mark.parametrize("name", SELECT_CASES)
@pytest.mark.parametrize("chunks", [None, (2, 3)])
def test_selection_matches_numpy(name: str, chunks: Any) -> None:
    check_case(SELECT_CASES[name], host_values((3, 4)), chunks)


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
def test_selection_keeps_every_dtype(dtype: str) -> None:
    choose = "choose-bcast" if dtype == "bool" else "choose"
    for name in (
        choose,
        "take-axis",
        "take_along_axis-bcast",
        "nonzero-values",
        "extract",
        choose,
        "select",
    ):
        check_case(SELECT_CASES[name], host_values((3, 4), dtype), (2, 3))


def test_nonzero_counts_blocks_on_the_workers() -> None:
    mask = dnp.array(numpy.arange(20) % 3 == 0, chunks=7)
    # Each block of the mask gives its own true positions: no rechunk, sizes known. (The
    # small-work policy would compute this mask in the client, one block.)
    with dnp.config.set(client_work_bytes=0):
        (positions,) = dnp.nonzero(mask)
        assert positions.to_dask().chunks == ((3, 2, 2),)
    assert_eq(positions, numpy.nonzero(numpy.arange(20) % 3 == 0)[0])


SELECT_ERRORS: dict[str, Case] = {
    "take-bounds": lambda m, a: m.take(a, [12]),
    "take-axis-bounds": lambda m, a: m.take(a, [-5], axis=1),
    "take-axis": lambda m, a: m.take(a, [0], axis=2),
    "take-mode": lambda m, a: m.take(a, [0], mode="nope"),
    "take_along_axis-ndim": lambda m, a: m.take_along_axis(a, numpy.array([0]), 1),
    "take_along_axis-float": lambda m, a: m.take_along_axis(a, numpy.array([[0.0]]), 1),
    "take_along_axis-bounds": lambda m, a: m.take_along_axis(a, numpy.array([[7]]), 1),
    "nonzero-0d": lambda m, a: m.nonzero(a[0, 0, ...]),
    "compress-2d": lambda m, a: m.compress(numpy.ones((2, 2), bool), a),
    "compress-long": lambda m, a: m.compress([0, 0, 0, 1], a, axis=0),
    "choose-range": lambda m, a: m.choose(numpy.array([0, 2, 1, 0]), [a, a]),
    "choose-float": lambda m, a: m.choose(numpy.array([0.0, 1.0]), [1, 2]),
    "choose-shape": lambda m, a: m.choose(numpy.array([0, 1]), [a, a]),
    "choose-mode": lambda m, a: m.choose(numpy.array([0, 1, 0, 0]), [a, a], mode="x"),
    "select-lengths": lambda m, a: m.select([a > 1], [a, a]),
    "select-empty": lambda m, a: m.select([], []),
    "select-not-bool": lambda m, a: m.select([a], [a]),
    "select-shape": lambda m, a: m.select([a > 1], [a[:, :2]]),
    "searchsorted-2d": lambda m, a: m.searchsorted(a, 3),
    "searchsorted-side": lambda m, a: m.searchsorted(a[0], 3, side="middle"),
}


@pytest.mark.parametrize("name", SELECT_ERRORS)
def test_selection_errors_match_numpy(name: str) -> None:
    expected = host_values((3, 4))
    ours = dnp.array(expected, chunks=(2, 3))
    case = SELECT_ERRORS[name]
    assert_raises_like(lambda: case(numpy, expected), lambda: case(dnp, ours))


# -- insertion: mutates in place, through views -------------------------------------------
def _put(m: Any, a: Any) -> None:
    m.put(a, [0, -1, 5, 5], [10, 20, 30])


def _put_method(m: Any, a: Any) -> None:
    a.put([[1], [7]], 99.5, mode="wrap")


def _put_clip(m: Any, a: Any) -> None:
    m.put(a, [-20, 40], [1, 2], mode="clip")


def _put_along_axis(m: Any, a: Any) -> None:
    m.put_along_axis(a, numpy.array([[1], [3], [0]]), numpy.array([[7], [8], [9]]), axis=1)


def _put_along_flat(m: Any, a: Any) -> None:
    m.put_along_axis(a, numpy.array([1, -2, 4]), numpy.array([7, 8, 9]), axis=None)


def _putmask(m: Any, a: Any) -> None:
    m.putmask(a, a > 4, [1, 2, 3, 4, 5])


def _putmask_scalar(m: Any, a: Any) -> None:
    m.putmask(a, a > 4, 2.7)


def _putmask_same_size(m: Any, a: Any) -> None:
    m.putmask(a, a > 4, a * 10)


def _place(m: Any, a: Any) -> None:
    m.place(a, a > 4, [10, 20])


def _copyto(m: Any, a: Any) -> None:
    m.copyto(a, a[0] * 2)


def _copyto_where(m: Any, a: Any) -> None:
    m.copyto(a, 7, where=a > 5)


def _copyto_casting(m: Any, a: Any) -> None:
    m.copyto(a, numpy.arange(4, dtype="int8"), casting="safe", where=[True, False, True, False])


def _fill(m: Any, a: Any) -> None:
    a.fill(3)


MUTATIONS = [
    _put,
    _put_method,
    _put_clip,
    _put_along_axis,
    _put_along_flat,
    _putmask,
    _putmask_scalar,
    _putmask_same_size,
    _place,
    _copyto,
    _copyto_where,
    _copyto_casting,
    _fill,
]
VIEWS: dict[str, Callable[[Any], Any]] = {
    "base": lambda a: a,
    "flipped-transposed": lambda a: a[::-1, 1:].T[::-1],
    "strided": lambda a: a[1::2, ::2],
}


@pytest.mark.parametrize("mutate", MUTATIONS, ids=[f.__name__[1:] for f in MUTATIONS])
@pytest.mark.parametrize("view", VIEWS)
def test_mutations_write_through_views(mutate: Callable[[Any, Any], None], view: str) -> None:
    def target(base: Any) -> Any:
        whole = VIEWS[view](base)
        return whole[:3, :4] if whole.shape[0] >= 3 and whole.shape[1] >= 4 else whole

    expected = host_values((6, 5))
    ours = dnp.array(expected, chunks=(4, 3))
    try:
        mutate(numpy, target(expected.copy()))
    except Exception:  # noqa: BLE001 - NumPy refuses this case on this view: ours must too
        assert_raises_like(
            lambda: mutate(numpy, target(expected.copy())), lambda: mutate(dnp, target(ours))
        )
        assert_eq(ours, expected)
        return
    mutate(numpy, target(expected))
    mutate(dnp, target(ours))
    assert_eq(ours, expected)
    assert_eq(VIEWS[view](ours), VIEWS[view](expected))


def _dtype_case(mutate: Callable[[Any, Any], None], dtype: str) -> None:
    expected = host_values((3, 4), dtype)
    ours = dnp.array(expected, chunks=(2, 3))
    mutate(numpy, expected)
    mutate(dnp, ours)
    assert_eq(ours, expected)


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
def test_mutations_keep_every_dtype(dtype: str) -> None:
    for mutate in (_put, _put_along_axis, _putmask, _place, _copyto_where, _fill):
        if dtype == "bool" and mutate in (_putmask, _place, _copyto_where):  # NumPy refuses
            mutate = _fill
        _dtype_case(mutate, dtype)


MUTATION_ERRORS: dict[str, Case] = {
    "put-bounds": lambda m, a: m.put(a, [1, 12], [5, 6]),
    "put-not-array": lambda m, a: m.put([1, 2], [0], [5]),
    "put-mode": lambda m, a: m.put(a, [0], [5], mode="nope"),
    "put_along_axis-bounds": lambda m, a: m.put_along_axis(a, numpy.array([[9]]), 1.0, 1),
    "put_along_axis-ndim": lambda m, a: m.put_along_axis(a, numpy.array([1]), 1.0, 1),
    "putmask-size": lambda m, a: m.putmask(a, numpy.ones(3, bool), 1.0),
    "putmask-casting": lambda m, a: m.putmask(a, a > 3, numpy.array([1.5j])),
    "place-size": lambda m, a: m.place(a, numpy.ones(3, bool), [1.0]),
    "place-empty": lambda m, a: m.place(a, a > 3, []),
    "copyto-casting": lambda m, a: m.copyto(a, numpy.array([1j, 2j, 3j, 4j])),
    "copyto-scalar-casting": lambda m, a: m.copyto(a.astype(int), 1.5),
    "copyto-shape": lambda m, a: m.copyto(a, numpy.ones((2, 4))),
    "copyto-where-shape": lambda m, a: m.copyto(a, 1.0, where=numpy.ones(3, bool)),
    "copyto-where-dtype": lambda m, a: m.copyto(a, 1.0, where=numpy.ones(4)),
    "setitem-overflow": lambda m, a: m.copyto(a.astype("uint8"), 300, casting="unsafe"),
}


@pytest.mark.parametrize("name", MUTATION_ERRORS)
def test_failed_mutations_leave_the_target_untouched(name: str) -> None:
    expected = host_values((3, 4))
    ours = dnp.array(expected, chunks=(2, 3))
    view = ours[::-1]
    case = MUTATION_ERRORS[name]
    assert_raises_like(lambda: case(numpy, expected.copy()[::-1]), lambda: case(dnp, view))
    assert_eq(ours, expected)


def test_put_along_flat_axis_writes_through_a_contiguous_view() -> None:
    expected = host_values((4, 3))
    ours = dnp.array(expected, chunks=(3, 2))
    for base in (expected, ours):
        _put_along_flat(dnp if base is ours else numpy, base[1:])
    assert_eq(ours, expected)


def test_copyto_into_a_host_array() -> None:
    destination = numpy.zeros(4)
    dnp.copyto(destination, dnp.arange(4.0), where=dnp.arange(4) > 1)
    numpy.testing.assert_array_equal(destination, [0.0, 0.0, 2.0, 3.0])


def test_mutations_read_the_values_at_the_call() -> None:
    target = dnp.zeros(4)
    source = dnp.arange(4.0)
    dnp.copyto(target, source)
    dnp.putmask(target, dnp.arange(4) > 2, source * 10)
    source[...] = -1.0
    assert_eq(target, numpy.array([0.0, 1.0, 2.0, 30.0]))


# -- the cuPyNumeric tutorial's mask-and-slice indexing ------------------------------------
@pytest.mark.parametrize("mask_kind", ["numpy", "ours"])
@pytest.mark.parametrize("chunks", [None, (2, 2, 3, 2)])
def test_tutorial_flip_with_a_mask_and_slices(mask_kind: str, chunks: Any) -> None:
    expected = numpy.arange(5 * 3 * 6 * 4, dtype=numpy.float32).reshape(5, 3, 6, 4)
    standardized = dnp.array(expected, chunks=chunks)
    flip_mask = numpy.array([True, False, True, True, False])
    mask = flip_mask if mask_kind == "numpy" else dnp.array(flip_mask)
    assert_eq(standardized[mask, :, ::-1, :], expected[flip_mask, :, ::-1, :])
    expected[flip_mask] = expected[flip_mask, :, ::-1, :]
    standardized[mask] = standardized[mask, :, ::-1, :]
    assert_eq(standardized, expected)


# -- ndarray methods ------------------------------------------------------------------------
METHODS: dict[str, Callable[[Any], Any]] = {
    "take": lambda a: a.take([2, 0], axis=1),
    "repeat": lambda a: a.repeat(2, axis=0),
    "squeeze": lambda a: a[:1].squeeze(),
    "diagonal": lambda a: a.diagonal(1),
    "trace": lambda a: a.trace(-1),
    "nonzero": lambda a: a.nonzero(),
    "compress": lambda a: a.compress([True, False, True], axis=0),
    "choose": lambda a: (a % 2).astype(int).choose([10, a]),
    "searchsorted": lambda a: a.ravel().searchsorted([5, 5.5, -1]),
    "flatten": lambda a: a.T.flatten(),
}


@pytest.mark.parametrize("name", METHODS)
def test_methods_match_numpy(name: str) -> None:
    expected = numpy.arange(12.0).reshape(3, 4)
    ours = dnp.array(expected, chunks=(2, 3))
    theirs, mine = METHODS[name](expected), METHODS[name](ours)
    if isinstance(theirs, tuple):
        for x, y in zip(mine, theirs, strict=True):
            assert_eq(x, y)
    else:
        assert_eq(mine, theirs)
