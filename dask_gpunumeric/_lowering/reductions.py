"""Lowering of reductions and scans through dask.array's own tree reductions."""

from __future__ import annotations

import dask.array as da

from .._ir.reductions import Cumulative, Reduction


def lower_reduction(node: Reduction, inputs: list[da.Array], backend: str) -> da.Array:
    (source,) = inputs
    axis = node.axis
    if node.kind in ("argmin", "argmax") and axis is not None:
        axis = axis[0]
    result = getattr(da, node.kind)(source, axis=axis, keepdims=node.keepdims, **dict(node.params))
    return result if result.dtype == node.dtype else result.astype(node.dtype)


def lower_cumulative(node: Cumulative, inputs: list[da.Array], backend: str) -> da.Array:
    result = getattr(da, node.kind)(inputs[0], axis=node.axis, dtype=node.dtype)
    return result if result.dtype == node.dtype else result.astype(node.dtype)


lowerings = {Reduction: lower_reduction, Cumulative: lower_cumulative}
