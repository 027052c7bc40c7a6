"""Statistics (NumPy reference section): ``average``, ``ptp`` and the NaN-ignoring
reductions and scans. Order statistics are in ``order_statistics``, histograms in
``histograms``.

The NaN-ignoring reductions are the reduction nodes of ``reductions`` with NumPy's
``nan*`` kinds: they lower to dask.array's tree reductions of the same name.
"""

from __future__ import annotations

from typing import Any

import numpy

from .._ir.reductions import normalize_axis
from . import reductions
from .creation import asarray, full
from .ndarray import ndarray
from .reductions import _cumulative, _given, _masked, _NoValue, _reduce, _unsupported
from .ufuncs import ufuncs

__all__ = [
    "average",
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmin",
    "nanprod",
    "nanstd",
    "nansum",
    "nanvar",
    "ptp",
]


def nansum(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: Any = _NoValue,
    initial: Any = _NoValue,
    where: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nansum`."""
    if _given(initial, where):
        return _masked("nansum", a, axis, out, keepdims, initial=initial, where=where, dtype=dtype)
    return _reduce("nansum", a, axis, out, keepdims, dtype=dtype)


def nanprod(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: Any = _NoValue,
    initial: Any = _NoValue,
    where: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanprod`."""
    if _given(initial, where):
        return _masked("nanprod", a, axis, out, keepdims, initial=initial, where=where, dtype=dtype)
    return _reduce("nanprod", a, axis, out, keepdims, dtype=dtype)


def nanmean(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    keepdims: Any = _NoValue,
    *,
    where: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanmean`."""
    if _given(where=where):
        return _masked("nanmean", a, axis, out, keepdims, where=where, dtype=dtype)
    return _reduce("nanmean", a, axis, out, keepdims, dtype=dtype)


def _nan_moment(
    kind: str, a: Any, axis: Any, dtype: Any, out: Any, ddof: Any, keepdims: Any, **more: Any
) -> ndarray:
    _unsupported(kind, mean=more["mean"])
    ddof = ddof if more["correction"] is _NoValue else more["correction"]
    if _given(where=more["where"]):
        return _masked(kind, a, axis, out, keepdims, where=more["where"], dtype=dtype, ddof=ddof)
    return _reduce(kind, a, axis, out, keepdims, dtype=dtype, ddof=ddof)


def nanvar(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: Any = _NoValue,
    *,
    where: Any = _NoValue,
    mean: Any = _NoValue,
    correction: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanvar` (no ``mean``)."""
    return _nan_moment(
        "nanvar", a, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction
    )


def nanstd(
    a: Any,
    axis: Any = None,
    dtype: Any = None,
    out: Any = None,
    ddof: Any = 0,
    keepdims: Any = _NoValue,
    *,
    where: Any = _NoValue,
    mean: Any = _NoValue,
    correction: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanstd` (no ``mean``)."""
    return _nan_moment(
        "nanstd", a, axis, dtype, out, ddof, keepdims, where=where, mean=mean, correction=correction
    )


def nanmax(
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: Any = _NoValue,
    initial: Any = _NoValue,
    where: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanmax`."""
    if _given(initial, where):
        return _masked("nanmax", a, axis, out, keepdims, initial=initial, where=where)
    return _reduce("nanmax", a, axis, out, keepdims)


def nanmin(
    a: Any,
    axis: Any = None,
    out: Any = None,
    keepdims: Any = _NoValue,
    initial: Any = _NoValue,
    where: Any = _NoValue,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanmin`."""
    if _given(initial, where):
        return _masked("nanmin", a, axis, out, keepdims, initial=initial, where=where)
    return _reduce("nanmin", a, axis, out, keepdims)


def nanargmax(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = _NoValue) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanargmax`.

    Differences from NumPy: an all-NaN lane is found when the result is computed, not at
    the call (NumPy's ``ValueError`` then comes from the computation).
    """
    return _reduce("nanargmax", a, axis, out, keepdims)


def nanargmin(a: Any, axis: Any = None, out: Any = None, *, keepdims: Any = _NoValue) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nanargmin` (see :func:`nanargmax`)."""
    return _reduce("nanargmin", a, axis, out, keepdims)


def nancumsum(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nancumsum`."""
    return _cumulative("nancumsum", a, axis, dtype, out)


def nancumprod(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.nancumprod`."""
    return _cumulative("nancumprod", a, axis, dtype, out)


def ptp(a: Any, axis: Any = None, out: Any = None, keepdims: Any = _NoValue) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.ptp` (``max - min`` in the array's
    dtype, wrapping around for integers as NumPy's does)."""
    array = asarray(a)
    high = reductions.max(array, axis=axis, keepdims=keepdims)
    low = reductions.min(array, axis=axis, keepdims=keepdims)
    return ufuncs["subtract"](high, low, out=out)


def _aligned_weights(array: ndarray, weights: Any, axis: Any) -> ndarray:
    """``weights`` broadcastable against ``array`` (NumPy's checks and messages)."""
    weights = asarray(weights)
    if weights.shape == array.shape:
        return weights
    if axis is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    axes = normalize_axis(axis, array.ndim) or ()
    given = axis if isinstance(axis, tuple) else (axis,)
    given = tuple(numpy.lib.array_utils.normalize_axis_index(i, array.ndim) for i in given)
    if weights.shape != tuple(array.shape[i] for i in given):
        raise ValueError(
            "Shape of weights must be consistent with shape of a along specified axis."
        )
    ordered = weights.transpose(*numpy.argsort(given).tolist())  # weights' axes in a's order
    shape = tuple(n if i in axes else 1 for i, n in enumerate(array.shape))
    return ordered.reshape(shape)


def average(
    a: Any,
    axis: Any = None,
    weights: Any = None,
    returned: bool = False,
    *,
    keepdims: Any = _NoValue,
) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.average`.

    Differences from NumPy: weights summing to zero give ``inf``/``nan`` instead of
    NumPy's ``ZeroDivisionError``, which would need the weights computed at the call.
    """
    array = asarray(a)
    if axis is not None:
        normalize_axis(axis, array.ndim)  # NumPy's AxisError / duplicate check
    kept = {} if keepdims is _NoValue else {"keepdims": keepdims}
    if weights is None:
        result = reductions.mean(array, axis, **kept)
        scale = full(result.shape, array.size // max(result.size, 1), dtype=result.dtype)
    else:
        wgt = _aligned_weights(array, weights, axis)
        if array.dtype.kind in "biu":
            dtype = numpy.result_type(array.dtype, wgt.dtype, "f8")
        else:
            dtype = numpy.result_type(array.dtype, wgt.dtype)
        scale = reductions.sum(wgt, axis=axis, dtype=dtype, **kept)
        weighted = ufuncs["multiply"](array, wgt, dtype=dtype)
        result = ufuncs["divide"](reductions.sum(weighted, axis, **kept), scale)
        if returned and scale.shape != result.shape:
            scale = ufuncs["add"](full(result.shape, 0, dtype=scale.dtype), scale)
    return (result, scale) if returned else result
