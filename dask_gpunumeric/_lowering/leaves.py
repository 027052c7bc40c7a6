"""Lowering of leaves: chunks are created where they are computed, by the backend; a value
computed in the client (``ChunkValue``) is one block."""

from __future__ import annotations

import itertools
import operator
from functools import partial
from typing import Any

from dask.highlevelgraph import HighLevelGraph

from .._backends.base import ChunkBackend
from .._ir import leaves as ir
from .._ir.array_size import nbytes_of
from .._ir.random import RandomDraw
from .._kernels import boxes, creation, in_process
from .._runtime import dask_arrays as da
from .._runtime import execution
from .._runtime.partitioning import default_chunks
from . import host_blocks
from .layers import Lowering, from_block_function


def _chunks(node: ir.Leaf) -> tuple[tuple[int, ...], ...]:
    return node.chunks or default_chunks(node.shape)


def lower_fill(node: ir.Fill, inputs: list, backend: ChunkBackend) -> da.Array:
    kernel = partial(creation.fill, backend, node.dtype, node.value, paints=node.paints)
    return from_block_function(node.name, _chunks(node), node.dtype, backend, kernel)


def lower_arange(node: ir.Arange, inputs: list, backend: ChunkBackend) -> da.Array:
    kernel = partial(creation.arange, backend, node.dtype, node.start, node.step, node.second)
    return from_block_function(node.name, _chunks(node), node.dtype, backend, kernel)


def lower_linspace(node: ir.Linspace, inputs: list, backend: ChunkBackend) -> da.Array:
    kernel = partial(
        creation.linspace,
        backend,
        node.dtype,
        node.computing,
        node.start,
        node.stop,
        node.endpoint,
        node.shape[0],
    )
    chunks = _chunks(node)
    return from_block_function(
        node.name, ((chunks[0]),) + tuple((n,) for n in node.shape[1:]), node.dtype, backend, kernel
    )


def lower_eye(node: ir.Eye, inputs: list, backend: ChunkBackend) -> da.Array:
    kernel = partial(creation.eye, backend, node.dtype, node.k)
    return from_block_function(node.name, _chunks(node), node.dtype, backend, kernel)


def lower_host_data(node: ir.HostData, inputs: list, backend: ChunkBackend) -> da.Array:
    chunks = _chunks(node)
    name = node.name + "-host"
    meta = backend.meta(node.ndim, node.dtype)
    if host_blocks.worth_scattering(node.data.nbytes):  # to a cluster: once, to the owners
        block = host_blocks.host_block(node.data, chunks)
        return host_blocks.scattered(node, name, chunks, meta, block, backend.from_any)
    # Each block a view of the node's own copy (read-only: nothing writes it), not
    # dask's from_array, which copies the whole array again at every lowering.
    data: Any = node.data
    host: Any = _blocks_of(data, name, chunks, meta=data[(slice(0, 0),) * node.ndim + (...,)])
    return host.map_blocks(backend.from_any, dtype=node.dtype, meta=meta, name=node.name)


def lower_dask_data(node: ir.DaskData, inputs: list, backend: ChunkBackend) -> da.Array:
    array = node.array
    moved = in_process.remembered(node)
    if moved is not None and moved.backend == backend.name and not execution.on_cluster():
        # Moved here from the workers (``work_placement.movable``): computed here, from
        # the value held here, in the blocks it had there.
        value = moved.value
        meta = backend.meta(value.ndim, value.dtype)
        return _blocks_of(value, node.name + "-moved", array.chunks, meta)
    if node.backend == backend.name:
        if host_blocks.worth_scattering(nbytes_of(node.shape, node.dtype)):
            values = host_blocks.held_values(array, backend.chunk_type)
            if values is not None:  # persisted in the client, now wanted on a cluster
                meta = backend.meta(node.ndim, node.dtype)
                return host_blocks.scattered(
                    node, array.name, array.chunks, meta, values.__getitem__, backend.as_chunk
                )
        return array
    return array.map_blocks(
        backend.from_any, dtype=node.dtype, meta=backend.meta(node.ndim, node.dtype), name=node.name
    )


def _blocks_of(value: Any, name: str, chunks: Any, meta: Any) -> da.Array:
    """A dask array of ``value`` (one array held here) cut in ``chunks``: each block a
    view of it (values are never written; a 0-d block stays an array: an index ending
    in ``...``), no copy."""
    edges = boxes.boundaries(chunks)
    views: dict[Any, Any] = {
        (name, *index): value[(*boxes.slices(boxes.block_box(edges, index)), ...)]
        for index in itertools.product(*(range(len(c)) for c in chunks))
    }
    graph = HighLevelGraph.from_collections(name, views, dependencies=[])
    return da.Array(graph, name, chunks, meta=meta)


def lower_random_draw(node: RandomDraw, inputs: list, backend: ChunkBackend) -> da.Array:
    kernel = creation.draw_function(backend, node)
    return from_block_function(node.name, _chunks(node), node.dtype, backend, kernel)


def lower_chunk_value(node: ir.ChunkValue, inputs: list, backend: ChunkBackend) -> da.Array:
    """One block holding (a copy of: the caller may write to what ``compute`` returns) the
    value; moved to another backend's chunks first if it is not ``backend``'s."""
    value = node.value if node.backend == backend.name else backend.from_any(node.value)
    if host_blocks.worth_scattering(nbytes_of(node.shape, node.dtype)):
        # A value computed in the client (the small-work policy) read on a cluster: sent
        # once, not inside every graph (results there are copies: nothing writes to it).
        meta = backend.meta(node.ndim, node.dtype)
        chunks = tuple((n,) for n in node.shape)
        return host_blocks.scattered(
            node, node.name, chunks, meta, lambda index: value, backend.as_chunk
        )
    origin = (0,) * node.ndim
    graph: dict[Any, Any] = {(node.name, *origin): (operator.methodcaller("copy"), value)}
    layer = HighLevelGraph.from_collections(node.name, graph, dependencies=())
    return da.Array(layer, node.name, node.chunks, meta=backend.meta(node.ndim, node.dtype))


lowerings: dict[type, Lowering] = {
    ir.ChunkValue: lower_chunk_value,
    ir.Fill: lower_fill,
    ir.Arange: lower_arange,
    ir.Linspace: lower_linspace,
    ir.Eye: lower_eye,
    ir.HostData: lower_host_data,
    ir.DaskData: lower_dask_data,
    RandomDraw: lower_random_draw,
}
