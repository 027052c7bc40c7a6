"""Lowering of ``ChunkwiseCall``: one ``map_blocks`` layer running the backend's function
on each block (the chunk-wise NumPy fallback)."""

from __future__ import annotations

import functools
from typing import Any

from .._backends.base import ChunkBackend
from .._ir.chunkwise_call import ChunkwiseCall
from .._ir.expr import Expr
from .._kernels.chunkwise import BlockSlot, call_on_blocks
from .._runtime import dask_arrays as da
from .layers import Lowering


def lower_chunkwise_call(
    node: ChunkwiseCall, inputs: list[da.Array], backend: ChunkBackend
) -> da.Array:
    slots = iter(BlockSlot(i) for i in range(len(inputs)))

    def slot(value: Any) -> Any:
        return next(slots) if isinstance(value, Expr) else value

    arguments = tuple(slot(a) for a in node.arguments)
    keywords = tuple((k, slot(v)) for k, v in node.keywords)
    kernel = functools.partial(call_on_blocks, backend, node.function, arguments, keywords)
    if node.signature is not None:
        return _apply_by_core_dimensions(node, kernel, inputs, backend)
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


def _apply_by_core_dimensions(
    node: ChunkwiseCall, kernel: Any, inputs: list[da.Array], backend: ChunkBackend
) -> da.Array:
    """Loop dimensions block by block, core dimensions whole in each block: dask's own
    generalized-ufunc application, with the core axes made whole here (``apply_gufunc``'s
    ``allow_rechunk`` would also re-split the loop axes)."""
    signature = str(node.signature)
    core_ndims = [group.count(",") + 1 if group else 0 for group in _input_cores(signature)]
    whole = [
        array.rechunk({axis: -1 for axis in range(array.ndim - n, array.ndim)}) if n else array
        for array, n in zip(inputs, core_ndims, strict=True)
    ]
    return da.apply_gufunc(kernel, signature, *whole, meta=_meta(node, backend))


def _input_cores(signature: str) -> list[str]:
    """The text inside each input's parentheses: ``"(m,n),(n)->(m)"`` -> ``["m,n", "n"]``."""
    inputs = signature.partition("->")[0]
    return [group.partition(")")[0] for group in inputs.split("(")[1:]]


def _broadcast(array: da.Array, shape: tuple[int, ...]) -> da.Array:
    return array if array.shape == shape else da.broadcast_to(array, shape)


def _meta(node: ChunkwiseCall, backend: ChunkBackend) -> Any:
    return backend.meta(node.ndim, node.dtype)


lowerings: dict[type, Lowering] = {ChunkwiseCall: lower_chunkwise_call}
