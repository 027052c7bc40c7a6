"""1-d signal routines: ``convolve``, ``correlate`` (NumPy reference: "Mathematical
functions", "Statistics") and ``interp``.

``convolve``/``correlate`` are sums of shifted views of one zero-padded array times the
shorter operand's elements: one fused elementwise tree, lowered by output blocks with
no rechunking, whose size grows with the shorter operand (meant for short kernels).
``interp`` sends the (small) table to every block of ``x``.
"""

from __future__ import annotations

from typing import Any

import numpy

from .._ir.dask_call import DaskCall
from .._ir.dtypes import stand_in_with_ndim
from .creation import asarray, zeros
from .elementwise import astype
from .ndarray import ndarray
from .ufuncs import ufuncs

__all__ = ["convolve", "correlate", "interp"]

_NOTE = """
    Differences from NumPy: sums in a different order than NumPy's dot products, so
    floating-point results may differ in the last bits; the expression grows with the
    shorter operand's length (one term per element).
"""


def _shifted_sum(long: ndarray, weights: ndarray, start: int, length: int) -> ndarray:
    """``out[j] = sum_i padded[start + j + i] * weights[i]`` for ``j < length``, where
    ``padded`` is ``long`` with ``len(weights) - 1`` zeros on both sides."""
    taps = weights.shape[0]
    dtype = numpy.result_type(long.dtype, weights.dtype)
    padded = zeros(long.shape[0] + 2 * (taps - 1), dtype=dtype)
    padded[taps - 1 : taps - 1 + long.shape[0]] = long
    total = None
    for i in range(taps):
        term = ufuncs["multiply"](padded[start + i : start + i + length], weights[i])
        total = term if total is None else ufuncs["add"](total, term)
    assert total is not None
    return total


def _conjugate(array: ndarray) -> ndarray:
    return ufuncs["conjugate"](array) if array.dtype.kind == "c" else array


def _mode_window(mode: str, n: int, m: int, longer_first: bool) -> tuple[int, int]:
    """(start, length) of ``mode`` in the full result, as NumPy lays it out."""
    shorter, longer = min(n, m), max(n, m)
    if mode == "full":
        return 0, n + m - 1
    if mode == "valid":
        return shorter - 1, longer - shorter + 1
    return ((shorter - 1) // 2 if longer_first else shorter // 2), longer


def _operands(a: Any, v: Any, mode: str, function: Any) -> tuple[ndarray, ndarray, numpy.dtype]:
    left, right = asarray(a), asarray(v)
    probe = function(stand_in_with_ndim(left._read()), stand_in_with_ndim(right._read()), mode)
    return left, right, probe.dtype


def correlate(a: Any, v: Any, mode: str = "valid") -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.correlate`."""
    left, right, dtype = _operands(a, v, mode, numpy.correlate)
    n, m = left.shape[0], right.shape[0]
    start, length = _mode_window(mode, n, m, n >= m)
    if n >= m:
        result = _shifted_sum(left, _conjugate(right), start, length)
    else:  # correlate(a, v)[k] = conj(correlate(v, a)[-k]): fewer terms
        total = n + m - 1
        mirrored = _shifted_sum(right, _conjugate(left), total - start - length, length)
        result = _conjugate(mirrored[::-1])
    return astype(result, dtype, copy=False)


def convolve(a: Any, v: Any, mode: str = "full") -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.convolve`."""
    left, right, dtype = _operands(a, v, mode, numpy.convolve)
    if right.shape[0] > left.shape[0]:
        left, right = right, left
    start, length = _mode_window(mode, left.shape[0], right.shape[0], True)
    result = _shifted_sum(left, right[::-1], start, length)
    return astype(result, dtype, copy=False)


correlate.__doc__ = (correlate.__doc__ or "") + _NOTE
convolve.__doc__ = (convolve.__doc__ or "") + _NOTE


def _scalar(value: Any) -> Any:
    """``left``/``right``/``period`` as plain Python values (never host arrays)."""
    return value if value is None else numpy.asarray(value).item()


def interp(
    x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None, period: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.interp`.

    Differences from NumPy: ``xp`` and ``fp`` are sent whole to every block of ``x``
    (they are expected to be small).
    """
    points, table_x, table_f = asarray(x), asarray(xp), asarray(fp)
    left, right, period = _scalar(left), _scalar(right), _scalar(period)
    probe = numpy.interp(
        numpy.ones(1, points.dtype),
        numpy.broadcast_to(numpy.arange(1, dtype=table_x.dtype), table_x.shape),
        numpy.broadcast_to(numpy.zeros((), dtype=table_f.dtype), table_f.shape),
        left,
        right,
        period,
    )  # NumPy's dtype and errors (lengths, dimensions, complex x, period 0)
    index = tuple(range(points.ndim))
    table = (points.ndim,)
    arguments: tuple[Any, ...] = (numpy.interp, index, points._read(), index)
    arguments += (table_x._read(), table, table_f._read(), table)
    keywords = (
        ("dtype", probe.dtype),
        ("concatenate", True),
        ("left", left),
        ("right", right),
        ("period", period),
    )
    return ndarray._from_expr(DaskCall("blockwise", arguments, points.shape, probe.dtype, keywords))
