"""A small value read from the live array that holds it (``float(m)`` of ``m = (...).mean()``)
is computed as any result is, not persisted first (one run, dask's graph optimization,
the aggregate in the client), and the array then holds the value: a second read computes
nothing. An array of blocks, however small, is persisted with the live arrays as before
(``materialize``): it keeps its blocks."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.leaves import ChunkValue, DaskData


def deep(np: Any, x: Any) -> Any:
    return ((x * 2.0 + 1.0) * 3.0 - 0.5) / 7.0  # deep enough to be worth persisting


def test_a_small_result_read_is_computed_once_and_held(scheduler_runs: list[str]) -> None:
    host = numpy.linspace(0.0, 1.0, 400_000)
    m = deep(dnp, dnp.array(host, chunks=100_000)).mean()
    expected = deep(numpy, host).mean()
    assert float(m) == pytest.approx(expected, rel=1e-12)
    assert scheduler_runs and "persist" not in scheduler_runs, (
        scheduler_runs
    )  # one computation (finishing here: two calls)
    assert type(m._store.version) is ChunkValue
    scheduler_runs.clear()
    assert float(m) == pytest.approx(expected, rel=1e-12)
    assert numpy.asarray(m).dtype == expected.dtype and numpy.asarray(m).shape == ()
    assert scheduler_runs == []  # held: nothing computed again
    numpy.asarray(m)[...] = 5.0  # the caller's copy, not the held value
    assert float(m) == pytest.approx(expected, rel=1e-12)


def test_an_array_read_is_persisted_with_its_blocks(scheduler_runs: list[str]) -> None:
    host = numpy.linspace(0.0, 1.0, 400_000)
    y = deep(dnp, dnp.array(host, chunks=100_000))
    numpy.testing.assert_allclose(numpy.asarray(y), deep(numpy, host), rtol=1e-15)
    assert scheduler_runs[0] == "persist" and type(y._store.version) is DaskData
    scheduler_runs.clear()
    row = deep(dnp, dnp.array(host.reshape(4, -1), chunks=(1, -1))).sum(axis=1)  # 32 bytes
    numpy.testing.assert_allclose(numpy.asarray(row), deep(numpy, host.reshape(4, -1)).sum(axis=1))
    assert (
        scheduler_runs[0] == "persist" and type(row._store.version) is DaskData
    )  # its blocks kept


def test_persisting_a_value_made_here_keeps_it_as_it_is() -> None:
    """A solver's iterate (a value computed in the client, kept there by the small-work
    policy) persists as that value: no evaluation, no scheduler call, the same node; the
    two arrays stay independent, as NumPy's copies are."""
    with dnp.config.set(client_work_bytes="64 MiB"):  # the library's default policy
        x = dnp.arange(10.0) * 2
        held = x._store.version
        assert type(held) is ChunkValue
        y = x.persist()
        assert y._store.version is held
    y[0] = -1.0
    x += 1
    assert_equal = numpy.testing.assert_array_equal
    assert_equal(numpy.asarray(y), numpy.r_[-1.0, numpy.arange(2.0, 20.0, 2)])
    assert_equal(numpy.asarray(x), numpy.arange(10.0) * 2 + 1)
    z = (dnp.arange(10.0) * 2).persist()  # the suite's policy: to the scheduler
    assert type(z._store.version) is DaskData
    assert_equal(numpy.asarray(z), numpy.arange(10.0) * 2)


def test_a_sort_read_through_two_indexes_is_sorted_once(scheduler_runs: list[str]) -> None:
    """``top = np.argsort(v)[-100:]``, then ``rows[top]`` and ``cols[top]`` (the image
    pipeline): the argsort is shallow, but a whole-lane operation is worth persisting, so
    the first index's computation keeps it and the second reads it."""
    generator = numpy.random.default_rng(0)
    host, rows_host = generator.random(300_000), generator.integers(0, 9, 300_000)
    values, rows = dnp.array(host, chunks=100_000), dnp.array(rows_host, chunks=100_000)
    order = dnp.argsort(values)
    top = order[-100:]
    expected = rows_host[numpy.argsort(host)[-100:]]
    numpy.testing.assert_array_equal(numpy.asarray(rows[top]), expected)
    assert "persist" in scheduler_runs and type(order._store.version) is DaskData
    scheduler_runs.clear()
    numpy.testing.assert_array_equal(numpy.asarray(rows[top]), expected)
    numpy.testing.assert_array_equal(numpy.asarray(values[top]), numpy.sort(host)[-100:])
    assert "persist" not in scheduler_runs  # read from the kept argsort
