"""``Roll`` by structure (``_lowering/rolling.py``): the rolled array has its input's
chunks; a block whose source is one whole block is that block's key (no task); any other
block is one task assembling views of the blocks it wraps onto; a periodic heat step then
needs no relayout, no rechunk, and one fused task per block (with the halo exchange off:
on, it is one stencil, ``test_stencil_lowering.py``)."""

from __future__ import annotations

from typing import Any

import numpy
import pytest

import dask_gpunumeric as dnp
from dask_gpunumeric._kernels.indexing import assemble_block
from dask_gpunumeric._lowering.rolling import source_segments
from dask_gpunumeric.testing import assert_eq


def roll_layer(rolled: Any) -> tuple[Any, dict[Any, Any]]:
    """The rolled array's dask collection and the tasks of its own layer."""
    collection = rolled.to_dask()
    return collection, dict(collection.__dask_graph__().layers[collection.name])


@pytest.mark.parametrize(
    ("shift", "axis"),
    [(1, 0), (-1, 0), (7, 1), ((3, -11), (0, 1)), ((2, 1, -5), (0, 1, 2)), (13, None)],
)
def test_the_roll_has_its_inputs_chunks(shift: Any, axis: Any) -> None:
    host = numpy.random.default_rng(0).random((9, 26, 4))
    chunks = ((2, 5, 2), (10, 3, 13), (3, 1))
    x = dnp.array(host, chunks=chunks)
    rolled = dnp.roll(x, shift, axis=axis)
    if axis is not None:  # the flat roll is a reshape's business
        assert rolled.to_dask().chunks == chunks
    assert_eq(rolled, numpy.roll(host, shift, axis=axis))


def test_a_roll_by_whole_equal_blocks_makes_no_task() -> None:
    host = numpy.arange(24.0 * 6).reshape(24, 6)
    x = dnp.array(host, chunks=(6, 3))
    source = x.to_dask().name
    collection, tasks = roll_layer(dnp.roll(x, (12, 3), axis=(0, 1)))
    assert len(tasks) == 8  # the output's blocks, nothing else
    for (_, i, j), task in tasks.items():
        assert task == (source, (i - 2) % 4, (j - 1) % 2)
    assert_eq(dnp.roll(x, (12, 3), axis=(0, 1)), numpy.roll(host, (12, 3), axis=(0, 1)))


def test_blocks_crossing_edges_assemble_views_of_the_blocks_they_meet() -> None:
    host = numpy.arange(20.0)
    x = dnp.array(host, chunks=5)
    source = x.to_dask().name
    collection, tasks = roll_layer(dnp.roll(x, 1))
    blocks = {key: task for key, task in tasks.items() if key[0] == collection.name}
    pieces = {key: task for key, task in tasks.items() if key[0] != collection.name}
    # each output block: the last element of the block before it (wrapping) and the first
    # four of its own block, two views assembled by one task
    assert len(blocks) == 4 and len(pieces) == 8
    for (_, index), task in blocks.items():
        assert task[0] is assemble_block
        assert task[4] == (((0, 1),), ((1, 5),))
        first, second = (pieces[key] for key in task[5:])
        assert first[1] == (source, (index - 1) % 4) and first[2] == (slice(4, 5),)
        assert second[1] == (source, index) and second[2] == (slice(0, 4),)
    assert_eq(dnp.roll(x, 1), numpy.roll(host, 1))


@pytest.mark.parametrize(
    ("low", "high", "roll", "expected"),
    [
        (0, 5, 0, [(0, 5, 0)]),
        (5, 10, 3, [(2, 7, 0)]),  # no wrap
        (0, 5, 3, [(17, 20, 0), (0, 2, 3)]),  # wraps: the end of the axis first
        (0, 5, 17, [(3, 8, 0)]),  # wholly wrapped (the roll of -3)
        (15, 20, 18, [(17, 20, 0), (0, 2, 3)]),
    ],
)
def test_source_segments(low: int, high: int, roll: int, expected: list[Any]) -> None:
    assert source_segments(low, high, roll, 20) == expected


def test_a_periodic_heat_step_needs_no_relayout() -> None:
    """Without the halo exchange (which makes the step one stencil of ``u``:
    ``test_stencil_lowering.py``): four rolls and one fused task per block."""
    host = numpy.random.default_rng(1).random((60, 80))
    u = dnp.array(host, chunks=(20, 40))
    step = u + 0.1 * (
        dnp.roll(u, 1, 0) + dnp.roll(u, -1, 0) + dnp.roll(u, 1, 1) + dnp.roll(u, -1, 1) - 4 * u
    )
    with dnp.config.set(halo=False):
        collection = step.to_dask()
    layers = collection.__dask_graph__().layers
    assert collection.chunks == u.to_dask().chunks
    names = [name.split("-")[0] for name in layers]
    assert not [n for n in names if n in ("relayout", "rechunk", "concatenate", "getitem")]
    assert names.count("roll") == 4
    # one fused task per block computes the step
    (fused,) = [name for name in layers if name.startswith(("elementwise", "fused"))]
    assert len(layers[fused]) == 6
    expected = host + 0.1 * (
        numpy.roll(host, 1, 0)
        + numpy.roll(host, -1, 0)
        + numpy.roll(host, 1, 1)
        + numpy.roll(host, -1, 1)
        - 4 * host
    )
    assert_eq(step, expected)
