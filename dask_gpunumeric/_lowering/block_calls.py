"""``DaskCall`` functions lowered by our own task graphs instead of dask.array's: those
dask has not written for its expression arrays (``array.query-planning``; its task-graph
versions then call the namespace's functions, expressions), lowered the same way under
both settings.

- ``tril``/``triu``: one task per block, the block's ``tril`` with the diagonal offset
  moved to its own coordinates (``k + row offset - column offset``).
- ``tile``: no task: each output block is the source block it repeats (a key alias).
- ``searchsorted``: one task per block of values, summing each sorted block's positions.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import partial
from typing import Any

from .._backends.base import ChunkBackend
from .._ir.dask_call import DaskCall
from .._kernels.block_calls import searchsorted_blocks, triangle_block
from .._runtime import dask_arrays as da
from .layers import block_offsets, from_block_tasks

# lower_<function>(node, its lowered arguments, its keywords, backend)
BlockCall = Callable[[DaskCall, list[Any], dict[str, Any], ChunkBackend], da.Array]


def lower_triangle(
    node: DaskCall, arguments: list[Any], keywords: dict[str, Any], backend: ChunkBackend
) -> da.Array:
    array, k = arguments
    rows, columns = block_offsets(array.chunks[-2:])
    tasks = {}
    for index in itertools.product(*map(range, array.numblocks)):
        local = k + rows[index[-2]] - columns[index[-1]]
        tasks[index] = (
            partial(triangle_block, backend, node.function, local),
            (array.name, *index),
        )
    return from_block_tasks(node.name, tasks, array.chunks, node.dtype, backend, [array])


def lower_tile(
    node: DaskCall, arguments: list[Any], keywords: dict[str, Any], backend: ChunkBackend
) -> da.Array:
    array, reps = arguments
    chunks = tuple(c * r for c, r in zip(array.chunks, reps, strict=True))
    tasks: dict[tuple[int, ...], Any] = {
        index: (array.name, *(i % n for i, n in zip(index, array.numblocks, strict=True)))
        for index in itertools.product(*(range(len(c)) for c in chunks))
    }
    return from_block_tasks(node.name, tasks, chunks, node.dtype, backend, [array])


def lower_searchsorted(
    node: DaskCall, arguments: list[Any], keywords: dict[str, Any], backend: ChunkBackend
) -> da.Array:
    array, values = arguments
    kernel = partial(searchsorted_blocks, backend, keywords.get("side", "left"))
    sorted_keys = [(array.name, i) for i in range(array.numblocks[0])]
    tasks: dict[tuple[int, ...], Any] = {
        (j,): (kernel, (values.name, j), *sorted_keys) for j in range(values.numblocks[0])
    }
    return from_block_tasks(node.name, tasks, values.chunks, node.dtype, backend, [array, values])


block_calls: dict[str, BlockCall] = {
    "tril": lower_triangle,
    "triu": lower_triangle,
    "tile": lower_tile,
    "searchsorted": lower_searchsorted,
}
