"""Lowering of ``Roll`` by output blocks, on the input's own chunks.

``dask.array.roll`` slices and concatenates: its blocks are slivers unlike the input's
(rolling 2 blocks of 1,000 rows by one row gives blocks of 1, 1,000 and 999 rows), so an
expression combining an array with its rolls (a periodic stencil, ``u + np.roll(u, 1, 0)``)
needs a relayout of every roll, every time. Here the rolled array has the input's chunks:
output block B takes, along each rolled axis, the source range of B shifted back by the
shift, which wraps into at most two ranges, each meeting one or more source blocks. The
pieces are views of those blocks and one task assembles them (``relayout.block_task``);
a block whose source is one whole block is that block's key, no task (a roll by a whole
number of equal blocks moves no data).
"""

from __future__ import annotations

import itertools
from typing import Any

from dask.highlevelgraph import HighLevelGraph

from .._backends.base import ChunkBackend
from .._ir.rolling import Roll
from .._kernels.boxes import Box, block_box, blocks_meeting, boundaries, box_shape, intersect, shift
from .._runtime import dask_arrays as da
from .layers import Lowering
from .relayout import block_task, piece

# Along one axis, a part of an output block: source range (low, high) and where it lands
# in the output block (its first element's position there).
Segment = tuple[int, int, int]


def source_segments(low: int, high: int, roll: int, length: int) -> list[Segment]:
    """Where output elements ``[low, high)`` of an axis rolled by ``roll`` (in
    ``[0, length)``) come from: the source range ``[low - roll, high - roll)`` modulo
    ``length``, as one segment or two when it wraps."""
    start, stop = low - roll, high - roll
    if start >= 0:
        return [(start, stop, 0)]
    if stop <= 0:
        return [(start + length, stop + length, 0)]
    return [(start + length, length, 0), (0, stop, -start)]


def lower_roll(node: Roll, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    (array,) = inputs
    if not node.axes:  # nothing moves: the same blocks
        return array
    rolls = dict(zip(node.axes, node.shifts, strict=True))
    edges = boundaries(array.chunks)
    graph: dict[Any, Any] = {}
    for index in itertools.product(*map(range, array.numblocks)):
        box = block_box(edges, index)
        per_axis = [
            source_segments(low, high, rolls[axis], node.shape[axis])
            if axis in rolls
            else [(low, high, 0)]
            for axis, (low, high) in enumerate(box)
        ]
        pieces: list[tuple[Box, Any]] = []
        for segments in itertools.product(*per_axis):
            source: Box = tuple((low, high) for low, high, _ in segments)
            # source coordinates -> coordinates in the output block
            to_output = tuple(at - low for low, _, at in segments)
            for block in blocks_meeting(edges, source):
                whole = block_box(edges, block)
                cut = intersect(source, whole)
                key = piece(graph, node.name, (array.name, *block), whole, cut)
                pieces.append((shift(cut, to_output), key))
        graph[(node.name, *index)] = block_task(pieces, box_shape(box), node.dtype, backend)
    sources: list[Any] = [array]
    layer = HighLevelGraph.from_collections(node.name, graph, dependencies=sources)
    return da.Array(layer, node.name, array.chunks, meta=backend.meta(node.ndim, node.dtype))


lowerings: dict[type, Lowering] = {Roll: lower_roll}
