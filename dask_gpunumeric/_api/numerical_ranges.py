"""Numerical ranges (NumPy reference: "Array creation routines", numerical ranges):
``arange``, ``linspace``, ``logspace`` and ``geomspace``, computed per chunk with NumPy's own arithmetic."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy

from .._array.coercion import check_dtype
from .._ir.leaves import Arange, Linspace
from .array_api import check_device
from .creation import _chunks, array
from .ndarray import ndarray

__all__ = ["arange", "geomspace", "linspace", "logspace"]


def arange(
    start: Any = None,
    stop: Any = None,
    step: Any = None,
    dtype: Any = None,
    *,
    device: Any = None,
    like: Any = None,
    chunks: Any = None,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.arange` (extra: ``chunks=``).

    Differences from NumPy: complex and boolean ranges are computed on the host first.
    """
    check_device(device)
    if start is None and stop is None:
        return array(numpy.arange(dtype=dtype), chunks=chunks)  # type: ignore[call-overload]  # NumPy's TypeError
    if stop is None:
        start, stop = 0, start
    start = 0 if start is None else start  # arange(stop=5)
    step = 1 if step is None else step
    kind = numpy.dtype(dtype) if dtype is not None else _arange_dtype(start, stop, step)
    check_dtype(kind)  # object ranges (NumPy's Python-number elements) are refused
    if kind.kind in "bc" or any(isinstance(x, complex) for x in (start, stop, step)):
        return array(numpy.arange(start, stop, step, dtype=kind), chunks=chunks)
    length = max(0, math.ceil((stop - start) / step))  # how NumPy computes the length
    if length <= 2:  # tiny: let NumPy itself speak (values, dtype, errors)
        return array(numpy.arange(start, stop, step, dtype=kind), chunks=chunks)
    first, second = _arange_head(start, step, kind)
    if kind == numpy.float16:  # NumPy's half fill computes in float32
        delta = (numpy.float32(second) - numpy.float32(first)).item()
    elif kind.kind in "iu":
        delta = int(second) - int(first)
    else:
        delta = (second - first).item()
    return ndarray._from_expr(
        Arange(length, kind, first.item(), delta, second.item(), _chunks((length,), chunks))
    )


def _arange_dtype(start: Any, stop: Any, step: Any) -> numpy.dtype:
    """NumPy's own inference (it is not ``result_type``: NumPy scalars count as Python
    ones): empty ranges are free to ask for, and dtypes promote pairwise."""
    return numpy.promote_types(
        numpy.arange(start, start, step).dtype, numpy.arange(stop, stop, step).dtype
    )


def _arange_head(start: Any, step: Any, kind: numpy.dtype) -> tuple[Any, Any]:
    """The two elements NumPy stores before filling: ``start`` and ``start + step`` (added
    as the Python objects they are), each converted to ``kind``, with NumPy's errors."""
    head = numpy.empty((2,), dtype=kind)
    head[0] = start
    head[1] = start + step
    return head[0], head[1]


def linspace(
    start: Any,
    stop: Any,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: Any = None,
    axis: int = 0,
    *,
    device: Any = None,
    chunks: Any = None,
) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.linspace`.

    Differences from NumPy: ``start`` and ``stop`` given as our arrays are computed at the
    call (they are parameters, one row of the result).
    """
    check_device(device)
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    start, stop = (x.compute() if isinstance(x, ndarray) else x for x in (start, stop))
    probe = numpy.linspace(
        start, stop, num=min(num, 2), endpoint=endpoint, dtype=dtype, axis=axis
    )  # NumPy's dtype and errors (a bad axis included)
    check_dtype(probe.dtype)
    # NumPy computes in the inexact type of start and stop (float32 ones stay float32).
    computing = numpy.linspace(start, stop, num=min(num, 2), endpoint=endpoint).dtype
    shape = (num,) + numpy.broadcast_shapes(numpy.shape(start), numpy.shape(stop))
    node = Linspace(
        shape,
        probe.dtype,
        computing,
        numpy.asarray(start).tolist(),
        numpy.asarray(stop).tolist(),
        endpoint,
        _chunks(shape, chunks),
    )
    result = ndarray._from_expr(node)
    if axis != 0:
        # NumPy itself builds along axis 0 and returns a moveaxis view; so do we.
        order = list(range(1, len(shape)))
        order.insert(numpy.lib.array_utils.normalize_axis_index(axis, len(shape)), 0)
        result = result.transpose(order)
    if retstep:
        divisor = (num - 1) if endpoint else num
        step = (numpy.asarray(stop) - numpy.asarray(start)) / divisor if divisor > 0 else numpy.nan
        return result, step
    return result


def logspace(
    start: Any,
    stop: Any,
    num: int = 50,
    endpoint: bool = True,
    base: Any = 10.0,
    dtype: Any = None,
    axis: int = 0,
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.logspace` (``base ** linspace``)."""
    if not isinstance(base, (float, int)) and numpy.ndim(base):
        # NumPy's: an array base broadcasts with start and stop, then gets the new axis
        start, stop = (x.compute() if isinstance(x, ndarray) else x for x in (start, stop))
        ndmax = len(numpy.broadcast_shapes(*map(numpy.shape, (start, stop, base))))
        start, stop = (numpy.array(x, ndmin=ndmax) for x in (start, stop))
        base = array(base, ndmin=ndmax)
        new_axis = numpy.lib.array_utils.normalize_axis_index(axis, ndmax + 1)
        base = base.reshape(base.shape[:new_axis] + (1,) + base.shape[new_axis:])
    exponents = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    powers = array(base) ** exponents if isinstance(base, ndarray) else base**exponents
    return powers if dtype is None else powers.astype(dtype)


def geomspace(
    start: Any, stop: Any, num: int = 50, endpoint: bool = True, dtype: Any = None, axis: int = 0
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.geomspace` (NumPy's algorithm: the
    signs and logarithms of the scalar end points on the host, ``logspace`` lazily, the
    exact end points written in).

    Differences from NumPy
    ----------------------
    ``start`` and ``stop`` are scalars (or NumPy arrays), not our arrays.
    """
    first = numpy.asanyarray(start) * 1.0
    last = numpy.asanyarray(stop) * 1.0
    result_dtype = numpy.result_type(first, last, float(num), numpy.zeros((), dtype))
    if (first == 0).any() or (last == 0).any():
        raise ValueError("Geometric sequence cannot include zero; start and stop must be nonzero")
    first, last = first.astype(result_dtype), last.astype(result_dtype)
    sign = numpy.sign(first)
    first, last = first / sign, last / sign
    result = sign * logspace(
        numpy.log10(first), numpy.log10(last), num, endpoint, base=10.0, dtype=result_dtype
    )
    if num > 0:
        result[0] = sign * first
    if num > 1 and endpoint:
        result[-1] = sign * last
    result = result.astype(result_dtype)
    if axis != 0:
        from .manipulation import moveaxis

        result = moveaxis(result, 0, axis)
    return result if dtype is None else result.astype(dtype)
