"""Lowering of data-dependent selections: each block of a mask gives its own true
positions, on its worker; only the per-block counts ever reach the client."""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy

from .._backends.base import ChunkBackend
from .._ir.selection import FlatNonzero
from .._kernels.selection import count_true, true_positions
from .._runtime import dask_arrays as da
from .layers import Lowering, block_offsets, from_block_tasks


def block_true_counts(mask: da.Array, backend: ChunkBackend) -> da.Array:
    """A 1-d host dask array: the number of true elements of each block of 1-d ``mask``."""
    return da.map_blocks(
        partial(count_true, backend),
        mask,
        chunks=((1,) * mask.numblocks[0],),
        dtype=numpy.intp,
        meta=numpy.empty((0,), dtype=numpy.intp),
    )


def lower_flat_nonzero(
    node: FlatNonzero, inputs: list[da.Array], backend: ChunkBackend
) -> da.Array:
    (mask,) = inputs
    offsets = block_offsets(mask.chunks)[0]
    kernel = partial(true_positions, backend)
    tasks: dict[tuple[int, ...], Any] = {
        (b,): (kernel, offset, (mask.name, b)) for b, offset in enumerate(offsets)
    }
    return from_block_tasks(node.name, tasks, (node.block_counts,), node.dtype, backend, [mask])


lowerings: dict[type, Lowering] = {FlatNonzero: lower_flat_nonzero}
