"""Order statistics (NumPy reference: "Statistics", order statistics and averages):
``median``, ``percentile``, ``quantile`` and their NaN-ignoring twins.

They are exact, not approximate (dask.array's ``percentile`` is): each lane of the
reduced axes is gathered into one chunk (``_ir/lanes.py``) and NumPy's (CuPy's on GPUs)
own function runs on it, so every ``method`` gives NumPy's numbers and dtypes.
"""

from __future__ import annotations

import math
from typing import Any

import numpy

from .._ir.dtypes import stand_in_with_ndim
from .._ir.lanes import Lanes
from .._ir.reductions import normalize_axis
from .creation import asarray
from .ndarray import ndarray

__all__ = [
    "median",
    "nanmedian",
    "nanpercentile",
    "nanquantile",
    "percentile",
    "quantile",
]

_NOTE = """
    Differences from NumPy: exact, by gathering each lane of the reduced axes into one
    chunk (the array is rechunked along those axes only); with ``axis=None`` the whole
    array is gathered into one chunk, so it must fit one worker's memory. An array ``q``
    of ours is computed first (it is small). No ``weights=``/``overwrite_input=`` effect.
"""


def _q_argument(q: Any) -> tuple[Any, Any]:
    """``q`` for NumPy's probe (host) and for the workers (plain data): a Python scalar
    stays one (NumPy treats it as weak), anything else becomes ``(values, dtype)``."""
    if q is None:  # median: no quantiles
        return None, None
    if isinstance(q, (int, float)) and not isinstance(q, bool):
        return q, q
    host = numpy.asarray(q.compute() if isinstance(q, ndarray) else q)
    return host, (host.tolist(), host.dtype.str)


def _gathered_lanes(array: ndarray, axis: Any) -> tuple[ndarray, int]:
    """``array`` with the reduced axes merged into its last one (kept axes in order)."""
    reduced = normalize_axis(axis, array.ndim)
    if reduced is None:
        return array.ravel(), 0
    if len(reduced) == 1:
        return array, reduced[0]
    kept = [i for i in range(array.ndim) if i not in reduced]
    moved = array.transpose(*kept, *reduced)
    merged = math.prod(array.shape[i] for i in reduced)
    return moved.reshape(*(array.shape[i] for i in kept), merged), len(kept)


def _order_statistic(
    function: str, a: Any, q: Any, axis: Any, out: Any, keepdims: bool, **params: Any
) -> ndarray:
    array = asarray(a)
    weights = params.pop("weights", None)
    if weights is not None:
        raise NotImplementedError(f"dask_gpunumeric.{function} does not support weights=")
    stand_in = stand_in_with_ndim(array._read())
    host_q, worker_q = _q_argument(q)
    q_args = () if q is None else (host_q,)
    probe = numpy.asarray(
        getattr(numpy, function)(stand_in, *q_args, axis=axis, keepdims=keepdims, **params)
    )
    if array.size == 0:  # the (zero-memory) stand-in had the real shape: NumPy's answer
        return _to_out(asarray(probe), out)
    lanes, lane_axis = _gathered_lanes(array, axis)
    if q is None:
        params, count = {**params, "keepdims": True}, 1
    else:
        params, count = {**params, "q": worker_q}, int(numpy.size(host_q))
    node = Lanes(function, lanes._read(), lane_axis, count, probe.dtype, tuple(params.items()))
    result = ndarray._from_expr(node).transpose(
        lane_axis, *(i for i in range(lanes.ndim) if i != lane_axis)
    )
    return _to_out(result.reshape(numpy.shape(host_q) + _kept_shape(array, axis, keepdims)), out)


def _kept_shape(array: ndarray, axis: Any, keepdims: bool) -> tuple[int, ...]:
    reduced = normalize_axis(axis, array.ndim)
    reduced = tuple(range(array.ndim)) if reduced is None else reduced
    return tuple(
        1 if i in reduced else n for i, n in enumerate(array.shape) if keepdims or i not in reduced
    )


def _to_out(result: ndarray, out: Any) -> ndarray:
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError(
            f"output parameter has the wrong shape {out.shape}, expected {result.shape}"
        )
    out[...] = result
    return out


def median(
    a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.median`."""
    return _order_statistic("median", a, None, axis, out, keepdims)


def nanmedian(
    a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanmedian`."""
    return _order_statistic("nanmedian", a, None, axis, out, keepdims)


def quantile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.quantile`."""
    return _order_statistic("quantile", a, q, axis, out, keepdims, method=method, weights=weights)


def nanquantile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanquantile`."""
    return _order_statistic(
        "nanquantile", a, q, axis, out, keepdims, method=method, weights=weights
    )


def percentile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.percentile`."""
    return _order_statistic("percentile", a, q, axis, out, keepdims, method=method, weights=weights)


def nanpercentile(
    a: Any,
    q: Any,
    axis: Any = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanpercentile`."""
    return _order_statistic(
        "nanpercentile", a, q, axis, out, keepdims, method=method, weights=weights
    )


for _function in (median, nanmedian, quantile, nanquantile, percentile, nanpercentile):
    _function.__doc__ = (_function.__doc__ or "") + _NOTE
