"""Power-series polynomials (NumPy reference: "Polynomials", the legacy ``poly*``
functions on coefficient arrays, highest power first): ``polyval`` is a lazy Horner
loop, ``polymul`` a ``convolve``, the others pad, scale and join coefficient arrays.

Differences from NumPy: ``numpy.poly1d`` arguments are not recognised (pass
``p.coeffs``); results are always our arrays.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy

from .convolution import convolve
from .creation import asarray, ones, zeros
from .joining import concatenate
from .manipulation import atleast_1d
from .ndarray import ndarray
from .numerical_ranges import arange

__all__ = ["polyadd", "polyder", "polyint", "polymul", "polysub", "polyval"]


def polyval(p: Any, x: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.polyval` (Horner's scheme, one
    elementwise step per coefficient)."""
    coefficients, points = asarray(p), asarray(x)
    dtype = numpy.result_type(numpy.empty(0, points.dtype), numpy.empty(0, coefficients.dtype))
    result: Any = zeros(points.shape, dtype=dtype)
    for i in range(coefficients.shape[0]):
        result = result * points + coefficients[i]
    return result


def _aligned(a1: Any, a2: Any) -> tuple[ndarray, ndarray]:
    """Both coefficient arrays, the shorter padded with leading zeros."""
    first, second = atleast_1d(asarray(a1)), atleast_1d(asarray(a2))
    difference = second.shape[0] - first.shape[0]
    if difference > 0:
        first = concatenate([zeros(difference, dtype=first.dtype), first])
    elif difference < 0:
        second = concatenate([zeros(-difference, dtype=second.dtype), second])
    return first, second


def polyadd(a1: Any, a2: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.polyadd`."""
    first, second = _aligned(a1, a2)
    return first + second


def polysub(a1: Any, a2: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.polysub`."""
    first, second = _aligned(a1, a2)
    return first - second


def polymul(a1: Any, a2: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.polymul` (a ``convolve``)."""
    return convolve(asarray(a1), asarray(a2))


def polyder(p: Any, m: int = 1) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.polyder`."""
    m = operator.index(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    coefficients = asarray(p)
    for _ in range(m):
        n = coefficients.shape[0] - 1
        coefficients = coefficients[:-1] * arange(n, 0, -1)
    return coefficients


def polyint(p: Any, m: int = 1, k: Any = None) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.polyint`."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    constants = zeros(m, dtype=float) if k is None else atleast_1d(asarray(k))
    if constants.shape[0] == 1 and m > 1:
        constants = constants[0] * ones(m, dtype=float)
    if constants.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    coefficients = asarray(p)
    for i in range(m):
        scaled = coefficients / arange(coefficients.shape[0], 0, -1)
        coefficients = concatenate([scaled, constants[i : i + 1]])
    return coefficients
