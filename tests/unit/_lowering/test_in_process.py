"""Small expressions are evaluated in the client process (``_lowering/in_process.py``):
same values, dtypes and shapes as NumPy and as the task path, no task for tiny arrays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._backends import get_backend
from dask_gpunumeric._ir.leaves import ChunkValue
from dask_gpunumeric.testing import assert_eq
from examples.stencil import stencil


def _is_in_process(array: Any) -> bool:
    return isinstance(array._store.version, ChunkValue)


def _check_both_paths(program: Callable[[Any], Any]) -> None:
    """``program(dnp)`` equals ``program(numpy)`` evaluated in process and through tasks."""
    expected = program(numpy)
    ours = program(dnp)
    assert _is_in_process(ours)
    assert isinstance(ours._store.version.value, get_backend().chunk_type)
    assert_eq(ours, expected)
    with dnp.config.set(in_process_evaluation=False):
        through_tasks = program(dnp)
        assert not _is_in_process(through_tasks)
        assert_eq(through_tasks, expected)


def _repeated_update(np: Any) -> Any:
    x = np.ones(1024)
    y = np.arange(1024.0)
    for _ in range(200):
        x += 2 * y
    return x


def _views_and_writes(np: Any) -> Any:
    a = np.arange(60.0).reshape(6, 10)
    a[1:-1, ::3] = a[2:, 0:10:3] * -1.5
    a.T[2] = 7
    b = a[::-1, None, 2:5].astype(np.float32)
    b[0, 0, :] += np.sqrt(a[0, :3])
    c = np.where(a > 20, a, 0.5 * a.reshape(60)[:10])
    return c + b[1:2, 0, :1] - (a < 3)


@pytest.mark.parametrize("program", [_repeated_update, _views_and_writes])
def test_in_process_equals_numpy_and_the_task_path(program: Callable[[Any], Any]) -> None:
    _check_both_paths(program)


def test_small_stencil_runs_in_process() -> None:
    _check_both_paths(lambda np: stencil(np, 30, 40))


def test_large_and_explicitly_chunked_arrays_stay_lazy() -> None:
    limit = dnp.config.get("min-chunk-elements")
    assert not _is_in_process(dnp.ones(limit) + 1)
    assert not _is_in_process(dnp.ones(100, chunks=10) + 1)
    assert _is_in_process(dnp.ones(limit - 1) + 1)


def test_tiny_values_mix_with_lazy_ones() -> None:
    big_host = numpy.arange(3.0 * dnp.config.get("min-chunk-elements"))
    big, tiny = dnp.asarray(big_host), dnp.arange(10.0)
    mixed = big[:10] * tiny
    assert not _is_in_process(mixed)
    assert_eq(mixed, big_host[:10] * numpy.arange(10.0))
    big[5:15] = tiny + 1
    big_host[5:15] = numpy.arange(10.0) + 1
    assert_eq(big, big_host)


def test_computed_results_do_not_alias_our_values() -> None:
    ours = dnp.zeros(8)
    host = ours.compute()
    host[0] = 5.0
    also = numpy.asarray(ours)
    also[1] = 6.0
    assert_eq(ours, numpy.zeros(8))


def test_in_process_values_follow_a_backend_change() -> None:
    ours = dnp.arange(6.0) * 2
    for name in ("simulated-device", "numpy"):
        with dnp.config.set(backend=name):
            assert_eq(ours + 1, numpy.arange(6.0) * 2 + 1)
