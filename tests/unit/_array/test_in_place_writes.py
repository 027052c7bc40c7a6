"""Writes computed when built (``_array/tiny_ufuncs._into``): ``x[1:, :] -= u[:-1, :]`` on
values held here writes through the view into the value, in place when nothing but the
array's store refers to it (``Store.sole_chunk``), into a copy otherwise, as NumPy's
in-place operators do: live views see the write, a value some reader holds never
changes under it, and a refused write changes nothing."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from benchmarks.suite.workloads.user_programs import laplacian
from dask_gpunumeric._array import work_placement
from dask_gpunumeric._ir.leaves import ChunkValue
from dask_gpunumeric.testing import assert_eq, assert_raises_like


def _chunk(array: Any) -> Any:
    held = array._store.held_chunk()
    assert held is not None, "a value held here"
    return held[0]


def _laplacian_updates(np: Any) -> Any:
    u = np.arange(48.0).reshape(6, 8) * 0.5
    return laplacian(np, u)  # ``out[1:, :] -= u[:-1, :]`` and its three twins


def _overlapping(np: Any) -> Any:
    x = np.arange(10.0) * 1
    x[1:] += x[:-1]  # NumPy reads overlapping operands as they were
    x[::2] *= x[1::2]
    x += x
    return x


def _live_views(np: Any) -> Any:
    x = np.arange(12.0) * 1
    tail, head = x[4:], x[:6]
    x[2:8] -= 1.5
    tail *= 2
    return [x, tail, head]


def _strided_and_transposed(np: Any) -> Any:
    grid = np.arange(30.0).reshape(5, 6) * 1
    grid[::2, 1::2] += grid[::2, ::2]
    grid.T[2:, :] /= 4
    grid[1, :] -= grid[3, :]
    return grid


def _assignments(np: Any) -> Any:
    x = np.arange(20.0) * 1
    x[1:] = x[:-1]  # the value views the target: NumPy buffers it
    x[5:9] = 7.0
    x[0] = 3
    x[::4] = np.arange(5) * 2  # integers into floats
    counts = np.arange(6, dtype=np.int32) * 1
    counts[2:4] = np.asarray([2.75, -1.5])  # NumPy's unsafe cast, truncating
    grid = np.zeros((4, 5)) + 1
    grid[1:3, 1:4] = grid[:2, 2:5] * 3 + np.arange(3.0)
    row = grid[2]
    grid[2, :] = -1.0  # the row view sees it
    return [x, counts, grid, row]


@pytest.mark.parametrize(
    "program",
    [_laplacian_updates, _overlapping, _live_views, _strided_and_transposed, _assignments],
)
def test_writes_through_views_equal_numpys(program: Callable[[Any], Any]) -> None:
    ours, expected = program(dnp), program(numpy)
    for one, numpys in zip(
        ours if isinstance(ours, list) else [ours],
        expected if isinstance(expected, list) else [expected],
        strict=True,
    ):
        assert_eq(one, numpys)
        assert type(one._store.version) is ChunkValue  # computed when written


def test_a_write_into_a_value_nothing_else_reads_is_in_place() -> None:
    x, y = dnp.ones(1024), dnp.arange(1024.0)
    watched = weakref.ref(_chunk(x))  # not a reader: holds no reference
    x[1:] += 2 * y[1:]
    x += y
    x[::3] *= 0.5
    assert _chunk(x) is watched()
    expected = numpy.ones(1024)
    expected[1:] += 2 * numpy.arange(1.0, 1024.0)
    expected += numpy.arange(1024.0)
    expected[::3] *= 0.5
    assert_eq(x, expected)


@pytest.mark.parametrize(
    "reader",
    [
        lambda x: x.sum(),  # a lazy reduction names x's value
        lambda x: x._store.held_chunk()[0],  # the chunk itself
        lambda x: dnp.asarray(x[2:5]).copy(),  # a copy: its own value
        lambda x: x.copy(),
        lambda x: x.reshape(4, 256),  # a view: sees the write, as NumPy's does
    ],
)
def test_a_value_some_reader_holds_is_not_changed_under_it(reader: Any) -> None:
    x, host = dnp.arange(1024.0) * 1, numpy.arange(1024.0)
    held = reader(x)
    expected = _host(held).copy() if not _is_view_of(held, x) else None
    x[1:] -= 3.0
    host[1:] -= 3.0
    assert_eq(x, host)
    if expected is None:
        assert_eq(held, host.reshape(4, 256))
    else:
        numpy.testing.assert_array_equal(_host(held), expected)


def _is_view_of(held: Any, x: Any) -> bool:
    return isinstance(held, dnp.ndarray) and held._store is x._store


def _host(value: Any) -> numpy.ndarray:
    return numpy.asarray(value if isinstance(value, dnp.ndarray) else _to_host(value))


def _to_host(chunk: Any) -> numpy.ndarray:
    from dask_gpunumeric._backends import get_backend

    return numpy.asarray(get_backend().to_host(chunk))


@pytest.mark.parametrize(
    "write",
    [
        lambda np, x: x[1:].__iadd__(np.ones(3)),  # shapes that do not broadcast
        lambda np, x: np.add(x[2:], 1.5, out=x[2:]),  # float into int: same_kind refuses
        lambda np, x: np.add(x, np.ones((2, 10), dtype=np.int64), out=x),  # out too small
    ],
)
def test_a_refused_write_raises_numpys_error_and_changes_nothing(write: Any) -> None:
    host, ours = numpy.arange(10), dnp.arange(10) * 1
    watched = weakref.ref(_chunk(ours))
    assert_raises_like(lambda: write(numpy, host), lambda: write(dnp, ours))
    assert_eq(ours, numpy.arange(10))
    assert _chunk(ours) is watched()


def test_a_read_only_array_refuses_the_write() -> None:
    host, ours = numpy.arange(10.0), dnp.arange(10.0) * 1
    host.setflags(write=False)
    ours.setflags(write=False)

    def write(x: Any) -> None:
        x[1:] += 1

    assert_raises_like(lambda: write(host), lambda: write(ours))
    assert_eq(ours, numpy.arange(10.0))


def test_arrays_of_a_few_blocks_are_computed_when_built_with_the_policy_on() -> None:
    """Under the policy, values up to ``NOW_BYTES`` are computed when built, whatever
    ``min-chunk-elements`` (the suite's 4,096 elements here: a 300 x 300 grid has 22
    blocks' worth); with it off, only one block's worth."""
    host = numpy.random.default_rng(3).random((300, 300))
    assert 300 * 300 * 8 <= work_placement.NOW_BYTES
    for policy, computed in (("64 MiB", True), (0, False)):
        with dnp.config.set(client_work_bytes=policy):
            u = dnp.array(host) * 1.0
            out = 4.0 * u
            out[1:, :] -= u[:-1, :]
            assert (type(out._store.version) is ChunkValue) is computed, policy
            expected = 4.0 * host
            expected[1:, :] -= host[:-1, :]
            assert_eq(out, expected)


@pytest.mark.parametrize(
    "reader",
    [
        lambda x: x.sum(),  # a lazy reduction names x's value
        lambda x: x._store.held_chunk()[0],
        lambda x: x.copy(),
    ],
)
def test_an_assignment_leaves_what_a_reader_holds(reader: Any) -> None:
    x, host = dnp.arange(64.0) * 1, numpy.arange(64.0)
    held = reader(x)
    expected = _host(held).copy()
    x[3:9] = -2.0
    host[3:9] = -2.0
    assert_eq(x, host)
    numpy.testing.assert_array_equal(_host(held), expected)


def test_an_assignment_into_a_value_nothing_else_reads_is_in_place() -> None:
    x = dnp.arange(64.0) * 1
    watched = weakref.ref(_chunk(x))
    for i in range(0, 64, 8):
        x[i] = -i
    x[1:3] = dnp.ones(2) * 5
    assert _chunk(x) is watched()
    host = numpy.arange(64.0)
    for i in range(0, 64, 8):
        host[i] = -i
    host[1:3] = 5.0
    assert_eq(x, host)
