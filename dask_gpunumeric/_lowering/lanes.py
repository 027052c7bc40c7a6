"""Lowering of ``Lanes``: rechunk the lane axis whole, then one task per block.

Only the lane axis (and, for ``lexsort``, the stacked keys' axis) is rechunked; blocks
keep their chunking along every other axis, so ``sort(x, axis=1)`` of a row-chunked
matrix moves no data at all.
"""

from __future__ import annotations

from typing import Any

import dask.array as da
import numpy

from .._backends import get_backend
from .._ir.lanes import QUANTILE_KINDS, Lanes
from .layers import meta


def lane_kernel(
    backend_name: str,
    kind: str,
    axis: int,
    params: tuple[tuple[str, Any], ...],
    dtype: numpy.dtype,
    block: Any,
) -> Any:
    """``xp.<kind>`` on one block; runs on the worker."""
    xp = get_backend(backend_name).xp
    kwargs = dict(params)
    if kind == "lexsort":
        result = xp.lexsort(block, axis=axis - 1)
    elif kind in QUANTILE_KINDS:
        result = _quantiles(xp, kind, block, axis, kwargs)
    else:
        result = getattr(xp, kind)(block, axis=axis, **kwargs)
    result = xp.asarray(result)
    return result if result.dtype == dtype else result.astype(dtype)


def _quantiles(xp: Any, kind: str, block: Any, axis: int, kwargs: dict[str, Any]) -> Any:
    """NumPy puts the quantiles first; here they replace the (kept) lane axis."""
    q = kwargs.pop("q")
    if isinstance(q, tuple):  # (values, dtype): a quantile array, sent as plain data
        q = xp.asarray(numpy.asarray(q[0], dtype=q[1]))
    result = getattr(xp, kind)(block, q, axis=axis, keepdims=True, **kwargs)
    count = 1 if q.__class__ in (int, float) else int(numpy.prod(q.shape))
    result = result.reshape((count, *block.shape[:axis], 1, *block.shape[axis + 1 :]))
    shape = list(block.shape)
    shape[axis] = count
    return xp.moveaxis(result, 0, axis + 1).reshape(shape)


def lower_lanes(node: Lanes, inputs: list[da.Array], backend: str) -> da.Array:
    (source,) = inputs
    whole = {node.axis: -1, **({0: -1} if node.drops_leading else {})}
    source = source.rechunk(whole)
    chunks = list(source.chunks)
    chunks[node.axis] = (node.shape[node.axis - node.drops_leading],)
    if node.drops_leading:
        chunks.pop(0)
    return da.map_blocks(
        lane_kernel,
        backend,
        node.kind,
        node.axis,
        node.params,
        node.dtype,
        source,
        chunks=tuple(chunks),
        drop_axis=[0] if node.drops_leading else [],
        dtype=node.dtype,
        meta=meta(backend, len(chunks), node.dtype),
        name=node.name,
    )


lowerings: dict[type, Any] = {Lanes: lower_lanes}
