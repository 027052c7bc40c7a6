"""Lowering of ``FusedElementwise``: one blockwise layer, one kernel call per output chunk."""

from __future__ import annotations

from functools import partial
from typing import Any

import dask.array as da

from .._ir.fused import FusedElementwise
from . import chunk_kernels
from .elementwise import aligned_blockwise


def lower_fused_elementwise(
    node: FusedElementwise, inputs: list[da.Array], backend: str
) -> da.Array:
    """``da.blockwise`` of the fused kernel; broadcast (lower-dimensional, 0-d, size-1
    axes) inputs are passed whole along the axes they lack."""
    kernel = partial(chunk_kernels.fused_elementwise, backend, node.program)
    return aligned_blockwise(kernel, node.name, node.shape, node.dtype, list(inputs), backend)


lowerings: dict[type, Any] = {FusedElementwise: lower_fused_elementwise}
