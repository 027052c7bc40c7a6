"""Rechunking so that some axes are whole (one chunk), as FFTs and gathered linear algebra
need, while the other axes stay split so the work is still spread over the workers."""

from __future__ import annotations

import math

from .._ir.dask_call import DaskCall
from .._ir.expr import Expr
from .._runtime.partitioning import block_count, current_cluster, split_evenly


def whole_axes_chunks(shape: tuple[int, ...], axes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Chunks of ``shape`` with ``axes`` whole and the first other axis split into as many
    blocks as the default partitioning gives an array of this size (shape-only, so equal
    shapes agree)."""
    whole = {axis % len(shape) for axis in axes}
    blocks = block_count(math.prod(shape), current_cluster())
    split = next((axis for axis, n in enumerate(shape) if axis not in whole and n > 1), None)
    return tuple(split_evenly(n, blocks) if axis == split else (n,) for axis, n in enumerate(shape))


def with_whole_axes(expr: Expr, axes: tuple[int, ...]) -> Expr:
    """``expr`` rechunked (through ``dask.array.rechunk``) so that ``axes`` are whole."""
    chunks = whole_axes_chunks(expr.shape, axes)
    return DaskCall("rechunk", (expr,), expr.shape, expr.dtype, (("chunks", chunks),))
