"""Block functions of the ``DaskCall`` functions lowered by our own task graphs
(``_lowering/block_calls.py``)."""

from __future__ import annotations

from typing import Any

import numpy

from .._backends.base import ChunkBackend


def triangle_block(backend: ChunkBackend, function: str, k: int, block: Any) -> Any:
    """``tril``/``triu`` of a block whose diagonal offset is ``k`` in its own coordinates."""
    return getattr(backend.xp, function)(block, k)


def searchsorted_blocks(backend: ChunkBackend, side: str, values: Any, *sorted_blocks: Any) -> Any:
    """The positions of ``values`` in the sorted array whose blocks are ``sorted_blocks``:
    each block's count of elements before each value, summed (the array is sorted, so
    the elements before a value in it are those before it in every block)."""
    xp = backend.xp
    positions = xp.zeros(values.shape, dtype=numpy.intp)
    for block in sorted_blocks:
        positions += xp.searchsorted(block, values, side=side).astype(numpy.intp)
    return positions
