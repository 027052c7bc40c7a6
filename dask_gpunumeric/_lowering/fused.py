"""Lowering of ``FusedElementwise``: one blockwise layer, one kernel call per output chunk."""

from __future__ import annotations

from functools import partial

from .._backends.base import ChunkBackend
from .._ir.fused import FusedElementwise
from .._kernels.elementwise import fused_elementwise
from .._runtime import dask_arrays as da
from .elementwise import aligned_blockwise
from .layers import Lowering


def lower_fused_elementwise(
    node: FusedElementwise, inputs: list[da.Array], backend: ChunkBackend
) -> da.Array:
    """``da.blockwise`` of the fused kernel; broadcast (lower-dimensional, 0-d, size-1
    axes) inputs are passed whole along the axes they lack."""
    kernel = partial(fused_elementwise, backend, node.program)
    return aligned_blockwise(kernel, node.name, node.shape, node.dtype, list(inputs), backend)


lowerings: dict[type, Lowering] = {FusedElementwise: lower_fused_elementwise}
