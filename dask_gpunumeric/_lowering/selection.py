"""Lowering of data-dependent selections: each block of a mask gives its own true
positions, on its worker; only the per-block counts ever reach the client."""

from __future__ import annotations

from functools import partial
from typing import Any

import dask.array as da
import numpy

from .._backends import get_backend
from .._ir.selection import FlatNonzero
from .layers import block_offsets, from_block_tasks


def count_true(backend_name: str, block: Any) -> numpy.ndarray:
    """How many elements of a boolean block are true, as a one-element host array."""
    backend = get_backend(backend_name)
    count = backend.to_host(backend.xp.count_nonzero(block))
    return numpy.array([int(count)], dtype=numpy.intp)


def block_true_counts(mask: da.Array, backend_name: str) -> da.Array:
    """A 1-d host dask array: the number of true elements of each block of 1-d ``mask``."""
    return da.map_blocks(
        partial(count_true, backend_name),
        mask,
        chunks=((1,) * mask.numblocks[0],),
        dtype=numpy.intp,
        meta=numpy.empty((0,), dtype=numpy.intp),
    )


def true_positions(backend_name: str, offset: int, block: Any) -> Any:
    xp = get_backend(backend_name).xp
    return xp.flatnonzero(block).astype(numpy.intp) + offset


def lower_flat_nonzero(node: FlatNonzero, inputs: list[da.Array], backend: str) -> da.Array:
    (mask,) = inputs
    offsets = block_offsets(mask.chunks)[0]
    kernel = partial(true_positions, backend)
    tasks: dict[tuple[int, ...], Any] = {
        (b,): (kernel, offset, (mask.name, b)) for b, offset in enumerate(offsets)
    }
    return from_block_tasks(node.name, tasks, (node.block_counts,), node.dtype, backend, [mask])


lowerings: dict[type, Any] = {FlatNonzero: lower_flat_nonzero}
