"""Joining arrays against NumPy: values, dtype promotion, ``out=``, errors, and the
chunk structure (joins reuse the inputs' blocks: no rechunk along the joined axis)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import dask.array as da
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


JOIN_CASES: dict[str, Case] = {
    "concatenate": lambda m, a: m.concatenate([a, a[:1], a[1:3]]),
    "concatenate-axis": lambda m, a: m.concatenate((a, a[:, ::-1]), axis=-1),
    "concatenate-none": lambda m, a: m.concatenate([a, a[0]], axis=None),
    "concatenate-empty": lambda m, a: m.concatenate([a[:0], a]),
    "concatenate-array": lambda m, a: m.concatenate(a),
    "concatenate-dtype": lambda m, a: m.concatenate([a, a], dtype="float32"),
    "stack": lambda m, a: m.stack([a, a * 2]),
    "stack-axis": lambda m, a: m.stack((a, a, a), axis=-1),
    "hstack": lambda m, a: m.hstack([a, a[:, :2]]),
    "hstack-1d": lambda m, a: m.hstack([a[0], a[1], a[2, 0]]),
    "vstack": lambda m, a: m.vstack([a, a[0], a[1]]),
    "dstack": lambda m, a: m.dstack([a, a]),
    "dstack-1d": lambda m, a: m.dstack([a[0], a[1]]),
    "column_stack": lambda m, a: m.column_stack([a[:, 0], a, a[:, 1]]),
}


@pytest.mark.parametrize("name", JOIN_CASES)
@pytest.mark.parametrize("chunks", [None, (2, 3)])
def test_joins_match_numpy(name: str, chunks: Any) -> None:
    check_case(JOIN_CASES[name], numbered_values((4, 6)), chunks)


@pytest.mark.parametrize("dtype", PARITY_DTYPES)
def test_joins_promote_like_numpy(dtype: str) -> None:
    for other in ("int8", "float32", "bool"):
        expected = [numbered_values((3, 2), dtype), numbered_values((2, 2), other)]
        ours = [dnp.array(x, chunks=(2, 1)) for x in expected]
        assert_eq(dnp.concatenate(ours), numpy.concatenate(expected))
        assert_eq(dnp.vstack([ours[1], ours[0]]), numpy.vstack([expected[1], expected[0]]))


def test_host_and_list_inputs() -> None:
    values = [[1, 2], [3, 4]]
    host_values = numpy.array([[5.5, 6.5]])
    assert_eq(dnp.concatenate([values, host_values]), numpy.concatenate([values, host_values]))
    assert_eq(dnp.stack([[1, 2], [3, 4]]), numpy.stack([[1, 2], [3, 4]]))
    assert_eq(dnp.column_stack(([1, 2], [3, 4])), numpy.column_stack(([1, 2], [3, 4])))


def test_out_writes_through_views() -> None:
    expected = numpy.zeros((3, 8))
    ours = dnp.zeros((3, 8), chunks=(2, 3))
    parts = [numbered_values((2, 3)), numbered_values((1, 3)) * 10]
    numpy.concatenate(parts, out=expected[:, ::2].T[1:])
    result = dnp.concatenate([dnp.array(p) for p in parts], out=ours[:, ::2].T[1:])
    assert_eq(ours, expected)
    assert_eq(result, expected[:, ::2].T[1:])
    numpy.stack([parts[1][0]] * 2, out=expected[1:, :3])
    dnp.stack([dnp.array(parts[1][0])] * 2, out=ours[1:, :3])
    assert_eq(ours, expected)


JOIN_ERRORS: dict[str, Case] = {
    "empty": lambda m, a: m.concatenate([]),
    "0d": lambda m, a: m.concatenate([a[0, 0, ...], a[0, 0, ...]]),
    "ndim": lambda m, a: m.concatenate([a, a[0]]),
    "shape": lambda m, a: m.concatenate([a, a[:, :2]]),
    "axis": lambda m, a: m.concatenate([a, a], axis=2),
    "casting": lambda m, a: m.concatenate([a, a], dtype="int8", casting="safe"),
    "out-shape": lambda m, a: m.concatenate([a, a], out=m.zeros((3, 3))),
    "out-casting": lambda m, a: m.concatenate([a, a], out=m.zeros((8, 6), dtype=int)),
    "stack-empty": lambda m, a: m.stack([]),
    "stack-shape": lambda m, a: m.stack([a, a[1:]]),
    "stack-axis": lambda m, a: m.stack([a, a], axis=3),
    "hstack-shape": lambda m, a: m.hstack([a, a[:1, 0]]),
    "vstack-shape": lambda m, a: m.vstack([a, a[:, 1:]]),
}


@pytest.mark.parametrize("name", JOIN_ERRORS)
def test_join_errors_match_numpy(name: str) -> None:
    expected = numbered_values((4, 6))
    ours = dnp.array(expected, chunks=(2, 3))
    assert_raises_like(
        lambda: JOIN_ERRORS[name](numpy, expected), lambda: JOIN_ERRORS[name](dnp, ours)
    )


def test_concatenate_reuses_the_inputs_blocks() -> None:
    first = dnp.from_dask(da.ones((10, 6), chunks=(4, 3)))
    second = dnp.from_dask(da.ones((5, 6), chunks=(3, 3)))
    joined = dnp.concatenate([first, second]).to_dask()
    assert joined.chunks == ((4, 4, 2, 3, 2), (3, 3))  # no rechunk, no slivers
    stacked = dnp.stack([first, first], axis=1).to_dask()
    assert stacked.chunks == ((4, 4, 2), (1, 1), (3, 3))


def test_concatenate_takes_the_first_inputs_chunks_across() -> None:
    expected = [numpy.arange(60.0).reshape(10, 6), -numpy.arange(30.0).reshape(5, 6)]
    first = dnp.from_dask(da.from_array(expected[0], chunks=(4, 3)))
    second = dnp.from_dask(da.from_array(expected[1], chunks=(5, (2, 4))))
    joined = dnp.concatenate([first, second])
    # dask's own route cuts both at (2, 1, 3): a sliver column of blocks.
    assert joined.to_dask().chunks == ((4, 4, 2, 5), (3, 3))
    assert_eq(joined, numpy.concatenate(expected))
    across = dnp.concatenate([second, first], axis=0).to_dask()
    assert across.chunks == ((5, 4, 4, 2), (2, 4))


def test_join_reads_inputs_at_the_call() -> None:
    source = dnp.arange(4.0)
    joined = dnp.concatenate([source, source[::-1]])
    source[...] = -1.0
    assert_eq(joined, numpy.array([0.0, 1, 2, 3, 3, 2, 1, 0]))
