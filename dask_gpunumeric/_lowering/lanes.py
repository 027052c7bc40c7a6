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
    backend = get_backend(backend_name)
    xp, kwargs = backend.xp, dict(params)
    if kind == "lexsort":
        result = _lexsort(xp, block, axis - 1)
    elif not hasattr(xp, kind):
        # CuPy has no nanquantile/nanpercentile: NumPy runs the lane on this worker's host.
        host = lane_kernel("numpy", kind, axis, params, dtype, backend.to_host(block))
        return backend.from_host(host)
    elif kind in QUANTILE_KINDS:
        result = _quantiles(xp, kind, block, axis, kwargs)
    else:
        if backend_name == "cupy":
            kwargs.pop("kind", None)  # CuPy sorts stably, and accepts no other kind
        result = getattr(xp, kind)(block, axis=axis, **kwargs)
    result = xp.asarray(result)
    return result if result.dtype == dtype else result.astype(dtype)


def _lexsort(xp: Any, keys: Any, axis: int) -> Any:
    """NumPy's ``lexsort`` (last key first) as successive stable argsorts, which CuPy
    (whose ``lexsort`` takes no axis) can run too."""
    order = xp.argsort(keys[0], axis=axis, kind="stable")
    for key in keys[1:]:
        ranked = xp.take_along_axis(key, order, axis=axis)
        order = xp.take_along_axis(order, xp.argsort(ranked, axis=axis, kind="stable"), axis=axis)
    return order


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
