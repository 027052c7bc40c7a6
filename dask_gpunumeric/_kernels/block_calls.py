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


def einsum_blocks(
    backend: ChunkBackend,
    subscripts: str,
    operands: int,
    dtype: numpy.dtype,
    keywords: dict[str, Any],
    *blocks: Any,
) -> Any:
    """The sum of the ``einsum`` of each group of ``operands`` blocks (one group per
    combination of the contracted labels' blocks)."""
    xp = backend.xp
    total = None
    for start in range(0, len(blocks), operands):
        product = xp.einsum(subscripts, *blocks[start : start + operands], **keywords)
        total = product if total is None else total + product
    result = xp.asarray(total)
    return result if result.dtype == dtype else result.astype(dtype)
