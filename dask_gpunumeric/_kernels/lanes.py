"""Whole lanes on a block: NumPy's (CuPy's) own sort, argsort, partition, lexsort,
median, quantile and percentile along one axis that the block holds whole."""

from __future__ import annotations

from typing import Any

import numpy

from .._backends import get_backend
from .._backends.base import ChunkBackend
from .._ir.lanes import QUANTILE_KINDS


def lane_kernel(
    backend: ChunkBackend,
    kind: str,
    axis: int,
    params: tuple[tuple[str, Any], ...],
    dtype: numpy.dtype,
    block: Any,
) -> Any:
    """``xp.<kind>`` on one block."""
    xp, kwargs = backend.xp, dict(params)
    if kind == "lexsort":
        result = _lexsort(xp, block, axis - 1)
    elif not hasattr(xp, kind) or (kind in QUANTILE_KINDS and xp is not numpy):
        # CuPy has no nanquantile/nanpercentile, and its quantile/percentile are not
        # NumPy's: a 1-d q only, five methods of thirteen, and a linear interpolation that
        # rounds differently (its weight is rounded to the data's dtype before 1 - w; the
        # H100 check found float32 quantiles 1 ulp off). NumPy runs the lane on this
        # worker's host: one copy of the block each way, and NumPy's numbers exactly.
        host = lane_kernel(get_backend("numpy"), kind, axis, params, dtype, backend.to_host(block))
        return backend.from_host(host)
    elif kind in QUANTILE_KINDS:
        result = _quantiles(xp, kind, block, axis, kwargs)
    else:
        result = getattr(xp, kind)(block, axis=axis, **backend.lane_keywords(kind, kwargs))
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
