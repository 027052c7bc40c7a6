"""Lowering of ``Lanes``: rechunk the lane axis whole, then one task per block.

Only the lane axis (and, for ``lexsort``, the stacked keys' axis) is rechunked; blocks
keep their chunking along every other axis, so ``sort(x, axis=1)`` of a row-chunked
matrix moves no data at all.
"""

from __future__ import annotations

from .._backends.base import ChunkBackend
from .._ir.lanes import Lanes
from .._kernels.lanes import lane_kernel
from .._runtime import dask_arrays as da
from .layers import Lowering


def lower_lanes(node: Lanes, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    (source,) = inputs
    whole = {node.axis: -1, **({0: -1} if node.drops_leading else {})}
    source = source.rechunk(whole)
    chunks = list(source.chunks)
    chunks[node.axis] = (node.shape[node.axis - node.drops_leading],)
    if node.drops_leading:
        chunks.pop(0)
    return da.map_blocks(
        lane_kernel,
        backend,
        node.kind,
        node.axis,
        node.params,
        node.dtype,
        source,
        chunks=tuple(chunks),
        drop_axis=[0] if node.drops_leading else [],
        dtype=node.dtype,
        meta=backend.meta(len(chunks), node.dtype),
        name=node.name,
    )


lowerings: dict[type, Lowering] = {Lanes: lower_lanes}
