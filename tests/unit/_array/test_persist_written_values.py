"""A value written whole into a persisted store (``average`` in ``center[:] = average``) is
not persisted as a second output: it becomes a view of the store's persisted leaf, so the
write stays one stencil per block, and the value stays NumPy's (an independent array)."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._ir.indexing import Slice
from dask_gpunumeric._ir.leaves import DaskData
from dask_gpunumeric._runtime import execution
from dask_gpunumeric.testing import assert_eq


def seed_loop(xp: Any, iterations: int) -> tuple[Any, Any]:
    grid = xp.zeros((22, 22), **({} if xp is numpy else {"chunks": (11, 11)}))
    grid[0, :] = 40.0
    grid[:, 0] = -273.15
    center, north, south = grid[1:-1, 1:-1], grid[:-2, 1:-1], grid[2:, 1:-1]
    east, west = grid[1:-1, 2:], grid[1:-1, :-2]
    average = None
    for _ in range(iterations):
        average = 0.2 * (center + north + east + west + south)
        center[:] = average
    return grid, average


@pytest.fixture
def persist_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, list[str]]]:
    """For every persist run (auto-persists included): how many arrays it persists, and
    the layer names of their graphs."""
    runs: list[tuple[int, list[str]]] = []
    persist = execution.persist

    def recording(*arrays: Any) -> Any:
        runs.append((len(arrays), [name for a in arrays for name in a.__dask_graph__().layers]))
        return persist(*arrays)

    monkeypatch.setattr(execution, "persist", recording)
    return runs


def test_auto_persists_of_a_stencil_loop_write_through(
    persist_runs: list[tuple[int, list[str]]],
) -> None:
    with dnp.config.set(persist_depth=12):
        grid, average = seed_loop(dnp, 10)
    expected_grid, expected_average = seed_loop(numpy, 10)
    assert len(persist_runs) >= 3
    for arrays, layers in persist_runs[1:]:  # the first one also builds the grid
        kinds = {name.split("-")[0] for name in layers}
        assert kinds == {"stencil"}, kinds  # no new-array stencil copied in by a setitem
        # only the grid's new version: not average, nor the version it replaces
        assert arrays == 1
    assert isinstance(average._store.version, Slice)
    assert isinstance(average._store.version.children[0], DaskData)
    assert_eq(grid, expected_grid)
    assert_eq(average, expected_average)


def test_the_value_keeps_its_values_when_the_store_is_written_again() -> None:
    with dnp.config.set(persist_depth=12):
        grid, average = seed_loop(dnp, 6)
        grid[1:-1, 1:-1] = -1.0
        average[0, 0] = 7.0
    expected_grid, expected_average = seed_loop(numpy, 6)
    expected_grid[1:-1, 1:-1] = -1.0
    expected_average[0, 0] = 7.0
    assert_eq(grid, expected_grid)
    assert_eq(average, expected_average)


@pytest.mark.parametrize(
    ("shape", "dtype"), [((10,), "f8"), ((2, 10), "f4")], ids=["broadcast", "cast"]
)
def test_a_value_not_written_as_is_is_persisted_itself(shape: tuple[int, ...], dtype: str) -> None:
    def run(xp: Any) -> tuple[Any, Any]:
        grid = xp.full((4, 10), 3.0)
        value = xp.ones(shape, dtype=dtype)
        for _ in range(6):  # the write, not the value, is deep enough to auto-persist
            value = value * 0.5 + 1.0
        grid[1:3] = value
        return grid, value

    with dnp.config.set(persist_depth=12, in_process_evaluation=False):
        grid, value = run(dnp)
        assert isinstance(value._store.version, DaskData)  # persisted itself, not a view
    expected_grid, expected_value = run(numpy)
    assert_eq(grid, expected_grid)
    assert_eq(value, expected_value)
