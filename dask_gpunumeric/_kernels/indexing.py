"""Indexing on blocks: a write into a copy of a block, the points of a scatter (a fancy-index
write), the points a fancy-index read takes from each block, and a block assembled from
pieces of others. ("Gather" in this package means one thing: an array computed whole in
one place, as the gathering fallback and whole-matrix linear algebra do.)"""

from __future__ import annotations

from typing import Any

import numpy

from .._backends.base import ChunkBackend
from .boxes import Box, slices


def write_block(backend: ChunkBackend, block: Any, local: tuple[slice, ...], piece: Any) -> Any:
    """A copy of ``block`` with ``block[local] = piece``: old versions stay intact."""
    updated = backend.copy_block(block)
    updated[local] = piece
    return updated


def scatter_block(
    block: Any, local_coords: tuple[numpy.ndarray, ...], point_ids: numpy.ndarray, values: Any
) -> Any:
    """A copy of ``block`` with its points set; the points are distinct (the lowering kept
    each one's last write), so the result does not depend on the device's write order."""
    updated = block.copy()
    updated[local_coords] = values[point_ids]
    return updated


def take_points(
    backend: ChunkBackend,
    dtype: numpy.dtype,
    length: int,
    sources: tuple[tuple[tuple[numpy.ndarray, ...], numpy.ndarray], ...],
    *blocks: Any,
) -> Any:
    """Element ``positions[i]`` of the result is ``block[local_coords][i]``, per source block."""
    result = backend.xp.empty((length,), dtype=dtype)
    for (local_coords, positions), block in zip(sources, blocks, strict=True):
        result[positions] = block[local_coords]
    return result


def assemble_block(
    backend: ChunkBackend,
    dtype: numpy.dtype,
    shape: tuple[int, ...],
    boxes: tuple[Box, ...],
    *pieces: Any,
) -> Any:
    """A new block of ``shape`` whose box ``boxes[k]`` is ``pieces[k]``, over a pooled
    buffer where the backend has one (a relayout or roll per iteration would otherwise
    touch fresh pages for every block)."""
    block = backend.empty_block(shape, dtype)
    for box, piece in zip(boxes, pieces, strict=True):
        block[slices(box)] = piece
    return block
