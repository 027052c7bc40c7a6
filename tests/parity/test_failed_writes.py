"""A write that fails leaves its target, and every view of it, as it was, and usable.

Writes are recorded lazily, so an error that needs the values (integers to negative powers,
a worker's exception) surfaces at the first synchronization rather than at the write, with
NumPy's exception class; the store is then rolled back (``_array/rollback.py``). The
NumPy side of each test makes the same writes, the failing one raising at the call."""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._array.rollback import pending_writes
from dask_gpunumeric.testing import assert_eq

# Large enough to be lowered to dask (tests lower min-chunk-elements to 4096), in 4 blocks.
N = 20_000
CHUNK = 5_000


def _pair() -> tuple[numpy.ndarray, Any]:
    host = numpy.arange(N, dtype=numpy.int64)
    return host.copy(), dnp.array(host, chunks=CHUNK)


def _negative_powers(xp: Any, n: int) -> Any:
    exponents = numpy.full(n, -1, dtype=numpy.int64)
    return exponents if xp is numpy else dnp.array(exponents, chunks=n // 2)


def _failing_write(xp: Any, target: Any) -> None:
    """``target[:100] = target[:100] ** negative ints``: NumPy's ValueError."""
    target[:100] = target[:100] ** _negative_powers(xp, 100)


def test_late_error_leaves_target_and_views_unchanged() -> None:
    expected, ours = _pair()
    views = [ours[50:150], ours[::7], ours.reshape(4, -1)[1]]
    expected[CHUNK:] = 7
    ours[CHUNK:] = 7  # an earlier write that computes: kept
    with pytest.raises(ValueError, match="negative"):
        _failing_write(numpy, expected)
    _failing_write(dnp, ours)  # recorded: the values are not known yet
    with pytest.raises(ValueError, match="negative"):
        ours.compute()  # the first synchronization raises NumPy's class
    assert_eq(ours, expected)
    for view, host_view in zip(
        views, [expected[50:150], expected[::7], expected.reshape(4, -1)[1]], strict=True
    ):
        assert_eq(view, host_view)
    assert pending_writes(ours._store) == 0
    # Usable afterwards: writes and reads as NumPy's.
    expected[:3] += 5
    ours[:3] += 5
    assert_eq(ours, expected)
    assert int(ours.sum()) == int(expected.sum())


def test_failure_seen_by_another_array_rolls_the_writer_back() -> None:
    expected, ours = _pair()
    other_host, other = _pair()
    other[10:20] = -3  # a pending write of another store that computes: kept
    other_host[10:20] = -3
    _failing_write(dnp, ours)
    with pytest.raises(ValueError):
        float((ours + other).sum())
    assert_eq(ours, expected)
    assert_eq(other, other_host)


def _raising_block(block: numpy.ndarray) -> numpy.ndarray:
    raise RuntimeError("worker error while computing the written value")


def test_worker_error_in_written_value() -> None:
    expected, ours = _pair()
    # a dtype, not a type: dask's expression map_blocks reads dtype.kind
    bad = da.from_array(numpy.ones(CHUNK, dtype=numpy.int64), chunks=CHUNK // 2).map_blocks(
        _raising_block, dtype=numpy.dtype(numpy.int64)
    )
    ours[:CHUNK] = dnp.asarray(bad)
    with pytest.raises(RuntimeError, match="worker error"):
        ours.compute()
    assert_eq(ours, expected)


def test_failure_when_a_deep_version_is_persisted_at_the_write() -> None:
    """Past ``persist-depth`` a write persists its version at once, so the error surfaces
    at the write itself, as in NumPy; the target keeps the writes before it."""
    expected, ours = _pair()
    with dnp.config.set(persist_depth=12):
        for i in range(2):
            ours[i] = i * 10
            expected[i] = i * 10
        with pytest.raises(ValueError, match="negative"):
            for _ in range(8):  # the fourth is deep enough to be persisted at the write
                _failing_write(dnp, ours)
    assert_eq(ours, expected)
    assert pending_writes(ours._store) == 0


def test_fancy_write_out_of_bounds_with_our_index() -> None:
    """Our index array is read at the write (NumPy's order): IndexError there."""
    expected, ours = _pair()
    index_host = numpy.array([3, N + 5, 7])
    index = dnp.array(index_host, chunks=2)
    with pytest.raises(IndexError, match=str(N + 5)):
        expected[index_host] = 0
    with pytest.raises(IndexError, match=str(N + 5)):
        ours[index] = 0
    assert_eq(ours, expected)


def test_journal_stays_bounded_in_a_loop() -> None:
    """The journal holds only versions the current one is built on: in a long loop of
    writes it never holds more than the writes since the last persisted version."""
    expected, ours = _pair()
    depth = dnp.config.get("persist-depth")
    for i in range(3 * depth):
        ours[i % 100] += 1
        expected[i % 100] += 1
        assert pending_writes(ours._store) <= depth
    assert_eq(ours, expected)
