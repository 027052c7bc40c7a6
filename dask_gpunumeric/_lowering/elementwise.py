"""Lowering of elementwise nodes: one blockwise layer, inputs aligned on one chunking.

Full-shape inputs chunked differently (shifted views: ``x[1:] + x[:-1]``) are laid by
output blocks onto the chunking most of them share (``relayout.relayout``): no rechunk,
no sliver chunks."""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

from dask.base import tokenize

from .._backends.base import ChunkBackend
from .._ir.elementwise import Elementwise
from .._ir.expr import Expr
from .._kernels import creation
from .._kernels.elementwise import elementwise
from .._runtime import dask_arrays as da
from .._runtime.partitioning import default_chunks
from .layers import Lowering, from_block_function
from .relayout import relayout

Chunks = tuple[tuple[int, ...], ...]


def output_chunks(shape: tuple[int, ...], arrays: list[da.Array]) -> Chunks:
    """The chunking most full-shape inputs have (the first one's on a tie), else the
    default one."""
    full = Counter(a.chunks for a in arrays if a.shape == shape)
    return full.most_common(1)[0][0] if full else default_chunks(shape)


def align(array: da.Array, target: Chunks, backend: ChunkBackend) -> da.Array:
    """``array`` (right-aligned, broadcasting) on ``target``'s chunks, by output blocks."""
    offset = len(target) - array.ndim
    wanted = tuple(
        target[offset + i] if n == sum(target[offset + i]) else array.chunks[i]
        for i, n in enumerate(array.shape)
    )
    if wanted == array.chunks:
        return array
    if array.size == 0:
        # dask builds rechunked empty blocks with numpy.empty whatever the chunk type;
        # new blocks of the backend's type are as good and need no input.
        kernel = partial(creation.fill, backend, array.dtype, None)
        name = f"align-{tokenize(array.name, wanted)}"
        return from_block_function(name, wanted, array.dtype, backend, kernel)
    return relayout(array, wanted, backend)


def aligned_blockwise(
    kernel: Any,
    name: str,
    shape: tuple[int, ...],
    dtype: Any,
    operands: list[Any],
    backend: ChunkBackend,
) -> da.Array:
    """One blockwise layer of ``kernel`` over ``operands``: dask arrays aligned on the output
    chunks and broadcast from the right (passed whole along the axes they lack), scalars as
    they are."""
    target = output_chunks(shape, [x for x in operands if isinstance(x, da.Array)])
    ndim = len(shape)
    pairs: list[Any] = []
    for operand in operands:
        if isinstance(operand, da.Array):
            pairs += [align(operand, target, backend), tuple(range(ndim - operand.ndim, ndim))]
        else:
            pairs += [operand, None]
    return da.blockwise(
        kernel,
        tuple(range(ndim)),
        *pairs,
        dtype=dtype,
        name=name,
        meta=backend.meta(ndim, dtype),
        concatenate=True,
    )


def lower_elementwise(node: Elementwise, inputs: list[da.Array], backend: ChunkBackend) -> da.Array:
    lowered = iter(inputs)
    operands: list[Any] = [next(lowered) if isinstance(x, Expr) else x for x in node.operands]
    kernel = partial(elementwise, backend, node.op, node.params, node.dtype)
    return aligned_blockwise(kernel, node.name, node.shape, node.dtype, operands, backend)


lowerings: dict[type, Lowering] = {Elementwise: lower_elementwise}
