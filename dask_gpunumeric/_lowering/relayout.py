"""Relayout by output blocks (DESIGN.md §4): an array laid onto another chunking, each new
block taking exactly the region it needs from the old blocks.

A new block inside one old block is that block (its key, when equal) or a view of it
(``block[a:b, c:d]``, no copy on one worker); a new block straddling old ones is one task
assembling the pieces, where every partial piece is a small task of its own, so only the
piece crosses workers. One layer, no intermediate chunking: never dask's ``rechunk`` or
``unify_chunks`` (whose union of boundaries makes sliver chunks).
"""

from __future__ import annotations

import itertools
import operator
from typing import Any

from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from .._backends.base import ChunkBackend
from .._kernels.boxes import (
    Box,
    Chunks,
    block_box,
    blocks_meeting,
    boundaries,
    box_shape,
    intersect,
    shift,
)
from .._kernels.boxes import slices as box_slices
from .._kernels.indexing import assemble_block
from .._runtime import dask_arrays as da


def relayout(array: da.Array, chunks: Chunks, backend: ChunkBackend) -> da.Array:
    """``array`` with ``chunks`` (same shape), by output blocks."""
    if tuple(map(tuple, array.chunks)) == chunks:
        return array
    name = f"relayout-{tokenize(array.name, chunks)}"
    source = boundaries(array.chunks)
    target = boundaries(chunks)
    graph: dict[Any, Any] = {}
    for index in itertools.product(*(range(len(c)) for c in chunks)):
        box = block_box(target, index)
        pieces = []
        for block in blocks_meeting(source, box):
            cut = intersect(box, block_box(source, block))
            key = piece(graph, name, (array.name, *block), block_box(source, block), cut)
            pieces.append((shift(cut, tuple(-low for low, _ in box)), key))
        graph[(name, *index)] = block_task(pieces, box_shape(box), array.dtype, backend)
    sources: list[Any] = [array]
    layer = HighLevelGraph.from_collections(name, graph, dependencies=sources)
    return da.Array(layer, name, chunks, meta=backend.meta(len(chunks), array.dtype))


def merge_slivers(sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Block sizes along one axis with a first or last block smaller than half its
    neighbour merged into that neighbour (what slicing a few elements off leaves)."""
    merged = [n for n in sizes if n]
    if len(merged) > 1 and 2 * merged[0] < merged[1]:
        merged[:2] = [merged[0] + merged[1]]
    if len(merged) > 1 and 2 * merged[-1] < merged[-2]:
        merged[-2:] = [merged[-2] + merged[-1]]
    return tuple(merged) if merged else sizes


def piece(graph: dict[Any, Any], name: str, key: Any, block: Box, cut: Box) -> Any:
    """The key of ``cut`` of the source block ``key``: the block itself when whole, else a
    new view task in ``graph`` (named after the layer ``name``, so one layer holds both)."""
    if cut == block:
        return key
    view = (f"{name}-piece", len(graph))
    graph[view] = (operator.getitem, key, box_slices(shift(cut, tuple(-lo for lo, _ in block))))
    return view


def block_task(
    pieces: list[tuple[Box, Any]], shape: tuple[int, ...], dtype: Any, backend: ChunkBackend
) -> Any:
    """The task of a new block of ``shape`` made of ``pieces`` ((box in the block, key)
    covering it): the one piece's key itself (no task), else one task assembling them."""
    if len(pieces) == 1:
        return pieces[0][1]
    boxes = tuple(local for local, _ in pieces)
    return (assemble_block, backend, dtype, shape, boxes, *(key for _, key in pieces))
