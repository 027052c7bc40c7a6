"""Window functions (NumPy reference section): ``bartlett``, ``blackman``, ``hamming``,
``hanning`` and ``kaiser``, NumPy's formulas evaluated lazily on an ``arange``."""

from __future__ import annotations

from typing import Any

import numpy

from .creation import ones
from .elementwise import where
from .math_misc import i0
from .ndarray import ndarray
from .numerical_ranges import arange
from .ufuncs import ufuncs

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _symmetric_points(M: Any) -> tuple[float, ndarray | None]:
    """NumPy's ``M`` as float64 and the points ``arange(1-M, M, 2)``; no points when the
    window is empty or a single one."""
    length = float(numpy.array([0.0, M])[1])
    if length < 2:
        return length, None
    return length, arange(1 - length, length, 2)


def _short(length: float) -> ndarray:
    return ones(max(int(length), 0), dtype=numpy.float64) if length >= 1 else ones(0)


def _cosine_window(M: Any, terms: tuple[float, ...]) -> ndarray:
    length, n = _symmetric_points(M)
    if n is None:
        return _short(length)
    result: Any = terms[0]
    for order, weight in enumerate(terms[1:], start=1):
        result = result + weight * ufuncs["cos"](order * numpy.pi * n / (length - 1))
    return result


def hamming(M: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.hamming`."""
    return _cosine_window(M, (0.54, 0.46))


def hanning(M: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.hanning`."""
    return _cosine_window(M, (0.5, 0.5))


def blackman(M: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.blackman`."""
    return _cosine_window(M, (0.42, 0.5, 0.08))


def bartlett(M: Any) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.bartlett`."""
    length, n = _symmetric_points(M)
    if n is None:
        return _short(length)
    return where(n <= 0, 1 + n / (length - 1), 1 - n / (length - 1))


def kaiser(M: Any, beta: float) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.kaiser`."""
    length = float(numpy.array([0.0, M])[1])
    if length == 1:
        return ones(1, dtype=numpy.float64)
    n = arange(0, length)
    alpha = (length - 1) / 2.0
    return i0(beta * ufuncs["sqrt"](1 - ((n - alpha) / alpha) ** 2.0)) / i0(float(beta))
