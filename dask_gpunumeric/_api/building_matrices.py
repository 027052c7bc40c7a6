"""Building matrices and index arrays (NumPy reference: "Array creation routines: building
matrices" and "Indexing routines: generating index arrays"): ``tri``, ``vander``,
``diagflat``, ``fromfunction``, the ``diag/tril/triu/mask_indices`` families and
``fill_diagonal`` (a write through a strided view).

The ``tril``/``triu``/``mask`` index functions are nonzero of a lazily built mask: their
size is data-dependent in general, so the mask is computed (DESIGN §3).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy

from .._array.ndarray import ndarray
from .broadcasting import indices
from .creation import asarray, ones
from .diagonals import diag
from .joining import concatenate
from .numerical_ranges import arange
from .reductions import cumprod
from .selection import nonzero

__all__ = [
    "diag_indices",
    "diag_indices_from",
    "diagflat",
    "fill_diagonal",
    "fromfunction",
    "mask_indices",
    "tri",
    "tril_indices",
    "tril_indices_from",
    "triu_indices",
    "triu_indices_from",
    "vander",
]


def tri(
    N: int, M: int | None = None, k: int = 0, dtype: Any = float, *, like: Any = None
) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.tri`."""
    numpy.tri(0, 0, k, dtype)  # NumPy's errors for k and dtype
    width = N if M is None else M
    rows = arange(operator.index(N)).reshape(-1, 1)
    columns = arange(-k, operator.index(width) - k).reshape(1, -1)
    return (rows >= columns).astype(dtype)


def vander(x: Any, N: int | None = None, increasing: bool = False) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.vander` (a cumulative product, as
    NumPy's ``multiply.accumulate``)."""
    points = asarray(x)
    if points.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    columns = points.shape[0] if N is None else operator.index(N)
    dtype = numpy.promote_types(points.dtype, int)
    first = ones((points.shape[0], min(columns, 1)), dtype=dtype)
    repeated = (points.reshape(-1, 1) * ones((1, max(columns - 1, 0)), dtype=dtype)).astype(dtype)
    powers = concatenate([first, cumprod(repeated, axis=1)], axis=1)
    return powers if increasing else powers[:, ::-1]


def diagflat(v: Any, k: int = 0) -> ndarray:
    """dask_gpunumeric implementation of :func:`numpy.diagflat`."""
    return diag(asarray(v).ravel(), k)


def fromfunction(
    function: Any, shape: Any, *, dtype: Any = float, like: Any = None, **kwargs: Any
) -> Any:
    """dask_gpunumeric implementation of :func:`numpy.fromfunction` (``function`` gets our
    lazy index arrays)."""
    return function(*indices(shape, dtype=dtype), **kwargs)


def diag_indices(n: int, ndim: int = 2) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.diag_indices`."""
    index = arange(n)
    return (index,) * ndim


def diag_indices_from(arr: Any) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.diag_indices_from`."""
    array = asarray(arr)
    numpy.diag_indices_from(numpy.broadcast_to(numpy.zeros(()), array.shape))  # NumPy's errors
    return diag_indices(array.shape[0], array.ndim)


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.tril_indices`."""
    return nonzero(tri(n, m, k=k, dtype=bool))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.triu_indices`."""
    return nonzero(~tri(n, m, k=k - 1, dtype=bool))


def _matrix_shape(arr: Any) -> tuple[int, ...]:
    shape = asarray(arr).shape
    if len(shape) != 2:
        raise ValueError("input array must be 2-d")
    return shape


def tril_indices_from(arr: Any, k: int = 0) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.tril_indices_from`."""
    rows, columns = _matrix_shape(arr)
    return tril_indices(rows, k=k, m=columns)


def triu_indices_from(arr: Any, k: int = 0) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.triu_indices_from`."""
    rows, columns = _matrix_shape(arr)
    return triu_indices(rows, k=k, m=columns)


def mask_indices(n: int, mask_func: Any, k: int = 0) -> tuple[ndarray, ...]:
    """dask_gpunumeric implementation of :func:`numpy.mask_indices`."""
    mask = asarray(mask_func(ones((n, n), dtype=int), k))
    return nonzero(mask != 0)


def fill_diagonal(a: ndarray, val: Any, wrap: bool = False) -> None:
    """dask_gpunumeric implementation of :func:`numpy.fill_diagonal` (in place, through a
    strided view of the flattened array, as NumPy)."""
    if not isinstance(a, ndarray):
        raise TypeError("fill_diagonal writes in place: pass a dask_gpunumeric.ndarray")
    numpy.fill_diagonal(numpy.broadcast_to(numpy.zeros((), a.dtype), a.shape).copy(), 0)
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = None if wrap else a.shape[1] * a.shape[1]
    else:
        step = 1 + int(numpy.cumprod(a.shape[:-1]).sum())
        end = None
    flat = a.reshape(-1)
    values = asarray(val, dtype=a.dtype).ravel()
    count = len(range(*slice(None, end, step).indices(a.size)))
    if values.size not in (0, 1, count):
        values = concatenate([values] * (count // values.size + 1))[:count]
    flat[:end:step] = values if values.size != 1 else values.reshape(())
