"""Tiling, repeating, padding and rolling (NumPy reference: "Array manipulation":
tiling arrays, rearranging elements; "Padding arrays"). Tiling, repeating and padding are
one ``dask.array`` call on the lowered input (``DaskCall``), rolling a ``Roll`` node;
NumPy, run on a stand-in at the call, gives the errors and the result's dtype."""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import numpy
from numpy.lib.array_utils import normalize_axis_index

from .._ir.dask_call import DaskCall
from .._ir.rolling import Roll
from .broadcasting import broadcast_to
from .creation import asarray, copy
from .math_misc import around
from .ndarray import ndarray
from .order_statistics import median
from .reductions import amax, amin, mean

__all__ = ["pad", "repeat", "roll", "tile"]

# Modes where each padded element is a copy of an input element along each axis: padded
# by gathering those elements (NumPy's own pad of an ``arange`` says which), exactly.
INDEX_MODES = ("edge", "reflect", "symmetric", "wrap")
# Modes computed by ``dask.array.pad``.
DASK_MODES = ("constant", "linear_ramp", "empty")
# Modes padding with a statistic of the edges (NumPy's ``_get_stats``), computed here: ours.
STATISTIC_MODES = ("maximum", "minimum", "mean", "median")


def _call(
    function: str, array: ndarray, arguments: tuple[Any, ...], shape: Any, **keywords: Any
) -> ndarray:
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
    # As given, not as an array: NumPy truncates Python (and NumPy scalar) floats but casts
    # arrays 'safe' (a TypeError for float or uint64 arrays).
    host_repeats = repeats.get() if isinstance(repeats, ndarray) else repeats
    # NumPy's errors (negative counts, counts not matching the axis) and the positions.
    positions = numpy.repeat(numpy.arange(array.shape[axis]), host_repeats)
    shape = list(array.shape)
    shape[axis] = len(positions)
    if numpy.ndim(host_repeats) == 0 and 0 not in shape:
        return _call("repeat", array, (int(host_repeats), axis), shape)
    return array[(slice(None),) * axis + (positions,)]


def pad(array: Any, pad_width: Any, mode: Any = "constant", **kwargs: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.pad`.

    ``edge``, ``reflect``, ``symmetric`` and ``wrap`` gather the padding from the array
    (exact, any width); ``constant``, ``linear_ramp`` and ``empty`` go through
    ``dask.array.pad``.

    ``maximum``, ``minimum``, ``mean`` and ``median`` pad axis by axis with our statistic
    of each edge's ``stat_length`` elements (NumPy's algorithm: the corners are statistics
    of the padding before them).

    Differences from NumPy: ``reflect_type='odd'`` and a callable ``mode`` are not
    supported (use ``numpy.pad`` on ``a.compute()``); ``linear_ramp`` equals NumPy's up to
    floating-point rounding.
    """
    source = asarray(array)
    # One element per non-empty axis is enough for NumPy to check the mode, widths,
    # keywords and empty axes.
    stand_in = numpy.zeros(tuple(min(n, 1) for n in source.shape), dtype=source.dtype)
    if not callable(mode):
        numpy.pad(stand_in, pad_width, mode=mode, **kwargs)
    if (
        callable(mode)
        or mode not in (*INDEX_MODES, *DASK_MODES, *STATISTIC_MODES)
        or kwargs.get("reflect_type") == "odd"
    ):
        raise NotImplementedError(
            f"dask_gpunumeric.pad does not support mode={mode!r} with {kwargs}; use "
            "numpy.pad on a.compute()"
        )
    widths = numpy.broadcast_to(numpy.asarray(pad_width), (source.ndim, 2)).astype(int).tolist()
    if mode in INDEX_MODES:
        return _pad_by_gathering(source, widths, mode)
    shape = tuple(
        n + before + after for n, (before, after) in zip(source.shape, widths, strict=True)
    )
    if source.size == 0 or 0 in shape:
        return asarray(
            numpy.pad(numpy.zeros(source.shape, source.dtype), pad_width, mode, **kwargs)
        )
    if mode in STATISTIC_MODES:
        return _pad_by_statistic(source, widths, mode, kwargs.get("stat_length"))
    if "constant_values" in kwargs:  # NumPy converts them to an array first (then wraps)
        kwargs["constant_values"] = _host_values(kwargs["constant_values"], source.dtype)
    pairs = tuple(tuple(pair) for pair in widths)
    return _call("pad", source, (pairs, mode), shape, **kwargs)


def _host_values(values: Any, dtype: numpy.dtype) -> Any:
    host = numpy.asarray(values)
    return host.astype(dtype).tolist() if host.dtype.kind in "iub" else values


def _pad_by_gathering(array: ndarray, widths: list[list[int]], mode: str) -> ndarray:
    from .joining import concatenate

    result = array
    for axis, (before, after) in enumerate(widths):
        if not before and not after:
            continue
        length = result.shape[axis]
        positions = numpy.pad(numpy.arange(length), (before, after), mode=mode)  # type: ignore[call-overload]
        index = (slice(None),) * axis
        parts = [result[(*index, positions[:before])], result]
        parts.append(result[(*index, positions[before + length :])])
        result = concatenate(parts, axis=axis)
    return result if result is not array else array[...]


def _pad_by_statistic(
    array: ndarray, widths: list[list[int]], mode: str, stat_length: Any
) -> ndarray:
    """NumPy's statistic padding: along each axis in turn, the statistic (``mode``) of the
    first and the last ``stat_length`` original elements, over the axes padded before it;
    rounded for integer arrays (NumPy's ``_round_if_needed``), then cast to the array's
    dtype."""
    from .joining import concatenate

    lengths: list[list[Any]] = (
        [[None, None]] * array.ndim
        if stat_length is None
        else numpy.broadcast_to(numpy.round(stat_length).astype(numpy.intp), (array.ndim, 2))
        .astype(object)
        .tolist()
    )
    result = array
    for axis, ((before, after), (left, right)) in enumerate(zip(widths, lengths, strict=True)):
        if not before and not after:
            continue
        n = result.shape[axis]
        left = n if left is None or left > n else left
        right = n if right is None or right > n else right
        index = (slice(None),) * axis
        shape = list(result.shape)
        parts = []
        for width, edge in ((before, slice(0, left)), (after, slice(n - right, n))):
            shape[axis] = width
            statistic = _edge_statistic(result[(*index, edge)], mode, axis)
            parts.append(broadcast_to(statistic, tuple(shape)))
        result = concatenate([parts[0], result, parts[1]], axis=axis)
    return result if result is not array else array[...]


def _edge_statistic(edge: ndarray, mode: str, axis: int) -> ndarray:
    statistics: dict[str, Callable[..., Any]] = {
        "maximum": amax,
        "minimum": amin,
        "mean": mean,
        "median": median,
    }
    statistic = statistics[mode](edge, axis=axis, keepdims=True)
    if mode in ("mean", "median") and numpy.issubdtype(edge.dtype, numpy.integer):
        statistic = around(statistic)
    return statistic.astype(edge.dtype)


def roll(a: Any, shift: Any, axis: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.roll`.

    Rolled along given axes, the result has the input's chunks (``_lowering/rolling.py``),
    so ``u + np.roll(u, 1, 0)`` needs no relayout; ``axis=None`` rolls the flattened array
    and reshapes it back, as NumPy does.
    """
    array = asarray(a)
    numpy.roll(numpy.zeros((1,) * array.ndim, dtype=array.dtype), shift, axis)  # NumPy's errors
    if array.size == 0:
        return copy(array)
    if axis is None:  # NumPy rolls the flat array by every shift
        return roll(array.reshape(-1), shift, 0).reshape(array.shape)
    totals: dict[int, int] = {}  # a repeated axis rolls by the sum of its shifts
    for s, k in numpy.broadcast(shift, axis):
        k = normalize_axis_index(k, array.ndim)
        # NumPy's int() of each shift: 1.5 rolls by 1, and 1j by 0 (the probe warned)
        totals[k] = totals.get(k, 0) + int(s.real)
    node = Roll(array._read(), tuple(totals.values()), tuple(totals))
    return ndarray._from_expr(node) if node.axes else copy(array)
