"""Building dask arrays from per-block task tables (one HighLevelGraph layer each)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy
from dask.highlevelgraph import HighLevelGraph

from .._backends.base import ChunkBackend
from .._runtime import dask_arrays as da

Chunks = tuple[tuple[int, ...], ...]
# lower_<node>(node, lowered inputs, backend): the node's dask array
Lowering = Callable[[Any, list[da.Array], ChunkBackend], da.Array]


def block_offsets(chunks: Chunks) -> list[tuple[int, ...]]:
    return [tuple(itertools.accumulate((0,) + c[:-1])) for c in chunks]


def from_block_function(
    name: str,
    chunks: Chunks,
    dtype: numpy.dtype,
    backend: ChunkBackend,
    make_block: Callable[..., Any],
) -> da.Array:
    """A dask array whose block at index b is ``make_block(block_shape, block_offset)``,
    created on the worker that runs it."""
    offsets = block_offsets(chunks)
    graph: dict[Any, Any] = {}
    for index in itertools.product(*(range(len(c)) for c in chunks)):
        shape = tuple(c[i] for c, i in zip(chunks, index, strict=True))
        offset = tuple(o[i] for o, i in zip(offsets, index, strict=True))
        graph[(name,) + index] = (make_block, shape, offset)
    layer = HighLevelGraph.from_collections(name, graph, dependencies=())
    return da.Array(layer, name, chunks, meta=backend.meta(len(chunks), dtype))


def from_block_tasks(
    name: str,
    tasks: dict[tuple[int, ...], Any],
    chunks: Chunks,
    dtype: numpy.dtype,
    backend: ChunkBackend,
    dependencies: list[Any],
) -> da.Array:
    """A dask array from a {block index: task} table whose tasks refer to blocks of
    ``dependencies``."""
    graph: dict[Any, Any] = {(name,) + index: task for index, task in tasks.items()}
    layer = HighLevelGraph.from_collections(name, graph, dependencies=list(dependencies))
    return da.Array(layer, name, chunks, meta=backend.meta(len(chunks), dtype))
