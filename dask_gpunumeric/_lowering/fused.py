"""Lowering of ``FusedElementwise``: one blockwise layer, one kernel call per output chunk."""

from __future__ import annotations

from functools import partial
from typing import Any

import dask.array as da

from .._ir.fused import FusedElementwise
from . import chunk_kernels
from .elementwise import align, output_chunks
from .layers import meta


def lower_fused_elementwise(
    node: FusedElementwise, inputs: list[da.Array], backend: str
) -> da.Array:
    """``da.blockwise`` of the fused kernel; broadcast (lower-dimensional, 0-d, size-1
    axes) inputs are passed whole along the axes they lack, as ``lower_elementwise`` does."""
    target = output_chunks(node.shape, inputs)
    ndim = len(node.shape)
    pairs: list[Any] = []
    for array in inputs:
        pairs += [align(array, target, backend), tuple(range(ndim - array.ndim, ndim))]
    kernel = partial(chunk_kernels.fused_elementwise, backend, node.program)
    return da.blockwise(
        kernel,
        tuple(range(ndim)),
        *pairs,
        dtype=node.dtype,
        name=node.name,
        meta=meta(backend, ndim, node.dtype),
        concatenate=True,
    )


lowerings: dict[type, Any] = {FusedElementwise: lower_fused_elementwise}
