"""Tiling, repeating, padding and rolling (NumPy reference: "Array manipulation":
tiling arrays, rearranging elements; "Padding arrays"). Each is one ``dask.array`` call
on the lowered input (``DaskCall``); NumPy, run on a stand-in at the call, gives the
errors and the result's dtype."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy
from numpy.lib.array_utils import normalize_axis_index

from .._array.ndarray import ndarray
from .._ir.dask_call import DaskCall
from .creation import asarray, copy

__all__ = ["pad", "repeat", "roll", "tile"]

# The modes dask.array.pad implements; a callable mode has no distributed equivalent.
PAD_MODES = (
    "constant",
    "edge",
    "linear_ramp",
    "maximum",
    "mean",
    "median",
    "minimum",
    "reflect",
    "symmetric",
    "wrap",
    "empty",
)


def _call(function: str, array: ndarray, arguments: tuple[Any, ...], shape: Any, **keywords: Any):
    node = DaskCall(
        function, (array._read(), *arguments), tuple(shape), array.dtype, tuple(keywords.items())
    )
    return ndarray._from_expr(node)


def tile(A: Any, reps: Any) -> ndarray:  # noqa: N803 - NumPy's name
    """dask_gpunumeric implementation of :func:`numpy.tile` (always a new array)."""
    array = asarray(A)
    reps = tuple(reps) if numpy.iterable(reps) else (reps,)
    reps = tuple(operator.index(r) for r in reps)
    if any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
    ndim = max(len(reps), array.ndim)
    shape = (1,) * (ndim - array.ndim) + array.shape
    reps = (1,) * (ndim - len(reps)) + reps
    tiled = tuple(n * r for n, r in zip(shape, reps, strict=True))
    if math.prod(tiled) == 0 or array.size == 0:
        return asarray(numpy.zeros(tiled, dtype=array.dtype))
    return _call("tile", array.reshape(shape), (reps,), tiled)


def repeat(a: Any, repeats: Any, axis: int | None = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.repeat`.

    One ``dask.array.repeat`` for a scalar count; per-element counts select with an
    integer index along ``axis`` (NumPy computes which elements, on the host).
    """
    array = asarray(a)
    if axis is None:
        array, axis = array.reshape(-1), 0
    axis = normalize_axis_index(axis, array.ndim)
    host_repeats = numpy.asarray(repeats)
    # NumPy's errors (negative counts, counts not matching the axis) and the positions.
    positions = numpy.repeat(numpy.arange(array.shape[axis]), host_repeats)
    shape = list(array.shape)
    shape[axis] = len(positions)
    if host_repeats.ndim == 0 and 0 not in shape:
        return _call("repeat", array, (int(host_repeats), axis), shape)
    return array[(slice(None),) * axis + (positions,)]


def pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.pad`.

    Differences from NumPy: a callable ``mode`` is not supported (use ``numpy.pad`` on
    ``a.compute()``); all of NumPy's named modes are, through ``dask.array.pad``.
    """
    source = asarray(array)
    if callable(mode) or mode not in PAD_MODES:
        if not callable(mode):
            numpy.pad(numpy.zeros(1), 1, mode=mode)  # NumPy's ValueError for a bad mode
        raise NotImplementedError(
            "dask_gpunumeric.pad does not support a callable mode; use numpy.pad on a.compute()"
        )
    # One element per non-empty axis is enough for NumPy to check the widths, the keywords
    # and empty axes, and to give the result's dtype.
    stand_in = numpy.zeros(tuple(min(n, 1) for n in source.shape), dtype=source.dtype)
    padded = numpy.pad(stand_in, pad_width, mode=mode, **kwargs)
    shape = tuple(
        p + n - s for p, n, s in zip(padded.shape, source.shape, stand_in.shape, strict=True)
    )
    if 0 in shape or source.size == 0:
        return asarray(
            numpy.pad(numpy.zeros(source.shape, source.dtype), pad_width, mode, **kwargs)
        )
    widths = numpy.broadcast_to(numpy.asarray(pad_width, dtype=numpy.intp), (source.ndim, 2))
    widths_tuple = tuple(tuple(int(w) for w in pair) for pair in widths)
    return _call("pad", source, (widths_tuple, mode), shape, **kwargs)


def roll(a: Any, shift: Any, axis: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.roll`."""
    array = asarray(a)
    numpy.roll(numpy.zeros((1,) * array.ndim, dtype=array.dtype), shift, axis)  # NumPy's errors
    if array.size == 0:
        return copy(array)
    if isinstance(shift, (list, tuple)) or isinstance(axis, list):
        shift = tuple(operator.index(s) for s in numpy.ravel(shift))
        axis = None if axis is None else tuple(numpy.ravel(axis).tolist())
    else:
        shift = operator.index(shift)
    return _call("roll", array, (shift, axis), array.shape)
