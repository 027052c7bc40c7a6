"""Set routines on blocks: one block's unique values (with counts and first indices), and
a block's positions among the merged unique values (``unique``'s inverse)."""

from __future__ import annotations

from typing import Any

import numpy

from .._backends.base import ChunkBackend


def block_unique(
    backend: ChunkBackend, block: Any, offset: int, equal_nan: bool, with_index: bool
) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """One block's unique values, counts and (if asked: a stable sort, slower) first
    global indices, on the host."""
    to_host = backend.to_host
    if with_index:
        values, first, counts = backend.xp.unique(
            block, return_index=True, return_counts=True, equal_nan=equal_nan
        )
        return to_host(values), to_host(first) + offset, to_host(counts)
    values, counts = backend.xp.unique(block, return_counts=True, equal_nan=equal_nan)
    host_counts = to_host(counts)
    return to_host(values), numpy.zeros(host_counts.shape, numpy.intp), host_counts


def block_inverse(backend: ChunkBackend, sorted_values: numpy.ndarray, block: Any) -> Any:
    """Each element's index in ``sorted_values`` (which holds every value of the block)."""
    xp = backend.xp
    return xp.searchsorted(xp.asarray(sorted_values), block).astype(numpy.intp)
