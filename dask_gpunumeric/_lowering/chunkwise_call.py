"""Lowering of ``ChunkwiseCall``: one ``map_blocks`` layer running the backend's function
on each block (the chunk-wise NumPy fallback)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import dask.array as da
import numpy

from .._backends import get_backend
from .._ir.chunkwise_call import ChunkwiseCall
from .._ir.expr import Expr
from .layers import meta


class BlockSlot(NamedTuple):
    """Where the ``position``-th block goes in a chunk function's arguments."""

    position: int


def lower_chunkwise_call(node: ChunkwiseCall, inputs: list[da.Array], backend: str) -> da.Array:
    slots = iter(BlockSlot(i) for i in range(len(inputs)))

    def slot(value: Any) -> Any:
        return next(slots) if isinstance(value, Expr) else value

    arguments = tuple(slot(a) for a in node.arguments)
    keywords = tuple((k, slot(v)) for k, v in node.keywords)
    kernel = functools.partial(call_on_blocks, backend, node.function, arguments, keywords)
    if node.axis is None:
        arrays = [_broadcast(array, node.shape) for array in inputs]
        # Operands chunked differently follow the first one's chunks (no-op when equal).
        arrays = [array.rechunk(arrays[0].chunks) for array in arrays]
        return da.map_blocks(kernel, *arrays, dtype=node.dtype, meta=_meta(node, backend))
    (array,) = inputs  # per-row: one operand, its rows whole along the axis
    array = array.rechunk({node.axis: -1})
    chunks = list(array.chunks)
    chunks[node.axis] = (node.shape[node.axis],)
    return da.map_blocks(
        kernel, array, dtype=node.dtype, chunks=tuple(chunks), meta=_meta(node, backend)
    )


def _broadcast(array: da.Array, shape: tuple[int, ...]) -> da.Array:
    return array if array.shape == shape else da.broadcast_to(array, shape)


def _meta(node: ChunkwiseCall, backend: str) -> Any:
    return meta(backend, node.ndim, node.dtype)


def call_on_blocks(
    backend_name: str,
    function: str | Callable[..., Any],
    arguments: tuple[Any, ...],
    keywords: tuple[tuple[str, Any], ...],
    *blocks: Any,
) -> Any:
    """Worker side: the backend's ``function`` on ``blocks``; a backend without it (CuPy
    lacks a few of NumPy's functions) runs NumPy's on an explicit host copy. A callable
    (a user's ufunc) is called on the blocks as they are."""
    backend = get_backend(backend_name)

    def fill(value: Any) -> Any:
        return blocks[value.position] if isinstance(value, BlockSlot) else value

    args = [fill(a) for a in arguments]
    kwargs = {k: fill(v) for k, v in keywords}
    if callable(function):
        return function(*args, **kwargs)
    on_device = _resolve(backend.xp, function)
    if on_device is not None:
        return on_device(*args, **kwargs)
    host = [backend.to_host(b) for b in blocks]
    args = [host[a.position] if isinstance(a, BlockSlot) else a for a in arguments]
    kwargs = {k: host[v.position] if isinstance(v, BlockSlot) else v for k, v in keywords}
    return backend.from_host(numpy.asarray(_resolve(numpy, function)(*args, **kwargs)))


def _resolve(namespace: Any, path: str) -> Any:
    try:
        return functools.reduce(getattr, path.split("."), namespace)
    except AttributeError:
        return None


lowerings: dict[type, Any] = {ChunkwiseCall: lower_chunkwise_call}
