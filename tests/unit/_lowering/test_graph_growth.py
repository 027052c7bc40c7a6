"""Structure, not values: loops build graphs that grow linearly, writes touch only the
blocks they meet, and auto-persist bounds a store's version chain (DESIGN.md §3)."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._kernels.indexing import write_block
from examples.stencil import stencil


def _task_count(array: Any) -> int:
    return len(array.__dask_graph__())


@pytest.mark.usefixtures("four_workers")
def test_stencil_graph_grows_linearly() -> None:
    # No auto-persist (the whole chain is kept), one stencil node per iteration.
    with dnp.config.set(persist_depth=10**6, halo_sweeps=1):
        counts = {
            iterations: _task_count(stencil(dnp, 200, iterations)) for iterations in (10, 20, 40)
        }
        assert len(stencil(dnp, 200, 1).to_dask().chunks[0]) > 1  # several blocks per axis
    per_iteration = (counts[20] - counts[10]) / 10
    assert per_iteration > 0
    assert counts[40] - counts[20] == 20 * per_iteration


def _layer_of(array: Any) -> dict[Any, Any]:
    collection = array.to_dask()
    return dict(collection.__dask_graph__().layers[collection.name])


def _is_write_task(task: Any) -> bool:
    return isinstance(task, tuple) and task and task[0] is write_block


# The writes below go into arrays made from host data: scalar writes into a fresh zeros()
# would be folded into its creation (``_passes/paint_fills.py``).


def test_write_inside_one_block_makes_one_task() -> None:
    array = dnp.array(numpy.zeros((8, 8)), chunks=(4, 4))
    before = array.to_dask()
    array[5:7, 1:3] = 5.0
    layer = _layer_of(array)
    writes = {key: task for key, task in layer.items() if _is_write_task(task)}
    assert list(writes) == [(array.to_dask().name, 1, 0)]
    aliases = {key: task for key, task in layer.items() if key not in writes}
    # Every other block of the new version is the old block itself: no task, no copy.
    assert aliases == {key: (before.name,) + key[1:] for key in aliases}
    assert len(aliases) == 3


def test_write_through_a_view_touches_only_blocks_it_meets() -> None:
    array = dnp.array(numpy.zeros((12, 12)), chunks=(4, 4))
    view = array[::-1].T[2:6]  # rows 2..5 of the transpose: columns 2..5 of the base
    view[:, 10] = 1.0  # base row 1, columns 2..5: blocks (0, 0) and (0, 1)
    blocks = sorted(key[1:] for key, task in _layer_of(array).items() if _is_write_task(task))
    assert blocks == [(0, 0), (0, 1)]
    expected = numpy.zeros((12, 12))
    expected[::-1].T[2:6][:, 10] = 1.0
    numpy.testing.assert_array_equal(array.compute(), expected)


def test_auto_persist_bounds_version_depth() -> None:
    limit = 30
    with dnp.config.set(persist_depth=limit):
        grid = dnp.zeros((18, 18))
        center, north = grid[1:-1, 1:-1], grid[:-2, 1:-1]
        expected = numpy.zeros((18, 18))
        expected_center, expected_north = expected[1:-1, 1:-1], expected[:-2, 1:-1]
        depths = []
        for _ in range(500):
            center[:] = 0.5 * (center + north) + 1.0
            expected_center[:] = 0.5 * (expected_center + expected_north) + 1.0
            depths.append(grid._store.version.depth)
    assert max(depths) <= limit
    numpy.testing.assert_array_equal(grid.compute(), expected)


def test_write_through_a_reshape_keeps_chunks_and_far_blocks() -> None:
    array = dnp.zeros((8, 6), chunks=(4, 3))
    chunks = array.to_dask().chunks
    array.reshape(4, 12)[3, 1:5] = 1.0  # base row 7: the second row of blocks
    assert array.to_dask().chunks == chunks  # equal shapes keep equal chunks
    layer = _layer_of(array)
    untouched = sorted(key[1:] for key, task in layer.items() if not _is_write_task(task))
    assert untouched == [(0, 0), (0, 1)]
    expected = numpy.zeros((8, 6))
    expected.reshape(4, 12)[3, 1:5] = 1.0
    numpy.testing.assert_array_equal(array.compute(), expected)
