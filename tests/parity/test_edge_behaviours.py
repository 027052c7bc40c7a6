"""Edge behaviours of issue 30 against NumPy: ``put`` into a 0-d array, ``x in a``,
``repeat`` with float counts, ``fill_diagonal`` of tall matrices and of strided views,
``tri``/``tril``/``triu`` and their index functions with float arguments, ``transpose``
with one integer axis, ``lexsort`` of 0-d keys, ``logspace`` with an array ``base``.
Each case is a value NumPy gives (values, dtype, shape) or an error NumPy raises (its type
and its message)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric.testing import assert_eq, assert_raises_like

Case = Callable[[Any, Any], Any]  # (module, a 3x4 float array) -> result


def _put_0d(ind: Any, values: Any, mode: str = "raise", dtype: Any = float) -> Case:
    def case(m: Any, a: Any) -> Any:
        target = m.array(5, dtype=dtype)
        m.put(target, ind, values, mode=mode)
        return target

    return case


def _put_0d_view(m: Any, a: Any) -> Any:
    m.put(a[1, 2, ...], [0, 0], [-1.0, -2.0])  # a 0-d view: the write reaches a
    return a


def _fill_diagonal(shape: tuple[int, ...], values: Any, wrap: bool, view: bool = False) -> Case:
    def case(m: Any, a: Any) -> Any:
        base = m.zeros((shape[0] + 2, shape[1] + 3)) if view else m.zeros(shape)
        target = base[1:-1, 1:-2] if view else base
        m.fill_diagonal(target, values, wrap=wrap)
        return base

    return case


CASES: dict[str, Case] = {
    # put into a 0-d array: every index is its one element, the last value stays
    "put-0d": _put_0d(0, 7),
    "put-0d-many": _put_0d([0, 0, -1], [1, 2, 3]),
    "put-0d-cycled": _put_0d([0, 0, 0], [1, 2]),
    "put-0d-int": _put_0d(0, 7.9, dtype=int),
    "put-0d-wrap": _put_0d(3, 1, mode="wrap"),
    "put-0d-clip": _put_0d([5, -4], [1, 2], mode="clip"),
    "put-0d-no-indices": _put_0d([], [1]),
    "put-0d-out-of-bounds": _put_0d(3, 1),
    "put-0d-view": _put_0d_view,
    # x in a: NumPy's (a == x).any(), for any ndim
    "contains-2d": lambda m, a: 5.0 in a,
    "contains-2d-absent": lambda m, a: 55.0 in a,
    "contains-row": lambda m, a: a[1] in a,
    "contains-broadcast-row": lambda m, a: [4.0, 5.0, 6.0, 7.0] in a,
    "contains-0d": lambda m, a: 3.0 in a[0, 3, ...],
    "contains-empty": lambda m, a: 1.0 in a[:0],
    "contains-nan": lambda m, a: numpy.nan in a,
    "contains-3d": lambda m, a: 11.0 in a.reshape(2, 3, 2),
    "contains-not-broadcastable": lambda m, a: [4.0, 5.0, 6.0] in a,
    # repeat: Python and NumPy scalar floats are truncated, float arrays refused ('safe')
    "repeat-float": lambda m, a: m.repeat(a, 2.0),
    "repeat-float-truncated": lambda m, a: m.repeat(a, 2.7, axis=1),
    "repeat-numpy-float": lambda m, a: m.repeat(a, numpy.float64(2), axis=0),
    "repeat-float-list": lambda m, a: m.repeat(a, [1.7, 0.2, 3.9], axis=0),
    "repeat-method-float": lambda m, a: a.repeat(2.5),
    "repeat-float-array": lambda m, a: m.repeat(a, numpy.array([1.0, 2.0, 0.0]), axis=0),
    "repeat-float-0d-array": lambda m, a: m.repeat(a, numpy.array(2.0)),
    "repeat-negative-float": lambda m, a: m.repeat(a, -1.5),
    "repeat-complex": lambda m, a: m.repeat(a, 2 + 0j),
    # fill_diagonal: tall matrices wrap after a blank row; views are written through
    "fill_diagonal-tall-wrap": _fill_diagonal((7, 3), 9.0, wrap=True),
    "fill_diagonal-tall-wrap-values": _fill_diagonal((11, 3), [1, 2, 3, 4, 5], wrap=True),
    "fill_diagonal-tall": _fill_diagonal((7, 3), 9.0, wrap=False),
    "fill_diagonal-wide-wrap": _fill_diagonal((3, 7), 9.0, wrap=True),
    "fill_diagonal-view-tall-wrap": _fill_diagonal((7, 3), [1, 2], wrap=True, view=True),
    "fill_diagonal-view": _fill_diagonal((4, 4), 9.0, wrap=False, view=True),
    "fill_diagonal-no-values": _fill_diagonal((4, 4), [], wrap=False),
    # float N, M, k: NumPy's arange arithmetic, not an error
    "tri-float-n": lambda m, a: m.tri(3.0),
    "tri-float-n-m-k": lambda m, a: m.tri(3.5, 2.5, -0.5),
    "tri-float-k": lambda m, a: m.tri(3, 4, 1.0),
    "tril-float-k": lambda m, a: m.tril(a, 1.0),
    "triu-float-k": lambda m, a: m.triu(a, -1.0),
    "triu-fractional-k": lambda m, a: m.triu(a, 1.5),
    "tril-float-k-3d": lambda m, a: m.tril(a.reshape(2, 2, 3), 0.5),
    "triu-float-k-1d": lambda m, a: m.triu(a[0], 1.0),
    "tril_indices-float-n": lambda m, a: m.tril_indices(3.0),
    "tril_indices-float-k": lambda m, a: m.tril_indices(3, 1.0),
    "triu_indices-float-n-m": lambda m, a: m.triu_indices(3.0, 0, 4.0),
    "triu_indices-fractional-k": lambda m, a: m.triu_indices(3, 1.5),
    "tril_indices_from-float-k": lambda m, a: m.tril_indices_from(a, -1.0),
    "tri-str-k": lambda m, a: m.tri(3, k="1"),
    "triu-str-k": lambda m, a: m.triu(a, "1"),
    # transpose(axes=int): a one-axis permutation
    "transpose-int-1d": lambda m, a: m.transpose(a[0], 0),
    "transpose-int-1d-negative": lambda m, a: m.transpose(a[0], axes=numpy.int64(-1)),
    "transpose-int-1d-out-of-bounds": lambda m, a: m.transpose(a[0], 1),
    "transpose-int-2d": lambda m, a: m.transpose(a, 0),
    "transpose-empty-2d": lambda m, a: m.transpose(a, ()),
    "transpose-empty-0d": lambda m, a: m.transpose(a[0, 0, ...], ()),
    "transpose-float": lambda m, a: m.transpose(a[0], 1.0),
    "transpose-nested": lambda m, a: m.transpose(a, ((1, 0),)),
    "transpose-method-none": lambda m, a: a.transpose(None),
    "transpose-method-empty": lambda m, a: a.transpose(()),
    # lexsort: 0-d keys sort to index 0; a 0-d array is no sequence of keys
    "lexsort-0d": lambda m, a: m.lexsort(a[0, 0, ...]),
    "lexsort-0d-keys": lambda m, a: m.lexsort([a[0, 0, ...], a[0, 1, ...]]),
    "lexsort-0d-keys-axis": lambda m, a: m.lexsort([a[0, 0, ...]], axis=0),
    "lexsort-0d-keys-bad-axis": lambda m, a: m.lexsort([a[0, 0, ...]], axis=5),
    "lexsort-1d-array": lambda m, a: m.lexsort(a[0]),
    "lexsort-scalar": lambda m, a: m.lexsort(5),
    "lexsort-mixed-shapes": lambda m, a: m.lexsort([a[0, 0, ...], a[0]]),
    # logspace: an array base broadcasts with start and stop and gets the new axis
    "logspace-base": lambda m, a: m.logspace(0, 2, 4, base=[2.0, 10.0]),
    "logspace-base-axis": lambda m, a: m.logspace(0, 2, 4, base=[2.0, 10.0], axis=1),
    "logspace-base-start": lambda m, a: m.logspace([0, 1], 2, 4, base=[2.0, 10.0], axis=-1),
    "logspace-base-2d": lambda m, a: m.logspace(0, [1, 2, 3], 4, base=[[2.0], [10.0]], axis=2),
    "logspace-base-int-dtype": lambda m, a: m.logspace(0, 2, 3, base=[2, 3], dtype="float32"),
    "logspace-base-ours": lambda m, a: m.logspace(0, 2, 3, base=m.asarray([2.0, 3.0]), axis=1),
    "logspace-base-bad-axis": lambda m, a: m.logspace(0, 2, 3, base=[2.0, 3.0], axis=3),
    "logspace-base-not-broadcastable": lambda m, a: m.logspace([0, 1, 2], 2, 3, base=[2.0, 3.0]),
    "pad-median-3d": lambda m, a: m.pad(
        a.reshape(2, 2, 3) ** 2 % 5, 1, mode="median", stat_length=((1, 2), (2, 1), (3, 3))
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_edge_behaviours_match_numpy(name: str) -> None:
    case = CASES[name]
    host = numpy.arange(12.0).reshape(3, 4)
    ours = dnp.array(host, chunks=(2, 3))
    try:
        expected = case(numpy, host.copy())
    except Exception as numpy_error:  # noqa: BLE001 - NumPy refuses: ours must refuse alike
        error = assert_raises_like(lambda: case(numpy, host.copy()), lambda: case(dnp, ours))
        assert str(error) == str(numpy_error)
        return
    result = case(dnp, ours)
    if isinstance(expected, bool):
        assert type(result) is bool and result == expected
    elif isinstance(expected, tuple):
        assert isinstance(result, tuple) and len(result) == len(expected)
        for mine, theirs in zip(result, expected, strict=True):
            assert_eq(mine, theirs)
    else:
        assert_eq(result, expected)


OBJECT_ARRAYS: dict[str, Callable[[Any], Any]] = {
    "array-of-none": lambda a: dnp.array([None, 1]),
    "asarray-object-array": lambda a: dnp.asarray(numpy.array([None, 1])),
    "array-dtype-object": lambda a: dnp.array([1, 2], dtype=object),
    "repeat-objects": lambda a: dnp.repeat(numpy.array([None, 1]), 2),
    "repeat-list-of-none": lambda a: dnp.repeat([None, 1], 2),
    "zeros-object": lambda a: dnp.zeros(3, dtype=object),
    "full-none": lambda a: dnp.full(3, None),
    "astype-object": lambda a: a.astype(object),
    "arange-object": lambda a: dnp.arange(3, dtype=object),
    "where-none": lambda a: dnp.where(a > 1, a, None),
    "add-object-array": lambda a: numpy.add(numpy.array([None, 1, 2, 3]), a[0]),
    "concatenate-objects": lambda a: dnp.concatenate([a[0], numpy.array([None])]),
}


@pytest.mark.parametrize("name", OBJECT_ARRAYS)
def test_object_arrays_are_refused_with_a_type_error(name: str) -> None:
    """NumPy makes object arrays; ours refuse them at the call, always with a TypeError
    naming the dtype (issue 30: one exception type, whichever function meets them)."""
    ours = dnp.array(numpy.arange(12.0).reshape(3, 4), chunks=(2, 3))
    with pytest.raises(TypeError, match="does not support arrays of dtype object"):
        OBJECT_ARRAYS[name](ours)


WHERE_ARGUMENTS: dict[str, Case] = {
    "either both or neither of x and y should be given": lambda m, a: m.where(a > 1, a),
    "where() got some positional-only arguments passed as keyword arguments: 'y'": (
        lambda m, a: m.where(a > 1, y=a)
    ),
}


@pytest.mark.parametrize("message", WHERE_ARGUMENTS)
def test_where_still_needs_both_or_neither(message: str) -> None:
    """``where``'s missing x or y is NumPy's "not given", not None (None is a value)."""
    host, case = numpy.arange(4.0), WHERE_ARGUMENTS[message]
    error = assert_raises_like(lambda: case(numpy, host), lambda: case(dnp, dnp.asarray(host)))
    assert str(error) == message
    assert_eq(dnp.where(dnp.asarray(host) > 1)[0], numpy.where(host > 1)[0])


def _empty(m: Any, shape: tuple[int, ...]) -> Any:
    return m.zeros(shape)


# NumPy's exception and its words (issue 30: the type was right, the message was ours).
MESSAGES: dict[str, Case] = {
    "rot90-axis-out-of-range": lambda m, a: m.rot90(a, 1, axes=(-4, 0)),
    "rot90-axis-out-of-range-high": lambda m, a: m.rot90(a, 1, axes=(1, 3)),
    "rot90-same-axes": lambda m, a: m.rot90(a, 1, axes=(0, -3)),
    "insert-more-values-than-indices": lambda m, a: m.insert(a[0, 0], [1, 2], [10, 20, 30]),
    "insert-values-2d": lambda m, a: m.insert(a[0], [0, 2], [[1, 2, 3], [3, 4, 5]], axis=1),
    "insert-one-index-values": lambda m, a: m.insert(a[0], 1, [1, 2], axis=1),
    "insert-one-index-out-of-bounds": lambda m, a: m.insert(a[0], [9], 1, axis=1),
    "cross-scalars": lambda m, a: m.cross(a[0, 0, 0, ...], a[0, 0, 1, ...]),
    "cross-scalar-vector": lambda m, a: m.cross(2.0, a[0, 0, :3]),
    "ravel_multi_index-float-dims": lambda m, a: m.ravel_multi_index(([0, 1], [1, 2]), (2, 3.0)),
    "ravel_multi_index-nested-dims": lambda m, a: m.ravel_multi_index(([0, 1],), ((2, 3),)),
    "ravel_multi_index-none-dims": lambda m, a: m.ravel_multi_index(([0, 1],), None),
    "ravel_multi_index-dims-length": lambda m, a: m.ravel_multi_index(([0, 1], [1, 2]), (2,)),
    "ravel_multi_index-not-broadcastable": lambda m, a: m.ravel_multi_index(
        ([0, 1], [1, 2, 0]), (2, 3)
    ),
    "unravel_index-out-of-bounds": lambda m, a: m.unravel_index([[1, 7], [8, 0]], (2, 3)),
    "unravel_index-float-dims": lambda m, a: m.unravel_index([1], (2, 3.0)),
    "unravel_index-negative-dims": lambda m, a: m.unravel_index([-1], (2, -3)),
    "ufunc-out-tuple-too-long": lambda m, a: m.add(a, 1, out=(_empty(m, a.shape),) * 2),
    "ufunc-out-tuple-too-short": lambda m, a: m.divmod(a, 2, out=(_empty(m, a.shape),)),
    "ufunc-one-out-for-two-outputs": lambda m, a: m.modf(a, out=_empty(m, a.shape)),
    "ufunc-out-not-broadcastable": lambda m, a: m.add(a, 1, out=_empty(m, (3,))),
    "ufunc-out-smaller": lambda m, a: m.add(a, 1, out=_empty(m, (3, 4))),
    "ufunc-outs-not-broadcastable": lambda m, a: m.divmod(
        a, 1, out=(_empty(m, (4,)), _empty(m, (3,)))
    ),
    "ufunc-where-not-broadcastable": lambda m, a: m.add(
        a, 1, out=_empty(m, a.shape), where=numpy.ones(5, bool)
    ),
    "ufunc-host-out-smaller": lambda m, a: m.add(a, 1, out=numpy.empty((3, 4))),
}

# The same calls where NumPy succeeds: the reading that goes with those messages.
SUCCEEDS: dict[str, Case] = {
    "insert-one-index-in-a-list-many-values": lambda m, a: m.insert(
        a[0], [1], [[1, 2, 3, 4], [5, 6, 7, 8]], axis=0
    ),
    "insert-slice-of-one-many-values": lambda m, a: m.insert(
        a[0], slice(1, 2), [[1, 2, 3, 4], [5, 6, 7, 8]], axis=0
    ),
    "insert-bool-index": lambda m, a: m.insert(
        a[0], numpy.array([False, True, False]), [[1, 2, 3, 4], [5, 6, 7, 8]], axis=0
    ),
    "ufunc-fewer-positional-outs": lambda m, a: m.divmod(a, 1.5, m.zeros(a.shape)),
    "ufunc-out-tuple-with-none": lambda m, a: m.divmod(a, 1.5, out=(None, m.zeros(a.shape))),
    "unravel_index-empty-zero-dims": lambda m, a: m.unravel_index(m.asarray([], dtype=int), (2, 0)),
    "ravel_multi_index-int-dims": lambda m, a: m.ravel_multi_index(([0, 2],), 3),
}


@pytest.mark.parametrize("name", MESSAGES)
def test_errors_have_numpys_type_and_message(name: str) -> None:
    host = numpy.arange(24.0).reshape(2, 3, 4)
    ours = dnp.array(host, chunks=(1, 2, 3))
    try:
        MESSAGES[name](numpy, host.copy())
    except Exception as numpy_error:  # noqa: BLE001 - NumPy's exception is the oracle
        error = assert_raises_like(
            lambda: MESSAGES[name](numpy, host.copy()), lambda: MESSAGES[name](dnp, ours)
        )
        assert str(error) == str(numpy_error)
    else:
        raise AssertionError("NumPy did not raise: the case is wrong")


@pytest.mark.parametrize("name", SUCCEEDS)
def test_neighbouring_calls_match_numpy(name: str) -> None:
    host = numpy.arange(24.0).reshape(2, 3, 4)
    expected = SUCCEEDS[name](numpy, host.copy())
    result = SUCCEEDS[name](dnp, dnp.array(host, chunks=(1, 2, 3)))
    if isinstance(expected, tuple):
        assert isinstance(result, tuple) and len(result) == len(expected)
        for mine, theirs in zip(result, expected, strict=True):
            assert_eq(mine, theirs)
    else:
        assert_eq(result, expected)
