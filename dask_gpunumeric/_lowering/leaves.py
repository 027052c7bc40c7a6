"""Lowering of leaves: chunks are created where they are computed, by the backend."""

from __future__ import annotations

from functools import partial

import dask.array as da

from .._ir import leaves as ir
from .._ir.random import RandomDraw
from .._runtime.partitioning import default_chunks
from . import chunk_kernels
from .layers import from_block_function, meta


def _chunks(node: ir.Leaf) -> tuple[tuple[int, ...], ...]:
    return node.chunks or default_chunks(node.shape)


def lower_fill(node: ir.Fill, inputs: list, backend: str) -> da.Array:
    kernel = partial(chunk_kernels.fill, backend, node.dtype, node.value, paints=node.paints)
    return from_block_function(node.name, _chunks(node), node.dtype, backend, kernel)


def lower_arange(node: ir.Arange, inputs: list, backend: str) -> da.Array:
    kernel = partial(chunk_kernels.arange, backend, node.dtype, node.start, node.step, node.second)
    return from_block_function(node.name, _chunks(node), node.dtype, backend, kernel)


def lower_linspace(node: ir.Linspace, inputs: list, backend: str) -> da.Array:
    kernel = partial(
        chunk_kernels.linspace,
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


def lower_eye(node: ir.Eye, inputs: list, backend: str) -> da.Array:
    kernel = partial(chunk_kernels.eye, backend, node.dtype, node.k)
    return from_block_function(node.name, _chunks(node), node.dtype, backend, kernel)


def lower_host_data(node: ir.HostData, inputs: list, backend: str) -> da.Array:
    host = da.from_array(node.data, chunks=_chunks(node), name=node.name + "-host", asarray=True)
    return host.map_blocks(
        partial(chunk_kernels.to_device, backend),
        dtype=node.dtype,
        meta=meta(backend, node.ndim, node.dtype),
        name=node.name,
    )


def lower_dask_data(node: ir.DaskData, inputs: list, backend: str) -> da.Array:
    array = node.array
    if node.backend == backend:
        return array
    return array.map_blocks(
        partial(chunk_kernels.to_device, backend),
        dtype=node.dtype,
        meta=meta(backend, node.ndim, node.dtype),
        name=node.name,
    )


def lower_random_draw(node: RandomDraw, inputs: list, backend: str) -> da.Array:
    kernel = partial(
        chunk_kernels.random_block,
        backend,
        node.dtype,
        node.method,
        node.arguments,
        node.keywords,
        node.entropy,
        node.stream,
    )
    return from_block_function(node.name, _chunks(node), node.dtype, backend, kernel)


lowerings = {
    ir.Fill: lower_fill,
    ir.Arange: lower_arange,
    ir.Linspace: lower_linspace,
    ir.Eye: lower_eye,
    ir.HostData: lower_host_data,
    ir.DaskData: lower_dask_data,
    RandomDraw: lower_random_draw,
}
